"""Follow-up questions from the sections the last round quoted (questions/candidates.py)."""

from __future__ import annotations

from autodidact.questions.candidates import followup_concepts, offline_candidates
from autodidact.questions.models import HistoryItem, QuestionerInputs, RawDigest

# Two excerpts of the Debian Reference, chapter 2 (as the research step writes them into raw/).
PINNING = RawDigest(
    filename="2026-12-02_2-7-3-tweaking-candidate-version.md",
    title="2.7.3. Tweaking candidate version",
    body=(
        'Without the "`/etc/apt/preferences`" file, APT system choses the latest available version as the '
        "**candidate version** using the version string. Pin-Priority value of each package is defined by "
        '"Pin-Priority" entries in the "`/etc/apt/preferences`" file. Use `apt-cache policy` to see it; '
        "`apt-cache policy` shows the **candidate version**. See `/usr/share/doc/apt/examples/`."
    ),
)
UPGRADES = RawDigest(
    filename="2026-12-02_2-2-3-basic-package-management-operations.md",
    title="2.2.3. Basic package management operations",
    body="Run `apt full-upgrade` to upgrade. `apt full-upgrade` may remove packages; `apt upgrade` never does.",
)


def test_marked_terms_seen_twice_become_follow_ups_and_paths_do_not() -> None:
    got = followup_concepts([PINNING, UPGRADES], asked=[])
    assert "/etc/apt/preferences" in got and "apt-cache policy" in got and "apt full-upgrade" in got
    assert all(not g.startswith("/usr") for g in got)  # a folder (and seen once)
    assert "apt upgrade" not in got  # marked only once: not a follow-up yet


def test_a_follow_up_already_asked_is_not_asked_again() -> None:
    got = followup_concepts([PINNING], asked=["What is apt-cache policy?"])
    assert "apt-cache policy" not in got


def test_follow_ups_reach_the_candidates_as_questions() -> None:
    inputs = QuestionerInputs(
        topic="How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?",
        round=2,
        language="en",
        quoted_excerpts=[PINNING, UPGRADES],
        history=[HistoryItem(id="r1q1", text="What is the definition of Debian package management?")],
    )
    texts = [c.text for c in offline_candidates(inputs)]
    assert "What is apt-cache policy?" in texts


def test_an_action_phrase_is_not_a_follow_up_concept() -> None:
    raw = RawDigest(
        filename="2026-12-03_descriptors.md",
        title="Implementing Descriptors",
        body="**Implementing Descriptors** uses `__get__`. **Implementing Descriptors** again; "
        "`__get__` and **descriptor** and **descriptor**.",
    )
    got = followup_concepts([raw], asked=[])
    assert "Implementing Descriptors" not in got and "descriptor" in got
