"""The questioner's data: its inputs (plain data from the loop) and ``round_N_questions.json``.

Why plain data in: the questioner (L3) may not import the wiki or the loop, so the loop reads the
previous check report with the wiki's parser and passes directions, gaps and statuses in as
strings. The output model is the JSON of seed 000 (docs/seeds.md, docs/contracts.md §1.3) plus two optional fields —
each question's ``facet`` (the article its answer is filed under) and ``off_topic_questions`` —
which default to null / empty, so files written before them still load (docs/questions.md);
``extra="forbid"`` makes a model reply or a hand-edited file with unknown fields fail loudly
instead of drifting.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Priority = Literal["high", "medium", "low"]
QuestionSource = Literal["audit", "user", "framework", "raw"]
PRIORITY_RANK: dict[str, int] = {"high": 0, "medium": 1, "low": 2}


class Question(BaseModel):
    """One question of a round (seed 000 step 6, docs/seeds.md)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^r\d+q\d+$", description="r<round>q<k>, numbered from 1 in priority order")
    text: str = Field(min_length=1, description="the question, specific enough to map to a search")
    layer: str = Field(description="framework layer, e.g. L1-定义 / L2-mechanism; audit/user questions too")
    priority: Priority
    source: QuestionSource = Field(description="audit | user | framework | raw")
    depends_on: list[str] = Field(default_factory=list, description="ids of questions this one builds on")
    rationale: str = Field(description="why this round asks it, and which finding it comes from")
    facet: str | None = Field(
        None,
        description="the topic facet it belongs to (the wiki files its answer under that facet's article); "
        "null = the topic as a whole or no facet. Optional: files written before facets existed read as null",
    )


class DedupedQuestion(BaseModel):
    """A candidate dropped because it repeats a question already asked."""

    model_config = ConfigDict(extra="forbid")
    text: str
    matched_history_id: str


class RoundQuestions(BaseModel):
    """``outputs/rounds/round_N_questions.json``."""

    model_config = ConfigDict(extra="forbid")
    questions: list[Question]
    overlap_ratio: float | None = Field(
        description="output questions similar to any earlier question ÷ output questions; null in round 1"
    )
    deduped_questions: list[DedupedQuestion] = Field(default_factory=list)
    incorporated_user_questions: list[str] = Field(default_factory=list)
    off_topic_questions: list[str] = Field(
        default_factory=list,
        description="candidates dropped because they share no key term with the topic, its facets or a user "
        "question (an off-topic concept from a raw file, a model's drift)",
    )
    waiting_questions: int = Field(
        default=0,
        ge=0,
        description="new questions (never asked, not covered by the wiki) the round had no room for",
    )


class HistoryItem(BaseModel):
    """One ``all_questions_ever`` entry."""

    id: str
    text: str
    facet: str | None = Field(None, description="its facet when known (else found from its words)")


class RawDigest(BaseModel):
    """A new raw file a person contributed, reduced to what the questioner reads."""

    filename: str
    title: str
    body: str = Field(description="the beginning of the body text (the questioner reads headings and terms)")


class OutlineEntry(BaseModel):
    """A section heading the local documents rank first for a facet (sources/outline.py)."""

    facet: str | None = Field(None, description="the facet it was found for; null for the subject as a whole")
    heading: str = Field(min_length=1, description="the section's heading without its numbering")
    document: str = Field("", description="its document's title when other documents share the heading")


class EntryRef(BaseModel):
    """A reference entry (a function, method or option) the documents give a facet (sources/entry_outline.py)."""

    facet: str = Field(description="the facet it was found for")
    name: str = Field(min_length=1, description="the entry's name as the documents write it: assertRaises, --mirror")
    place: str = Field("", description="the module a function entry belongs to (asked 'What does sub do in re?')")


class QuestionerInputs(BaseModel):
    """Everything one round's question generation depends on (seed 001 step 1, docs/seeds.md context)."""

    topic: str
    round: int = Field(ge=1)
    language: Literal["zh", "en"] = "en"
    background: str | None = None
    extension_topics: list[str] = Field(
        default_factory=list, description="topics appended since the last round: they get cold-start questions"
    )
    directions: list[str] = Field(default_factory=list, description="the check report's 建议下一轮重点方向, in order")
    gaps: list[str] = Field(default_factory=list, description="知识漏洞 items: unexplained concepts, missing topics")
    partial: list[str] = Field(default_factory=list, description="partial questions with their named gap")
    missing_sources: list[str] = Field(default_factory=list, description="来源缺失 items: not counted as covered")
    check_report: str | None = Field(None, description="the check report the inputs came from (path)")
    check_report_warning: str | None = Field(None, description="set when an older report stood in for N-1's")
    user_questions: list[str] = Field(default_factory=list, description="待处理 lines, verbatim")
    new_raw_files: list[RawDigest] = Field(default_factory=list)
    # The sections the last round quoted (research excerpts): the terms they mark are follow-ups.
    quoted_excerpts: list[RawDigest] = Field(default_factory=list)
    # The documents' own sections per facet: each heading becomes a "key points of" question.
    outline: list[OutlineEntry] = Field(default_factory=list)
    # The reference entries the documents give each facet: each becomes a "What does X do?" question.
    entries: list[EntryRef] = Field(default_factory=list)
    history: list[HistoryItem] = Field(default_factory=list, description="all_questions_ever")
    wiki_dir: str | None = Field(None, description="wiki/ folder, read to drop questions already covered well")
    min_questions: int = 5
    max_questions: int = 10

    @property
    def cold_start(self) -> bool:
        """Round 1: no audit report yet, the framework is the only source (seed 000 step 1, docs/seeds.md)."""
        return self.round == 1


class Candidate(BaseModel):
    """A proposed question before the filters (what the model path returns)."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=3, description="one specific, searchable question in the topic's language")
    layer: str = Field(description="L1-定义 … L4-… (or the English layer name)")
    priority: Priority = Field(description="user and audit directions: high; gaps: medium; framework: low")
    source: QuestionSource
    rationale: str = Field(description="which finding or framework slot this comes from")
    depends_on: list[str] = Field(default_factory=list)
    facet: str | None = Field(None, description="the name of the topic facet it asks about, or null")


class CandidateList(BaseModel):
    """The question-proposal task's output."""

    model_config = ConfigDict(extra="forbid")
    # maxItems only in the schema sent (a grammar-constrained model stops there); a longer list
    # from a hosted model is still read, and the program's filters keep the best.
    candidates: list[Candidate] = Field(json_schema_extra={"maxItems": 16})
