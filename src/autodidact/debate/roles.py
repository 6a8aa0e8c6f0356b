"""The five Socratic roles and the moderator, with the fixed role ↔ question-type map (seed 002 §1, docs/seeds.md).

Why fixed: each role is one kind of question. Pairing a role with another role's question type
(a concept clarifier asking for implications) is a contract failure the checker reports, so the map
lives in one place and everything else looks it up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Role:
    """One perspective: its id, question type, user-visible names and what it judges."""

    role_id: str
    question_type: str
    name_zh: str
    name_en: str
    judges: str

    def name(self, lang: str) -> str:
        return self.name_zh if lang == "zh" else self.name_en


ROLES: dict[str, Role] = {
    r.role_id: r
    for r in (
        Role("concept_clarifier", "CLARIFICATION", "概念澄清者", "Concept clarifier", "terms, scope, baseline"),
        Role(
            "premise_evidence_examiner",
            "PREMISE_EVIDENCE",
            "前提与证据审查者",
            "Premise & evidence examiner",
            "key premises, leaps, evidence fit",
        ),
        Role(
            "implication_validator",
            "IMPLICATION",
            "推论与验证者",
            "Implication validator",
            "observable predictions, change conditions",
        ),
        Role(
            "alternative_explorer",
            "COMPARISON",
            "替代解释探索者",
            "Alternative explorer",
            "competing explanations and how to tell them apart",
        ),
        Role(
            "reflection_facilitator",
            "REFLECTION",
            "观点修订引导者",
            "Reflection facilitator",
            "keep / revise / undecided",
        ),
        Role("moderator", "CONFIGURATION", "主持人", "Moderator", "state, rounds, role choice, confirmations"),
    )
}

ROLE_FOR_TYPE: dict[str, str] = {r.question_type: r.role_id for r in ROLES.values()}
SUBSTANTIVE_ROLES = tuple(r for r in ROLES if r != "moderator")

LABEL_SWITCH = "SWITCH"
LABEL_INDEPENDENT = "INDEPENDENT"
LABEL_SELF_CHECK = "SELF_CHECK"


def role_matches(role_id: str, question_type: str) -> bool:
    """True when ``question_type`` is the one type ``role_id`` asks."""
    role = ROLES.get(role_id)
    return role is not None and role.question_type == question_type


def label(role_ids: list[str], kind: str, lang: str) -> str:
    """The user-visible label: ``名 · 视角切换`` / ``· 独立 Agent 评估`` / ``· 视角自检（非独立评估）``."""
    names = [ROLES[r].name(lang) for r in role_ids[:2]]
    joined = (" 与 " if lang == "zh" else " & ").join(names)
    suffix = {
        ("zh", LABEL_SWITCH): "视角切换",
        ("zh", LABEL_INDEPENDENT): "独立 Agent 评估",
        ("zh", LABEL_SELF_CHECK): "视角自检（非独立评估）",
        ("en", LABEL_SWITCH): "perspective switch",
        ("en", LABEL_INDEPENDENT): "independent agent review",
        ("en", LABEL_SELF_CHECK): "perspective self-check (not an independent review)",
    }[(lang if lang == "zh" else "en", kind)]
    return f"{joined} · {suffix}"


VALID_LABEL_SUFFIXES = (
    "视角切换",
    "独立 Agent 评估",
    "视角自检（非独立评估）",
    "perspective switch",
    "independent agent review",
    "perspective self-check (not an independent review)",
)

SOURCE_LABELS_ZH = ("用户观察", "AI建议", "AI判断", "待验证假说", "已有证据")
SOURCE_LABELS_EN = ("user observation", "AI suggestion", "AI judgement", "hypothesis to test", "existing evidence")
SOURCE_LABELS = SOURCE_LABELS_ZH + SOURCE_LABELS_EN


def source_label(key: str, lang: str) -> str:
    """Map a neutral key (observation/suggestion/judgement/hypothesis/evidence) to the label."""
    index = ("observation", "suggestion", "judgement", "hypothesis", "evidence").index(key)
    return (SOURCE_LABELS_ZH if lang == "zh" else SOURCE_LABELS_EN)[index]
