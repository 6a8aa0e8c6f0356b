"""The MCP server (``autodidact mcp``): tools and resources over one knowledge base, on the official SDK.

Modules: :mod:`~autodidact.mcp.server` builds and runs it, :mod:`~autodidact.mcp.tools` and
:mod:`~autodidact.mcp.resources` expose :mod:`autodidact.api`, :mod:`~autodidact.mcp.jobs` holds the
background research, :mod:`~autodidact.mcp.uris` names the resources. See docs/integrations.md.
"""
