"""Parse offset specs: ``earliest``, ``latest``, ``max-timestamp``, Kafka codes, or a time.

An offset spec says which offset a ListOffsets query asks for. Kafka's own
tools take the codes ``-2`` (earliest), ``-1`` (latest), ``-3``
(max-timestamp, KIP-734), ``-4`` (earliest-local, KIP-405), ``-5``
(latest-tiered, KIP-1005) and ``-6`` (earliest-pending-upload, KIP-1023);
every other value is a target time (KIP-79), which here may be written in any
form :func:`~kafka_offsets_cli.parse.times.parse_time` accepts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import tzinfo

from ..errors import UsageError
from ..models.offsets import KAFKA_CODE, OffsetSpec, SpecKind
from .times import parse_time

__all__ = ["SPEC_FORMS", "parse_spec", "parse_specs"]

#: Accepted forms of a spec, for error messages.
SPEC_FORMS = (
    "earliest|latest|max-timestamp|earliest-local|latest-tiered|earliest-pending-upload|-1..-6|"
    "epoch-ms|epoch seconds like @1795490000|ISO-8601|today|yesterday|03:30|relative like '6h ago'"
)

_NAMED = {
    "earliest": SpecKind.EARLIEST,
    "latest": SpecKind.LATEST,
    "max-timestamp": SpecKind.MAX_TIMESTAMP,
    "max_timestamp": SpecKind.MAX_TIMESTAMP,
    "maxtimestamp": SpecKind.MAX_TIMESTAMP,
    # tiered storage: GetOffsetShell's names (KIP-405, KIP-1005, KIP-1023)
    "earliest-local": SpecKind.EARLIEST_LOCAL,
    "latest-tiered": SpecKind.LATEST_TIERED,
    "earliest-pending-upload": SpecKind.EARLIEST_PENDING_UPLOAD,
}
_BY_CODE = {code: kind for kind, code in KAFKA_CODE.items()}
_NEGATIVE_INT = re.compile(r"-[0-9]+")


def parse_spec(text: str, *, now_ms: int, tz: tzinfo) -> OffsetSpec:
    """Parse one offset spec.

    ``earliest``, ``latest``, ``max-timestamp`` (also ``max_timestamp``,
    ``maxtimestamp``; case-insensitive), the tiered-storage specs ``earliest-local``,
    ``latest-tiered``, ``earliest-pending-upload``, Kafka's codes ``-1`` to ``-6``,
    or any time :func:`~kafka_offsets_cli.parse.times.parse_time` accepts (epoch ms,
    ISO-8601, ``6h ago``, ``-30m``…), which becomes :meth:`OffsetSpec.at`.
    ``-30m`` is a relative time; ``-5`` is an error. Bad input raises
    :class:`UsageError` naming the value and the accepted forms.
    """
    s = text.strip()
    kind = _NAMED.get(s.lower())
    if kind is not None:
        return OffsetSpec(kind)
    if _NEGATIVE_INT.fullmatch(s):
        code = int(s)
        if code in _BY_CODE:
            return OffsetSpec(_BY_CODE[code])
        if code == 0:  # Java's Long.parseLong("-0") is 0: GetOffsetShell asks for timestamp 0
            return OffsetSpec.at(0)
        reason = "negative values other than the Kafka codes -1 to -6 are not valid"
        raise UsageError(f"invalid offset spec {text!r}: {reason}; expected {SPEC_FORMS}")
    words = tuple(k.value for k in KAFKA_CODE)  # for "did you mean" (latests -> latest)
    return OffsetSpec.at(
        parse_time(s, now_ms=now_ms, tz=tz, what="offset spec", accepted=SPEC_FORMS, words=words)
    )


def parse_specs(texts: Sequence[str], *, now_ms: int, tz: tzinfo) -> tuple[OffsetSpec, ...]:
    """Parse every spec in order, dropping duplicates (``latest`` and ``-1`` are one spec).

    No specs means ``(latest,)``, as Kafka's GetOffsetShell defaults to.
    """
    if not texts:
        return (OffsetSpec.latest(),)
    specs = (parse_spec(t, now_ms=now_ms, tz=tz) for t in texts)
    return tuple(dict.fromkeys(specs))
