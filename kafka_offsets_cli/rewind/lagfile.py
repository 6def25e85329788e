"""A saved ``lag -o json|jsonl --time-lag`` file as the primary of a DR cutover
(``rewind --from-lag-file``): the same resume points :func:`~.cutover.primary_resumes` reads
live, at the time the file was taken (docs/recipes.md: "Disaster-recovery cutover per partition"). Pure."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import NotFound, UsageError
from ..measures.lag.rows import LagRow
from .cutover import Resume, row_resume

if TYPE_CHECKING:
    from ..parse.selection import Selection

__all__ = ["file_resumes", "parse_records"]

#: How to take a file the cutover can read (named in every refusal).
TAKE = "take it on the primary with `kafka-offsets lag -g GROUP -o json --time-lag`"


def parse_records(text: str, path: str) -> list[dict[str, Any]]:
    """The records of a ``lag -o json`` (one array) or ``-o jsonl`` (one object a line) file."""
    try:
        data = json.loads(text)
        recs = data if isinstance(data, list) else [data]
    except RecursionError:  # json's decoder recurses per nested array or object
        raise UsageError(f"{path}: not a lag -o json or jsonl file (nested too deeply); {TAKE}") from None
    except ValueError:
        try:
            recs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except RecursionError:
            raise UsageError(f"{path}: not a lag -o json or jsonl file (nested too deeply); {TAKE}") from None
        except ValueError as e:
            raise UsageError(f"{path}: not a lag -o json or jsonl file ({e}); {TAKE}") from e
    if not all(isinstance(r, dict) for r in recs):
        raise UsageError(f"{path}: not a lag -o json or jsonl file (records are objects); {TAKE}")
    return recs


def _row(rec: dict[str, Any], path: str) -> LagRow:
    try:
        return LagRow.from_record(rec)
    except (KeyError, TypeError, ValueError) as e:
        raise UsageError(
            f"{path}: a record lacks {e} (not a lag -o json file of this version); {TAKE}"
        ) from e


def file_resumes(
    records: Sequence[dict[str, Any]], path: str, groups: Sequence[str], selection: Selection | None
) -> tuple[list[Resume], int]:
    """Each group's resume point on the file's partitions (the selection's), and when the file was
    taken (``taken_at_ms``). Refuses a file without ``resume_timestamp`` (taken without ``--time-lag``)
    and a group or selected topic the file has no row for."""
    mine = [r for r in records if r.get("group") in groups]
    for g in groups:
        if not any(r.get("group") == g for r in mine):
            raise NotFound(f"{path} has no rows for group {g!r}; {TAKE}")
    for r in mine:
        if r.get("partition") is None and r.get("error") == "GROUP_ID_NOT_FOUND":
            raise NotFound(f"group {r['group']!r} did not exist on the primary cluster when {path} was taken")
        if r.get("partition") is None and r.get("error") is not None:
            raise UsageError(f"{path}: group {r['group']!r} could not be read then ({r['error']}); {TAKE}")
    rows = [_row(r, path) for r in mine if r.get("partition") is not None]
    if not rows or any(r.taken_at_ms is None for r in rows):
        raise UsageError(f"{path} has no resume_timestamp (taken without --time-lag); {TAKE}")
    if selection is not None:
        rows = [r for r in rows if selection.allows(r.topic, r.partition)]
        for t in selection.literal_topics() or ():
            if not any(r.topic == t for r in rows):
                raise NotFound(f"{path} has no rows for topic {t!r}; {TAKE} -t {t}")
    return [row_resume(r) for r in rows], max(r.taken_at_ms or 0 for r in rows)
