"""The MCP tools: one per thing a person asks of a knowledge base, each a thin call into :mod:`autodidact.api`.

Why thin: the API already checks its arguments and raises :class:`~autodidact.errors.AutodidactError`
with one line and a hint; here every such error becomes the tool's error text (``is_error``), the
arguments are typed and bounded so the SDK refuses bad ones before the call, and paths are names
inside the knowledge base only (``..``, absolute paths and symlinks that lead out are refused).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from autodidact import api
from autodidact.errors import AutodidactError, InputError, PathSafetyError
from autodidact.mcp.jobs import ResearchSlot
from autodidact.mcp.uris import article_uri, report_uri

if TYPE_CHECKING:
    from autodidact.sources.passage_index import Passage

T = TypeVar("T")
# What a tool returns. The SDK publishes a tool's output schema from its return annotation and
# validates every result against it, so this stays the open object clients have always been told
# (a precise TypedDict would change the published schema): a third-party boundary (docs/architecture.md, "Typing").
ToolResult: TypeAlias = dict[str, Any]
MAX_TEXT = 4000
MAX_REPORT_CHARS = 100_000
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def error_text(exc: AutodidactError) -> str:
    """``<message> (hint: <hint>)`` on one line (the SDK puts "Error executing tool <name>:" in front)."""
    message = " ".join(str(exc.message).split()) or type(exc).__name__
    return message + (f" (hint: {' '.join(exc.hint.split())})" if exc.hint else "")


def guarded(call: Callable[[], T]) -> T:
    """Run ``call``; an expected failure becomes the tool's error text, never a traceback."""
    try:
        return call()
    except AutodidactError as exc:
        raise ToolError(error_text(exc)) from None
    except OSError as exc:  # a full disk or an unreadable file is the machine's state, not a bug
        raise ToolError(f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")) from None


def corpus_paths(kb_root: Path, names: list[str]) -> list[Path]:
    """Corpus folders or files named relative to the knowledge base, each checked to stay inside it."""
    from autodidact.store.paths import safe_join

    paths: list[Path] = []
    for name in names:
        if not name.strip():
            raise InputError("corpus: an empty path was given", hint="name a folder inside the knowledge base")
        if Path(name).is_absolute() or name.startswith("~"):
            raise PathSafetyError(
                f"corpus path {name!r} is not relative to the knowledge base",
                hint="put the documents in a folder inside the knowledge base and name it, e.g. 'docs'",
            )
        paths.append(safe_join(kb_root, *Path(name).parts))
    return paths


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return path.name


def register_tools(server: MCPServer[Any], kb_root: Path, slot: ResearchSlot) -> None:  # SDK lifespan state
    """Add every tool to ``server`` for the knowledge base at ``kb_root``."""
    kb = kb_root

    @server.tool(title="Start or resume a research", annotations=WRITES)
    def research_start(
        topic: Annotated[
            str | None,
            Field(
                description="What to research, in any language. Omit to resume the knowledge base's research; "
                "a new topic on an existing one is added as an extension.",
                max_length=MAX_TEXT,
            ),
        ] = None,
        max_rounds: Annotated[int | None, Field(description="Stop after this many rounds.", ge=1, le=100)] = None,
        background: Annotated[
            str | None, Field(description="What you already know; the questions skip it.", max_length=MAX_TEXT)
        ] = None,
        corpus: Annotated[
            list[str] | None,
            Field(
                description="Folders or files inside the knowledge base to search offline, relative to it "
                "(e.g. ['docs']). Files dropped into raw/ are used without naming them.",
                max_length=50,
            ),
        ] = None,
    ) -> ToolResult:
        """Start (or resume) a research in the background and return at once; poll research_progress.

        It runs in rounds (questions, evidence, wiki, audit) until more rounds stop adding value.
        """
        return guarded(
            lambda: slot.start(
                topic, max_rounds=max_rounds, background=background, corpus=corpus_paths(kb, corpus or [])
            )
        )

    @server.tool(title="Research progress", annotations=READ_ONLY)
    def research_progress() -> ToolResult:
        """How the background research is going: state, round, step, key questions done of total, recent lines.

        ``job`` is null when this server has not started one; ``status`` is read from the files either way.
        """

        def read() -> ToolResult:
            job = slot.progress()
            try:
                found = api.status(kb=kb)
                files: ToolResult | None = _status_summary(found)
            except AutodidactError:
                files = None
            return {"job": job, "status": files}

        return guarded(read)

    @server.tool(title="Stop the research", annotations=WRITES)
    def research_stop() -> ToolResult:
        """Stop the background research at its next safe point; research_start resumes it exactly."""

        def stop() -> ToolResult:
            progress = slot.stop(wait=5.0)
            if progress is None:
                raise InputError("no research is running from this server", hint="start one with research_start")
            return progress

        return guarded(stop)

    @server.tool(title="Research status", annotations=READ_ONLY)
    def status() -> ToolResult:
        """Rounds, counts, audit issues and overlap per round, each termination condition, cost so far."""
        return guarded(lambda: dict(api.status(kb=kb).report))

    @server.tool(title="Ask a question for the next round", annotations=WRITES)
    def ask(
        question: Annotated[str, Field(description="The question, in any language.", min_length=1, max_length=2000)],
    ) -> ToolResult:
        """Add a question for the research's next round (safe while a research runs; re-opens a finished one)."""

        def add() -> ToolResult:
            text = api.ask(question, kb=kb)
            return {"added": text, "pending_user_questions": api.status(kb=kb).pending_user_questions}

        return guarded(add)

    @server.tool(title="Search the knowledge base", annotations=READ_ONLY)
    def search(
        query: Annotated[str, Field(description="Words to find, Chinese or English.", min_length=1, max_length=1000)],
        k: Annotated[int, Field(description="How many passages.", ge=1, le=50)] = 10,
    ) -> ToolResult:
        """BM25 search over every stored source's passages, best first; each hit names its source."""

        def find() -> ToolResult:
            hits = api.search(query, kb=kb, k=k)
            return {"query": query, "hits": [_hit(n, p) for n, p in enumerate(hits, 1)]}

        return guarded(find)

    @server.tool(title="List wiki articles", annotations=READ_ONLY)
    def list_articles() -> ToolResult:
        """Every wiki article by name and title (read one with read_article)."""

        def listing() -> ToolResult:
            articles = api.list_articles(kb=kb)
            return {"articles": [{"name": a.name, "title": a.title, "uri": article_uri(a.name)} for a in articles]}

        return guarded(listing)

    @server.tool(title="Read a wiki article", annotations=READ_ONLY)
    def read_article(
        name: Annotated[
            str,
            Field(
                description="The article's name as list_articles gives it (its file name without .md); "
                "'INDEX' for the index.",
                min_length=1,
                max_length=300,
            ),
        ],
    ) -> str:
        """The markdown of one wiki article, or of the index with name 'INDEX'."""
        return guarded(lambda: api.read_article(name, kb=kb))

    @server.tool(title="Read the research summary", annotations=READ_ONLY)
    def read_summary() -> str:
        """The closing summary of the research: findings, and the questions still partial or open."""
        return guarded(lambda: api.read_summary(kb=kb))

    @server.tool(title="Make a cited report", annotations=WRITES)
    def report(
        request: Annotated[
            str, Field(description="What the report should answer, in any language.", min_length=1, max_length=MAX_TEXT)
        ],
        mode: Annotated[
            Literal["quick", "normal", "heavy"], Field(description="quick (skim), normal or heavy (thorough).")
        ] = "normal",
    ) -> ToolResult:
        """Plan, gather evidence from the knowledge base and write a cited report under reports/; returns it.

        Calling again with the same request resumes in the same folder (finished parts are kept).
        """

        def make() -> ToolResult:
            from datetime import date

            from autodidact.report.folder import default_report_dir

            folder = default_report_dir(request, kb, today=date.today())
            result = api.report(request, kb=kb, report_dir=folder, mode=mode)
            text = result.report_md.read_text("utf-8") if result.report_md.is_file() else ""
            cut = len(text) > MAX_REPORT_CHARS
            return {
                "ok": not result.failed, "report_dir": _relative(result.report_dir, kb), "uri": report_uri(folder.name),
                "dimensions_failed": result.failed, "citations": result.citations,
                "report": text[:MAX_REPORT_CHARS] + ("\n\n[cut: read the whole report as its resource]" if cut else ""),
            }  # fmt: skip

        return guarded(make)

    @server.tool(title="Start an idea debate", annotations=WRITES)
    def debate_start(
        prompt: Annotated[
            str,
            Field(description="An intuition, observation or claim.", min_length=1, max_length=MAX_TEXT),
        ],
        depth: Annotated[
            Literal["quick", "standard", "deep"] | None,
            Field(description="quick, standard or deep; omitted, the first turn asks."),
        ] = None,
    ) -> ToolResult:
        """Start a Socratic session: it restates the idea and asks one focus question per turn.

        Answer with debate_reply, passing the session_id and the turn you answer.
        """
        return guarded(lambda: _turn_of(api.Debate.start(prompt, kb=kb, depth=depth)))

    @server.tool(title="Answer the debate's question", annotations=WRITES)
    def debate_reply(
        session_id: Annotated[str, Field(description="debate_start's session_id.", min_length=1, max_length=200)],
        answer: Annotated[str, Field(description="Your answer, verbatim.", min_length=1, max_length=MAX_TEXT)],
        turn: Annotated[
            int | None, Field(description="The turn you answer (refused if the session moved on).", ge=1)
        ] = None,
    ) -> ToolResult:
        """Answer the open question of a debate and get the next turn."""
        return guarded(lambda: api.Debate(session_id, kb=kb).reply(answer, turn=turn).as_dict())

    @server.tool(title="Close a debate", annotations=WRITES)
    def debate_close(
        session_id: Annotated[str, Field(description="The session to close.", min_length=1, max_length=200)],
    ) -> ToolResult:
        """Close a debate: a final checkpoint, and its summary written under debates/<id>/summaries/."""

        def close() -> ToolResult:
            debate = api.Debate(session_id, kb=kb)
            turn = debate.close().as_dict()
            turn["summaries"] = [_relative(p, kb) for p in debate.summary_files()]
            return turn

        return guarded(close)


def _hit(rank: int, passage: Passage) -> ToolResult:
    source = f"raw/{passage.raw_file}" if passage.raw_file else passage.url
    return {
        "rank": rank, "label": passage.label, "source": source, "score": round(passage.score, 3),
        "all_words": passage.all_terms, "text": passage.text,
    }  # fmt: skip


def _turn_of(debate: api.Debate) -> ToolResult:
    if debate.turn is None:
        raise InputError("the debate did not start", hint="try again")
    return debate.turn.as_dict()


def _status_summary(found: api.Status) -> ToolResult:
    return {
        "topic": found.topic, "status": found.status, "rounds_completed": found.rounds_completed,
        "max_rounds": found.max_rounds, "current_round": found.current_round, "raw_files": found.raw_files,
        "wiki_articles": found.wiki_articles, "pending_user_questions": found.pending_user_questions,
        "summary": found.summary,
    }  # fmt: skip
