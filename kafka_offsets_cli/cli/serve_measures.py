"""What ``serve`` collects: the measures of lag, liveness and tiering as their commands print them
with ``-o prometheus`` (the same requests, rules, renderers and ``up 0``), over one client a collection.

Each measure's run is the monitoring run its command makes (:func:`~.monitor_run.monitored_run`:
the connection resolved, ``--label`` checked against its series' labels), so its series and its
``up 0`` are the command's, not copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import typer

from ..connection.resolver import ConnectionOptions
from ..errors import UsageError
from ..lag.monitor import LagThresholds
from ..lag.run import LagRequest, query
from ..lag.stale_state import FileStore, MemoryStore
from ..liveness.collect import LivenessRequest
from ..liveness.run import run as liveness_run
from ..liveness.run import snapshot as liveness_snapshot
from ..render import liveness_metrics, tiering
from ..render.lag_compat import Compat
from ..serve.collect import ClusterJob, Measure
from ..serve.metrics import MEASURE_LABEL
from ..tiering.run import TieringRequest
from ..tiering.run import run as tiering_run
from .boundary import PROG
from .lag_view import LagView
from .monitor_run import MonitoredRun, Series, kafka_client, monitored_run
from .monitor_series import LAG, LIVENESS, TIERING
from .options import Format

__all__ = ["Requests", "cluster_job", "lag_measure", "liveness_measure", "tiering_measure"]


@dataclass(frozen=True, kw_only=True)
class Requests:
    """The measures to serve: each one's request (``None``: not served), as its command builds it."""

    lag: LagRequest | None = None
    lag_thresholds: LagThresholds = field(default_factory=LagThresholds)
    #: ``--metrics-compat``: the alias families (lag's, and liveness' and tiering's partition offsets);
    #: ``--members``: kafka-lag-exporter's member labels
    lag_compat: tuple[Compat, ...] = ()
    lag_members: bool = False
    #: ``--staleness-file``: the staleness sights in lag's state file too, not only in memory
    lag_staleness_file: bool = False
    liveness: LivenessRequest | None = None
    tiering: TieringRequest | None = None

    def series(self) -> dict[str, Series]:
        """The served measures' metrics, by name, in the order they are collected."""
        given = {
            "lag": (self.lag, LAG),
            "liveness": (self.liveness, LIVENESS),
            "tiering": (self.tiering, TIERING),
        }
        return {name: series for name, (request, series) in given.items() if request is not None}


def lag_measure(run: MonitoredRun, request: LagRequest, requests: Requests, name: str = "lag") -> Measure:
    """Lag as ``lag -o prometheus`` prints it, on ``run`` (its labels, its ``up 0``), named ``name``."""
    # lag -o prometheus: its view's metrics of the report (every row: no --only-lagging in metrics)
    if request.staleness is not None:  # serve remembers in memory (and in lag's file when asked)
        store = MemoryStore(backing=FileStore() if requests.lag_staleness_file else None)
        request = replace(request, staleness=store, bootstrap=run.settings.bootstrap_servers)
    view = LagView(
        fmt=Format.prometheus,
        thresholds=requests.lag_thresholds,
        monitor=True,
        labels=run.labels,
        now_ms=run.env.now_ms,
        compat=requests.lag_compat,
        members=requests.lag_members,
        staleness=request.staleness is not None,
        loss_eta=request.loss_eta,
    )

    def read(client: Any) -> str:
        report = query(client, request)
        for line in report.stale_notes:  # a state file that could not be read or written: on the log
            run.env.stderr.write(f"{PROG} serve: {line}\n")
            run.env.stderr.flush()
        return view.prometheus(report)

    return Measure(name=name, read=read, down=run.down)


def liveness_measure(
    run: MonitoredRun, request: LivenessRequest, name: str = "liveness", compat: tuple[Compat, ...] = ()
) -> Measure:
    """Liveness as ``liveness -o prometheus`` prints it, on ``run``, named ``name`` (``compat``:
    with the latest offsets of the same ListOffsets round, as ``liveness --metrics-compat``)."""

    def read(client: Any) -> str:
        if compat:
            snap = liveness_snapshot(client, request)
            return liveness_metrics.prometheus(snap.report, run.labels, snap.ends, compat)
        return liveness_metrics.prometheus(liveness_run(client, request), run.labels)

    return Measure(name=name, read=read, down=run.down)


def tiering_measure(
    run: MonitoredRun, request: TieringRequest, name: str = "tiering", compat: tuple[Compat, ...] = ()
) -> Measure:
    """Tiering as ``tiering -o prometheus`` prints it, on ``run``, named ``name`` (``compat``: the
    partition offsets' alias families, as ``tiering --metrics-compat``)."""

    def read(client: Any) -> str:
        return tiering.prometheus(tiering_run(client, request), run.labels, compat)

    return Measure(name=name, read=read, down=run.down)


def cluster_job(
    ctx: typer.Context, connection: ConnectionOptions, label: list[str] | None, requests: Requests
) -> ClusterJob:
    """The cluster ``connection`` names, with the measures of ``requests`` (at least one) and their
    labels (``cluster``, ``--label``; a usage error before anything listens or connects)."""
    series = requests.series()
    if not series:
        raise UsageError("nothing to serve: --lag, --liveness or --tiering")
    if any(item.partition("=")[0].strip() == MEASURE_LABEL for item in label or ()):
        raise UsageError(
            f"--label {MEASURE_LABEL}: the exporter's series already use label {MEASURE_LABEL!r}"
        )
    runs = {
        name: monitored_run(ctx, connection, s, Format.prometheus, None, label) for name, s in series.items()
    }
    measures = []
    if requests.lag is not None:
        measures.append(lag_measure(runs["lag"], requests.lag, requests))
    if requests.liveness is not None:
        measures.append(liveness_measure(runs["liveness"], requests.liveness, compat=requests.lag_compat))
    if requests.tiering is not None:
        measures.append(tiering_measure(runs["tiering"], requests.tiering, compat=requests.lag_compat))
    first = next(iter(runs.values()))
    return ClusterJob(labels=first.labels, connect=partial(kafka_client, first), measures=tuple(measures))
