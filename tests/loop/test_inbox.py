"""user_questions.md: ask appends, the loop moves what it used, nothing a person wrote is lost."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from autodidact.errors import InputError
from autodidact.kb import KnowledgeBase, init_kb
from autodidact.loop.inbox import add_question, mark_incorporated, pending_questions, read_inbox


@pytest.fixture
def kb(tmp_path: Path) -> KnowledgeBase:
    return init_kb(tmp_path / "kb", topic="options", lang="en")[0]


def test_ask_then_incorporate_moves_with_round_tag(kb: KnowledgeBase) -> None:
    add_question(kb, "期权的波动率曲面是什么？")
    add_question(kb, "  What is   a covered call? ")
    assert pending_questions(kb.user_questions) == ["期权的波动率曲面是什么？", "What is a covered call?"]
    moved = mark_incorporated(kb, ["What is a covered call?"], 2)
    assert moved == ["What is a covered call?"]
    view = read_inbox(kb.user_questions)
    assert view.pending == ["期权的波动率曲面是什么？"]
    assert view.done == ["~~What is a covered call?~~ [r2]"]
    assert mark_incorporated(kb, ["What is a covered call?"], 3) == []  # idempotent
    assert read_inbox(kb.user_questions).done == ["~~What is a covered call?~~ [r2]"]


def test_hand_edits_are_kept_line_for_line(kb: KnowledgeBase) -> None:
    text = (
        "# 用户问题\n"
        "\n"
        "Notes I keep here: ask about fees later.\n"
        "\n"
        "## 待处理\n"
        "\n"
        "- 期权的波动率曲面是什么？\n"
        "  (indented remark under the first question)\n"
        "- 国内有没有专门做期权策略的私募基金？\n"
        "\n"
        "## My own section\n"
        "- not a question for the loop\n"
        "\n"
        "## 已处理\n"
        "\n"
        "- ~~备兑开仓被行权后怎么操作？~~（已纳入第2轮）\n"
    )
    kb.user_questions.write_text(text, "utf-8")
    assert pending_questions(kb.user_questions) == ["期权的波动率曲面是什么？", "国内有没有专门做期权策略的私募基金？"]
    mark_incorporated(kb, ["国内有没有专门做期权策略的私募基金？"], 3)
    after = kb.user_questions.read_text("utf-8").splitlines()
    before = text.splitlines()
    removed = [line for line in before if line not in after]
    added = [line for line in after if line not in before]
    assert removed == ["- 国内有没有专门做期权策略的私募基金？"]
    assert added == ["- ~~国内有没有专门做期权策略的私募基金？~~ [r3]"]
    assert after.index("- ~~备兑开仓被行权后怎么操作？~~（已纳入第2轮）") < after.index(added[0])
    # a question added by hand after the loop read the file is still there after the next move
    kb.user_questions.write_text(kb.user_questions.read_text("utf-8").replace("## My own", "- 新问题？\n\n## My own"))
    mark_incorporated(kb, ["期权的波动率曲面是什么？"], 4)
    assert pending_questions(kb.user_questions) == ["新问题？"]
    assert "- not a question for the loop" in kb.user_questions.read_text("utf-8")


def test_missing_sections_and_missing_file(kb: KnowledgeBase) -> None:
    kb.user_questions.unlink()
    assert pending_questions(kb.user_questions) == []
    add_question(kb, "first?")
    assert pending_questions(kb.user_questions) == ["first?"]
    kb.user_questions.write_text("# mine\n\n## 待处理\n- a?\n", "utf-8")
    mark_incorporated(kb, ["a?"], 1)
    assert kb.user_questions.read_text("utf-8").endswith("## 已处理\n\n- ~~a?~~ [r1]\n")


def test_bad_questions_are_refused(kb: KnowledgeBase) -> None:
    with pytest.raises(InputError, match="empty"):
        add_question(kb, "   \n ")
    with pytest.raises(InputError, match="characters long"):
        add_question(kb, "x" * 3000)


def test_concurrent_asks_and_moves_lose_nothing(kb: KnowledgeBase) -> None:
    for i in range(10):
        add_question(kb, f"old {i}?")
    errors: list[BaseException] = []

    def asker() -> None:
        try:
            for i in range(30):
                add_question(kb, f"new {i}?")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=asker)
    thread.start()
    for i in range(10):
        mark_incorporated(kb, [f"old {i}?"], 1)
    thread.join()
    assert not errors
    view = read_inbox(kb.user_questions)
    assert view.pending == [f"new {i}?" for i in range(30)]
    assert view.done == [f"~~old {i}?~~ [r1]" for i in range(10)]
