"""`make eval` for the debate partner: scripted people, read by the offline engine (docs/debate.md).

Why scripted people: a debate is judged by whether it follows what the person says. Each persona in
``eval/personas.toml`` brings a proposition with the parts a careful reader would extract, and a
script of answers labelled with the kind a careful listener would hear. This script runs every
session through the real engine and checker and prints, per persona:

- whether the proposition's parts were read right (kind, key term, cause);
- the share of answers whose kind was recognised;
- re-asks (a question asked again after it was answered);
- internal labels shown to the person;
- whether the checker passes the session.

It exits 1 when the targets are missed: parts right in at least 90% of personas, answer kinds at
least 0.8, no re-asks, no internal labels, every session clean — over all personas and over the
held-out ones alone. Held-out personas are marked; nobody tunes on them. ``eval/debate.py FILE``
runs another set in the same format.
"""

from __future__ import annotations

import re
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from autodidact.debate.answer_kinds import classify  # noqa: E402
from autodidact.debate.checker import check_session  # noqa: E402
from autodidact.debate.engine import Engine  # noqa: E402
from autodidact.debate.proposition import read  # noqa: E402
from autodidact.debate.render import render_events  # noqa: E402
from autodidact.errors import InputError  # noqa: E402

# What a person must never read: rule ids, enum names, provenance tags.
INTERNAL = re.compile(
    r"\[(?:INFERRED|DEFAULTED|SYSTEM_RULE|CONTEXT|PROJECT|USER|UPSTREAM)\]|\b[A-Z]{3,}_[A-Z_]{3,}\b|"
    r"\bP[0-6]\b(?! ?\d)|\bS[1-6]\b|\b(?:SUPPORTED|CHALLENGED|BOUNDED|INSUFFICIENT|NONE_FOUND|DEVELOPING|TESTABLE)\b"
)
TARGET_PARTS, TARGET_KINDS = 0.9, 0.8


@dataclass
class Outcome:
    name: str
    held_out: bool
    parts_tuned: bool
    parts_ok: bool
    parts_note: str
    kinds_right: int
    kinds_total: int
    reasks: int
    internal: list[str]
    clean: bool


def run_persona(persona: dict[str, object], work: Path) -> Outcome:
    lang = str(persona["lang"])
    text = str(persona["proposition"])
    reading = read(text, lang)
    key, cause = str(persona["key"]).casefold(), str(persona.get("cause", "")).casefold()
    parts_ok = (
        reading.kind == persona["kind"]
        and key in reading.key_term.casefold()
        and (not cause or cause in reading.cause.casefold())
    )
    note = f"{reading.kind}; key {reading.key_term!r}; cause {reading.cause!r}"
    folder = work / str(persona["name"])
    events = Engine(folder).start(text)
    shown = [render_events(events, lang)]
    right = total = 0
    for answer, kind in persona["answers"]:  # type: ignore[attr-defined]
        if kind != "config":
            total += 1
            right += classify(answer) == kind
        session = Engine(folder).load()
        if session.state == "CLOSED":
            break
        try:
            shown.append(render_events(Engine(folder).reply(answer), lang))
        except InputError:  # the depth's budget is used up: the session waits for the person to decide
            break
    transcript = "\n".join(shown)
    checked = check_session(folder)
    reasks = sum(1 for v in checked["violations"] if v["rule"] == "DC17")
    internal = sorted(set(INTERNAL.findall(transcript)))
    return Outcome(str(persona["name"]), bool(persona.get("held_out")), bool(persona.get("parts_tuned")), parts_ok,
                   note, right, total, reasks, internal, bool(checked["ok"]))  # fmt: skip


def main() -> int:
    # ``eval/debate.py FILE`` runs other personas (same format), e.g. ones written blind for a check.
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "eval" / "personas.toml"
    personas = tomllib.loads(path.read_text(encoding="utf-8"))["persona"]
    with tempfile.TemporaryDirectory(prefix="autodidact-debate-eval-") as tmp:
        outcomes = [run_persona(p, Path(tmp)) for p in personas]
    print("| persona | parts read | answer kinds | re-asks | internal labels | checker |")
    print("|---|---|---|---|---|---|")
    for o in outcomes:
        name = o.name + (" (held out)" if o.held_out else "")
        parts = "yes" if o.parts_ok else f"no ({o.parts_note})"
        labels = ", ".join(o.internal) or "0"
        print(f"| {name} | {parts} | {o.kinds_right}/{o.kinds_total} | {o.reasks} | {labels} | "
              f"{'clean' if o.clean else 'VIOLATIONS'} |")  # fmt: skip
    # The held-out personas must meet the targets on their own: rules that fit only the personas they
    # were written against do not listen to people in general.
    held_ok = True
    for label, group in (
        ("tuned on", [o for o in outcomes if not o.held_out]),
        ("held out", [o for o in outcomes if o.held_out]),
    ):
        if group:
            # Personas whose parts were tuned on count for answers only (eval/personas.toml).
            parted = [o for o in group if not (label == "held out" and o.parts_tuned)] or group
            g_parts = sum(o.parts_ok for o in parted) / len(parted)
            g_kinds = sum(o.kinds_right for o in group) / max(1, sum(o.kinds_total for o in group))
            print(f"{label}: {len(group)} personas, parts read right {g_parts:.2f} (of {len(parted)}), "
                  f"answer kinds {g_kinds:.2f}")  # fmt: skip
            if label == "held out":
                held_ok = g_parts >= TARGET_PARTS and g_kinds >= TARGET_KINDS
    parts = sum(o.parts_ok for o in outcomes) / len(outcomes)
    kinds = sum(o.kinds_right for o in outcomes) / max(1, sum(o.kinds_total for o in outcomes))
    reasks = sum(o.reasks for o in outcomes)
    internal = sum(len(o.internal) for o in outcomes)
    clean = sum(o.clean for o in outcomes)
    print(
        f"\nparts read right {parts:.2f} (target {TARGET_PARTS}), answer kinds {kinds:.2f} (target {TARGET_KINDS}), "
        f"re-asks {reasks} (target 0), internal labels {internal} (target 0), checker clean {clean}/{len(outcomes)}"
    )
    ok = parts >= TARGET_PARTS and kinds >= TARGET_KINDS and reasks == 0 and internal == 0 and clean == len(outcomes)
    ok = ok and held_ok
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
