"""A spec's ``type: tiering`` check: the ``tiering`` command's ``--warn-records`` … ``--crit-age`` as
keys, checked as it checks them (records integers >= 0, ages durations, a warning not above its
critical: :func:`~kafka_offsets_cli.measures.thresholds.warn_above_crit`), each problem at its key."""

from __future__ import annotations

from .document import Node
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
    values = v.thresholds(
        m,
        path,
        counts=("warn_records", "crit_records"),
        durations=("warn_age", "crit_age"),
        ordered=(("warn_records", "crit_records"), ("warn_age", "crit_age")),
    )
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
