"""Every refusal of the web app: paths out of the knowledge base, symlinks, forged or foreign requests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autodidact.errors import NotFoundError, PathSafetyError
from autodidact.webapp.safety import Guard, kb_file

from .conftest import ORIGIN, client_for, error_of, token_of

POSTS = [
    ("/research/start", {"topic": "x"}),
    ("/research/resume", {}),
    ("/research/stop", {}),
    ("/research/ask", {"question": "q?"}),
    ("/debate/start", {"prompt": "an idea"}),
    ("/debate/some-session/reply", {"answer": "a"}),
    ("/debate/some-session/close", {}),
]


@pytest.mark.parametrize(("url", "form"), POSTS)
def test_every_state_changing_request_needs_the_origin_and_the_session_token(
    english_kb: Path, url: str, form: dict[str, str]
) -> None:
    with client_for(english_kb) as client:
        token = token_of(client)
        cases = [
            ({**form}, {"origin": ORIGIN}, "refused: the form token is missing (reload the page)"),
            ({**form, "token": "0" * 64}, {"origin": ORIGIN}, "refused: the form token is wrong (reload the page)"),
            ({**form, "token": token}, {}, "refused: the request has no Origin header"),
            (
                {**form, "token": token},
                {"origin": "http://evil.test"},
                "refused: Origin http://evil.test is not this server",
            ),
            ({**form, "token": token}, {"origin": "null"}, "refused: Origin null is not this server"),
        ]
        for data, headers, message in cases:
            answer = client.post(url, data=data, headers=headers)
            assert answer.status_code == 403, (url, message)
            assert error_of(answer.text) == message
    with client_for(english_kb) as other:  # another browser session: this token is not its own
        other.get("/research")
        answer = other.post(url, data={**form, "token": token}, headers={"origin": ORIGIN})
        assert answer.status_code == 403 and "token is wrong" in error_of(answer.text)
    assert not (english_kb / "debates").exists() or not any((english_kb / "debates").iterdir())


def test_a_foreign_host_header_is_refused(english_kb: Path) -> None:
    with client_for(english_kb) as client:
        answer = client.get("/", headers={"host": "attacker.example"})
    assert answer.status_code == 400


def test_file_paths_out_of_the_knowledge_base_are_refused(english_kb: Path) -> None:
    for bad in ("../x", "raw/../../etc/passwd", "/etc/passwd", ".autodidact/lock", "raw/.hidden", "raw//x", "a\\b"):
        with pytest.raises((PathSafetyError, ValueError)):
            kb_file(english_kb, bad)
    with pytest.raises(NotFoundError):
        kb_file(english_kb, "raw/missing.md")
    with client_for(english_kb) as client:
        for url, code in [
            ("/file/.autodidact/lock", 403),
            ("/file/%2E%2E/%2E%2E/etc/passwd", 403),
            ("/file/raw/%2E%2E/autodidact.toml", 403),
            ("/source/..%2Fautodidact.toml", 404),  # a separator in a name: no route matches
            ("/source/missing.md", 404),
            ("/wiki/.hidden", 403),
            ("/wiki/missing-article", 404),
            ("/reports/..%2F..%2Fetc/", 403),
            ("/reports/.autodidact/", 403),
            ("/reports/missing/", 404),
            ("/file/raw", 404),
            ("/debate/%2E%2E", 403),
            ("/debate/.x", 403),
            ("/debate/no-such-session", 404),
            ("/no/such/page", 404),
        ]:
            answer = client.get(url)
            assert answer.status_code == code, (url, answer.status_code, answer.text[-400:])
            assert error_of(answer.text)


def test_symlinks_are_never_followed(english_kb: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("the secret", encoding="utf-8")
    links = [
        english_kb / "raw" / "out.md",  # to a file outside
        english_kb / "raw" / "in.md",  # to a file inside the knowledge base
        english_kb / "wiki" / "linked.md",
        english_kb / "linked-folder",
    ]
    os.symlink(outside, links[0])
    os.symlink(english_kb / "autodidact.toml", links[1])
    os.symlink(english_kb / "wiki" / "python-generators.md", links[2])
    os.symlink(tmp_path, links[3])
    try:
        with client_for(english_kb) as client:
            for url in ("/source/out.md", "/source/in.md", "/wiki/linked", "/file/linked-folder/secret.md"):
                answer = client.get(url)
                assert answer.status_code == 403, url
                assert "symlink" in error_of(answer.text) or "leads out" in error_of(answer.text)
                assert "the secret" not in answer.text
            token = token_of(client)
            corpus = client.post(
                "/research/start",
                data={"token": token, "topic": "t", "corpus": "linked-folder"},
                headers={"origin": ORIGIN},
            )
            assert corpus.status_code == 403 and "symlink" in error_of(corpus.text)
    finally:
        for link in links:
            link.unlink()


def test_bad_form_input_gets_a_one_line_400(english_kb: Path) -> None:
    with client_for(english_kb) as client:
        token = token_of(client)
        for url, data, message in [
            ("/research/start", {"topic": "  "}, "the research topic is empty"),
            (
                "/research/start",
                {"topic": "t", "max_rounds": "0"},
                "max rounds '0' is not a whole number from 1 to 100",
            ),
            (
                "/research/start",
                {"topic": "t", "corpus": "../up"},
                "corpus folder '../up' must be a plain folder inside",
            ),
            ("/research/ask", {"question": " "}, "ask: the question is empty"),
            ("/research/stop", {}, "no research is running here"),
            ("/debate/start", {"prompt": ""}, "the debate prompt is empty"),
            (
                "/debate/start",
                {"prompt": "p", "depth": "bottomless"},
                "depth 'bottomless' is not quick, standard or deep",
            ),
        ]:
            answer = client.post(url, data={**data, "token": token}, headers={"origin": ORIGIN})
            assert answer.status_code in (400, 403), (url, answer.status_code)
            assert error_of(answer.text).startswith(message.replace("'", "&#39;")), error_of(answer.text)


def test_a_token_belongs_to_one_session_and_one_process() -> None:
    guard = Guard(b"k" * 32)
    assert guard.token_for("a") != guard.token_for("b")
    assert Guard(b"j" * 32).token_for("a") != guard.token_for("a")
    guard.check(host="127.0.0.1:8765", origin="http://127.0.0.1:8765", session="a", token=guard.token_for("a"))
    with pytest.raises(PermissionError):
        guard.check(host="127.0.0.1:8765", origin="http://127.0.0.1:9999", session="a", token=guard.token_for("a"))
