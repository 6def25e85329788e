"""How ``lag`` turns its output options into a view: the record fields ``--columns`` may keep and the
:class:`~.lag_view.LagView` of one run (out of :mod:`.lag_cmd`, a thin command)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ..lag.run import LagRequest
from ..render.lag_compat import Compat
from ..render.lag_summary import summary_fields
from .emit import REFRESHED_FIELD, parse_columns
from .lag_records import record_fields
from .lag_view import LagView
from .options import Format

__all__ = ["lag_view_of", "with_bootstrap"]


def lag_view_of(
    request: LagRequest,
    *,
    fmt: Format,
    columns: str | None,
    watching: bool,
    monitor: bool,
    members: bool,
    summary: bool,
    by_partition: bool,
    named: bool,
    labels: Mapping[str, str],
    now_ms: Callable[[], int],
    compat: tuple[Compat, ...],
    **options: Any,
) -> LagView:
    """The view of one run: ``--columns`` checked against the fields this run has (the lag record's,
    the measures ``request`` turned on, the summary's, ``refreshed_ms`` under ``--watch``); the
    other ``options`` are :class:`LagView`'s own (``no_headers``, ``only_lagging``, ``sort``…)."""
    loss, stale = request.loss_eta, request.staleness is not None
    fields = record_fields(monitor, watching, members, loss, stale)
    watched = (REFRESHED_FIELD,) if watching else ()
    known = tuple(dict.fromkeys((*fields, *summary_fields(watching, loss, stale), *watched)))
    cols = parse_columns(columns, known)
    return LagView(
        fmt=fmt,
        columns=tuple(cols) if cols else None,
        monitor=monitor,
        labels=labels,
        summary=True if summary else False if by_partition else None,
        named=named,
        members=members,
        now_ms=now_ms,
        loss_eta=loss,
        staleness=stale,
        compat=compat,
        **options,
    )


def with_bootstrap(request: LagRequest, bootstrap: str) -> LagRequest:
    """``request`` with what only the front end has: the bootstrap servers that key commit staleness
    when the cluster has no id, and the reader of ``--spark-checkpoint`` URIs (pyarrow's, loaded
    only to open one)."""
    if not request.checkpoints:  # the reader is only for --spark-checkpoint: its modules stay unloaded
        return replace(request, bootstrap=bootstrap)
    from ..spark.checkpoint_fs import opener

    return replace(request, bootstrap=bootstrap, checkpoint_opener=opener("--spark-checkpoint"))
