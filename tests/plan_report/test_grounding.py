"""A report plan grounded in the documents' sections (report/grounding.py, docs/planning.md)."""

from __future__ import annotations

from pathlib import Path

from autodidact.plan.offline import offline_plan
from autodidact.plan.validate import validate_plan
from autodidact.report.grounding import ground_plan
from autodidact.text.keypoints import key_points_heading

REQUEST = "How does APT work: version pinning and system upgrades?"
MANUAL = """# Chapter 2. APT

APT installs packages from the archive and keeps them upgraded; this chapter covers the tools.

## 2.5.3. Archive level Release files

For normal archives the default Pin-Priority value is 500, used for version pinning decisions.
Archives marked NotAutomatic get priority 1 and are never pinned over the release by default.

## 2.7.3. Tweaking candidate version with pinning

Version pinning is configured in the preferences file with Pin-Priority entries per package.
A higher priority pins a package to the version of that archive.

## 2.3.5. System wide upgrade

A system upgrade to a new release changes sources.list and then runs a full upgrade of the system.
Read the release notes before the upgrade; the system may need a clean reboot afterwards.

## 9.1. Keyboard layout

The keyboard layout is chosen in the installer and changed later with dpkg-reconfigure.
"""


def _indexed(tmp_path: Path) -> Path:
    from autodidact.sources.ingest import index_corpus

    corpus = tmp_path / "manual"
    corpus.mkdir()
    (corpus / "apt.md").write_text(MANUAL, encoding="utf-8")
    root = tmp_path / "report"
    index_corpus(root, [corpus], name="manual")
    return root


def test_facet_dimensions_ask_for_their_sections_key_points(tmp_path: Path) -> None:
    plan = offline_plan(REQUEST, "en")
    grounded = ground_plan(plan, REQUEST, [tmp_path / "no-index", _indexed(tmp_path)])
    asked = {
        d.name: [key_points_heading(q) for q in d.key_questions if key_points_heading(q)] for d in grounded.dimensions
    }
    pinning = next(v for k, v in asked.items() if "pinning" in k)
    upgrades = next(v for k, v in asked.items() if "upgrades" in k)
    assert "Tweaking candidate version with pinning" in pinning
    assert "System wide upgrade" in upgrades and "Keyboard layout" not in upgrades + pinning
    for before, after in zip(plan.dimensions, grounded.dimensions, strict=True):
        assert 2 <= len(after.key_questions) <= 5
        assert after.key_questions[:1] == before.key_questions[:1]  # the template's first question stays
    assert validate_plan(grounded.to_json()).ok
    assert "key-points questions" in grounded.change_notes[-1]


def test_without_an_index_the_plan_is_unchanged(tmp_path: Path) -> None:
    plan = offline_plan(REQUEST, "en")
    assert ground_plan(plan, REQUEST, [tmp_path]) == plan
