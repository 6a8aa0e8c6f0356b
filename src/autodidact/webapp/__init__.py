"""``autodidact serve``: a local web app over one knowledge base (docs/webapp.md).

Why a front end of its own beside the CLI and the MCP server: people would rather look than read a
status table. It is a thin adapter over :mod:`autodidact.api` (research, status, ask, articles,
reports, Debate), server-rendered, offline, and bound to 127.0.0.1 unless told otherwise.
"""
