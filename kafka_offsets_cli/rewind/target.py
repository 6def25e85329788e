"""What a reset moves a group to: the reset modes of ``kafka-consumer-groups --reset-offsets``.

======================  =====================================  ===================================
kafka-offsets           kafka-consumer-groups                  new offset
======================  =====================================  ===================================
``--to TIME``           ``--to-datetime`` / ``--by-duration``  first offset with timestamp >= TIME
``--to earliest``       ``--to-earliest``                      log start
``--to latest``         ``--to-latest``                        log end
``--to-offset N``       ``--to-offset N``                      N, clamped to [log start, end]
``--to-current``        ``--to-current``                       the committed offset (none: end)
``--shift-by N``        ``--shift-by N``                       committed + N, clamped
``--from-file FILE``    ``--from-file FILE``                   the file's offset, clamped
``--delete-offsets``    ``--delete-offsets``                   none: the committed offset deleted
``--to-group SOURCE``   (none: kafkactl ``clone``)             SOURCE's committed offset, clamped
======================  =====================================  ===================================

A time is resolved to epoch milliseconds once, when the command line is read
(:attr:`Target.text` keeps what the user wrote, to print the instant it became).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..models.offsets import OffsetSpec, SpecKind


class TargetKind(str, Enum):
    """What the new offset is derived from."""

    TIME = "time"
    EARLIEST = "earliest"
    LATEST = "latest"
    SHIFT = "shift"
    OFFSET = "offset"
    CURRENT = "current"
    FILE = "file"
    DELETE = "delete"
    GROUP = "group"


@dataclass(frozen=True)
class Target:
    """A reset target: a time (epoch ms), earliest, latest, an offset, a shift, current, or a plan file."""

    kind: TargetKind
    time_ms: int | None = None
    shift: int | None = None
    offset: int | None = None
    #: what the user wrote for a time (``30m ago``, ``PT30M``), the plan file's path (a
    #: ``--delete-offsets`` target's too, when its partitions come from one), or the source group
    text: str | None = None

    @classmethod
    def from_spec(cls, spec: OffsetSpec, text: str | None = None) -> Target:
        """``earliest``, ``latest`` or a time from a parsed offset spec (max-timestamp is not a target)."""
        if spec.kind is SpecKind.EARLIEST:
            return cls(TargetKind.EARLIEST)
        if spec.kind is SpecKind.LATEST:
            return cls(TargetKind.LATEST)
        if spec.kind is SpecKind.TIMESTAMP:
            return cls(TargetKind.TIME, time_ms=spec.timestamp_ms, text=text)
        raise ValueError(f"{spec.name} is not a rewind target")

    @classmethod
    def shift_by(cls, n: int) -> Target:
        """Move the committed offset by ``n`` (negative: back)."""
        return cls(TargetKind.SHIFT, shift=n)

    @classmethod
    def to_offset(cls, n: int) -> Target:
        """Offset ``n`` on every partition (clamped to the log, as Kafka's ``--to-offset``)."""
        return cls(TargetKind.OFFSET, offset=n)

    @classmethod
    def current(cls) -> Target:
        """The committed offset (Kafka's ``--to-current``: the end offset where none is committed)."""
        return cls(TargetKind.CURRENT)

    @classmethod
    def from_file(cls, path: str) -> Target:
        """Each partition's offset from a plan file (Kafka's ``--from-file``)."""
        return cls(TargetKind.FILE, text=path)

    @classmethod
    def delete(cls, path: str | None = None) -> Target:
        """Delete the committed offsets (Kafka's ``--delete-offsets``): the selected partitions', or
        those of the plan file ``path`` (an exported ``--delete-offsets`` plan)."""
        return cls(TargetKind.DELETE, text=path)

    @classmethod
    def group(cls, source: str) -> Target:
        """Another group's committed offsets (``--to-group SOURCE``: kafkactl's ``clone``)."""
        return cls(TargetKind.GROUP, text=source)

    @property
    def file(self) -> str | None:
        """The plan file the partitions (and offsets) come from: ``--from-file``'s path, or ``None``."""
        if self.kind is TargetKind.FILE or self.kind is TargetKind.DELETE:
            return self.text
        return None

    @property
    def lookup(self) -> OffsetSpec | None:
        """The timestamp lookup this target needs, if any."""
        return (
            OffsetSpec.at(self.time_ms) if self.kind is TargetKind.TIME and self.time_ms is not None else None
        )
