"""Web search providers behind one interface (SearXNG, Tavily, Brave, DuckDuckGo).

A search hit is a *pointer* (URL, title, snippet), never evidence: only text read from a stored
snapshot of the fetched page may be quoted (docs/contracts.md §3.2).
"""
