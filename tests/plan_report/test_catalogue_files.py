"""The packaged catalogue files have the shape their loaders declare (issue 17).

Why: ``plan/archetypes.py`` and ``plan/catalogue.py`` type ``json.loads`` of their own data files
with a ``TypedDict`` instead of ``Any``; the type checker takes that declaration on trust, so this
test holds every entry of the files to it (a key added to the file but not to the loader, or one
the loader reads that an entry lacks, fails here rather than at import).
"""

from __future__ import annotations

import json
from importlib import resources

from autodidact.plan import archetypes, catalogue


def _data(name: str) -> object:
    return json.loads(resources.files("autodidact.plan").joinpath(f"data/{name}").read_text("utf-8"))


def test_every_archetype_entry_has_exactly_the_declared_keys() -> None:
    raw = _data("archetypes.json")
    assert isinstance(raw, dict) and raw
    for entry in raw.values():
        assert set(entry) == set(archetypes._ArchetypeJSON.__annotations__)
        for upstream in entry["upstream"]:
            assert set(upstream) == set(archetypes._UpstreamJSON.__annotations__)
    assert set(archetypes.ARCHETYPES) == set(raw)


def test_the_report_type_catalogue_has_exactly_the_declared_keys() -> None:
    raw = _data("report_types.json")
    assert isinstance(raw, dict)
    assert set(raw) == set(catalogue._CatalogueJSON.__annotations__)
    for entry in raw["types"].values():
        assert set(entry) == set(catalogue._ReportTypeJSON.__annotations__)
        for basis in entry["basis"]:
            assert set(basis) == set(catalogue._BasisJSON.__annotations__)
    assert set(catalogue.CATALOGUE) == set(raw["types"])
