"""Oversized and malformed input to every parser, fuzzed with hypothesis.

Pass criterion (issue 8): each parser either returns a result or raises an
:class:`~autodidact.errors.AutodidactError` carrying a message and an exit code (validators
report rule-coded errors instead) — never another exception, never a hang. The number of
examples is bounded so the file runs in seconds; no example has a wall-clock deadline (a loaded
2-core machine made one example of the plan validator exceed 2 s). Oversized and deeply nested
inputs are tried once each, also through the CLI, where a traceback would be the failure.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from autodidact.errors import AutodidactError

from .conftest import assert_clean_error, run_cli

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)

json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30)
json_values = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=30,
)
markdownish = st.lists(
    st.sampled_from(
        [
            "# ",
            "## ",
            "### ",
            "- ",
            "* ",
            "1. ",
            "[",
            "]",
            "（",
            "）",
            ":",
            "：",
            "~~",
            "`",
            "\n",
            "\r\n",
            " ",
            "待处理",
            "已处理",
            "知识漏洞",
            "矛盾",
            "来源缺失",
            "建议下一轮重点方向",
            "resolved",
            "partial",
            "open",
            "r1q1",
            "**",
            "| a | b |",
            "<<END",
            "\x00",
            "\u202e",
            "问题",
            "Gaps",
            "Directions",
        ]
    )
    | st.text(max_size=20),
    max_size=60,
).map("".join)


def _ok_or_coded(call: Any) -> Any:
    try:
        return call()
    except AutodidactError as exc:
        assert exc.message.strip() and isinstance(exc.exit_code, int) and exc.exit_code != 0
        return None


# -- user_questions.md (loop inbox) -----------------------------------------------------------


@FUZZ
@given(text=markdownish)
def test_inbox_parser_never_crashes(tmp_path: Path, text: str) -> None:
    from autodidact.loop.inbox import pending_questions, read_inbox

    path = tmp_path / "user_questions.md"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    view = _ok_or_coded(lambda: read_inbox(path))
    if view is not None:
        assert all(isinstance(q, str) and "\n" not in q for q in view.pending)
        _ok_or_coded(lambda: pending_questions(path))


@FUZZ
@given(data=st.binary(max_size=300))
def test_inbox_parser_on_arbitrary_bytes(tmp_path: Path, data: bytes) -> None:
    from autodidact.loop.inbox import read_inbox

    path = tmp_path / "user_questions.md"
    path.write_bytes(data)
    _ok_or_coded(lambda: read_inbox(path))


@FUZZ
@given(question=st.text(max_size=400))
def test_ask_accepts_or_refuses_any_text_clearly(tmp_path: Path, question: str) -> None:
    from autodidact.kb import init_kb
    from autodidact.loop.inbox import add_question, pending_questions

    root = tmp_path / "kb"
    kb = KB_CACHE.get(root) or init_kb(root, lang="en")[0]
    KB_CACHE[root] = kb
    before = kb.user_questions.read_bytes()
    added = _ok_or_coded(lambda: add_question(kb, question))
    if added is None:
        assert kb.user_questions.read_bytes() == before  # a refused question writes nothing
    else:
        assert added in pending_questions(kb.user_questions)


KB_CACHE: dict[Path, Any] = {}


# -- check reports (wiki/audit/report_parser) -------------------------------------------------


@FUZZ
@given(text=markdownish)
def test_check_report_parser_never_crashes(text: str) -> None:
    from autodidact.wiki.audit.report_parser import parse_check_report

    report = _ok_or_coded(lambda: parse_check_report(text, source="fuzz.md"))
    if report is not None:
        assert report.audit_issues_count >= 0
        assert all(isinstance(d, str) for d in report.directions)


# -- evidence (validator) ---------------------------------------------------------------------

RULE = re.compile(r"^[VP]\d{3}$")


def _coded(report: Any) -> None:
    assert report.ok or report.errors
    for err in report.errors:
        assert RULE.match(str(err.get("rule"))), err


@FUZZ
@given(data=json_values)
def test_evidence_validator_on_any_json(data: Any) -> None:
    from autodidact.evidence.validator import validate_evidence

    report = _ok_or_coded(lambda: validate_evidence(data))  # a str is read as a path: NotFound/InputError
    if report is not None:
        assert not report.ok
        _coded(report)


EVIDENCE_KEYS = ["version", "dimension_id", "headline", "claims", "sources", "key_findings", "mode",
                 "upstream_usage", "writing_context"]  # fmt: skip


@FUZZ
@given(data=st.fixed_dictionaries({}, optional={k: json_values for k in EVIDENCE_KEYS}))
def test_evidence_validator_on_evidence_shaped_json(tmp_path: Path, data: dict[str, Any]) -> None:
    from autodidact.evidence.validator import validate_evidence

    _coded(validate_evidence(data, source_cache=tmp_path / "source_cache", require_version="1.2"))


# -- plan (plan/validate) ---------------------------------------------------------------------

PLAN_KEYS = ["research_goal", "scope", "report_shape", "dimensions", "execution_order", "completion_criteria",
             "version", "request"]  # fmt: skip


@FUZZ
@given(data=json_values | st.fixed_dictionaries({}, optional={k: json_values for k in PLAN_KEYS}))
@example(data={"execution_order": [[]], "dimensions": []})  # an unhashable item once raised TypeError
def test_plan_validator_on_any_json(data: Any) -> None:
    from autodidact.plan.validate import validate_plan

    report = _ok_or_coded(lambda: validate_plan(data))
    if report is not None:
        _coded(report)


@FUZZ
@given(dims=st.lists(st.fixed_dictionaries({"id": st.sampled_from(["d1", "d2", "d3", "", "d1 "]),
                                            "depends_on": st.lists(st.sampled_from(["d1", "d2", "d3", "x"]),
                                                                   max_size=3)}), max_size=6))  # fmt: skip
def test_plan_dependency_graphs_never_hang(dims: list[dict[str, Any]]) -> None:
    from autodidact.plan.validate import validate_plan

    started = time.monotonic()
    report = validate_plan({"dimensions": dims, "execution_order": [d["id"] for d in dims]})
    assert time.monotonic() - started < 60  # a hang, not a slow machine
    _coded(report)


# -- debate events (debate/store) -------------------------------------------------------------


@FUZZ
@given(lines=st.lists(json_values.map(lambda v: json.dumps(v).encode()) | st.binary(max_size=60), max_size=6))
def test_event_log_reader_never_crashes(tmp_path: Path, lines: list[bytes]) -> None:
    from autodidact.debate.store import SessionStore

    folder = tmp_path / "session"
    folder.mkdir(exist_ok=True)
    (folder / "events.jsonl").write_bytes(b"\n".join(lines))
    store = SessionStore(folder)
    log = _ok_or_coded(store.read_log)
    if log is not None:
        assert all(isinstance(e, dict) for e in log.events)
        _ok_or_coded(store.check)


# -- oversized and deeply nested input, once each, through the CLI ----------------------------

DEEP = "[" * 200_000 + "]" * 200_000


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("plan", "validate", "{f}"), "plan"),
        (("evidence", "validate", "{f}"), "evidence"),
    ],
)
def test_deeply_nested_json_is_a_clear_error(args: tuple[str, ...], needle: str, tmp_path: Path) -> None:
    f = tmp_path / "deep.json"
    f.write_text(DEEP)
    done = run_cli(*(a.format(f=f) for a in args))
    out = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in out, out[-1500:]
    assert "deep.json" in out


def test_deeply_nested_state_file_is_a_clear_error(tmp_path: Path) -> None:
    from autodidact.kb import init_kb

    kb, _ = init_kb(tmp_path / "kb", topic="x", lang="en")
    kb.state_file.write_text(DEEP)
    for args in (("status", "--kb", str(kb.root)), ("research", "--kb", str(kb.root))):
        assert_clean_error(run_cli(*args), "research_state.json")
    done = run_cli("verify", "--kb", str(kb.root), "--json")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-1500:]
    assert "research_state.json" in done.stdout


def test_oversized_inputs_are_handled_quickly(tmp_path: Path) -> None:
    from autodidact.kb import init_kb
    from autodidact.loop.inbox import pending_questions
    from autodidact.wiki.audit.report_parser import parse_check_report

    kb, _ = init_kb(tmp_path / "kb", topic="x", lang="en")
    big = "# 用户问题\n\n## 待处理\n\n" + "- what is a generator? " * 50 + "\n" + "- q\n" * 200_000
    kb.user_questions.write_text(big, "utf-8")
    started = time.monotonic()
    assert len(pending_questions(kb.user_questions)) >= 2
    huge = "## 审计摘要\n- resolved 1 / partial 0 / open 0\n## 知识漏洞\n" + "- gap [[x]]\n" * 100_000 + "a" * 3_000_000
    report = _ok_or_coded(lambda: parse_check_report(huge))
    assert report is None or report.audit_issues_count >= 0
    assert _ok_or_coded(lambda: parse_check_report("a" * 5_000_000)) is None  # no counts: a coded error
    assert time.monotonic() - started < 20
    done = run_cli("status", "--kb", str(kb.root))
    assert "Traceback" not in done.stderr
