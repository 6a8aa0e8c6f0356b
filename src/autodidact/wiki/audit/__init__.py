"""Auditing the wiki: the check report that drives the loop, and the parser that reads it back.

The entry points are :mod:`autodidact.wiki.audit.check` and :mod:`autodidact.wiki.audit.report_parser`;
the rules are in docs/audit.md. This package never imports :mod:`autodidact.wiki.compile`
(docs/wiki.md "Code layout").
"""
