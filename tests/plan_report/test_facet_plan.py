"""A request that names its facets is planned by facet (plan/facet_plan.py, docs/planning.md)."""

from __future__ import annotations

import re

import pytest

from autodidact.plan.offline import offline_plan
from autodidact.plan.validate import validate_plan

DEBIAN_EN = "How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?"
DEBIAN_ZH = "Debian 软件包管理是如何工作的：dpkg 与 apt 的关系、版本固定和系统升级"


def test_each_named_facet_gets_its_own_dimension_with_its_own_questions() -> None:
    plan = offline_plan(DEBIAN_EN, "en")
    assert validate_plan(plan.model_dump()).ok
    names = [d.name for d in plan.dimensions]
    assert any("version pinning" in n for n in names) and any("system upgrades" in n for n in names)
    comparison = next(d for d in plan.dimensions if "dpkg vs apt" in d.name)
    asked = " ".join(comparison.key_questions)
    assert "dpkg" in asked and "apt" in asked
    for dim in plan.dimensions:
        for q in dim.key_questions:
            assert DEBIAN_EN.rstrip("?") not in q  # never the whole topic pasted into a template
            assert not re.search(r"\b(is|does) (system upgrades|version pinning)\b", q), q


def test_chinese_facets_plan_in_chinese() -> None:
    plan = offline_plan(DEBIAN_ZH, "zh")
    assert validate_plan(plan.model_dump()).ok
    assert any("版本固定" in d.name for d in plan.dimensions)
    assert all("的关系的" not in q for d in plan.dimensions for q in d.key_questions)


@pytest.mark.parametrize("request_text", ["How do Python generators work?", "什么是 Python 生成器？"])
def test_a_request_without_facets_keeps_the_catalogue_dimensions(request_text: str) -> None:
    lang = "zh" if "生成器" in request_text else "en"
    plan = offline_plan(request_text, lang)
    assert validate_plan(plan.model_dump()).ok
    assert len(plan.dimensions) >= 3
    # archetype questions stay grammatical for a plural subject
    assert not any("does Python generators" in q for d in plan.dimensions for q in d.key_questions)
