# ruff: noqa: E501
"""The offline planner: seed 004's planning flow (docs/seeds.md) from the type catalogue and the request's own terms.

Why it is real: without a model the planner still locks a goal, writes the scope with its
unknowns, does report-format discovery from the built-in catalogue (or keeps the structure the
request spells out), instantiates dimensions that can each stand as a sub-report, links only the
dependencies an archetype actually consumes, and orders them. The result passes
:func:`autodidact.plan.validate.validate_plan` for any request, in Chinese or English.
"""

from __future__ import annotations

from typing import TypedDict

from autodidact.plan.archetypes import ARCHETYPES, Archetype
from autodidact.plan.catalogue import ReportType, classify_request, needs_freshness
from autodidact.plan.facet_plan import MAX_FACET_DIMENSIONS, base_archetype, facet_dimensions_wanted, facet_texts
from autodidact.plan.models import (
    DependencyInput,
    Dimension,
    FormatBasis,
    Plan,
    ReportShape,
    Scope,
    ScopeOwnership,
    SearchStrategy,
    SourceHint,
)
from autodidact.plan.terms import RequestTerms, extract_terms
from autodidact.text.topic import Facet, decompose

MAX_CANDIDATES = 5

GOALS = {
    "panorama": {
        "en": "Give {a} a cited overview of {s}: what it is, what it consists of, where it stands and where it is heading.",
        "zh": "为{a}提供关于{s}的有出处的全景：是什么、由什么构成、现状如何、走向何处。",
    },
    "comparison": {
        "en": "Support a choice between {objs} for {a}, with a cited comparison on explicit criteria.",
        "zh": "为{a}在{objs}之间做出选择提供依据：按明确标准、有出处地比较。",
    },
    "investigation": {
        "en": "Establish for {a} the facts, competing explanations and impacts of {s}, with cited evidence.",
        "zh": "为{a}查明{s}的事实、竞争性解释与影响，均有出处。",
    },
    "timeline": {
        "en": "Reconstruct for {a} the dated history of {s}, its turning points and their drivers, with cited evidence.",
        "zh": "为{a}还原{s}的带日期历史、转折点及其驱动因素，均有出处。",
    },
    "industry": {
        "en": "Assess for {a} the boundary, size, players and trends of {s}, with dated, cited figures.",
        "zh": "为{a}评估{s}：市场界定、规模、玩家与趋势，数据带日期与出处。",
    },
    "policy": {
        "en": "Explain for {a} what {s} requires, whom it binds and what it changes, with cited official sources.",
        "zh": "为{a}说明{s}规定了什么、约束谁、改变了什么，依据官方来源。",
    },
    "technical": {
        "en": "Explain for {a} what {s} is, how it works, how it is used and where it falls short, with cited evidence.",
        "zh": "为{a}说明{s}是什么、如何工作、如何使用以及局限何在，均有出处。",
    },
}


class _Texts(TypedDict):
    """The offline planner's fixed wording, each by language (``"en"``, ``"zh"``)."""

    default_audience: dict[str, str]
    unknown_time: dict[str, str]
    unknown_region: dict[str, str]
    unknown_audience: dict[str, str]
    excl: dict[str, list[str]]
    assume: dict[str, list[str]]
    unknown_names: dict[str, dict[str, str]]
    criteria: dict[str, list[str]]
    fresh: dict[str, str]
    stable: dict[str, str]
    ts_high: dict[str, str]
    ts_low: dict[str, str]
    suff: dict[str, list[str]]
    overlap: dict[str, str]
    user_basis: dict[str, tuple[str, str, str]]


T: _Texts = {
    "default_audience": {"en": "a technically literate reader", "zh": "具备基本专业背景的读者"},
    "unknown_time": {
        "en": "Unknown: the request names no period; assume the current state, with history only where it explains it.",
        "zh": "未知：需求未指定时间范围；默认以现状为主，仅在解释现状时追溯历史。",
    },
    "unknown_region": {
        "en": "Unknown: the request names no region; assume it is not region-specific.",
        "zh": "未知：需求未指定地域；默认不限地域。",
    },
    "unknown_audience": {
        "en": "Unknown: the request names no reader; assume {a} who needs a cited basis for a decision.",
        "zh": "未知：需求未指定受众；默认面向需要有据可查的判断依据的{a}。",
    },
    "excl": {
        "en": [
            "Topics outside {s}, except where needed to draw its boundary",
            "Recommendations the collected evidence does not support",
            "Unsourced opinion and speculation",
        ],
        "zh": ["{s}以外的主题（界定边界所需者除外）", "证据不支持的建议", "无出处的观点与推测"],
    },
    "assume": {
        "en": [
            "The sources available to this run (knowledge base, given corpus, configured web search) are the evidence base; "
            "gaps are reported, not filled by inference",
            "Unknown scope items take the defaults stated in scope until evidence says otherwise",
        ],
        "zh": [
            "本次运行可用的来源（知识库、指定语料、已配置的网络搜索）构成证据基础；缺口如实报告，不靠推断填补",
            "未知的范围项先按范围中写明的默认值处理，直到证据表明需要调整",
        ],
    },
    "unknown_names": {
        "en": {"time_range": "time range", "region": "region", "audience_or_use": "audience or use"},
        "zh": {"time_range": "时间范围", "region": "地域", "audience_or_use": "受众或用途"},
    },
    "criteria": {
        "en": [
            "Every key question of every dimension is answered by at least one claim or recorded as a gap",
            "Every evidence file passes the validator against the report's own source cache",
            "Every mandatory element of report_shape has material from at least one dimension",
            "Every dimension can stand alone as its sub-report",
        ],
        "zh": [
            "每个维度的每个关键问题都至少有一条主张回答，或被记录为缺口",
            "每个证据文件都能对照本报告自己的来源快照通过校验",
            "report_shape 的每个必备元素都至少有一个维度提供材料",
            "每个维度都能独立形成子报告",
        ],
    },
    "fresh": {
        "en": "Required: verify against the latest sources (published within the last 12 months or the current version) "
        "and record each source's publication date.",
        "zh": "必须：核查最新资料（近 12 个月内发布或当前版本），并记录每个来源的发布日期。",
    },
    "stable": {
        "en": "Not required: stable reference material is acceptable; prefer the current version of official documentation "
        "and note version numbers.",
        "zh": "非必须：可使用稳定的参考资料；优先当前版本的官方文档并注明版本号。",
    },
    "ts_high": {"en": "High: facts change over time; dates matter.", "zh": "高：事实随时间变化，日期很重要。"},
    "ts_low": {"en": "Low: mostly stable reference facts.", "zh": "低：以稳定的参考事实为主。"},
    "suff": {
        "en": [
            "Every key question is supported by at least one source read in full",
            "Core facts come from primary or secondary sources, confirmed by two independent sources where they exist",
            "Stop when two consecutive searches add no new information",
        ],
        "zh": [
            "每个关键问题至少有一个经全文阅读的来源支撑",
            "核心事实来自一手或二手来源，有条件时由两个独立来源交叉确认",
            "连续两轮检索没有新增信息即停止",
        ],
    },
    "overlap": {
        "en": "{s} itself is shared context; each claim belongs to the dimension that owns its topic.",
        "zh": "{s}本身是共享背景；每条主张归属于拥有其主题的维度。",
    },
    "user_basis": {
        "en": (
            "User-specified structure",
            "The requester spelled out the report's sections.",
            "Section list and order taken verbatim from the request.",
        ),
        "zh": ("用户指定结构", "需求方已明确列出报告章节。", "章节清单与顺序直接取自需求。"),
    },
}

_CATEGORY_WORDS = (
    ("academic", ("academic", "paper", "学术", "论文")),
    ("policy", ("gazette", "regulator", "legal", "statement", "公报", "监管", "法律", "声明", "实施")),
    ("company_disclosure", ("company", "filing", "公司", "披露")),
    ("industry_report", ("industry", "report", "statistics", "行业", "报告", "统计")),
    ("news", ("news", "新闻")),
    ("community", ("community", "q&a", "issue", "社区", "问答", "问题追踪")),
    (
        "documentation",
        ("documentation", "reference", "specification", "tutorial", "release", "文档", "参考", "规范", "教程", "版本"),
    ),
)


def _category(source_type: str) -> str:
    lowered = source_type.lower()
    for category, words in _CATEGORY_WORDS:
        if any(w in lowered for w in words):
            return category
    return "web"


def _fill(template: str, s: str, o: str = "") -> str:
    return template.replace("{s}", s).replace("{o}", o or s)


def _shape(rtype: ReportType, terms: RequestTerms, lang: str, facets: list[str] | None = None) -> ReportShape:
    """The report's sections: the person's own, else the catalogue type's. When the dimensions are
    the facets the person named, those facets are the body (one section each, between the summary
    and method sections and the type's closing one), so the report reads in the order of the
    question instead of forcing the facets into a template's middle sections."""
    if terms.sections:
        name, why, what = T["user_basis"][lang]
        basis = [FormatBasis(type="fallback", name=name, credibility_reason=why, what_extracted=what)]
        sections = terms.sections
    else:
        basis = [
            FormatBasis(
                type=b.type,
                name=b.name[lang],
                credibility_reason=b.credibility_reason[lang],
                what_extracted=b.what_extracted[lang],
            )
            for b in rtype.basis
        ]
        sections = list(rtype.sections[lang])
        if facets:
            sections = [*sections[:2], *facets, sections[-1]]
    return ReportShape(
        report_type=rtype.key,
        format_basis=basis,
        sections=sections,
        mandatory_elements=list(rtype.mandatory_elements[lang]),
        style=rtype.style[lang],
    )


def _instances(rtype: ReportType, terms: RequestTerms) -> list[tuple[Archetype, str]]:
    """(archetype, object) pairs in execution order; a comparison gets one candidate per object."""
    out: list[tuple[Archetype, str]] = []
    for key in rtype.archetypes:
        if key == "candidate":
            objects = terms.objects[:MAX_CANDIDATES] if len(terms.objects) >= 2 else [terms.subject]
            out.extend((ARCHETYPES[key], obj) for obj in objects)
        else:
            out.append((ARCHETYPES[key], ""))
    return out


def _dimension(index: int, arch: Archetype, obj: str, terms: RequestTerms, lang: str, fresh: bool) -> Dimension:
    s = terms.subject
    queries = [_fill(q, s, obj) for q in arch.seed_queries[lang]]
    if terms.purpose:
        queries.append(f"{obj or s} {terms.purpose}")
    queries = list(dict.fromkeys(q.strip() for q in queries))[:6]
    time_bound = fresh or arch.time_bound
    return Dimension(
        id=f"d{index}",
        name=_fill(arch.name[lang], s, obj),
        description=_fill(arch.description[lang], s, obj),
        key_questions=[_fill(q, s, obj) for q in arch.key_questions[lang]],
        method=arch.method[lang],
        search_strategy=SearchStrategy(
            source_types=list(arch.source_types[lang]),
            seed_queries=queries,
            freshness_requirement=T["fresh"][lang] if time_bound else T["stable"][lang],
            sufficiency=list(T["suff"][lang]),
        ),
        expected_output=_fill(arch.expected_output[lang], s, obj),
        focus=_fill(arch.focus[lang], s, obj),
        depth="moderate",
        time_sensitivity=T["ts_high"][lang] if time_bound else T["ts_low"][lang],
        sources=[SourceHint(category=_category(t), description=t) for t in arch.source_types[lang]],
        scope_ownership=ScopeOwnership(
            owns=[_fill(arch.owns[lang], s, obj)], overlap_policy=_fill(T["overlap"][lang], s)
        ),
    )


def _facet_dimension(index: int, facet: Facet, subject: str, arch: Archetype, lang: str, fresh: bool) -> Dimension:
    """A dimension for one facet the request names (plan/facet_plan.py), with the archetype's method."""
    words = facet_texts(facet, subject, lang)
    time_bound = fresh or arch.time_bound
    return Dimension(
        id=f"d{index}",
        name=str(words["name"]),
        description=str(words["description"]),
        key_questions=list(words["key_questions"]),
        method=arch.method[lang],
        search_strategy=SearchStrategy(
            source_types=list(arch.source_types[lang]),
            seed_queries=list(words["seed_queries"]),
            freshness_requirement=T["fresh"][lang] if time_bound else T["stable"][lang],
            sufficiency=list(T["suff"][lang]),
        ),
        expected_output=str(words["expected_output"]),
        focus=str(words["focus"]),
        depth="moderate",
        time_sensitivity=T["ts_high"][lang] if time_bound else T["ts_low"][lang],
        sources=[SourceHint(category=_category(t), description=t) for t in arch.source_types[lang]],
        scope_ownership=ScopeOwnership(owns=[str(words["owns"])], overlap_policy=_fill(T["overlap"][lang], subject)),
    )


def _join_en(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def offline_plan(request: str, lang: str) -> Plan:
    """A complete, valid plan from the catalogue and the request's own terms (no model)."""
    terms = extract_terms(request, lang)
    rtype = classify_request(request, lang)
    fresh = needs_freshness(request) or rtype.key in {"industry", "policy"}
    audience = terms.purpose or T["default_audience"][lang]
    dims: list[Dimension] = []
    made: list[tuple[str, Dimension]] = []  # (archetype key, dimension)
    frame = decompose(request, lang)
    instances = _instances(rtype, terms)
    facet_names: list[str] = []
    if facet_dimensions_wanted(frame) and not terms.sections:
        # The request names its facets: one dimension each; archetypes only fill up to three.
        arch = base_archetype(ARCHETYPES, rtype.archetypes)
        for facet in frame.facets[:MAX_FACET_DIMENSIONS]:
            dims.append(_facet_dimension(len(dims) + 1, facet, frame.subject, arch, lang, fresh))
            facet_names.append(facet.name)
            made.append(("facet", dims[-1]))
        instances = [(a, o) for a, o in instances if not a.upstream][: max(0, 3 - len(dims))]
    for arch, obj in instances:
        dim = _dimension(len(dims) + 1, arch, obj, terms, lang, fresh)
        for up in arch.upstream:
            for key, upstream_dim in made:
                if key == up.archetype:
                    dim.dependency_inputs.append(
                        DependencyInput(
                            dimension_id=upstream_dim.id,
                            needed_for=up.needed_for,
                            scope_rule=_fill(up.scope_rule[lang], terms.subject, obj),
                        )
                    )
        dim.depends_on = sorted({d.dimension_id for d in dim.dependency_inputs}, key=lambda x: int(x[1:]))
        dims.append(dim)
        made.append((arch.key, dim))
    owned = [d.scope_ownership.owns[0] for d in dims]
    for dim in dims:
        dim.scope_ownership.excludes = [o for o in owned if o not in dim.scope_ownership.owns]
        dim.scope_ownership.shared_topics = [terms.subject]
    unknown_names = T["unknown_names"][lang]
    unknowns = [
        unknown_names[key]
        for key, value in (
            ("time_range", terms.time_range),
            ("region", terms.region),
            ("audience_or_use", terms.purpose),
        )
        if not value
    ]
    objs = "、".join(terms.objects) if lang == "zh" else _join_en(terms.objects)
    scope = Scope(
        objects=terms.objects,
        time_range=terms.time_range or T["unknown_time"][lang],
        region=terms.region or T["unknown_region"][lang],
        audience_or_use=terms.purpose or T["unknown_audience"][lang].replace("{a}", audience),
        exclusions=[_fill(x, terms.subject) for x in T["excl"][lang]],
        assumptions=list(T["assume"][lang]),
        unknowns=unknowns,
    )
    goal = GOALS[rtype.key][lang].replace("{a}", audience).replace("{objs}", objs)
    return Plan(
        research_goal=_fill(goal, terms.subject),
        language="zh" if lang == "zh" else "en",
        scope=scope,
        report_shape=_shape(rtype, terms, lang, facet_names),
        completion_criteria=list(T["criteria"][lang]),
        change_notes=[],
        dimensions=dims,
        execution_order=[d.id for d in dims],
    )
