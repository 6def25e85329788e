"""A spec's ``type: tiering`` check: the ``tiering`` command's ``--warn-records`` … ``--crit-age`` as
keys, checked as it checks them (records integers >= 0, ages durations, a warning not above its
critical: :func:`~kafka_offsets_cli.measures.thresholds.warn_above_crit`), each problem at its key."""

from __future__ import annotations

from ..measures.thresholds import warn_above_crit
from .document import Node
from .problems import child
from .spec import TieringCheck
from .values import Validator

__all__ = ["tiering_check"]


def tiering_check(
    v: Validator,
    m: dict[str, Node],
    path: str,
    *,
    name: str | None,
    topics: tuple[str, ...] | None,
    clusters: tuple[str, ...],
    exclude_internal: bool,
    description: str | None,
    line: int,
) -> TieringCheck | None:
    """The tiering check of mapping ``m`` at ``path``, its keys every check has already read
    (``name``/``topics`` None after a problem with them); None after any problem."""
    values: dict[str, int | None] = {}
    for key in ("warn_records", "crit_records"):
        values[key] = v.integer(m[key], child(path, key)) if key in m else None
    for key in ("warn_age", "crit_age"):
        values[key] = v.duration(m[key], child(path, key)) if key in m else None
    for lo, hi in (("warn_records", "crit_records"), ("warn_age", "crit_age")):
        if warn_above_crit(values[lo], values[hi]):
            v.p.add(child(path, lo), f"must not exceed {hi}", m[lo].line)
    if name is None or topics is None:
        return None
    return TieringCheck(
        name=name,
        clusters=clusters,
        topics=topics,
        warn_records=values["warn_records"],
        crit_records=values["crit_records"],
        warn_age_ms=values["warn_age"],
        crit_age_ms=values["crit_age"],
        exclude_internal=exclude_internal,
        description=description,
        line=line,
    )
