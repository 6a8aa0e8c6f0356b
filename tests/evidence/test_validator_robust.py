"""The validator never crashes: arbitrary JSON, and valid files with any value swapped for junk."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodidact.evidence.validator import validate_evidence

from .conftest import build_valid

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values.filter(lambda v: not isinstance(v, str)))
def test_arbitrary_json_never_crashes(value: Any) -> None:
    # (a top-level str is read as a file path by design)
    report = validate_evidence(value)
    assert isinstance(report.ok, bool)
    assert all("rule" in e for e in report.errors)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = Path(tmp_path_factory.mktemp("r"))
    return folder, build_valid(folder)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_junk_anywhere_in_a_valid_file_never_crashes(built: tuple[Path, dict[str, Any]], data: Any) -> None:
    folder, valid = built
    doc = copy.deepcopy(valid)
    path = data.draw(st.sampled_from(_paths(doc)))
    junk = data.draw(json_values)
    node: Any = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = junk
    report = validate_evidence(
        doc,
        source_cache=folder / "source_cache",
        plan={"dimensions": [{"id": "d1", "dependency_inputs": junk}]},
        upstream={"d0": junk},
    )
    assert isinstance(report.ok, bool)
    if not report.ok:
        assert report.errors and all(e["rule"].startswith("V") for e in report.errors)
