"""Planning a reply: stage 0, the configuration answer, commands (P0), answers and their signals.

Why separate: reading what the person said (a depth, a command, a gap decision or an answer to the
focus question) is one job; choosing and writing the next turn is another (``turn_planner``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from autodidact.debate import asked_back, cues, gaps, gates, remarks, rephrase, summaries
from autodidact.debate.answer_kinds import (
    KIND_SIGNAL,
    OPENING_CHOICE,
    answer_parts,
    corrected_term,
    goal_of,
    offers_choice,
    part_of,
    premise_named,
    revised_wording,
    scope_only,
    stated_guess,
    unlabelled,
)
from autodidact.debate.answer_kinds import classify as classify_answer
from autodidact.debate.cues import Command
from autodidact.debate.proposition import plain_reading
from autodidact.debate.proposition import read as read_proposition
from autodidact.debate.role_texts import acknowledge
from autodidact.debate.roles import ROLES
from autodidact.debate.session import Session, approval_of, pending_turn
from autodidact.debate.templates import excerpt, sharpest
from autodidact.debate.turn_planner import TurnPlanner
from autodidact.debate.turns import SignalInputs, judge_opening, read_signals
from autodidact.debate.txn import Txn
from autodidact.errors import InputError
from autodidact.jsontypes import JSONMapping

# Checkpoints after which the person's next answer continues the same stage (budget and closing refuse it).
_GOES_ON = frozenset({"CHECKPOINT_REACHED", "NO_PROGRESS", "USER_SWITCHED_MODE"})
UNCERTAIN = ("没验证", "没有验证", "不确定是否", "not verified", "unverified", "never checked")


class ReplyPlanner:
    """Turns the person's input into events, then hands over to the turn planner it holds."""

    def __init__(self, turns: TurnPlanner) -> None:
        self.turns = turns

    def plan_start(self, txn: Txn, prompt: str, depth: str | None, run_id: str) -> None:
        from autodidact.kb import detect_language

        lang = detect_language(prompt)
        zh = lang == "zh"
        txn.emit(
            "USER_INPUT", "user", "USER",
            {"intent": "PROMPT", "op": "start", "text": prompt, "run_id": run_id, "language": lang,
             "depth_flag": depth},
        )  # fmt: skip
        mode, cue, reading_parts = judge_opening(self.turns.runtime, prompt)
        txn.field("mode", mode)
        # The opening states the proposition back in plain words, so a misreading is corrected at once.
        reading = plain_reading(reading_parts, lang)
        # a plan or a choice is weighed, not tested as a claim: "you stated a claim that can be tested
        # (you wrote "my daughter learn Python or C first")" read wrong to a person deciding something
        weighed = mode == "examine" and reading_parts.kind == "plan"
        if zh:
            what = "你给出了一个可以检验的主张" if mode == "examine" else "你描述的是兴趣、观察或困惑"
            what = "你在权衡一个打算或选择" if weighed else what
            switch = "切换到探索" if mode == "examine" else "切换到推敲"
            basis = f"（你写了「{cue}」）" if cue and cue != "?" and not weighed else ""
            reason = (
                f"{reading}模式：{'推敲' if mode == 'examine' else '探索'}——{what}{basis}；一句「{switch}」即可改。"
            )
        else:
            what = (
                "you stated a claim that can be tested"
                if mode == "examine"
                else "you described an interest or observation"
            )
            what = "you are weighing a plan or a choice" if weighed else what
            switch = "switch to explore" if mode == "examine" else "switch to examine"
            basis = f' (you wrote "{cue}")' if cue and cue != "?" and not weighed else ""
            reason = f"{reading} Mode: {mode}, since {what}{basis}; say '{switch}' to change it."
        txn.field("mode_reason", reason)
        upstream = self._upstream_depth()
        recommended = upstream or gates.RECOMMENDED_DEPTH
        kb_source = "[PROJECT]" if self.turns.kb_root else "[DEFAULTED]"
        depth_source = "[USER]" if depth else ("[UPSTREAM]" if upstream else "[DEFAULTED]")
        context = {
            "prompt": prompt,
            "items": [
                {"key": "language", "value": lang, "source": "[INFERRED]"},
                {"key": "mode", "value": mode, "source": "[INFERRED]"},
                {"key": "knowledge_base", "value": bool(self.turns.kb_root), "source": kb_source},
                {"key": "kb_raw_files", "value": self.turns.raw_count(), "source": kb_source},
                {"key": "depth", "value": depth or recommended, "source": depth_source},
                {"key": "maturation", "value": "RAW", "source": "[SYSTEM_RULE]"},
                {"key": "stop_rules", "value": "S1-S6 v1", "source": "[SYSTEM_RULE]"},
                {"key": "upstream_evidence", "value": "none", "source": "[CONTEXT]"},
            ],
            "recommended_depth": recommended,
        }  # fmt: skip
        txn.field("context", context)
        txn.emit("IDEA_REVISED", "moderator", "SYSTEM", {"idea_id": "i1", "proposition": prompt, "source": "用户观察"})
        if mode == "examine":
            self.turns.signal(txn, "INTUITION_FORMULATED", None, "the prompt states a claim")
        if depth:
            self.turns.set_depth(txn, depth, source="USER_FLAG", reason="user_flag", user_chose=True)
            self.turns.next_turn(txn, opening=None)
        else:
            self.turns.config_turn(txn, retry=False)

    def _upstream_depth(self) -> str | None:
        if self.turns.kb_root is None:
            return None
        profile = Path(self.turns.kb_root) / ".autodidact" / "execution_profile.json"
        if profile.is_file():
            import json

            try:
                depth = json.loads(profile.read_text("utf-8")).get("depth")
            except ValueError:
                return None
            return depth if depth in gates.BUDGETS else None
        return None

    # -- replies -----------------------------------------------------------------------------
    def plan_reply(self, txn: Txn, text: str) -> None:
        """One reply: a command (by table), an answer to what is pending (by its intent), input
        between turns (after a checkpoint), or an answer to the round's question."""
        s = txn.s
        if s.state == "CLOSED":
            raise InputError(f"session {s.session_id} is closed", hint='start a new one: autodidact debate start "..."')
        pending = s.pending_question or {}
        if pending.get("turn") is not None and pending.get("intent") not in _INTENTS and rephrase.asks_rephrase(text):
            self._rephrase(txn, text, pending)
            return
        if (
            pending.get("turn") is not None
            and pending.get("intent") not in _INTENTS
            and self._case_at_reflection(txn, text, pending)
        ):
            return
        command = cues.parse_command(text)
        if command is not None:
            on_command = _COMMANDS.get(command.kind)
            if on_command is not None and on_command(self, txn, text, command, pending):
                return
        on_intent = _INTENTS.get(str(pending.get("intent") or ""))
        if on_intent is not None:
            on_intent(self, txn, text, pending)
        elif not pending:
            self._between_turns(txn, text)
        else:
            self._answer_round(txn, text, pending, command)

    # -- commands: each returns whether it handled the reply (False: read it as an answer) ------
    def _pause_command(self, txn: Txn, text: str, command: Command, pending: JSONMapping) -> bool:
        txn.emit("USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "COMMAND", "command": "PAUSE"})
        txn.emit("PAUSED", "moderator", "SYSTEM", {"reason": "user"})
        return True

    def _checkpoint_command(self, txn: Txn, text: str, command: Command, pending: JSONMapping) -> bool:
        payload = {"op": "reply", "text": text, "intent": "COMMAND", "command": command.kind}
        txn.emit("USER_INPUT", "user", "USER", payload)
        final = command.kind == "CLOSE"
        reason = "USER_CLOSED" if final else "CHECKPOINT_REACHED"
        self.turns.checkpoint(txn, reason, "S4", self.turns.obstacle(txn.s), final=final)
        return True

    def _question_command(self, txn: Txn, text: str, command: Command, pending: JSONMapping) -> bool:
        if not pending:
            return False  # a question between turns is input like any other
        self._p0_answer(txn, text)
        return True

    def _depth_command(self, txn: Txn, text: str, command: Command, pending: JSONMapping) -> bool:
        if pending.get("intent") == "depth":
            return False  # the answer to the depth question itself
        s = txn.s
        txn.emit("USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "COMMAND", "command": "DEPTH"})
        used, limit = s.execution.usage.rounds, gates.BUDGETS[str(command.value)].max_rounds
        if limit <= used:
            zh = s.language == "zh"
            note = (
                f"已用 {used} 轮，{command.value} 档只有 {limit} 轮，档位不变。"
                if zh
                else f"{used} rounds are used; {command.value} allows only {limit}, so the depth stays."
            )
            if pending:
                self._p0_note(txn, note + self._repeat(txn.s))
            else:
                self.turns.next_turn(txn, opening=note)
            return True
        self.turns.set_depth(
            txn, str(command.value), source="USER_OVERRIDE", reason="user_changed_depth", user_chose=True
        )
        if pending:
            self._p0_note(txn, self._depth_note(txn.s, str(command.value), delegated=False) + self._repeat(txn.s))
        else:
            self.turns.next_turn(txn, opening=self._depth_note(txn.s, str(command.value), delegated=False))
        return True

    # -- answers to a pending question of a given intent -----------------------------------------
    def _gap_confirmation(self, txn: Txn, text: str, pending: JSONMapping) -> None:
        if cues.parse_gap_decision(text)[0] == "UNKNOWN" and cues.substantial(text):
            self._gap_passed_over(txn, text, pending)
        else:
            self.turns.answer_gap(txn, text, pending)

    # -- input when no question is open (after a checkpoint, or a stop before the depth) ---------
    def _between_turns(self, txn: Txn, text: str) -> None:
        s = txn.s
        stop = s.checkpoints[-1]["stop_reason"] if s.checkpoints else None
        last_stop = stop if isinstance(stop, str) else None  # a string: its CHECKPOINT payload requires one
        user = {"op": "reply", "text": text, "intent": "CONTINUE"}
        if last_stop == "BUDGET_EXHAUSTED" and cues.states_decision(text) and revised_wording(text) is None:
            # "Keep it, as revised" when the rounds are used up is the decision the checkpoint asks
            # for, not another round: it is recorded (a trial's was refused as "rounds used up")
            txn.emit("USER_INPUT", "user", "USER", user)
            self.turns.signal(txn, "DISPOSITION_DECIDED", None, "decision after the rounds were used")
            self._revise_idea(txn, "moderator", "REFLECTION", ["DISPOSITION_DECIDED"], text)
            self._record_decision(txn, text)
            self.turns.checkpoint(txn, "BUDGET_EXHAUSTED", "S5", "decision recorded", final=False)
            return
        _refuse_between_turns(s, text, last_stop)
        txn.emit("USER_INPUT", "user", "USER", user)
        if s.execution.depth is None:  # stopped before the depth was set: no discussion without it
            self._depth_between_turns(txn, text)
            return
        goes_on = last_stop in _GOES_ON and revised_wording(text) is None
        asked = asked_back.question_to_partner(remarks.without_remarks(text, _last_turn(s)))
        if goes_on and asked:
            self._question_after_checkpoint(txn, text, asked)
        elif goes_on and cues.states_decision(text):
            self._decision_after_checkpoint(txn, text)
        else:
            self.turns.next_turn(txn, opening=self._opening_after_checkpoint(txn, text, last_stop))

    def _depth_between_turns(self, txn: Txn, text: str) -> None:
        depth, how = cues.parse_depth(text)
        rec = txn.s.recommended_depth(gates.RECOMMENDED_DEPTH)
        if how == "unknown":
            self.turns.config_turn(txn, retry=False)
            return
        chosen = depth if how == "chosen" and depth else rec
        self.turns.set_depth(txn, chosen, source="INTERACTIVE_CONFIRMED", reason=f"user_{how}",
                             user_chose=how != "delegated")  # fmt: skip
        self.turns.next_turn(txn, opening=self._depth_note(txn.s, chosen, delegated=how == "delegated"))

    def _question_after_checkpoint(self, txn: Txn, text: str, asked: str) -> None:
        """A question to the partner after a checkpoint is answered and kept open; the rest of the
        answer counts by its kinds (a trial's question was filed as the test)."""
        rest = remarks.without_remarks(asked_back.without_question(text, asked), _last_turn(txn.s))
        parts = answer_parts(rest) if cues.substantial(rest) else []
        # what goes with a question is its context ("I was thinking I'd go by the grade"), no
        # premise of the idea
        found = [
            s
            for s in dict.fromkeys(KIND_SIGNAL[k] for k, _ in parts if k in KIND_SIGNAL)
            if s != "PREMISE_SURFACED" or premise_named(rest)
        ]
        if found:
            for signal in found:
                self.turns.signal(txn, signal, None, "answer beside a question to the partner")
            self._revise_idea(txn, "moderator", "CONTINUE", found, rest)
        opening = self._heard(txn, asked)
        if found:
            opening += ("" if txn.s.language == "zh" else " ") + acknowledge(unlabelled(rest), found, txn.s.language)
        self.turns.next_turn(txn, opening=opening)

    def _decision_after_checkpoint(self, txn: Txn, text: str) -> None:
        """ "Set it aside? No — keep the revised one" after a checkpoint decides the idea: it is
        recorded and the stage stays complete (a trial was asked the reflection again)."""
        self.turns.signal(txn, "DISPOSITION_DECIDED", None, "decision after a checkpoint")
        # "Keep it, but with a coin flip per episode and a 2-point threshold": the test or the
        # rival said with the decision is recorded too (a trial's whole new design was lost)
        beside = [
            x
            for x in dict.fromkeys(KIND_SIGNAL[k] for k, _ in answer_parts(text) if k in KIND_SIGNAL)
            if x in {"DISCRIMINATION_ADDED", "ALTERNATIVE_ADDED"}
        ]
        for signal in beside:
            self.turns.signal(txn, signal, None, "said beside a decision after a checkpoint")
        self._revise_idea(txn, "moderator", "REFLECTION", ["DISPOSITION_DECIDED", *beside], text)
        self._record_decision(txn, text)
        self.turns.checkpoint(txn, "CHECKPOINT_REACHED", "S6", "decision recorded", final=False)

    def _opening_after_checkpoint(self, txn: Txn, text: str, last_stop: str | None) -> str | None:
        """What the next turn opens with after other input between turns: the answer recorded by
        its kind, a remark noted, or a revised proposition that opens a new stage."""
        zh = txn.s.language == "zh"
        kind = classify_answer(text)
        wording = revised_wording(text)
        goes_on = last_stop in _GOES_ON and wording is None
        if goes_on and kind != "other":
            # "I honestly don't know whether the noise matters too" after a checkpoint is an answer
            # (a hedge, a confounder, a test …), not a new proposition: it is recorded by its kind,
            # said back as recorded (a trial's confounder got no word at all), and the stage goes on
            # with the proposition it had (a trial had lost its whole result).
            found = list(dict.fromkeys(KIND_SIGNAL[k] for k, _ in answer_parts(text) if k in KIND_SIGNAL))
            if found:
                for signal in found:
                    self.turns.signal(txn, signal, None, f"{kind} after a checkpoint")
                self._revise_idea(txn, "moderator", "CONTINUE", found, text)
                return acknowledge(unlabelled(text), found, txn.s.language)
            quote = excerpt(unlabelled(text), 30)
            return f"记下了你的回答「{quote}」。" if zh else f'Noted your answer "{quote}".'
        if goes_on and not _reads_as_claim(text, txn.s.language):
            # 「你漏了一点：我前面说过…」 talks about the discussion; it is not a new proposition
            # (a trial's whole stage was replaced by such a remark)
            quote = excerpt(unlabelled(text), 30)
            return f"记下了你的回答「{quote}」。" if zh else f'Noted your answer "{quote}".'
        if last_stop == "CHECKPOINT_REACHED" and cues.substantial(text):
            # a revised proposition in the person's own words opens a new stage on it
            idea = txn.s.idea()
            txn.emit(
                "IDEA_REVISED", "moderator", "SYSTEM",
                {"idea_id": idea.idea_id, "proposition": wording or text, "source": "用户观察", "new_stage": True},
            )  # fmt: skip
            self.turns.signal(txn, "INTUITION_FORMULATED", None, "revised proposition opens a new stage")
            if zh:
                return "新阶段：以你改写的命题为对象重新审视。"
            return "New stage: the revised proposition is examined afresh."
        return None

    def _repeat(self, s: Session) -> str:
        pending = s.pending_question or {}
        return (" 当前问题不变：" if s.language == "zh" else " The open question stays: ") + str(
            pending.get("question")
        )

    def _p0_note(self, txn: Txn, text: str) -> None:
        s = txn.s
        txn.emit(
            "ROLE_RESPONSE", "moderator", "ROLE_SWITCH",
            {"turn": None, "label": ROLES["moderator"].name(s.language), "response": text, "trigger": "P0"},
        )  # fmt: skip

    def _case_at_reflection(self, txn: Txn, text: str, pending: JSONMapping) -> bool:
        """A case told when the reflection asks for a decision ("Last year one girl learned to type over the
        summer and her essays doubled, but she also got a new teacher") decides nothing: it is kept as a
        case (and a rival said in it as a rival), said back, and the decision stays open. Two trials took
        such a case as keeping the idea, with no word about it. Returns whether it handled the reply."""
        s = txn.s
        item = s.round_by_turn(pending_turn(pending))
        if item.question_type != "REFLECTION" or item.trigger == "P5":
            return False
        if classify_answer(text) != "example" or cues.states_decision(text):
            return False
        if revised_wording(text) is not None or any(re.search(p, text.lower()) for _, p in _DISPOSITIONS):
            return False
        txn.emit("USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "CONTINUE"})
        zh = s.language == "zh"
        parts = answer_parts(text)
        case = excerpt(part_of(parts, "example") or unlabelled(text), 60)
        if case not in s.examples:
            txn.field("examples", [*s.examples, case])
        but = re.search(
            r"(?:,|，)?\s*(?:\bbut\b|\bthough\b|\balthough\b|但是?|不过|可是)\s*(?P<rest>[^.。!！?？]{6,})", text, re.I
        )
        rival = part_of(parts, "confounder")
        if rival is None and but is not None and classify_answer(but.group("rest"), learned=False) == "confounder":
            rival = but.group("rest").strip()
        quote = excerpt(unlabelled(text), 45)
        if rival is not None:
            self.turns.signal(txn, "ALTERNATIVE_ADDED", None, "a rival told in a case at the reflection")
            self._revise_idea(txn, "moderator", "CONTINUE", ["ALTERNATIVE_ADDED"], rival)
            said = (
                f"记下了你举的实例「{quote}」（记作具体情形），其中的「{excerpt(rival, 30)}」记作另一种可能的解释。"
                if zh
                else f'Noted the case "{quote}" (kept as a case), and "{excerpt(rival, 30)}" in it as another '
                "possible explanation."
            )
        else:
            said = (
                f"记下了你举的实例「{quote}」（记作具体情形，不算决定）。"
                if zh
                else f'Noted the case "{quote}" (kept as a case; it decides nothing yet).'
            )
        self._p0_note(txn, said + self._repeat(txn.s))
        return True

    def _rephrase(self, txn: Txn, text: str, pending: JSONMapping) -> None:
        """ "Could you ask that another way?" answers nothing: the open question stays open and is
        asked once more in plainer words (a trial's partner moved on as if it had been answered)."""
        txn.emit("USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "QUESTION"})
        s = txn.s
        item = s.round_by_turn(pending_turn(pending))
        reading = read_proposition(s.idea().stage_base(s.stage).proposition, s.language)
        said = rephrase.rephrased(
            item.question_type, item.trigger == "P5", reading.kind == "plan", reading.key_term, s.language
        )
        self._p0_note(txn, said)

    def _p0_answer(self, txn: Txn, text: str) -> None:
        txn.emit("USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "QUESTION"})
        s = txn.s
        pending = s.pending_question or {}
        why = s.round_by_turn(pending_turn(pending)).why if pending.get("turn") is not None else ""
        if remarks.is_remark(text, _last_turn(s)):
            # 「我刚刚不是说了吗？」 complains; it asks nothing: the record is shown, nothing is kept open
            record = _record(s)
            zh = s.language == "zh"
            shown = f"听到了，你说过的已经记下：{record}。" if zh else f"Heard. On the record: {record}."
            self._p0_note(txn, shown + self._repeat(s))
            return
        asked = asked_back.question_to_partner(text)
        rival = asked_back.rival_in_question(asked) if asked else None
        if asked and rival:
            # "Isn't my mother moving in the rival?" offers the rival: it is recorded, and said so
            self.turns.signal(txn, "ALTERNATIVE_ADDED", None, "rival offered as a question")
            self._revise_idea(txn, "moderator", "CONTINUE", ["ALTERNATIVE_ADDED"], rival)
            self._p0_note(txn, asked_back.rival_heard(asked, rival, s.language) + self._repeat(s))
            return
        if asked and not cues.asks_verdict(text):
            # "Do you think 4 weeks is long enough?" asks for help, not for a verdict: it is answered
            # as far as rules can and kept open; the turn's question still waits for its answer
            self._p0_note(txn, self._heard(txn, asked) + self._repeat(s))
            return
        if s.language == "zh":
            note = f"我不判断命题对不对，经验命题的真伪只能由证据与检验决定。这个问题的用意：{why}"
        else:
            note = (
                "I do not judge whether the proposition is true; only evidence and tests can. "
                f"This question is asked because: {why}"
            )
        self._p0_note(txn, note + self._repeat(s))

    def _depth_note(self, s: Session, depth: str, delegated: bool) -> str:
        if s.language == "zh":
            name = summaries.DEPTH_NAMES["zh"][depth]
            if delegated:
                return f"好，按{name}档进行。这是按推荐取的，你可随时一句话改成其他档。"
            return f"好，按{name}档进行（最多 {gates.BUDGETS[depth].max_rounds} 轮实质讨论）。"
        if delegated:
            return f"OK, going with {depth}. That is the recommendation, taken for you; change it any time in one line."
        return f"OK, going with {depth} (up to {gates.BUDGETS[depth].max_rounds} substantive rounds)."

    def _answer_depth(self, txn: Txn, text: str, pending: JSONMapping) -> None:
        txn.emit(
            "USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "DEPTH", "turn": pending["turn"]}
        )
        depth, how = cues.parse_depth(text)
        rec = txn.s.recommended_depth(gates.RECOMMENDED_DEPTH)
        if how == "unknown":
            self.turns.config_turn(txn, retry=True)
            return
        if how == "delegated":
            self.turns.set_depth(
                txn, rec, source="INTERACTIVE_CONFIRMED", reason="user_delegated_choice_documented", user_chose=False
            )
        elif how == "recommended":
            self.turns.set_depth(
                txn, rec, source="INTERACTIVE_CONFIRMED", reason="user_accepted_recommendation", user_chose=True
            )
        else:
            self.turns.set_depth(txn, str(depth), source="INTERACTIVE_CONFIRMED", reason="user_chose", user_chose=True)
        self.turns.next_turn(
            txn, opening=self._depth_note(txn.s, txn.s.execution.depth or rec, delegated=how == "delegated")
        )

    def _answer_round(self, txn: Txn, text: str, pending: JSONMapping, command: cues.Command | None) -> None:
        turn = pending_turn(pending)
        as_command = command.kind if command is not None else None
        txn.emit(
            "USER_INPUT", "user", "USER",
            {"op": "reply", "text": text, "intent": "ANSWER", "turn": turn, "command": as_command},
        )  # fmt: skip
        s = txn.s
        item = s.round_by_turn(turn)
        previous = [r.user_answer for r in s.rounds if r.user_answer and r.turn != turn]
        # A question asked of the partner is answered and kept open; what else the answer says is
        # read on its own ("What would count as similar difficulty? I'd go by the grade" states no test).
        # "I already said that", 「你记错了」, 「我刚刚不是说了吗？」: how the person hears the partner is
        # no part of the idea, and a rhetorical question asks the partner nothing
        heard_only = remarks.without_remarks(text, _last_turn(s))
        for unknown in asked_back.named_unknowns(heard_only) if as_command is None else []:
            # 「真正没解决的是：…」 names an open question of the person's: kept open, not a rival
            self._keep_open(txn, unknown)
            heard_only = " ".join(heard_only.replace(unknown, " ", 1).split())
        remarked = heard_only != text
        asked = asked_back.question_to_partner(heard_only) if as_command is None else None
        said = asked_back.without_question(heard_only, asked) if asked else heard_only
        if as_command == "GAP":
            # "Case B — here's a rival: the dryer warms the kitchen. Is there research on yeast?": the
            # rival is heard before the search is proposed (a trial's was lost to the proposal)
            said = cues.without_research_request(heard_only)
        request = heard_only  # the research asked for, kept before ``text`` becomes the rest
        read = read_signals(
            self.turns.runtime,
            SignalInputs(
                question_type=item.question_type, question=item.question or "", answer=said, previous_answers=previous
            ),
        )
        rival = asked_back.rival_in_question(asked) if asked else None
        if rival:
            # 「我妈来住不就是那个竞争解释吗？」 offers the rival as a question: recorded, and said so
            self.turns.signal(txn, "ALTERNATIVE_ADDED", turn, "rival offered as a question")
            self._revise_idea(txn, item.role, item.question_type, ["ALTERNATIVE_ADDED"], rival)
        if asked or remarked:
            text = said if cues.substantial(said) else ""
        if as_command == "GAP":
            text = said if cues.substantial(said) else ""
        signals = [] if as_command in {"REVIEW", "MODE"} or not text else read.signals
        if (asked and not premise_named(text)) or (as_command is None and revised_wording(text)):
            # the question's context, or the new wording of the idea, is no premise it rests on; a premise
            # the person names as one ("The mechanism I have in mind is glare: …") beside a question is
            # (a trial's mechanism was lost to the question after it)
            signals = [x for x in signals if x != "PREMISE_SURFACED"]
        if classify_answer(text) == "choice" and not offers_choice(item.question or "", item.contribution or ""):
            signals = []  # "the second one" to a question that listed nothing picks nothing
        if as_command is None:
            # what else the answer says counts too: a named premise and a rival in one answer; beside a
            # decision only a rival or a test ("修改：… 竞争解释是我妈来住" lost the rival)
            allowed = cues.allowed_signals(item.question_type)
            if "DISPOSITION_DECIDED" in signals:
                allowed = tuple(x for x in allowed if x in {"ALTERNATIVE_ADDED", "DISCRIMINATION_ADDED"})
            for kind, _sentence in answer_parts(text)[1:]:
                extra = KIND_SIGNAL.get(kind)
                if kind == "choice" and offers_choice(item.question or "", item.contribution or ""):
                    extra = cues.ELIGIBLE.get(item.question_type, ("",))[0] or None  # the pick answers the turn
                if extra is not None and extra in allowed and extra not in signals:
                    signals = [*signals, extra]
        base_kind = read_proposition(s.idea().stage_base(s.stage).proposition, s.language).kind
        guess = base_kind == "question" and classify_answer(text) == "mechanism" and as_command is None
        said_guess = stated_guess(text) if base_kind == "question" and as_command is None else None
        if said_guess is not None and classify_answer(text) in {"correction", "other", "definition"}:
            # "Actually it's not really a question for me, it's a claim: I think typing fast frees them …" gives
            # the guess the question turns asked for; a trial asked for it twice more
            guess, text = True, said_guess
        if guess and "DISCRIMINATION_ADDED" not in signals:
            # A guess at the question's answer ("我周一效率最低，是因为周日睡得晚") is the testable form
            # the turn asked for: without the reason, the pattern should not show. Asking for the
            # factor again after it was given is what a trial called not listening.
            signals = [*signals, "DISCRIMINATION_ADDED"]
        for signal in signals:
            self.turns.signal(txn, signal, turn, f"cue in answer to {item.question_type}")
        qtype = "IMPLICATION" if guess else item.question_type if item.trigger != "P5" else "REVIEW"
        self._revise_idea(txn, item.role, qtype, signals, text, item.contribution or "")
        self._climb(txn)
        s = txn.s
        if not signals and as_command is None:
            stuck = gates.repeated_without_signal(s, item.role, item.obstacle or "")
            if stuck >= 2 and not any(q.get("obstacle") == item.obstacle for q in s.stopped_questions):
                txn.emit(
                    "STOPPED_QUESTION", "moderator", "SYSTEM",
                    {"rule": "S2", "obstacle": item.obstacle, "role": item.role, "question": item.question,
                     "turn": turn},
                )  # fmt: skip
        gap_premise = None
        if (
            item.question_type == "PREMISE_EVIDENCE"
            and read.dont_know
            and as_command is None
            and item.intent == "example"
        ):
            txn.emit(
                "STOPPED_QUESTION", "moderator", "SYSTEM",
                {"rule": "S3", "obstacle": item.obstacle, "role": item.role, "question": item.question, "turn": turn},
            )  # fmt: skip
            gap_premise = s.idea().current.proposition if self.turns.kb_root else None
        elif "PREMISE_SURFACED" in signals and self.turns.kb_root and cues.has_any(text, UNCERTAIN):
            gap_premise = text
        if as_command == "GAP":
            # "Is there research on this?" asks about the idea itself; "look it up" after a premise, about it
            asked_idea = request.rstrip().endswith(("?", "？"))
            current = s.idea().current
            gap_premise = current.proposition if asked_idea else (current.assumptions or [current.proposition])[-1]
            gap_premise = cues.asked_to_research(request) or gap_premise
        opening = None
        if asked:
            opening = asked_back.rival_heard(asked, rival, s.language) if rival else self._heard(txn, asked)
            if signals:
                opening += ("" if s.language == "zh" else " ") + acknowledge(unlabelled(text), signals, s.language)
        elif remarked and signals:  # quoted without the remark, which was no part of the idea
            opening = acknowledge(unlabelled(text), signals, s.language)
        stop = gates.stop_after_answer(txn.s, item.obstacle or "—")
        if stop is not None:
            self.turns.checkpoint(txn, stop.reason, stop.rule, stop.obstacle, final=False, note=opening)
            return
        if as_command == "MODE" and command is not None:
            self._switch_mode(txn, str(command.value))
            return
        if gap_premise is not None and not any(approval_of(g)["status"] == "PENDING" for g in txn.s.gap_requests):
            gap = gaps.propose(txn.s, premise=gap_premise, lang=txn.s.language)
            txn.emit("GAP_PROPOSED", "moderator", "SYSTEM", {"gap": gap})
            heard = acknowledge(unlabelled(text), signals, txn.s.language) if signals and text else ""
            self.turns.gap_turn(txn, gap, changed=False, note=heard)
            return
        self.turns.next_turn(txn, opening=opening, review_requested=as_command == "REVIEW", wish=cues.wished_role(text))

    def _gap_passed_over(self, txn: Txn, text: str, pending: JSONMapping) -> None:
        """An answer that goes on talking instead of saying yes or no to a proposed search. A trial
        saw the same proposal six times while it kept answering the idea: the search is left
        unchecked (an open question, as a "no" leaves it) and the answer is read as an answer."""
        txn.emit("USER_INPUT", "user", "USER", {"op": "reply", "text": text, "intent": "CONTINUE",
                                                 "turn": pending["turn"]})  # fmt: skip
        gap_id = txn.s.round_by_turn(pending_turn(pending)).obstacle or ""
        txn.emit("GAP_REJECTED", "user", "USER", {"gap_id": gap_id, "reason": "answered without a yes or no"})
        s = txn.s
        zh = s.language == "zh"
        asked = asked_back.question_to_partner(remarks.without_remarks(text, _last_turn(s)))
        rest = remarks.without_remarks(asked_back.without_question(text, asked) if asked else text, _last_turn(s))
        parts = answer_parts(rest) if cues.substantial(rest) else []
        found = list(dict.fromkeys(KIND_SIGNAL[k] for k, _ in parts if k in KIND_SIGNAL))
        for signal in found:
            self.turns.signal(txn, signal, None, "answer given instead of a search decision")
        if found:
            self._revise_idea(txn, "moderator", "CONTINUE", found, rest)
            self._climb(txn)
        note = "先不查，这一条留作未决问题。" if zh else "Not searched for now; it stays an open question."
        opening = note + ("" if zh else " ") + self._heard(txn, asked) if asked else note
        if found:
            opening += ("" if zh else " ") + acknowledge(unlabelled(rest), found, s.language)
        self.turns.next_turn(txn, opening=opening)

    def _record_decision(self, txn: Txn, text: str) -> None:
        """The person's decision, in their words: the plan takes its sizes from it ("over six weeks")."""
        txn.field("decisions", [*txn.s.decisions, {"text": text, "source": "用户观察"}])

    def _heard(self, txn: Txn, asked: str) -> str:
        """The answer to a question the person asked the partner. A question about the partner's own
        words is answered with what they meant and settled; any other stays an open question."""
        s = txn.s
        cause = read_proposition(s.idea().stage_base(s.stage).proposition, s.language).cause
        said = _last_turn(s)
        if asked_back.asks_weakest(asked):
            return asked_back.weakest_answer(asked, s.language, _weakest(s))
        counted = asked_back.counts_answer(asked, s.language, said)
        if counted is not None:
            return counted
        mine = next((r.question for r in reversed(s.rounds) if r.contribution and r.question), "")
        if mine and asked_back.checks_question(asked):
            return asked_back.question_meant(asked, s.language, mine)
        if asked_back.explain_term(asked, s.language, said, cause) is None and not asked_back.asks_how_to_answer(asked):
            self._keep_open(txn, asked)
        return asked_back.answer_back(asked, s.language, _record(s), said, cause)

    def _keep_open(self, txn: Txn, question: str) -> None:
        """A question the person asked the partner joins the session's open questions (once)."""
        kept = list(txn.s.open_questions)
        if question not in kept:
            txn.field("open_questions", [*kept, question])

    def _revise_idea(
        self, txn: Txn, role: str, qtype: str, signals: list[str], text: str, contribution: str = ""
    ) -> None:
        wording = revised_wording(text)
        if not signals and wording is None:
            return
        idea = txn.s.idea()
        quote = excerpt(unlabelled(text), 60)
        zh = txn.s.language == "zh"
        payload: dict[str, object] = {"idea_id": idea.idea_id, "source": "用户观察", "turn_role": role}
        if wording is not None and "DISPOSITION_DECIDED" not in signals:
            # "Revise: …" at any question: the next version of the idea says it — as a narrower scope
            # when that is all it gives ("Revise: only before 7am"), else as the new wording.
            base = idea.stage_base(txn.s.stage).proposition
            narrowed = excerpt(wording, 60)
            scoped = f"{base}（范围：{narrowed}）" if zh else f"{base} (scope: {narrowed})"
            payload["proposition"] = scoped if scope_only(wording) else wording
        elif "QUESTION_SHARPENED" in signals and qtype == "CLARIFICATION":
            base = idea.stage_base(txn.s.stage).proposition
            # "A" names an option of the turn: the proposition records the option's words, not the letter.
            chosen = excerpt(named_option(text, contribution) or "", 60)
            if not chosen and classify_answer(text) == "correction":
                # 「都不像。我关心的是营业额，按月算的流水」 turns the options down and names the measure: the
                # reading is that measure, not the whole answer (a trial's plan was quoted with it inside)
                chosen = excerpt(corrected_term(text) or "", 60)
            chosen = chosen or excerpt(goal_of(text) or "", 60) or quote
            payload["proposition"] = f"{base}（衡量方式：{chosen}）" if zh else f"{base} (reading: {chosen})"
        elif "QUESTION_SHARPENED" in signals and classify_answer(text) == "scope":
            # "Really just for the backend team" narrows the proposition: the next version says so,
            # and the summary's "revise" shows it instead of "none".
            # the wording the person has now (a "Revise:" before it stands), without an earlier scope note
            base = _SCOPE_NOTE.sub("", idea.current.proposition)
            # "Neither matches. I'd narrow it though: only the status part goes async" — the scope is
            # what follows the colon that announces it, or "narrow it to …"
            said = re.search(r"(?:narrow|scope|范围|缩小)[^:：]{0,20}[:：]\s*(.+)$", text, re.I) or re.search(
                r"\bnarrow(?:\s+(?:it|this))?(?:\s+down)?\s+to\s+(.+)$", text, re.I
            )
            narrowing = part_of(answer_parts(text), "scope") or unlabelled(text)
            scope = excerpt(_first_clause(said.group(1)), 60) if said else excerpt(_first_clause(narrowing), 60)
            payload["proposition"] = f"{base}（范围：{scope}）" if zh else f"{base} (scope: {scope})"
        elif "QUESTION_SHARPENED" in signals and classify_answer(text) == "correction" and corrected_term(text) is None:
            # "Correction: it's not every month, only the quarterly runs" narrows what the idea claims; a
            # trial's checkpoint still kept "every month" (a correction that names a term moves the key term)
            only = _ONLY.search(unlabelled(text))
            if only is not None:
                base = _SCOPE_NOTE.sub("", idea.current.proposition)
                scope = excerpt(only.group(0).strip(" ,，。."), 60)
                payload["proposition"] = f"{base}（范围：{scope}）" if zh else f"{base} (scope: {scope})"
        term = corrected_term(text) if classify_answer(text) == "correction" else None
        if term is not None:
            payload["key_term"] = term  # later turns ask about what the person meant
        parts = answer_parts(text)
        # A case the person tells of ("Last Monday I wrote nothing until 11") answers the question, but it
        # is no premise, test or rival: it is kept as an example, and only a sentence of another kind
        # beside it (a reason, a count, a test, a rival) is recorded as that kind. A trial's example to
        # "which premise are you least sure of?" had been listed as a key premise.
        example = classify_answer(text) == "example" and qtype != "CLARIFICATION"
        if example and signals:
            case = excerpt(part_of(parts, "example") or unlabelled(text), 60)
            if case not in txn.s.examples:
                txn.field("examples", [*txn.s.examples, case])
        if "PREMISE_SURFACED" in signals:
            # "The one I'm least sure of is the second" names a premise: record that premise, not the words.
            named = named_premise(text, contribution)
            # the sentence that gives it, never a hedge before it ("I'm not sure about any of them,
            # really. The only data I have …" became a trial's key premise, hedge and all)
            given = part_of(parts, "mechanism", "evidence", "worry")
            if named or given or not example:
                # 「更像乙：我没什么感觉，但作业本上…」: the pick of an example is no part of the premise
                given = _PICKED.sub("", given, count=1) if given else given
                payload["add_assumptions"] = [excerpt(named, 60) if named else excerpt(given, 60) if given else quote]
        test = part_of(parts, "test")
        if test is not None and test.rstrip().endswith(("?", "？")):
            test = None  # "What would count as a comparable week?" asks; it states no test
        asks_back = text.rstrip().endswith(("?", "？")) or cues.about_the_talk(text)
        if "DISCRIMINATION_ADDED" in signals and (
            test is not None or (qtype in {"IMPLICATION"} and not asks_back and not example)
        ):
            # a question back or a complaint ("You're repeating the same review") is no prediction
            # a stated test keeps its threshold: "…if I fall asleep less than 10 minutes faster, …"
            payload["add_predictions"] = [excerpt(test or unlabelled(text), 160)]
        if "ALTERNATIVE_ADDED" in signals:
            # the sentence that offers the rival, not the premise picked before it
            rival = part_of(parts, "confounder")
            if rival or not example:
                payload["add_alternatives"] = [excerpt(rival, 60) if rival else quote]
        if "DISPOSITION_DECIDED" in signals:
            low = text.lower()
            reworded = _REWORDED.search(text)
            new_wording = wording or ((reworded.group(1) or reworded.group(2) or "").strip() if reworded else "")
            disposition = _disposition(low)
            if disposition == "KEEP" and wording:
                disposition = "REVISE"  # "New version: …" rewords the idea whatever word it uses
            payload["disposition"] = disposition
            if disposition == "REVISE" and len(new_wording) >= 6:
                # "Revise: Remote work lowers output per hour on collaborative tasks" is the new wording:
                # the next version says it (it had been lost, or filed as a premise)
                payload["proposition"] = new_wording.rstrip("。.!！")
                if scope_only(new_wording):
                    # 「修改：只比较下午两点喝的那一杯」 narrows the idea; a trial's checkpoint kept the
                    # fragment as the whole proposition
                    base = _SCOPE_NOTE.sub("", idea.current.proposition)
                    narrowed = excerpt(new_wording.rstrip("。.!！"), 60)
                    payload["proposition"] = f"{base}（范围：{narrowed}）" if zh else f"{base} (scope: {narrowed})"
            if disposition == "KEEP" and "proposition" not in payload:
                # "Keep it, but narrow it to dinners when only the two of us eat", 「保留，不过改成只比较白天
                # 坐着读的时候」, 「先试行，但把周末租车的钱单独记一栏」: the keep comes with a change, which the
                # next version records (trials recorded the keep and showed "Revise: none")
                change = kept_with_change(text)
                if change is not None:
                    narrows, changed_to = change
                    base = _SCOPE_NOTE.sub("", idea.current.proposition)
                    label = ("范围" if narrows else "改动") if zh else ("scope" if narrows else "change")
                    payload["proposition"] = (
                        f"{base}（{label}：{changed_to}）" if zh else f"{base} ({label}: {changed_to})"
                    )
        if "DECISION_RECORDED" in signals:
            self._record_decision(txn, text)
        if len(payload) > 3:
            txn.emit("IDEA_REVISED", "moderator", "SYSTEM", payload)

    def _climb(self, txn: Txn) -> None:
        while True:
            idea = txn.s.idea()
            step = gates.next_maturity(txn.s, idea)
            if step is None:
                return
            txn.emit("IDEA_REVISED", "moderator", "SYSTEM", {"idea_id": idea.idea_id, "maturation": step})

    def _switch_mode(self, txn: Txn, mode: str) -> None:
        zh = txn.s.language == "zh"
        txn.field("mode", mode)
        name = {"explore": "探索", "examine": "推敲"}[mode] if zh else mode
        txn.field(
            "mode_reason", f"模式：{name}。依据：用户一句切换。" if zh else f"Mode: {mode}. Basis: the person switched."
        )
        self.turns.checkpoint(txn, "USER_SWITCHED_MODE", "S4", f"mode → {mode}", final=False)
        opening = (
            f"已切换到{name}模式，前一阶段已记入小结。"
            if zh
            else f"Switched to {mode}; the previous stage is summarised."
        )
        self.turns.next_turn(txn, opening=opening)


def _last_turn(s: Session) -> str:
    """What the partner said in its last turn (response, contribution, question and why), for "what
    do you mean by …?"."""
    last = next((r for r in reversed(s.rounds) if r.contribution), None)
    if last is None:
        return ""
    said = " ".join(x for x in (last.response, last.contribution, last.question, last.why) if x)
    return " ".join(said.split())


def _record(s: Session) -> str:
    """What the session holds for the idea, said plainly: for a question about the record ("did you
    record it?"), the partner shows it instead of guessing."""
    zh = s.language == "zh"
    version = s.idea().current
    rivals = [excerpt(a, 50) for a in version.alternatives]
    test = sharpest(version.predictions)
    if zh:
        named = "；".join(f"「{r}」" for r in rivals) or "无"
        shown = f"「{excerpt(test, 60)}」" if test else "无"
        return f"竞争解释：{named}，检验：{shown}，前提 {len(version.assumptions)} 条"
    parts = [
        "rivals: " + ("; ".join(f'"{r}"' for r in rivals) or "none"),
        "test: " + (f'"{excerpt(test, 60)}"' if test else "none"),
        f"premises: {len(version.assumptions)}",
    ]
    return ", ".join(parts)


def _weakest(s: Session) -> str:
    """The weakest point of the idea as the record stands, in order: nothing could show it wrong yet;
    a rival still explains the same; a premise rests on nothing named; only impressions back it."""
    zh = s.language == "zh"
    version = s.idea().current
    if not version.predictions:
        if zh:
            return "还没有一个能说明它错了的结果：你还没说看到什么就会改变看法"
        return "that nothing yet could show it wrong: no result has been named that would change your mind"
    if version.alternatives:
        rival = excerpt(version.alternatives[0], 60)
        if zh:
            return f"竞争解释「{rival}」仍然能解释同样的情况，记录里还没有把两者分开的结果"
        return f'that the rival "{rival}" still explains the same thing, and nothing recorded tells the two apart'
    if version.assumptions and not version.evidence_links:
        premise = excerpt(version.assumptions[-1], 60)
        if zh:
            return f"前提「{premise}」：还没有记录或资料支持它"
        return f'the premise "{premise}": no record or source backs it yet'
    if zh:
        return "目前支撑它的只有你的印象，还没有数过的记录或资料"
    return "that only your impressions back it so far, with no counted record or source"


def _reads_as_claim(text: str, lang: str) -> bool:
    """True when an unlabelled answer after a checkpoint reads as a proposition of its own: not one
    that talks about the discussion ("you missed…", 「我前面说过…」) or speaks to the partner."""
    if cues.about_the_talk(text) or re.search(r"\byou\b|\bearlier\b|你|前面", text, re.I):
        return False
    return read_proposition(text, lang).kind in {"causal", "comparison", "plan"}


_DISPOSITIONS = (
    ("REVISE", r"\brevise\b|修改|改成"),
    ("SET_ASIDE", r"\bset (?:it )?aside\b|\bpark\b|搁置|暂缓"),
    ("DROPPED", r"\bdrop\b|放弃"),
    ("UNDECIDED", r"\bundecided\b|未决"),
    ("KEEP", r"\bkeep\b|保留|坚持|(?:does(?:n'?t| not)|won'?t|will not) change|不会改变|不改变|没有改变"),
)


def _disposition(low: str) -> str:
    """The decision an answer states: the first decision word not put as a question ("Set it aside?
    No — keep the revised one" keeps; "revised" is no decision to revise). KEEP when none is named."""
    found = []
    for value, pattern in _DISPOSITIONS:
        for match in re.finditer(pattern, low):
            if not re.match(r"[^.。,，]{0,12}[?？]", low[match.end() :]):
                found.append((match.start(), value))
    return min(found)[1] if found else "KEEP"


# An option picked before what the answer says: "B: …", 「更像乙：…」, 「选A，…」.
_PICKED = re.compile(
    r"^(?:more like |closer to |mostly |option )?(?:更像|更接近|算是|应该是|大概是|选)?"
    r"\s*[ABC甲乙丙]\s*[，,。：:；;]\s*"
)
# The clause that narrows inside a correction: "only the quarterly runs, when …", 「只算季度结算」 — not
# "I only meant …" or 「只是想说…」, which say what the person meant, not where the idea holds.
_ONLY = re.compile(
    r"\bonly (?:the|for|in|on|at|during|when|with|among|after|before)\b[^.;!?]{3,}|"
    r"(?:只|仅)(?:有|在|算|限于?|针对|看|比较|说)[^。；！？]{2,}",
    re.I,
)
_SCOPE_NOTE = re.compile(r"\s*[（(](?:scope|范围|change|改动)[:：][^()（）]*[)）]\s*$")

# A keep (or a trial) and, after "but", the change that goes with it: "Keep it, but narrow it to …".
_KEEP_BUT = re.compile(
    r"^\s*(?:ok(?:ay)?[,，]?\s*|好[,，]?\s*)?(?:i'?ll |we'?ll |let'?s |i'?d |i |we |我们?(?:会|要|决定)?)?(?:先)?"
    r"(?:keep|try|trial|保留|试行|试一试|试试|试一下|坚持)[^,，;；:：.。!！]{0,20}"
    r"[,，;；:：]?\s*(?:but|though|except that|only|不过|但是?|只是|可是)\s*(?P<rest>.+)$",
    re.I,
)
_NARROW_TO = re.compile(
    r"\b(?:narrow(?:ed)?|limit(?:ed)?|restrict(?:ed)?)\s+(?:it\s+|this\s+|the claim\s+|the idea\s+)?(?:down\s+)?to\s+"
    r"(?P<to>.+)$|(?:缩小到|限于|限定在|改成|改为)?(?P<zh>(?:只|仅)(?:在|看|比较|算|数|针对|限于|说|管)?.+)$",
    re.I,
)


def kept_with_change(text: str) -> tuple[bool, str] | None:
    """The change said with a keep or a trial, and whether it only narrows; None when there is none
    (or when what follows "but" is a test or a rival, which are recorded as such)."""
    found = _KEEP_BUT.match(" ".join(text.split()))
    if found is None:
        return None
    rest = found.group("rest").strip().rstrip("。.!！")
    if len(rest) < 4 or classify_answer(rest, learned=False) in {"test", "confounder", "hedge"}:
        return None
    narrow = _NARROW_TO.search(rest)
    if narrow is not None and narrow.start() <= 12:
        found_to = (narrow.group("to") or narrow.group("zh") or "").strip()
        return True, excerpt(found_to, 60)
    bare = re.sub(r"^(?:i'?d |we'?d |let'?s |we'?ll |i'?ll |i want to |我们?(?:要|会|想)?|先)", "", rest, flags=re.I)
    if re.match(r"^(?:only|just)\b", bare, re.I):
        return True, excerpt(bare, 60)
    return False, excerpt(bare, 60)


# Where a scope stops: "only for backend services, the frontend bugs are mostly CSS…" narrows to the
# backend; the rest is the person's reason, not part of the scope.
_CLAUSE_END = re.compile(
    r"[.。!！?？;；]|\s[—–]\s|"
    r"[,，]\s*(?=(?:the|but|because|since|so|which|as|and the|that'?s|it'?s|我|但|因为|所以|不说|而))"
)


def _first_clause(text: str) -> str:
    cut = _CLAUSE_END.search(text)
    return text[: cut.start()].strip() if cut and cut.start() >= 4 else text.strip()


_ORDINALS = (
    ("first", "1", "①", "一"), ("second", "2", "②", "二"), ("third", "3", "③", "三"),
)  # fmt: skip


# "Revise: …", "revise it to …", 「修改为…」「改成：…」: the wording that follows is the new proposition.
_REWORDED = re.compile(
    r"(?:revise|reword|change)(?:\s+it)?\s*(?:to\b|:|：)\s*(.+)$|(?:修改|改)(?:为|成)?[:：]?\s*(?=\S{6})(.+)$", re.I
)


def named_option(answer: str, contribution: str) -> str | None:
    """The option an answer picks by its letter ("A", "option B", 「选 C」), read from the turn that
    listed them as "A. …; B. …" or 「A. …；B. …」; None when the answer names none or says more."""
    import re

    picked = re.fullmatch(r"\s*(?:option\s+|选\s*)?([ABC])\s*[.。!！]?\s*", answer, re.I) or OPENING_CHOICE.match(
        answer.strip()
    )
    if picked is None:
        return None
    letter = (picked.group(1) or picked.group(2) or "").upper()
    found = re.search(rf"(?:^|[\s：:；;，,]){letter}\.\s*([^；;。]+)", contribution)
    if not found:
        return None
    # "a measurable criterion (speed, cost, errors)": the option's name, not its examples
    return re.sub(r"\s*[（(][^()（）]*[)）]\s*$", "", found.group(1)).strip(" ,，") or None


def named_premise(answer: str, contribution: str) -> str | None:
    """The premise an answer points to by its number ("the second one", "第②条"), read from the
    turn that listed them as "(1) …; (2) …" or "① …；② …"; None when it names none."""
    import re

    low = answer.lower()
    index = next(
        (
            i
            for i, (english, digit, circled, chinese) in enumerate(_ORDINALS)
            if re.search(rf"\b{english}\b|\({digit}\)|number {digit}|{circled}|第{chinese}条|第{digit}条", low)
        ),
        None,
    )
    letter = re.fullmatch(r"\s*(?:option\s+|选\s*)?([ABC])\s*[.。!！]?\s*", answer, re.I)
    if index is None and letter is not None:
        index = "ABC".index(letter.group(1).upper())  # "C" for the third of three numbered premises
    if index is None:
        return None
    parts = re.split(r"\(\d\)\s*|[①②③]\s*", contribution)
    premises = [p.strip(" ;；,，。.") for p in parts[1:4]]
    if index < len(premises) and premises[index]:
        return re.split(r"[.。]\s*(?:Strongest|最强)", premises[index])[0]
    return None


def _refuse_between_turns(s: Session, text: str, last_stop: str | None) -> None:
    """Input between turns that cannot go on: the depth's rounds are used up, or the stage reached
    its result and the input adds nothing (going on with "ok" would only ask the reflection again,
    "You already answered this…", a trial's loop)."""
    zh = s.language == "zh"
    if last_stop == "BUDGET_EXHAUSTED" and gates.budget_stop(s) is not None:
        deeper = {"quick": "standard", "standard": "deep"}.get(s.execution.depth or "", "deep")
        say = ("改成标准" if deeper == "standard" else "改成深度") if zh else f"switch to {deeper}"
        raise InputError(
            "本档深度的轮次已用完" if zh else "the rounds of this depth are used up",
            hint=f"说「{say}」扩大上限，或运行 autodidact debate close 结束"
            if zh
            else f"say '{say}' to raise the limit, or close the session: autodidact debate close",
        )
    last_rule = s.checkpoints[-1].get("rule") if s.checkpoints else None
    kind = classify_answer(text)
    idle = kind in {"other", "hedge", "choice"} and not revised_wording(text) and not cues.states_decision(text)
    if last_rule == "S6" and not cues.substantial(text) and idle:
        raise InputError(
            "这一阶段已经完成" if zh else "this stage is complete",
            hint="写出修改后的命题以开启新阶段，或运行 autodidact debate close 结束"
            if zh
            else "write a revised proposition to examine it in a new stage, or close the session: "
            "autodidact debate close",
        )


_CommandHandler = Callable[[ReplyPlanner, Txn, str, Command, JSONMapping], bool]
_IntentHandler = Callable[[ReplyPlanner, Txn, str, JSONMapping], None]

# What a command does (docs/debate.md); a handler returning False leaves the reply to be read as an answer.
_COMMANDS: dict[str, _CommandHandler] = {
    "PAUSE": ReplyPlanner._pause_command,
    "SUMMARY": ReplyPlanner._checkpoint_command,
    "CLOSE": ReplyPlanner._checkpoint_command,
    "QUESTION": ReplyPlanner._question_command,
    "DEPTH": ReplyPlanner._depth_command,
}
# Who answers a pending question, by the intent it was asked with.
_INTENTS: dict[str, _IntentHandler] = {
    "depth": ReplyPlanner._answer_depth,
    "gap_confirmation": ReplyPlanner._gap_confirmation,
}
