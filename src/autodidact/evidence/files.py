"""evidence.json at its edge: the one loader (file → :class:`EvidenceFile`) and the one writer.

Why one loader: the loop, the wiki, the report and ``verify`` used to read the file each in its
own way, as a dict, each tolerant of different damage. Now JSON exists only here; past this edge
evidence is typed (docs/evidence.md, "Evidence in code"). Reading tolerates what the validator
tolerates — schema 1.1, unknown keys (dropped), a 1.1 ``"upstream_usage": null`` — so a file that
passes ``autodidact evidence validate`` always loads; a file that cannot load is an
:class:`InputError` naming the file and its first problem, never a traceback. The validator
itself still reads raw JSON, so it reports rule codes for files this loader refuses.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from autodidact.errors import InputError, NotFoundError
from autodidact.evidence.models import EvidenceFile
from autodidact.store.atomic import write_json

_CHECK = "check it with `autodidact evidence validate` (format: docs/contracts.md §3.2)"


def load_evidence(path: Path) -> EvidenceFile:
    """Read one evidence.json; :class:`NotFoundError` when it is missing, :class:`InputError` when
    it cannot be read or is not an evidence file."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"evidence file {path} is a folder, not a file", hint="pass the .json file itself")
    if not path.is_file():
        raise NotFoundError(f"evidence file {path} does not exist")
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise InputError(f"evidence file {path}: cannot read ({exc.strerror or exc})") from None
    return evidence_from_json(text, path.name)


def evidence_from_json(text: str | bytes, name: str) -> EvidenceFile:
    """Parse evidence.json text (``name`` says which file, in errors)."""
    try:
        return EvidenceFile.model_validate_json(text, extra="ignore")
    except ValidationError as exc:
        raise InputError(f"{name}: {_first_problem(exc)}", hint=_CHECK) from None


def _first_problem(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "not an evidence file"
    first = errors[0]
    if first["type"] == "json_invalid":
        return f"not valid JSON ({first['msg'].removeprefix('Invalid JSON: ')})"
    if first["type"] == "model_type" and not first["loc"]:
        return "not an evidence file (the top level must be a JSON object)"
    where = ".".join(str(p) for p in first["loc"])
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return f"not an evidence file: {where}: {first['msg']}{more}"


def write_evidence(path: Path, evidence: EvidenceFile) -> None:
    """Write the file atomically in its JSON form (:meth:`EvidenceFile.to_json`)."""
    write_json(path, evidence.to_json())
