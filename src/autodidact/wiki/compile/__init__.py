"""Compiling the wiki: a round's evidence, or raw files, into articles, answer blocks, links and INDEX.md.

The entry points are in :mod:`autodidact.wiki.compile.compiler`; the rules are in docs/wiki.md.
This package never imports :mod:`autodidact.wiki.audit` (docs/wiki.md "Code layout").
"""
