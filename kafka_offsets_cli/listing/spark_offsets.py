"""``list -o spark-offsets``: one spec's offsets as the JSON Spark's Kafka source takes (pure).

Spark's ``startingOffsets`` / ``endingOffsets`` take ``{"topic": {"0": 23, "1": 42}}``: an offset
for every partition of every topic read (Spark refuses a JSON that leaves one out). A spec may have
no offset on a partition without any error: a time after the newest record, ``max-timestamp`` on an
empty partition. Spark's own ``-1`` (latest) would then be a silent jump to the end, so such a
partition is an error unless the user chose what Spark should read there (``--spark-missing
earliest|latest``): that offset is listed in the same round and written as a number, so the
boundary is the one seen now, not one Spark resolves later.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from ..errors import PartialFailure, UsageError
from ..models.offsets import OffsetSpec, OffsetTable

__all__ = ["Missing", "boundaries", "specs_to_list"]

#: partitions named in a message, at most
_NAMED = 5


class Missing(str, Enum):
    """What a partition without an offset at the spec gets (``--spark-missing``)."""

    error = "error"
    earliest = "earliest"
    latest = "latest"

    def spec(self) -> OffsetSpec | None:
        """The spec listed for such partitions; ``None``: they are an error."""
        if self is Missing.earliest:
            return OffsetSpec.earliest()
        if self is Missing.latest:
            return OffsetSpec.latest()
        return None


def specs_to_list(specs: Sequence[OffsetSpec], missing: Missing) -> tuple[OffsetSpec, ...]:
    """The specs one ``list -o spark-offsets`` run lists: the one boundary (a usage error for more
    or fewer), and the ``missing`` choice's spec beside it in the same round."""
    if len(specs) != 1:
        raise UsageError("--output spark-offsets takes one spec: Spark reads one boundary at a time")
    fallback = missing.spec()
    return tuple(dict.fromkeys([specs[0], *([fallback] if fallback is not None else [])]))


def boundaries(table: OffsetTable, spec: OffsetSpec, missing: Missing) -> dict[str, dict[str, int]]:
    """Every selected partition's offset at ``spec``, by topic and partition number (as strings).

    A topic that could not be listed or a partition whose query failed is a :class:`PartialFailure`
    (nothing to print: Spark would refuse a JSON without it); so is a partition with no offset at
    ``spec`` unless ``missing`` chose the offset it gets.
    """
    fallback = missing.spec()
    if table.missing_topics:
        raise PartialFailure(
            "no offsets for topic(s) " + ", ".join(f"{t} ({e})" for t, e in table.missing_topics)
        )
    failed = sorted({f"{r.topic}-{r.partition} ({r.error})" for r in table.errors})
    if failed:
        raise PartialFailure(f"no offset for {len(failed)} partition(s): {_some(failed)}")
    out: dict[str, dict[str, int]] = {}
    without: list[str] = []
    for tp, answers in table.by_partition().items():
        own = answers.get(spec)
        offset = own.offset if own is not None else None
        if offset is None and fallback is not None and fallback in answers:
            offset = answers[fallback].offset
        if offset is None:
            without.append(f"{tp.topic}-{tp.partition}")
            continue
        out.setdefault(tp.topic, {})[str(tp.partition)] = offset
    if without:
        raise PartialFailure(
            f"no offset at {spec.name} on {len(without)} partition(s) ({_some(without)}): no record there "
            "answers the spec; --spark-missing earliest|latest says where Spark should read instead"
        )
    return out


def _some(names: Sequence[str]) -> str:
    """The first few names, and how many more."""
    more = len(names) - _NAMED
    return ", ".join(names[:_NAMED]) + (f" and {more} more" if more > 0 else "")
