"""Parse offset specs: ``earliest``, ``latest``, ``max-timestamp``, Kafka codes, or a time.

An offset spec says which offset a ListOffsets query asks for. Kafka's own
tools take the codes ``-2`` (earliest), ``-1`` (latest) and ``-3``
(max-timestamp, KIP-734); every other value is a target time (KIP-79), which
here may be written in any form :func:`~kafka_offsets_cli.parse.times.parse_time`
accepts.
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
SPEC_FORMS = "earliest|latest|max-timestamp|-1|-2|-3|epoch-ms|ISO-8601|relative like '6h ago'"

_NAMED = {
    "earliest": SpecKind.EARLIEST,
    "latest": SpecKind.LATEST,
    "max-timestamp": SpecKind.MAX_TIMESTAMP,
    "max_timestamp": SpecKind.MAX_TIMESTAMP,
    "maxtimestamp": SpecKind.MAX_TIMESTAMP,
}
_BY_CODE = {code: kind for kind, code in KAFKA_CODE.items()}
# Codes Kafka defines for tiered storage that ListOffsets here does not offer.
_UNSUPPORTED_CODES = {
    -4: "earliest-local",
    -5: "latest-tiered",
    -6: "earliest-pending-upload",
}
_NEGATIVE_INT = re.compile(r"-[0-9]+")


def parse_spec(text: str, *, now_ms: int, tz: tzinfo) -> OffsetSpec:
    """Parse one offset spec.

    ``earliest``, ``latest``, ``max-timestamp`` (also ``max_timestamp``,
    ``maxtimestamp``; case-insensitive), Kafka's codes ``-2``, ``-1``, ``-3``,
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
        if code in _UNSUPPORTED_CODES:
            reason = f"Kafka code {code} ({_UNSUPPORTED_CODES[code]}) is not supported"
        else:
            reason = "negative values other than the Kafka codes -1, -2, -3 are not valid"
        raise UsageError(f"invalid offset spec {text!r}: {reason}; expected {SPEC_FORMS}")
    return OffsetSpec.at(parse_time(s, now_ms=now_ms, tz=tz, what="offset spec", accepted=SPEC_FORMS))


def parse_specs(texts: Sequence[str], *, now_ms: int, tz: tzinfo) -> tuple[OffsetSpec, ...]:
    """Parse every spec in order, dropping duplicates (``latest`` and ``-1`` are one spec).

    No specs means ``(latest,)``, as Kafka's GetOffsetShell defaults to.
    """
    if not texts:
        return (OffsetSpec.latest(),)
    specs = (parse_spec(t, now_ms=now_ms, tz=tz) for t in texts)
    return tuple(dict.fromkeys(specs))
