"""The throwaway server the tests start is gone when they stop it (autodidact/testing/pgserver.py)."""

from __future__ import annotations

import pytest


def test_stopping_the_test_server_ends_the_postmaster_itself() -> None:
    """Under runuser (tests run as root in CI) the started process is runuser; a server it left
    behind kept running after every test session."""
    from autodidact.store.atomic import pid_alive
    from autodidact.testing.pgserver import missing_reason, start_server

    reason = missing_reason()
    if reason is not None:
        pytest.skip(reason)
    server = start_server()
    postmaster = server._postmaster_pid()
    assert postmaster is not None and pid_alive(postmaster)
    server.stop()
    assert not pid_alive(postmaster), f"postmaster {postmaster} still runs"
    assert not server.folder.exists()
