"""What the evidence step no longer does once per raw file or indexed document every round (issue 18;
docs/architecture.md, "Incremental rounds"), with the same results as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodidact.errors import InputError
from autodidact.evidence import collect
from autodidact.evidence.collect import Collector
from autodidact.sources import snapshots
from autodidact.sources.snapshots import normalize_url


class _EveryTitle(dict[str, list[int]]):
    """A title index that sends every term to every title: the scan over all titles, as before."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def get(self, key: str, default: object = None) -> list[int]:  # type: ignore[override]
        return list(range(self.n))


def test_title_candidates_score_only_titles_sharing_a_term(pydoc_report: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kq_terms = [["generator", "function"], ["yield", "expression"], ["context", "manager"]]
    scored: list[list[str]] = []
    real = collect.title_score

    def counting(words: list[str], variants: list[list[str]]) -> float:
        scored.append(words)
        return real(words, variants)

    monkeypatch.setattr(collect, "title_score", counting)
    collector = Collector(pydoc_report, None, providers=[], fetch_document=None)
    try:
        titles = collector._title_terms(*collector._indexes[0])
        found = [c.doc.snapshot_ref for c in collector.title_candidates(kq_terms, k=50)]
    finally:
        collector.close()
    assert found, "the corpus has titles about generators and context managers"
    assert 0 < len(scored) < len(titles) // 4  # not every title of the index
    reference = Collector(pydoc_report, None, providers=[], fetch_document=None)
    monkeypatch.setattr(reference, "_title_terms_index", lambda root, titles: _EveryTitle(len(titles)))
    try:
        assert [c.doc.snapshot_ref for c in reference.title_candidates(kq_terms, k=50)] == found
    finally:
        reference.close()


def test_a_url_is_normalised_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = snapshots._normalize_url

    def counting(url: str) -> str:
        calls.append(url)
        return real(url)

    monkeypatch.setattr(snapshots, "_normalize_url", counting)
    monkeypatch.setattr(snapshots, "_NORMALIZED", {})
    url = "HTTPS://Example.COM:443/a?b=1#frag"
    assert normalize_url(url) == normalize_url(url) == "https://example.com/a?b=1"
    assert calls == [url]
    for _ in range(2):  # a URL that does not normalise raises every time
        with pytest.raises(InputError):
            normalize_url("ftp://example.com/")
