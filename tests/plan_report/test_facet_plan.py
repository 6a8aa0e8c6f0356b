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


@pytest.mark.parametrize(("request_text", "lang"), [(DEBIAN_EN, "en"), (DEBIAN_ZH, "zh")])
def test_a_how_does_it_work_request_that_names_facets_reads_as_an_explanation_by_facet(
    request_text: str, lang: str
) -> None:
    # "vs" inside one facet does not make the report a selection between candidates.
    plan = offline_plan(request_text, lang)
    shape = plan.report_shape
    assert shape.report_type == "technical"
    facets = (
        ["dpkg vs apt", "version pinning", "system upgrades"]
        if lang == "en"
        else ["dpkg 与 apt 的关系", "版本固定", "系统升级"]
    )
    assert shape.sections[2:5] == facets  # the body follows the question's own facets, in order
    assert len(shape.sections) == 6  # summary, method, three facets, the closing limitations section


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("PostgreSQL vs MySQL for a small analytics team", "comparison"),
        ("Compare uv vs pip: speed, lock files and caching", "comparison"),
        ("How do Python generators work?", "technical"),
        ("History of the Debian release process: from Buzz to Bookworm", "timeline"),
    ],
)
def test_the_request_frame_decides_the_report_type(request_text: str, expected: str) -> None:
    assert offline_plan(request_text, "en").report_shape.report_type == expected
