"""The Prometheus side of a monitoring command: ``cluster`` and ``--label k=v`` labels, ``--prometheus-file``.

``cluster`` is the cluster profile's name (``--cluster``, ``KAFKA_OFFSETS_CLUSTER`` or the
config's default), or else the bootstrap servers string, so two cron jobs for two clusters
writing to one node_exporter never produce the same series.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated

from ..connection.resolver import ConnectionOptions
from ..connection.settings import ClientSettings
from ..render.monitoring import constant_labels
from ..render.offset_compat import Compat, parse_compat
from .command_options import Push
from .connection import connect
from .options import OUT, Format, valued

__all__ = ["MetricsCompatOpt", "PrometheusFileOpt", "cluster_name", "compat_of", "settings_and_labels"]

#: ``--prometheus-file``, the same for every command that writes metrics.
PrometheusFileOpt = Annotated[
    str | None,
    valued(
        "--prometheus-file",
        "FILE",
        "Also write the Prometheus metrics to FILE atomically (node_exporter textfile collector).",
        panel=OUT,
    ),
]
MetricsCompatOpt = Annotated[
    list[str] | None,
    valued(
        "--metrics-compat",
        "EXPORTER",
        "Also the metric names of kafka_exporter or kafka-lag-exporter (repeatable or a comma list), "
        "after the kafka_offsets_* series (lag's member labels need --members).",
        panel=OUT,
    ),
]


def compat_of(
    values: Sequence[str] | None, fmt: Format, prometheus_file: str | None, push: Push
) -> tuple[Compat, ...]:
    """``--metrics-compat``'s exporters; a usage error unless the run writes Prometheus text
    (``-o prometheus``, ``--prometheus-file`` or ``--otlp-endpoint``)."""
    delivers = prometheus_file is not None or push.endpoint is not None
    return parse_compat(values, delivers or fmt is Format.prometheus)


def cluster_name(settings: ClientSettings, profile: str | None) -> str:
    """The ``cluster`` label: the profile's name, or the bootstrap servers."""
    return profile if profile is not None else settings.bootstrap_servers


def settings_and_labels(
    options: ConnectionOptions, labels: Sequence[str] | None, *, reserved: Iterable[str]
) -> tuple[ClientSettings, dict[str, str]]:
    """The client settings of the command's connection ``options`` (resolved once) and its series'
    constant labels.

    ``--label`` items are checked here (a UsageError, before anything connects);
    ``reserved`` are the labels the command's series already use.
    """
    conn = connect(options)
    name = cluster_name(conn.settings, conn.profile.name if conn.profile is not None else None)
    return conn.settings, constant_labels(name, labels or (), reserved=reserved)
