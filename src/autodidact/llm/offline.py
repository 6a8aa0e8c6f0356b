"""The offline engine: every task answered by its own deterministic ``offline`` method.

Why it is a real engine: with no key and no network the whole program must still run end to end
(templates, full-text retrieval, extractive selection live in each task's ``offline``). This module
only dispatches and holds the engine to the same contract as a model: the result must be a valid
instance of the task's ``Output``.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, ValidationError

from autodidact.errors import ModelOutputInvalid
from autodidact.llm.tasks import Task

OutputT = TypeVar("OutputT", bound=BaseModel)
InT = TypeVar("InT")

OFFLINE_NAMES = frozenset({"offline", "none", "off"})


def run_offline(task: Task[InT, OutputT], inputs: InT) -> OutputT:
    """Call ``task.offline`` and make sure it returned (or can be read as) ``task.Output``.

    A task whose offline engine is asked for more than a model is (``offline_inputs``: the
    extractor's spare claims) gets its inputs through that hook first.
    """
    widen = getattr(task, "offline_inputs", None)
    result: object = task.offline(widen(inputs) if widen is not None else inputs)
    output_cls = task.Output
    if isinstance(result, output_cls):
        return result
    try:
        data = result.model_dump() if isinstance(result, BaseModel) else result
        return output_cls.model_validate(data)
    except ValidationError as exc:
        raise ModelOutputInvalid(
            f"task {task.name}: the offline engine returned data that does not match its Output: "
            f"{exc.errors()[0]['msg']}",
            hint="this is a bug in the task's offline method",
        ) from None
