"""Wiki compile and check (docs/contracts.md §1.4-1.5).

Entry points: :func:`autodidact.wiki.compile.compile_wiki` (and ``compile_wiki_async``),
:func:`autodidact.wiki.check.check_wiki` (and ``check_wiki_async``), and
:func:`autodidact.wiki.report_parser.parse_check_report` / ``read_check_report``. Modules are
imported lazily by callers so ``autodidact --help`` stays fast.
"""
