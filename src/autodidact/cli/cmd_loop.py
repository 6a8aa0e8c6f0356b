"""``autodidact research | ask | status | questions generate``: the research loop's commands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autodidact.cli.common import console, emit_json, json_option, kb_option, out, real_console
from autodidact.cli.engine_opts import (
    fallback_option,
    max_cost_option,
    max_tokens_option,
    model_option,
    no_cache_option,
)
from autodidact.progress import NullProgress

if TYPE_CHECKING:
    from autodidact.jsontypes import JSONObject
    from autodidact.llm.runtime import Runtime
    from autodidact.loop.progress import CounterValue, StepInfo
    from autodidact.loop.runner import RunResult
    from autodidact.loop.status import StatusReport

STEP_LABEL = {
    "questions": "step 1 questions",
    "research": "step 2 research",
    "compile": "step 3 wiki compile",
    "check": "step 4 wiki check",
    "state": "steps 5-6 state + termination",
}


STEP_LABEL_ZH = {
    "questions": "第 1 步 提问",
    "research": "第 2 步 检索",
    "compile": "第 3 步 编译 wiki",
    "check": "第 4 步 检查 wiki",
    "state": "第 5-6 步 状态与终止判断",
}


class RichReporter(NullProgress):
    """Renders loop progress on stderr: round N of M, step, questions, sources, claims, cost.

    On a terminal a live line under the output spins and reads "round 2/5 · step 2 research · key
    questions 3/7 · waiting for the model" (``live_status.py``); off a terminal only the plain lines
    are written. A Chinese topic gets Chinese progress lines: a person who asked in Chinese reads
    one language. Call :meth:`close` when the run ends, however it ends."""

    def __init__(self, verbose: bool = False, runtime: Runtime | None = None) -> None:
        from autodidact.cli.live_status import LiveStatus

        self.verbose = verbose
        self.zh = False
        self.status = LiveStatus(console, runtime)

    def close(self) -> None:
        """Take the live line off the screen."""
        self.status.stop()

    def _label(self, step: str) -> str:
        return (STEP_LABEL_ZH if self.zh else STEP_LABEL).get(step, step)

    def run_started(self, *, topic: str, kb_root: str, resumed_round: int | None, max_rounds: int) -> None:
        from autodidact.text.tokens import has_cjk

        self.zh = has_cjk(topic)
        self.status.zh = self.zh
        self.status.start()
        if self.zh:
            where = f"继续第 {resumed_round} 轮" if resumed_round else "开始"
            console.print(f"[bold]## 研究：[/bold]{topic}")
            console.print(f"   知识库：{kb_root} · 最多 {max_rounds} 轮 · {where}")
            return
        where = f"continuing round {resumed_round}" if resumed_round else "starting"
        console.print(f"[bold]## research:[/bold] {topic}")
        console.print(f"   knowledge base: {kb_root} · max rounds {max_rounds} · {where}")

    def round_started(self, round_n: int, max_rounds: int) -> None:
        title = f"第 {round_n} 轮（最多 {max_rounds} 轮）" if self.zh else f"round {round_n} of at most {max_rounds}"
        if self.status.shown:
            console.rule(title)
        else:  # a log: one plain line, not a rule as wide as the (unbounded) width
            console.print(f"── {title} ──")
        self.status.set("round", f"第 {round_n}/{max_rounds} 轮" if self.zh else f"round {round_n}/{max_rounds}")
        self.status.set("step", None)
        self.status.set("questions", None)

    def step_started(self, round_n: int, step: str) -> None:
        console.print(f"[cyan]→ {self._label(step)}[/cyan]")
        self.status.set("step", self._label(step))
        self.status.set("questions", None)

    def step_skipped(self, round_n: int, step: str) -> None:
        skipped = "（中断前已完成，跳过）" if self.zh else " (done before the interruption; skipped)"
        console.print(f"[dim]✓ {self._label(step)}{skipped}[/dim]")

    def step_done(self, round_n: int, step: str, info: StepInfo) -> None:
        if self.zh:
            console.print(f"  [green]✓[/green] {_done_zh(step, info)}")
            return
        if step == "questions":
            text = f"{info.get('questions', 0)} questions"
            if info.get("overlap") is not None:
                text += f", overlap {info['overlap']:.0%}"
        elif step == "research":
            text = _research_line_en(info)
            usage = info.get("usage")
            if usage and usage["calls"]:
                text += f" · {usage['input_tokens'] + usage['output_tokens']} tokens, ${usage['cost_usd']:.4f} so far"
        elif step == "compile":
            text = f"{info.get('topics', 0)} wiki topics updated"
        elif step == "state":
            text = (
                f"audit issues {info.get('audit_issues_count')}, decision [bold]{info.get('decision')}[/bold]: "
                f"{info.get('reason')}"
            )
        else:
            text = "done"
        console.print(f"  [green]✓[/green] {text}")

    def progress(self, round_n: int, **counters: CounterValue) -> None:
        total = counters.get("key_questions_total")
        if total:
            done = counters.get("key_questions_done", 0)
            self.status.set("questions", f"关键问题 {done}/{total}" if self.zh else f"key questions {done}/{total}")
        if "key_question" in counters or self.verbose:
            detail = counters.get("detail")
            if detail:
                console.print(f"    [dim]{detail}[/dim]")

    def message(self, text: str) -> None:
        console.print(text.rstrip(), markup=False)

    def warning(self, text: str) -> None:
        console.print(f"[yellow]warning:[/yellow] {text}", markup=True)

    def run_finished(self, result: RunResult) -> None:
        self.close()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _research_line_en(info: StepInfo) -> str:
    """Step 2's line: what the agent kept and, beside it, what is new — the numbers `status` and the
    stall rule read — so "9 claims" in a round that added nothing reads "9 claims (0 new)"."""

    def counted(count: int | None, new: int | None, word: str) -> str:
        text = _plural(int(count or 0), word)
        return text if new is None else f"{text} ({new} new)"

    sources, new_sources = int(info.get("sources") or 0), info.get("new_sources")
    if new_sources is not None and new_sources > sources:
        # the files a person added are new sources before any is quoted: "2 sources (23 new)" read
        # as a sum gone wrong (a fresh-eyes trial)
        first = f"{_plural(sources, 'source')} quoted, {new_sources} new counting the files you added"
    else:
        first = counted(sources, new_sources, "source")
    return (
        f"{first}, "
        f"{counted(info.get('claims'), info.get('new_claims'), 'claim')}, "
        f"{_plural(int(info.get('raw_files', 0) or 0), 'new raw file')}, "
        f"{_plural(int(info.get('dropped', 0) or 0), 'claim')} dropped"
    )


def _new_zh(new: int | None) -> str:
    return f"（新 {new}）" if new is not None else ""


def _done_zh(step: str, info: StepInfo) -> str:
    """A finished step's line in Chinese (the English lines in ``RichReporter.step_done``)."""
    if step == "questions":
        text = f"{info.get('questions', 0)} 个问题"
        return text + (f"，与历史问题重叠 {info['overlap']:.0%}" if info.get("overlap") is not None else "")
    if step == "research":
        sources, new_sources = int(info.get("sources") or 0), info.get("new_sources")
        if new_sources is not None and new_sources > sources:
            first = f"引用 {sources} 个来源，连同你加入的文件共新增 {new_sources} 个"
        else:
            first = f"{sources} 个来源{_new_zh(new_sources)}"
        text = (
            f"{first}，"
            f"{info.get('claims', 0)} 条论据{_new_zh(info.get('new_claims'))}，"
            f"{info.get('raw_files', 0)} 个新 raw 文件，丢弃 {info.get('dropped', 0)} 条论据"
        )
        usage = info.get("usage")
        if usage and usage["calls"]:
            tokens = usage["input_tokens"] + usage["output_tokens"]
            text += f" · 累计 {tokens} tokens，${usage['cost_usd']:.4f}"
        return text
    if step == "compile":
        return f"更新了 {info.get('topics', 0)} 个 wiki 主题"
    if step == "state":
        decision = f"[bold]{info.get('decision')}[/bold]"
        return f"审计问题 {info.get('audit_issues_count')} 个，决定 {decision}：{info.get('reason')}"
    return "完成"


def _result_json(result: RunResult) -> JSONObject:
    """``research --json``: how the run ended and where its outputs are."""
    root = result.kb_root
    return {
        "kb": str(root),
        "status": result.status,
        "rounds": result.rounds,
        "reason": result.reason,
        "stopped_by": result.stopped_by,
        "summary": str(root / result.summary) if result.summary else None,
        "wiki": str(root / "wiki"),
        "state": str(root / "outputs" / "research_state.json"),
        "warnings": list(result.warnings),
    }


def _final_block(result: RunResult, *, as_json: bool) -> None:
    """How the run ended and where to read it: the command's result, so on stdout (the README's
    "Output"); the rule above it is progress, on stderr. With ``--json`` stdout holds the JSON
    alone, and the block goes to stderr with the progress."""
    shown = console if as_json else out
    root = result.kb_root
    if real_console(console).is_terminal:
        console.rule("done")
    else:
        console.print("── done ──")
    if result.status == "already_complete":
        console.print("This research had already finished; nothing new arrived (ask a question to re-open it).")
    shown.print(f"## {result.rounds} round(s) · status: {result.status} · {result.reason}", markup=False)
    shown.print(f"- wiki:    {root / 'wiki'}  (start at wiki/INDEX.md)", markup=False)
    if result.summary:
        shown.print(f"- summary: {root / result.summary}", markup=False)
    shown.print(f"- rounds:  {root / 'outputs' / 'rounds'}", markup=False)
    shown.print(f"- state:   {root / 'outputs' / 'research_state.json'}", markup=False)
    shown.print(f"- status:  autodidact status --kb {root}", markup=False)


def register(app: typer.Typer) -> None:
    """Add research, ask, status and the questions group."""

    @app.command("research")
    def research_cmd(
        topic: str | None = typer.Argument(None, help="Research topic; omit to resume the knowledge base's research."),
        kb: Path | None = kb_option(),
        max_rounds: int | None = typer.Option(
            None,
            "--max-rounds",
            min=1,
            help="Stop after this many rounds in total (default 20, or the saved value); raised by one "
            "when your questions or files are waiting.",
        ),
        background: str | None = typer.Option(
            None, "--background", help="What you already know; the questioner skips those basics."
        ),
        corpus: list[Path] | None = typer.Option(
            None, "--corpus", help="Folder or file of reference documents to search offline (repeatable)."
        ),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_cache: bool = no_cache_option(),
        max_cost: float | None = max_cost_option(),
        max_tokens: int | None = max_tokens_option(),
        workers: bool = typer.Option(
            False,
            "--workers",
            help="Hand each round's key questions to `autodidact worker` processes on the team backend "
            "(a PostgreSQL server) instead of researching them here; the knowledge base must be reachable "
            "by the workers (a shared file system).",
        ),
        as_json: bool = json_option(),
    ) -> None:
        """Research a topic in rounds until more rounds stop adding value; resumable at any point.

        Creates the knowledge base if needed. Ctrl+C stops at the next safe point; run again to resume.
        On a terminal a live line shows the round, the step, key questions done/total and a spinner
        while the model is thinking; piped or logged, progress is plain lines on stderr.

        When it stops, checked after every round (docs/loop.md):
        - all four rules: audit issues ≤ 60% of last round's (or < 3 twice), nothing pending or unread, overlap > 0.7;
        - stalled: no new claim or source, nothing of yours waiting, overlap ≥ 0.9 or the round before added nothing;
        - max rounds: --max-rounds reached.
        Your questions are never ignored: with one pending, research runs one more round (raising max rounds).
        A partly answered question stays pending while rounds find new evidence, then is marked \\[rN, partial].

        Example: autodidact research "How do Python generators work?" --kb gen-kb --corpus docs/ --max-rounds 5
        """
        from autodidact.cli.engine_opts import check_model_first, load_run_settings, make_runtime
        from autodidact.errors import InputError, NotFoundError
        from autodidact.kb import init_kb, is_kb, open_kb, resolve_root
        from autodidact.loop.runner import research_sync

        if topic is not None and not topic.strip():
            raise InputError(
                "the research topic is empty", hint='give one, e.g. autodidact research "How does X work?"'
            )
        missing = [str(p) for p in corpus or [] if not p.exists()]
        if missing:  # refused before anything is created or run
            raise NotFoundError(f"corpus path {missing[0]} does not exist", hint="check the --corpus paths")
        check_model_first(model)
        root = resolve_root(kb)
        server: str | None = None
        if workers:
            from autodidact.config import database_url, load_settings

            server = database_url(load_settings(root if is_kb(root) else None))
            if server is None:  # before anything is created: bad input leaves nothing behind
                raise InputError(
                    "--workers needs the team backend (a PostgreSQL server)",
                    hint="set AUTODIDACT_DATABASE_URL=postgresql://user@host/db (docs/team.md), or drop --workers",
                )
        if not is_kb(root):
            if not topic:
                open_kb(root)  # raises the clear "not a knowledge base" error
            _, created = init_kb(root, topic=topic)
            console.print(f"initialised knowledge base at {root.resolve()}")
            if ".obsidian/app.json" in created:
                console.print("  (an Obsidian vault too: .obsidian/app.json hides source_cache/ and .autodidact/)")
        knowledge = open_kb(root)
        settings = load_run_settings(knowledge.root, model, max_cost, max_tokens, fallback)
        runtime = make_runtime(knowledge.root, model, no_cache, max_cost, max_tokens, settings=settings)
        reporter = RichReporter(runtime=runtime)
        try:
            result = research_sync(
                knowledge,
                topic=topic,
                runtime=runtime,
                settings=settings,
                max_rounds=max_rounds,
                background=background,
                corpus=list(corpus or []),
                reporter=reporter,
                workers=server,
            )
        finally:
            reporter.close()
        _final_block(result, as_json=as_json)
        if as_json:
            emit_json(_result_json(result))

    @app.command("ask")
    def ask_cmd(
        question: str = typer.Argument(..., help="The question, in any language."),
        kb: Path | None = kb_option(),
        as_json: bool = json_option(),
    ) -> None:
        """Add a question for the next round (outputs/user_questions.md, under Pending); safe while a run is going.

        Example: autodidact ask "Can a generator be restarted?" --kb gen-kb
        """
        from autodidact.kb import open_kb
        from autodidact.loop.inbox import add_question

        knowledge = open_kb(kb)
        text = add_question(knowledge, question)
        if as_json:
            emit_json({"kb": str(knowledge.root), "inbox": str(knowledge.user_questions), "question": text})
            return
        if knowledge.language() == "zh":
            console.print(f"已加入 {knowledge.user_questions}（待处理）：{text}")
            console.print("下一轮会处理它；已结束的研究可用 autodidact research 重新开始")
        else:
            console.print(f"added to {knowledge.user_questions} (Pending): {text}")
            console.print("the next round takes it; a finished research re-opens on: autodidact research")

    @app.command("status")
    def status_cmd(
        kb: Path | None = kb_option(),
        as_json: bool = typer.Option(False, "--json", help="Print JSON on stdout."),
    ) -> None:
        """Show rounds, counts, audit issues and overlap per round, each termination condition, the stall and cost.

        Example: autodidact status --kb gen-kb --json
        """
        from autodidact.kb import open_kb
        from autodidact.loop.status import status_report

        report = status_report(open_kb(kb))
        if as_json:
            emit_json(report)
            return
        _print_status(report)

    questions = typer.Typer(
        help="The questioner: the questions a round would ask, for inspection and debugging.", no_args_is_help=True
    )
    app.add_typer(questions, name="questions")

    @questions.command("generate")
    def generate_cmd(
        kb: Path | None = kb_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the round_N_questions.json content on stdout."),
        model: str | None = model_option(),
        fallback: str | None = fallback_option(),
        no_cache: bool = no_cache_option(),
    ) -> None:
        """Show the questions the next round would ask, without writing anything.

        Example: autodidact questions generate --kb gen-kb --json
        """
        import asyncio

        from autodidact.cli.engine_opts import load_run_settings, make_runtime
        from autodidact.errors import InputError
        from autodidact.kb import open_kb
        from autodidact.loop.control import Control
        from autodidact.loop.progress import NullReporter
        from autodidact.loop.state import load_state
        from autodidact.loop.steps import (
            RoundContext,
            RoundScratch,
            material_files,
            previous_check_report,
            questioner_inputs,
        )
        from autodidact.loop.steps import unprocessed_raw_files as unprocessed
        from autodidact.questions.generate import generate_questions
        from autodidact.questions.question_list import render_summary

        knowledge = open_kb(kb)
        state = load_state(knowledge)
        if state is None:
            raise InputError(f"{knowledge.root} has no research yet", hint='start one: autodidact research "topic"')
        settings = load_run_settings(knowledge.root, model, fallback=fallback)
        runtime = make_runtime(knowledge.root, model, no_cache, settings=settings)
        ctx = RoundContext(knowledge, state, runtime, settings, NullReporter(), Control(), knowledge.language())
        n = state.next_round
        scratch = RoundScratch(round=n, date="1970-01-01", user_contributed_raw_files=unprocessed(ctx))
        scratch.material_raw_files = material_files(ctx, scratch)
        scratch.check_report_used, scratch.check_report_warning = previous_check_report(ctx, n)
        rq = asyncio.run(generate_questions(questioner_inputs(ctx, n, scratch), runtime))
        console.print(
            render_summary(rq, n, ctx.language, written_to="(not written)", warning=scratch.check_report_warning),
            markup=False,
        )
        if as_json:
            emit_json(rq.model_dump(mode="json"))


# What `status` prints, in the knowledge base's language: a Chinese knowledge base reads in Chinese
# (its rounds, its summary); the JSON report's keys stay English for scripts.
_STATUS_COLUMNS = {
    "en": ("round", "questions", "new raw", "new claims", "new sources", "audit issues", "overlap", "decision"),
    "zh": ("轮次", "问题", "新原始文件", "新论据", "新来源", "审计问题", "重叠率", "决定"),
}
_STATUS_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "none": "(no research yet)",
        "line": "status: {status} · rounds {done}/{cap} · raw files {raw} · wiki articles {wiki} · "
        "questions asked {asked} · pending user questions {pending}",
        "progress": "round {n} in progress; done: {done}",
        "nothing": "nothing yet",
        "decision": "round {n} decision: {decision} — {reason}",
        "rules": "termination (all four conditions, or a stall, or max rounds):",
        "diminishing_gaps": "1 audit issues ≤ 60% of last round (or both < 3)",
        "no_pending_user_questions": "2 no pending user questions",
        "no_new_raw_files": "3 no new raw files from the user",
        "overlap_above_0_7": "4 question overlap > 0.7",
        "met": "met",
        "not met": "not met",
        "yes": "yes",
        "no": "no",
        "unmeasured": "not measured for this round",
        "stall": "last round: {claims} new claims, {sources} new sources, overlap {overlap}; needs 0, 0 and "
        "nothing pending from the user, at overlap ≥ {limit} or for the second round running",
        "stalled": "stalled",
        "max": "max rounds reached",
        "waiting": "something from the user is waiting: the next `autodidact research` runs one more round",
        "cost": "cost so far: {calls} model calls, {tokens} tokens, ${usd:.4f}",
        "summary": "summary",
        "sep": ": ",
    },
    "zh": {
        "none": "（尚未开始研究）",
        "line": "状态：{status} · 轮次 {done}/{cap} · 原始文件 {raw} · 知识文章 {wiki} · 已提问题 {asked} · "
        "待处理用户问题 {pending}",
        "progress": "第 {n} 轮进行中；已完成：{done}",
        "nothing": "尚无",
        "decision": "第 {n} 轮决定：{decision} — {reason}",
        "rules": "终止条件（四条全部满足，或停滞，或达到最大轮次）：",
        "diminishing_gaps": "1 审计问题不超过上轮的 60%（或两轮都少于 3 个）",
        "no_pending_user_questions": "2 没有待处理的用户问题",
        "no_new_raw_files": "3 没有用户新加入的原始文件",
        "overlap_above_0_7": "4 问题重叠率 > 0.7",
        "met": "满足",
        "not met": "未满足",
        "yes": "是",
        "no": "否",
        "unmeasured": "本轮未测量",
        "stall": "上一轮：新论据 {claims} 条、新来源 {sources} 个、重叠率 {overlap}；"
        "停滞需要 0、0 且用户没有待处理的内容，重叠率 ≥ {limit} 或连续两轮如此",
        "stalled": "停滞",
        "max": "达到最大轮次",
        "waiting": "用户有待处理的内容：下一次 `autodidact research` 会再运行一轮",
        "cost": "目前费用：模型调用 {calls} 次，{tokens} 个词元，${usd:.4f}",
        "summary": "摘要",
        "sep": "：",
    },
}


def _print_status(report: StatusReport) -> None:
    from rich import box
    from rich.table import Table

    from autodidact.kb import KnowledgeBase

    lang = "zh" if KnowledgeBase(Path(report["kb"])).language() == "zh" else "en"
    t = _STATUS_TEXT[lang]
    out.print(f"[bold]{report['topic'] or t['none']}[/bold] — {report['kb']}")
    counts = report["counts"]
    out.print(
        t["line"].format(
            status=report["status"],
            done=report["rounds_completed"],
            cap=report["max_rounds"] or "-",
            raw=counts["raw_files"],
            wiki=counts["wiki_articles"],
            asked=counts["questions_asked"],
            pending=counts["pending_user_questions"],
        )
    )
    if report["current_round_progress"]:
        p = report["current_round_progress"]
        done = [k for k in ("step1_done", "step2_done", "step3_done", "step4_done") if p.get(k)]
        out.print(t["progress"].format(n=p["round"], done=", ".join(done) or t["nothing"]))
    if report["rounds"]:
        # Headers wrap at their spaces; the words that cannot wrap keep their width, so an 80-column
        # terminal shows "questions" and "terminate" whole rather than "questi…".
        table = Table(box=box.SIMPLE_HEAVY)
        *columns, decision = _STATUS_COLUMNS[lang]
        for name in columns:
            table.add_column(name, no_wrap=" " not in name)
        table.add_column(decision, no_wrap=True)
        for r in report["rounds"]:
            overlap = "null" if r["overlap_ratio"] is None else f"{r['overlap_ratio']:.2f}"
            table.add_row(
                str(r["round"]),
                str(r["questions"]),
                str(r["new_raw_files"]),
                "-" if r["new_claims"] is None else str(r["new_claims"]),
                "-" if r["new_sources"] is None else str(r["new_sources"]),
                str(r["audit_issues_count"]),
                overlap,
                r["decision"] + (f"\n({r['stopped_by']})" if r["stopped_by"] else ""),
            )
        out.print(table)
        last = report["rounds"][-1]
        out.print(t["decision"].format(n=last["round"], decision=last["decision"], reason=last["reason"]))
    term = report["termination"]
    if term:
        out.print(t["rules"])
        for key in ("diminishing_gaps", "no_pending_user_questions", "no_new_raw_files", "overlap_above_0_7"):
            mark = f"[green]{t['met']}[/green]" if term.get(key) else f"[red]{t['not met']}[/red]"
            out.print(f"  {t[key]}{t['sep']}{mark}")
        stall = term["stall"]
        if stall["new_claims"] is None:
            numbers = t["unmeasured"]
        else:
            overlap = "null" if stall["overlap_ratio"] is None else f"{stall['overlap_ratio']:.2f}"
            numbers = t["stall"].format(
                claims=stall["new_claims"], sources=stall["new_sources"], overlap=overlap, limit=stall["overlap_limit"]
            )
        mark = f"[green]{t['yes']}[/green]" if term["stalled"] else f"[red]{t['no']}[/red]"
        out.print(f"  {t['stalled']}{t['sep']}{mark} ({numbers})")
        mark = f"[green]{t['met']}[/green]" if term["max_rounds_reached"] else f"[red]{t['not met']}[/red]"
        out.print(f"  {t['max']}{t['sep']}{mark}")
        if term["user_waiting_extends_max_rounds"]:
            out.print(f"  {t['waiting']}")
    cost = report["cost"]
    out.print(
        t["cost"].format(calls=cost["calls"], tokens=cost["input_tokens"] + cost["output_tokens"], usd=cost["cost_usd"])
    )
    if report["summary"]:
        out.print(f"{t['summary']}{t['sep']}{Path(report['kb']) / report['summary']}")
