"""The MCP server (placeholder while it is written)."""
