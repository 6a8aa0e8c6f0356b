"""A borrowed or owned httpx client for one provider call."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx


@asynccontextmanager
async def client_for(client: httpx.AsyncClient | None, user_agent: str) -> AsyncIterator[httpx.AsyncClient]:
    """Use the caller's client if given (tests, shared pools), else a short-lived one."""
    if client is not None:
        yield client
        return
    async with httpx.AsyncClient(headers={"User-Agent": user_agent}, follow_redirects=True) as own:
        yield own
