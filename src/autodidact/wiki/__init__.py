"""The wiki: compile it and audit it (docs/contracts.md §1.4-1.5), in three sub-packages.

* :mod:`autodidact.wiki.compile` writes the wiki: a round's evidence or raw files become articles,
  answer blocks, links and ``INDEX.md``;
* :mod:`autodidact.wiki.audit` reads it back: the check report (phase 1 per question, phase 2
  findings over the whole wiki) and the parser the loop reads that report with;
* :mod:`autodidact.wiki.common` holds what both must agree on: the markdown forms, the article
  model, a question's key terms and subject.

``compile`` and ``audit`` never import each other; both import ``common``, which imports neither
(an import-linter contract, docs/wiki.md "Code layout").

Entry points: :func:`autodidact.wiki.compile.compiler.compile_wiki` (and ``compile_wiki_async``),
:func:`autodidact.wiki.audit.check.check_wiki` (and ``check_wiki_async``), and
:func:`autodidact.wiki.audit.report_parser.parse_check_report` / ``read_check_report``. Modules are
imported lazily by callers so ``autodidact --help`` stays fast.
"""
