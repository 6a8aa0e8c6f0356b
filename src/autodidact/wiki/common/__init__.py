"""What the wiki's compiler and its auditor must agree on, so each reads what the other writes.

The markdown forms (citations, links, markers, sentences, tokens), the article model, a question's
key terms and the subject a question or topic names. Imports neither :mod:`autodidact.wiki.compile`
nor :mod:`autodidact.wiki.audit` (docs/wiki.md "Code layout").
"""
