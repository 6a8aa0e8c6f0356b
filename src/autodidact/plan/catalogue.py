# ruff: noqa: E501
"""The built-in catalogue of report types: report-format discovery without a network.

Why a catalogue: seed 004 asks the planner to ground the final report's structure in a credible
basis (a guideline, a template, real exemplars or a domain convention) instead of inventing
sections. Offline there is nothing to search, so each common report type carries its required
sections, its mandatory non-section elements (comparison tables, timelines, risk lists) and the
basis those come from, in Chinese and English. The offline planner picks a type by the request's
keywords; a model planner receives the catalogue as a reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Text = dict[str, str]  # {"en": ..., "zh": ...}
TextList = dict[str, list[str]]


@dataclass(frozen=True)
class Basis:
    """One structure basis (seed 004 ``format_basis`` entry), bilingual."""

    type: str
    name: Text
    credibility_reason: Text
    what_extracted: Text


@dataclass(frozen=True)
class ReportType:
    """A catalogue entry: how to recognise the type, and the structure its reports need."""

    key: str
    label: Text
    keywords: TextList
    sections: TextList
    mandatory_elements: TextList
    basis: tuple[Basis, ...]
    style: Text
    archetypes: tuple[str, ...]  # dimension archetypes in execution order (see plan.archetypes)

    def text(self, field: Text, lang: str) -> str:
        """Pick the language variant of a bilingual field."""
        return field.get(lang) or field["en"]


_STYLE = {
    "en": (
        "Neutral, evidence-first. Every factual sentence cites its source as [N]; state certainty "
        "only as far as the evidence goes; mark contested or single-source points as such; no normative advice "
        "that the evidence does not support."
    ),
    "zh": "客观、以证据为先。每个事实句以 [N] 标注来源；确定性表达不超过证据支撑；有争议或单一来源的结论明确标注；不给出证据不支持的规范性建议。",
}

CATALOGUE: dict[str, ReportType] = {
    "panorama": ReportType(
        key="panorama",
        label={"en": "Panorama / overview", "zh": "全景综述"},
        keywords={
            "en": ["overview", "panorama", "landscape", "introduction to", "state of", "survey", "guide to"],
            "zh": ["全景", "综述", "概览", "概况", "全貌", "盘点", "入门", "介绍"],
        },
        sections={
            "en": [
                "Executive summary",
                "Scope and method",
                "Definitions and scope",
                "Landscape and components",
                "Current state",
                "Trends and open questions",
                "Uncertainties and limitations",
            ],
            "zh": ["摘要", "范围与方法", "定义与口径", "构成与格局", "现状", "趋势与未决问题", "不确定性与局限"],
        },
        mandatory_elements={
            "en": [
                "Key findings list",
                "Landscape table of components",
                "Evidence coverage matrix (key questions by dimension)",
            ],
            "zh": ["关键发现清单", "构成要素表", "证据覆盖矩阵（关键问题×维度）"],
        },
        basis=(
            Basis(
                "domain_convention",
                {"en": "Survey / review article convention", "zh": "综述类文章通行结构"},
                {
                    "en": "Review articles and encyclopaedic overviews consistently open with definitions and end with open questions.",
                    "zh": "综述论文与百科式概览普遍以定义开篇、以未决问题收尾，结构稳定。",
                },
                {
                    "en": "Definition-first order, landscape table, open-questions section.",
                    "zh": "定义先行的顺序、构成要素表、未决问题一节。",
                },
            ),
        ),
        style=_STYLE,
        archetypes=("definition", "landscape", "state", "trends"),
    ),
    "comparison": ReportType(
        key="comparison",
        label={"en": "Comparison / selection", "zh": "对比选型"},
        keywords={
            "en": [
                " vs ",
                " versus ",
                "compare",
                "comparison",
                "choose between",
                "which is better",
                "selection",
                "alternatives to",
                "trade-off",
                "tradeoff",
            ],
            "zh": ["对比", "比较", "选型", "哪个好", "还是", "优劣", "差异", "区别", "替代方案"],
        },
        sections={
            "en": [
                "Executive summary",
                "Scope and method",
                "Selection criteria",
                "Candidate profiles",
                "Comparison matrix",
                "Fit by scenario",
                "Risks and uncertainties",
            ],
            "zh": ["摘要", "范围与方法", "选型标准", "候选方案概况", "对比矩阵", "场景适配", "风险与不确定性"],
        },
        mandatory_elements={
            "en": ["Comparison table (candidates by criterion)", "Key findings list", "Risk list per candidate"],
            "zh": ["对比表（候选×标准）", "关键发现清单", "各候选风险清单"],
        },
        basis=(
            Basis(
                "standard_guideline",
                {
                    "en": "Decision-matrix / technology selection practice (e.g. ADR and weighted-criteria evaluation)",
                    "zh": "决策矩阵与技术选型实践（如架构决策记录 ADR、加权标准评估）",
                },
                {
                    "en": "Widely used engineering decision records require explicit criteria, options and consequences.",
                    "zh": "工程决策记录通行做法要求明确标准、备选项与后果，是选型报告的事实标准。",
                },
                {
                    "en": "Criteria first, one profile per option, a candidates-by-criteria matrix, consequences and risks.",
                    "zh": "先定标准、逐一描述候选、候选×标准矩阵、后果与风险。",
                },
            ),
        ),
        style=_STYLE,
        archetypes=("criteria", "candidate", "tradeoffs"),
    ),
    "investigation": ReportType(
        key="investigation",
        label={"en": "Investigation / root cause", "zh": "调查分析"},
        keywords={
            "en": [
                "why did",
                "why does",
                "investigate",
                "investigation",
                "root cause",
                "what caused",
                "cause of",
                "incident",
                "failure",
                "problem with",
            ],
            "zh": ["为什么", "原因", "调查", "根因", "事件", "事故", "问题分析", "怎么回事"],
        },
        sections={
            "en": [
                "Executive summary",
                "Scope and method",
                "Background and established facts",
                "Causes and explanations",
                "Impacts",
                "Counter-evidence and open questions",
            ],
            "zh": ["摘要", "范围与方法", "背景与已确认事实", "原因与解释", "影响", "反证与未决问题"],
        },
        mandatory_elements={
            "en": [
                "Key findings list",
                "Evidence table of competing explanations (support / refute)",
                "Open questions list",
            ],
            "zh": ["关键发现清单", "竞争性解释证据表（支持/反驳）", "未决问题清单"],
        },
        basis=(
            Basis(
                "standard_guideline",
                {"en": "Incident review / root-cause analysis practice", "zh": "事件复盘与根因分析实践"},
                {
                    "en": "Post-incident reviews separate facts, causes and impact, and keep disconfirming evidence visible.",
                    "zh": "事件复盘通行做法区分事实、原因与影响，并保留反证。",
                },
                {
                    "en": "Facts before causes; explanations weighed by supporting and refuting evidence.",
                    "zh": "先事实后原因；按支持与反驳证据权衡解释。",
                },
            ),
        ),
        style=_STYLE,
        archetypes=("background", "causes", "impact"),
    ),
    "timeline": ReportType(
        key="timeline",
        label={"en": "Timeline / history", "zh": "时间线沿革"},
        keywords={
            "en": ["history of", "timeline", "evolution of", "how did", "chronology", "over the years", "since"],
            "zh": ["历史", "时间线", "沿革", "演变", "发展历程", "变迁", "演进", "历程"],
        },
        sections={
            "en": [
                "Executive summary",
                "Scope and method",
                "Timeline",
                "Phases and turning points",
                "Drivers of change",
                "Consequences",
                "Gaps in the record",
            ],
            "zh": ["摘要", "范围与方法", "时间线", "阶段与转折点", "变化的驱动因素", "后果", "记录中的缺口"],
        },
        mandatory_elements={
            "en": ["Timeline table (date, event, source)", "Key findings list", "Phase summary"],
            "zh": ["时间线表（时间、事件、来源）", "关键发现清单", "阶段小结"],
        },
        basis=(
            Basis(
                "domain_convention",
                {"en": "Historical chronology convention", "zh": "史学编年惯例"},
                {
                    "en": "Chronologies order dated events with sources and then interpret phases.",
                    "zh": "编年体按时间排列有出处的事件，再归纳阶段。",
                },
                {"en": "Dated event table, phases, drivers.", "zh": "带日期的事件表、阶段、驱动因素。"},
            ),
        ),
        style=_STYLE,
        archetypes=("chronology", "drivers", "impact"),
    ),
    "industry": ReportType(
        key="industry",
        label={"en": "Industry / market research", "zh": "行业调研"},
        keywords={
            "en": ["market", "industry", "players", "market size", "competitors", "competitive landscape", "vendors"],
            "zh": ["行业", "市场", "规模", "玩家", "竞争", "竞品", "厂商", "产业"],
        },
        sections={
            "en": [
                "Executive summary",
                "Scope and method",
                "Market definition",
                "Market size and structure",
                "Players and competition",
                "Trends and drivers",
                "Risks and uncertainties",
            ],
            "zh": [
                "摘要",
                "范围与方法",
                "市场界定",
                "市场规模与结构",
                "主要玩家与竞争格局",
                "趋势与驱动因素",
                "风险与不确定性",
            ],
        },
        mandatory_elements={
            "en": ["Player comparison table", "Key figures table with dates and sources", "Risk list"],
            "zh": ["玩家对比表", "关键数据表（含日期与来源）", "风险清单"],
        },
        basis=(
            Basis(
                "real_exemplar",
                {
                    "en": "Analyst industry reports (market definition, sizing, competition, outlook)",
                    "zh": "券商与咨询机构行业研究报告（界定、规模、竞争、展望）",
                },
                {
                    "en": "Sell-side and consulting industry reports follow this order so readers can check figures against definitions.",
                    "zh": "行业研报普遍采用该顺序，使读者能把数据与口径对照。",
                },
                {
                    "en": "Definition before sizing; dated figures; player table; drivers and risks.",
                    "zh": "先口径后规模；数据带日期；玩家表；驱动与风险。",
                },
            ),
        ),
        style=_STYLE,
        archetypes=("definition", "market", "players", "trends"),
    ),
    "policy": ReportType(
        key="policy",
        label={"en": "Policy / regulation analysis", "zh": "政策法规分析"},
        keywords={
            "en": ["policy", "regulation", "law", "legal", "compliance", "regulatory", "act ", "directive", "rule "],
            "zh": ["政策", "法规", "监管", "法律", "条例", "合规", "办法", "规定"],
        },
        sections={
            "en": [
                "Executive summary",
                "Scope and method",
                "Policy content and legal basis",
                "Stakeholders and implementation",
                "Impacts",
                "Timeline of adoption",
                "Risks, ambiguities and open questions",
            ],
            "zh": [
                "摘要",
                "范围与方法",
                "政策内容与法律依据",
                "相关主体与执行",
                "影响",
                "出台与实施时间线",
                "风险、模糊点与未决问题",
            ],
        },
        mandatory_elements={
            "en": [
                "Provision summary table (provision, requirement, source)",
                "Timeline table",
                "Stakeholder impact list",
            ],
            "zh": ["条款要点表（条款、要求、出处）", "时间线表", "相关方影响清单"],
        },
        basis=(
            Basis(
                "official_template",
                {"en": "Regulatory impact assessment structure", "zh": "监管影响评估（RIA）结构"},
                {
                    "en": "Governments publish impact-assessment templates that require the legal basis, affected parties and impacts.",
                    "zh": "多国政府发布的影响评估模板要求写明法律依据、受影响主体与影响。",
                },
                {
                    "en": "Provision summary, stakeholders, impacts, implementation timeline.",
                    "zh": "条款概要、相关主体、影响、实施时间线。",
                },
            ),
        ),
        style=_STYLE,
        archetypes=("policy_text", "actors", "impact", "chronology"),
    ),
    "technical": ReportType(
        key="technical",
        label={"en": "Technical deep-dive", "zh": "技术研究"},
        keywords={
            "en": [
                "how does",
                "how do",
                "how to",
                "works",
                "mechanism",
                "architecture",
                "implementation",
                "internals",
                "explain",
                "semantics",
                "protocol",
                "algorithm",
            ],
            "zh": ["原理", "机制", "如何工作", "实现", "架构", "技术", "方案", "用法", "怎么用"],
        },
        sections={
            "en": [
                "Executive summary",
                "Scope and method",
                "Concepts and definitions",
                "How it works",
                "Usage in practice",
                "Limitations and pitfalls",
            ],
            "zh": ["摘要", "范围与方法", "概念与定义", "工作原理", "实践用法", "局限与常见陷阱"],
        },
        mandatory_elements={
            "en": ["Key findings list", "Concept table (term, definition, source)", "Pitfalls list"],
            "zh": ["关键发现清单", "概念表（术语、定义、出处）", "常见陷阱清单"],
        },
        basis=(
            Basis(
                "standard_guideline",
                {
                    "en": "Technical documentation conventions (concepts, reference, how-to; e.g. the Diátaxis framework)",
                    "zh": "技术文档通行框架（概念—原理—用法，如 Diátaxis 文档框架）",
                },
                {
                    "en": "Official language and library documentation separates explanation, reference and how-to material.",
                    "zh": "官方语言与库文档普遍区分解释、参考与操作指南。",
                },
                {
                    "en": "Concepts before mechanism, then usage and pitfalls; a concept table.",
                    "zh": "先概念后原理，再用法与陷阱；概念表。",
                },
            ),
        ),
        style=_STYLE,
        archetypes=("definition", "mechanism", "usage", "limits"),
    ),
}

DEFAULT_TYPE = "technical"

# Topics for which seed 004 makes a latest-information check mandatory.
FRESHNESS_TRIGGERS: TextList = {
    "en": [
        "market",
        "policy",
        "regulation",
        "law",
        "legal",
        "product",
        "company",
        "companies",
        "price",
        "pricing",
        "vendor",
        "ceo",
        "founder",
        "people",
        "person",
        "startup",
        "industry",
        "release",
        "version",
        "latest",
    ],
    "zh": [
        "市场",
        "政策",
        "法规",
        "法律",
        "监管",
        "产品",
        "公司",
        "企业",
        "价格",
        "定价",
        "厂商",
        "人物",
        "创始人",
        "行业",
        "最新",
        "版本",
        "发布",
    ],
}


def classify_request(text: str, lang: str) -> ReportType:
    """The catalogue type whose keywords the request matches best (ties: catalogue order)."""
    lowered = f" {text.lower()} "
    best, best_score = CATALOGUE[DEFAULT_TYPE], 0
    for entry in CATALOGUE.values():
        score = sum(lowered.count(w) for w in entry.keywords["zh"]) if lang == "zh" else 0
        score += sum(len(re.findall(rf"\b{re.escape(w.strip())}\b", lowered)) for w in entry.keywords["en"])
        if score > best_score:
            best, best_score = entry, score
    return best


def needs_freshness(text: str) -> bool:
    """True when the request touches markets, policy, products, companies, prices, law or people."""
    lowered = text.lower()
    if any(w in lowered for w in FRESHNESS_TRIGGERS["zh"]):
        return True
    return any(re.search(rf"\b{re.escape(w)}", lowered) for w in FRESHNESS_TRIGGERS["en"])
