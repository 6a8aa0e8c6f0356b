"""Random conversations (answers, commands, don't-knows, gap decisions) never break the protocol."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodidact.debate.checker import check_session
from autodidact.debate.engine import Engine
from autodidact.debate.store import SessionStore
from autodidact.errors import InputError

ANSWERS = [
    "你定吧", "快速", "深度", "嗯", "不知道", "我说的是主观感受，相比以前", "我最没把握的是第②条前提，这个没验证过",
    "如果去掉这个原因，我预测会好一些", "也可能是别的原因，区别在于那一周", "保留，但修改措辞", "暂停", "总结一下",
    "你觉得这个命题对吗？", "切换到推敲模式", "太慢了", "独立评估一下", "帮我查一下", "确认", "不用",
    "范围改成 只查笔记",
    "继续", "I mean the felt effort, compared to last year", "I don't know", "Alternatively it is the workload",
]  # fmt: skip
PROMPTS = [
    "我发现用AI写代码之后，我反而更累了",
    "Remote work makes people less creative because they miss chance encounters",
]
counter = itertools.count()


# Derandomized: CI runs the same twelve conversations every time, so a red run is reproducible;
# explore others locally with `pytest --hypothesis-seed=N` (a failure found so is kept below as a test).
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prompt=st.sampled_from(PROMPTS), script=st.lists(st.sampled_from(ANSWERS), min_size=3, max_size=12))
def test_random_conversations_stay_clean(kb_dir: Path, prompt: str, script: list[str]) -> None:
    folder = kb_dir / "debates" / f"f{next(counter)}"
    Engine(folder, kb_root=kb_dir).start(prompt)
    for answer in script:
        try:
            Engine(folder, kb_root=kb_dir).reply(answer)
        except InputError as exc:  # only a closed session or a spent budget may refuse an answer
            assert any(w in exc.message for w in REFUSALS)
    result = check_session(folder)
    assert result["ok"], result["violations"]
    store = SessionStore(folder)
    assert store.check() == []
    session = store.replay()
    assert session is not None
    budget = session.execution.budget
    if budget is not None:
        assert session.execution.usage.rounds <= budget.max_rounds


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prompt=st.sampled_from(PROMPTS), script=st.lists(st.sampled_from(ANSWERS), min_size=5, max_size=30))
def test_random_conversations_stay_clean_sweep(kb_dir: Path, prompt: str, script: list[str]) -> None:
    test_random_conversations_stay_clean.hypothesis.inner_test(kb_dir, prompt, script)  # type: ignore[attr-defined]


# What may refuse an answer: a closed session, a spent budget, a finished stage (docs/debate.md).
REFUSALS = ("closed", "rounds of this depth are used up", "轮次已用完", "stage is complete", "阶段已经完成")


def test_a_question_the_person_left_to_us_is_not_asked_again(kb_dir: Path) -> None:
    """Found by the random conversations: after 「你定吧」 answered the disposition question, the
    moderator came back to the same role and the offline turn asked it again (DC17)."""
    folder = kb_dir / "debates" / "left-to-us"
    Engine(folder, kb_root=kb_dir).start(PROMPTS[0])
    for answer in ["你定吧", "你定吧", "也可能是别的原因，区别在于那一周", "保留，但修改措辞", *["你定吧"] * 8]:
        try:
            Engine(folder, kb_root=kb_dir).reply(answer)
        except InputError as exc:
            assert any(w in exc.message for w in REFUSALS)
    result = check_session(folder)
    assert result["ok"], result["violations"]
