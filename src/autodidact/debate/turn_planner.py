"""Planning the next turn: the moderator's choice, the role's turn, reviews, checkpoints, evidence gaps.

Why a separate layer: these steps are shared by every way a turn can start (a new session, an
answer, a confirmed gap, a continued stage), and each only emits events into a :class:`Txn`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from autodidact.debate import cues, gaps, gates, moderator, review, summaries
from autodidact.debate.answer_kinds import unlabelled
from autodidact.debate.proposition import read as read_proposition
from autodidact.debate.role_texts import offline_turn
from autodidact.debate.roles import LABEL_INDEPENDENT, LABEL_SELF_CHECK, LABEL_SWITCH, ROLES, label, source_label
from autodidact.debate.session import Session, json_int, pending_turn
from autodidact.debate.store import SessionStore
from autodidact.debate.templates import TurnInputs, excerpt, key_term
from autodidact.debate.turns import write_turn
from autodidact.debate.txn import Txn
from autodidact.jsontypes import JSONMapping
from autodidact.text.tokens import term_set

if TYPE_CHECKING:
    from autodidact.config import Settings
    from autodidact.llm.runtime import Runtime


# A research budget's name as a Chinese session says it (the gap's id and the English name stay in
# the event log; a trial read 「查证缺口 g1」 and 「预算——quick」 in Chinese text).
_ZH_BUDGET = {"quick": "快速", "standard": "标准", "deep": "深入"}


class TurnPlanner:
    """Emits the events of the next turn into a transaction.

    Held by the :class:`~autodidact.debate.reply_planner.ReplyPlanner` (which decides what an
    answer does) and by the engine (which closes a session with a checkpoint); it reads the
    runtime, settings and knowledge base it was given and writes nothing but the transaction.
    """

    def __init__(
        self, *, runtime: Runtime, settings: Settings | None, kb_root: Path | None, store: SessionStore
    ) -> None:
        self.runtime = runtime
        self.settings = settings
        self.kb_root = kb_root
        self.store = store

    def raw_count(self) -> int:
        """Readable sources already in the knowledge base (what a gap could be checked against)."""
        raw = Path(self.kb_root) / "raw" if self.kb_root else None
        return sum(1 for p in raw.iterdir() if p.is_file()) if raw is not None and raw.is_dir() else 0

    def set_depth(self, txn: Txn, depth: str, *, source: str, reason: str, user_chose: bool) -> None:
        execution = txn.s.execution.model_dump(mode="json")
        execution.update(
            depth=depth,
            selection_status="CONFIRMED",
            source=source,
            reason=reason,
            user_chose=user_chose,
            budget=gates.budget_for(depth).model_dump(),
        )
        txn.field("execution", execution)

    def config_turn(self, txn: Txn, retry: bool) -> None:
        s = txn.s
        zh = s.language == "zh"
        rec = s.recommended_depth(gates.RECOMMENDED_DEPTH)
        turn = len(s.rounds) + 1
        txn.emit(
            "SELECTION_REASON", "moderator", "SYSTEM",
            {"turn": turn, "kind": "CONFIGURATION", "role": "moderator", "question_type": "CONFIGURATION",
             "intent": "depth", "reason": "depth not confirmed; no substantive discussion before it" },
        )  # fmt: skip
        known = _known_context(s.context_items(), zh)
        if zh:
            contribution = f"已知情况（不再询问）：{known}。"  # the reading and mode are shown just above
            names = summaries.DEPTH_NAMES["zh"]
            question = (
                f"本次讨论用哪一档深度：快速（最多 4 轮、1 批评估）、标准（8 轮、2 批）还是深度（16 轮、3 批），"
                f"推荐{names[rec]}？"
            )
            why = "档位决定轮次上限与独立评估批次；可直接回复「按推荐」或一句话覆盖，之后也能一句话改档。"
            response = "没认出档位，请从三档中选一档。" if retry else "跳过回应"
        else:
            contribution = f"What I already know (not asked again): {known}."
            question = (
                "Which depth for this discussion: quick (up to 4 rounds, 1 review batch), standard (8 rounds, "
                f"2 batches) or deep (16 rounds, 3 batches), with {rec} recommended?"
            )
            why = "The depth sets the round limit and review batches; reply 'recommended' or override in one line."
            response = "I did not recognise a depth; please pick one of the three." if retry else "(no response)"
        txn.emit(
            "ROLE_RESPONSE", "moderator", "ROLE_SWITCH",
            {"turn": turn, "label": ROLES["moderator"].name(s.language), "response": response,
             "contribution": contribution, "source_label": source_label("judgement", s.language), "citation": None},
        )  # fmt: skip
        txn.emit("QUESTION_ASKED", "moderator", "ROLE_SWITCH", {"turn": turn, "question": question, "why": why})

    def signal(self, txn: Txn, signal: str, turn: int | None, note: str) -> None:
        round_no = txn.s.round_by_turn(turn).round if turn is not None else 0
        txn.emit(
            "PROGRESS_SIGNAL", "moderator", "SYSTEM",
            {"signal": signal, "turn": turn, "round": round_no, "idea_id": txn.s.idea().idea_id, "note": note},
        )  # fmt: skip

    def obstacle(self, s: Session) -> str:
        pending = s.pending_question or {}
        if pending.get("turn") is not None:
            item = s.round_by_turn(pending_turn(pending))
            return item.obstacle or item.intent or "configuration"
        answered = [r for r in s.substantive_rounds]
        return (answered[-1].obstacle or "—") if answered else "—"

    def checkpoint(
        self, txn: Txn, reason: str, rule: str, obstacle: str, *, final: bool, note: str | None = None
    ) -> None:
        summary = summaries.stage_summary(txn.s, stop_reason=reason, rule=rule, obstacle=obstacle)
        if note:
            summary["note"] = note  # what the turn would have opened with (an answer to a question asked)
        txn.emit(
            "CHECKPOINT", "moderator", "SYSTEM",
            {"stop_reason": reason, "rule": rule, "obstacle": obstacle, "state": "CLOSED" if final else "CHECKPOINT",
             "summary": summary},
        )  # fmt: skip

    # -- next turn -------------------------------------------------------------------------
    def next_turn(
        self,
        txn: Txn,
        *,
        opening: str | None,
        review_requested: bool = False,
        wish: str | None = None,
        evidence_note: str | None = None,
        citation: str | None = None,
    ) -> None:
        s = txn.s
        stop = gates.budget_stop(s)
        if stop is not None:
            self.checkpoint(txn, stop.reason, stop.rule, stop.obstacle, final=False, note=opening)
            return
        choice = moderator.choose(s, wish=wish, review_requested=review_requested)
        review_text, label_kind, roles = None, LABEL_SWITCH, [choice.role]
        if choice.kind == "REVIEW":
            review_text, independent = self._review_batch(txn)
            label_kind = LABEL_INDEPENDENT if independent else LABEL_SELF_CHECK
            roles = ["premise_evidence_examiner", "implication_validator"]
            s = txn.s
        idea = s.idea()
        answered = [r for r in s.substantive_rounds if r.user_answer is not None]
        last = answered[-1] if answered else None
        last_is_fresh = last is not None and s.latest_user_input == last.user_answer
        inputs = TurnInputs(
            role=choice.role,
            question_type=choice.question_type,
            intent=choice.intent,
            trigger=choice.trigger,
            lang=s.language,
            mode=s.mode,
            proposition=idea.current.proposition,
            term=excerpt(idea.current.key_term, 30)
            if idea.current.key_term and idea.current.stage == s.stage
            else key_term(idea.stage_base(s.stage).proposition, s.language),
            kind=read_proposition(idea.stage_base(s.stage).proposition, s.language).kind,
            last_answer=last.user_answer if last_is_fresh and last else None,
            answer_signals=list(last.signals) if last_is_fresh and last else [],
            dont_know=bool(last_is_fresh and last and cues.is_dont_know(last.user_answer or "")),
            assumptions=list(idea.current.assumptions),
            predictions=list(idea.current.predictions),
            alternatives=list(idea.current.alternatives),
            maturation=idea.maturation,
            variant=sum(1 for r in s.rounds if r.role == choice.role),
            review_text=review_text,
            evidence_note=evidence_note,
            opening=opening,
        )
        out, meta = write_turn(self.runtime, inputs)
        if meta.get("producer") == "model" and _already_answered(s, out.question):
            # A model that asks again what the person answered ignores the answer: the offline turn
            # for the same obstacle asks the next thing instead (checker rule DC17).
            out, meta = offline_turn(inputs), {"producer": "offline-fallback", "reason": "model re-asked a question"}
        turn = len(s.rounds) + 1
        if _already_answered(s, out.question) and _followed_up(s):
            # the person answered this question and its follow-up since the last checkpoint: asking a
            # third time is a loop (a trial's "Does that change your answer?" came back after every
            # reply); the stage has its result
            self.checkpoint(txn, "CHECKPOINT_REACHED", "S6", choice.obstacle or "—", final=False, note=opening)
            return
        if _already_answered(s, out.question):
            # The offline turn for a role has one question; the moderator may come back to the role
            # after the person answered it ("你定吧" leaves the decision to us). Asked again it would
            # ignore that answer (checker rule DC17): the turn asks how to go on from it instead.
            out = out.model_copy(update={"question": _go_on_question(s, out.question)})
        txn.emit(
            "SELECTION_REASON", "moderator", "SYSTEM",
            {"turn": turn, "kind": choice.kind, "role": choice.role, "question_type": choice.question_type,
             "trigger": choice.trigger, "intent": choice.intent, "reason": choice.reason, "obstacle": choice.obstacle,
             "idea_id": idea.idea_id, "deferred": choice.deferred},
        )  # fmt: skip
        kind = "ROLE_SWITCH" if label_kind == LABEL_SWITCH else (
            "INDEPENDENT_AGENT" if label_kind == LABEL_INDEPENDENT else "SELF_CHECK"
        )  # fmt: skip
        txn.emit(
            "ROLE_RESPONSE", choice.role, kind,
            {"turn": turn, "label": label(roles, label_kind, s.language), "response": out.response,
             "contribution": out.contribution, "source_label": source_label(out.source, s.language),
             "citation": citation, **meta},
        )  # fmt: skip
        txn.emit("QUESTION_ASKED", choice.role, kind, {"turn": turn, "question": out.question, "why": out.why})

    def _review_batch(self, txn: Txn) -> tuple[str, bool]:
        s = txn.s
        batch = len(s.reviews) + 1
        perspectives = ["premise_evidence_examiner", "implication_validator"]
        results: list[tuple[str, review.ReviewOutput]] = []
        degraded, degraded_by = False, "OK"
        for index, perspective in enumerate(perspectives, start=1):
            data = review.review_input(s, perspective)
            review_id = f"b{batch}r{index}"
            visible = {k: getattr(data, k) for k in review.WHITELIST}
            txn.emit(
                "REVIEW_REQUESTED", "moderator", "SYSTEM",
                {"batch": batch, "review_id": review_id, "perspective": perspective, "input": visible},
            )  # fmt: skip
            out, status, kind = review.run_review(self.runtime, data)
            txn.emit(
                "REVIEW_RETURNED", f"reviewer-{index}", kind,
                {"batch": batch, "review_id": review_id, "status": status, "output": out.model_dump()},
            )  # fmt: skip
            if status != "OK":
                degraded, degraded_by = True, status
            results.append((perspective, out))
        zh = s.language == "zh"
        if degraded:
            txn.emit(
                "DEGRADED_REVIEW", "moderator", "SELF_CHECK",
                {"batch": batch, "status": degraded_by,
                 "label": "视角自检（非独立评估）" if zh else "perspective self-check (not an independent review)",
                 "reason": review.DEGRADED_REASON[degraded_by]},
            )  # fmt: skip
        divergence, reasons = review.assess([o for _, o in results], degraded)
        txn.emit(
            "DISAGREEMENT_ASSESSED", "moderator", "SYSTEM",
            {"batch": batch, "divergence": divergence, "reasons": reasons, "degraded": degraded},
        )  # fmt: skip
        names = {r: ROLES[r].name(s.language) for r in perspectives}
        text = review.describe(results, divergence, s.language, names)
        before = s.reviews[-2].results if len(s.reviews) > 1 else []  # this batch is s.reviews[-1]
        if len(before) == len(results) and all(r.output for r in before):
            earlier = [
                (p, review.ReviewOutput.model_validate(r.output)) for (p, _), r in zip(results, before, strict=True)
            ]
            shown = review.describe(earlier, review.assess([o for _, o in earlier], degraded)[0], s.language, names)
        else:
            shown = None
        if shown == text:
            # nothing the person said since changed what the reviewers see: the same block again read
            # as not listening (a trial: "you're repeating the same review")
            text = (
                f"两份评估与第 {batch - 1} 批相同：你之后说的话没有改变它们所依据的前提和证据；"
                "能改变它们的是一次检验或一条来源。"
                if zh
                else f"Both reviews come out as in batch {batch - 1}: what you said since does not change the premises "
                "and evidence they rest on; a test result or a source would."
            )
        rivals = s.idea().current.alternatives
        own = term_set(rivals[-1]) if rivals else set()
        if rivals and len(own & term_set(text)) < 0.6 * len(own):
            # the reviewers see only the whitelisted input, so "none found" must not read as if the
            # person's own rival were dismissed (two trials read it so); when a review names much the
            # same rival, saying it was not seen contradicts the block above (a later trial)
            rival = excerpt(rivals[-1], 50)
            tests = s.idea().current.predictions
            # beside a plan the person's rival is another way to the goal, not a "competing explanation"
            plan = read_proposition(s.idea().stage_base(s.stage).proposition, s.language).kind == "plan"
            named_zh = "你提出的另一种做法" if plan else "你提出的竞争解释"
            named_en = "the other way you named" if plan else "your own rival"
            if tests:
                # the person already proposed the test that tells them apart (a trial's coin-flip design
                # was answered with "it stands until a test tells the two apart")
                test = excerpt(tests[-1], 60)
                text += (
                    f" 两份评估没有拿到{named_zh}「{rival}」；能区分两者的是你提出的检验「{test}」。"
                    if zh
                    else f' The reviews were not given {named_en}, "{rival}"; your test, "{test}", is what '
                    "tells the two apart."
                )
            else:
                text += (
                    f" 两份评估没有拿到{named_zh}「{rival}」：它仍然成立，要靠检验来区分。"
                    if zh
                    else f' The reviews were not given {named_en}, "{rival}": it stands until a test tells the '
                    "two apart."
                )
        return text, not degraded

    # -- gaps --------------------------------------------------------------------------------
    def gap_turn(self, txn: Txn, gap: JSONMapping, *, changed: bool, note: str = "") -> None:
        s = txn.s
        zh = s.language == "zh"
        turn = len(s.rounds) + 1
        txn.emit(
            "SELECTION_REASON", "moderator", "SYSTEM",
            {"turn": turn, "kind": "CONFIGURATION", "role": "moderator", "question_type": "CONFIGURATION",
             "intent": "gap_confirmation", "reason": "evidence gap: confirm the scope before any research",
             "obstacle": gap["gap_id"]},
        )  # fmt: skip
        if zh:
            budget = gap["budget"]
            contribution = (
                f"查证缺口：争议——{gap['reason']}；准备查——{gap['question']}；"
                f"范围——{gap['scope']}；预算——{_ZH_BUDGET.get(budget, budget) if isinstance(budget, str) else budget}；"
                f"结果会改变——{gap['decision_impact']}。"
            )
            question = "按这个范围查证吗（回复 确认、不用，或 范围改成 …）？"
            why = "确认之前不会调用任何检索；范围一改，之前的确认就失效。"
            response = "范围已更新，需要重新确认。" if changed else "跳过回应"
        else:
            contribution = (
                f"Evidence gap: at issue — {gap['reason']}; to check — {gap['question']}; "
                f"scope — {gap['scope']}; budget — {gap['budget']}; the result would change — {gap['decision_impact']}."
            )
            question = "Shall I check within this scope (reply yes, no, or 'scope: ...')?"
            why = "Nothing is searched before you confirm; changing the scope voids an earlier confirmation."
            response = "The scope changed, so it needs confirming again." if changed else "(no response)"
        if note:  # what the same answer said besides asking for the search, acknowledged
            response = note
        txn.emit(
            "ROLE_RESPONSE", "moderator", "ROLE_SWITCH",
            {"turn": turn, "label": ROLES["moderator"].name(s.language), "response": response,
             "contribution": contribution, "source_label": source_label("suggestion", s.language), "citation": None},
        )  # fmt: skip
        txn.emit("QUESTION_ASKED", "moderator", "ROLE_SWITCH", {"turn": turn, "question": question, "why": why})

    def answer_gap(self, txn: Txn, text: str, pending: JSONMapping) -> None:
        txn.emit(
            "USER_INPUT",
            "user",
            "USER",
            {"op": "reply", "text": text, "intent": "GAP_DECISION", "turn": pending["turn"]},
        )
        gap_id = txn.s.round_by_turn(pending_turn(pending)).obstacle or ""
        gap = txn.s.gap(gap_id)
        decision, scope = cues.parse_gap_decision(text)
        zh = txn.s.language == "zh"
        if decision == "CHANGE" and scope:
            changed = gaps.with_scope(gap, scope)
            txn.emit("GAP_PROPOSED", "moderator", "SYSTEM", {"gap": changed})
            self.gap_turn(txn, txn.s.gap(gap_id), changed=True)
            return
        if decision == "REJECT":
            txn.emit("GAP_REJECTED", "user", "USER", {"gap_id": gap_id, "reason": text})
            note = (
                "不查证：该问题留在未决问题里，讨论继续不依赖它的分支。"
                if zh
                else "Not checked: it stays an open question."
            )
            self.next_turn(txn, opening=note)
            return
        if decision != "CONFIRM":
            self.gap_turn(txn, gap, changed=False)
            return
        txn.emit("GAP_CONFIRMED", "user", "USER", {"gap_id": gap_id, "scope_fingerprint": gaps.gap_fingerprint(gap)})
        self.signal(txn, "GAP_CONFIRMED", None, gap_id)
        gap = txn.s.gap(gap_id)
        out_dir = self.store.folder / "gaps" / gap_id
        result = gaps.dispatch(
            gap,
            lang=txn.s.language,
            runtime=self.runtime,
            settings=self.settings,
            kb_root=self.kb_root,
            out_dir=out_dir,
        )
        links = gaps.links_from_evidence(result["evidence"], txn.s.idea().current.proposition)
        statement = gaps.impact(links, txn.s.language)
        if result["status"] == "NO_RESULT" and not links:
            # "The check did not run (NO_RESULT: … of d1)" was a status code where a person needed to
            # hear what was searched and what would help
            statement = _nothing_found(txn.s.idea().current.proposition, self.raw_count(), zh)
        elif result["status"] != "DONE":
            status, note = result["status"], result["note"]
            prefix = f"查证未执行（{status}：{note}）。" if zh else f"The check did not run ({status}: {note})."
            statement = f"{prefix} {statement}"
        refs = [f"gaps/{gap_id}/evidence.json"] if result["path"] else []
        txn.emit(
            "EVIDENCE_IMPORTED", "research_agent", "INDEPENDENT_AGENT",
            {"gap_id": gap_id, "links": links, "impact": statement, "execution_status": result["status"],
             "result_refs": refs, "scope_fingerprint": gaps.gap_fingerprint(gap)},
        )  # fmt: skip
        if links:
            self.signal(txn, "EVIDENCE_IMPORTED", None, gap_id)
        if any(link["alignment"] == "VERIFIED" for link in links):
            self.signal(txn, "PREMISE_VERIFIED", None, gap_id)
        cited = sorted({str(link.get("location")) for link in links if link.get("location")})
        self.next_turn(txn, opening=None, evidence_note=statement, citation="; ".join([*refs, *cited]) or None)


def _nothing_found(proposition: str, sources: int, zh: bool) -> str:
    """What an empty search of the knowledge base means, and the command that would give it sources."""
    topic = excerpt(proposition, 80).replace('"', "'")
    if zh:
        held = "知识库里还没有资料" if sources == 0 else f"知识库的 {sources} 份资料里没有找到能直接说明它的原文"
        return (
            f'{held}，所以这一条仍待核实。要找资料，可以运行 autodidact research "{topic}"，'
            "或用 autodidact add 加入你手头的文件。"
        )
    held = (
        "The knowledge base holds no sources yet"
        if sources == 0
        else f"None of the knowledge base's {sources} sources says anything that bears directly on it"
    )
    return (
        f'{held}, so this stays unverified. To look for sources, run autodidact research "{topic}", or add '
        "files you have with autodidact add."
    )


def _known_context(items: list[JSONMapping], zh: bool) -> str:
    """The inherited context in plain words; the keys and provenance tags stay in the event log."""
    values = {str(i.get("key")): i.get("value") for i in items}
    count = values.get("kb_raw_files") or 0
    if not isinstance(count, int | float | str):
        raise TypeError(f"kb_raw_files is not a number: {count!r}")
    sources = int(count)
    if zh:
        kb = f"知识库里有 {sources} 份资料" if values.get("knowledge_base") else "没有知识库"
        return f"用中文交流；{kb}"
    kb = (
        f"the knowledge base holds {sources} source{'s' if sources != 1 else ''}"
        if values.get("knowledge_base")
        else "no knowledge base"
    )
    return f"we talk in English; {kb}"


def _go_on_question(session: Session, question: str) -> str:
    """A question that builds on the answer the person already gave to ``question``, quoting it.

    Why: "Turn 8: you have answered this already; building on your answer, how should this point
    move on?" read as a machine that had not listened (two fresh-eyes trials quoted it). When the
    person said something new since (a rival, a test), the question asks whether that changes their
    answer: a disposition given before a rival was named may well change."""
    asked = " ".join(question.split())
    answered = next(
        (r for r in reversed(session.rounds)
         if r.user_answer and " ".join((r.question or "").split()) == asked),
        None,
    )  # fmt: skip
    given = answered.user_answer if answered is not None and answered.user_answer else ""
    quote = excerpt(given, 30)
    latest = session.latest_user_input or ""
    zh = session.language == "zh"
    if latest and " ".join(latest.split()) != " ".join(given.split()) and len(latest.strip()) > 3:
        since = excerpt(unlabelled(latest), 40)
        candidate = (
            f"这一点你答过（「{quote}」）；之后你又说了「{since}」，这会改变你的回答吗？"
            if zh
            else f'You answered this with "{quote}"; since then you said "{since}". Does that change your answer?'
        )
    else:
        candidate = (
            f"这一点你答过（「{quote}」），你还想补充什么吗？"
            if zh
            else f'You answered this with "{quote}". Is there anything you would add to it?'
        )
    if _already_answered(session, candidate):
        turn = len(session.rounds) + 1  # asked again later, the question is a new one (checker rule DC17)
        candidate = (
            f"到第 {turn} 轮，关于「{quote}」你还想补充什么吗？"
            if zh
            else f'Now at turn {turn}: is there anything you would add to "{quote}"?'
        )
    return candidate


_GO_ON_OPENINGS = ("You answered this with", "这一点你答过", "Now at turn", "到第 ")


def _followed_up(session: Session) -> bool:
    """True when a follow-up to an answered question was asked and answered since the last checkpoint."""
    since = json_int(session.checkpoints[-1]["last_turn"]) if session.checkpoints else 0
    return any(
        r.turn > since and r.user_answer is not None and (r.question or "").startswith(_GO_ON_OPENINGS)
        for r in session.rounds
    )


def _already_answered(session: Session, question: str) -> bool:
    """True when this stage already asked ``question`` and the person answered it (no command)."""
    asked = " ".join(question.split())
    return any(
        r.user_answer is not None and r.answer_command is None and r.stage == session.stage
        and " ".join((r.question or "").split()) == asked
        for r in session.rounds
    )  # fmt: skip
