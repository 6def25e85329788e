"""The validated spec of ``kafka-offsets check``: clusters, checks and their thresholds (frozen).

Also the spec file's vocabulary (the keys each level accepts, which the JSON schema is tested
against) and its defaults. Reading and validating a file is :mod:`.load`'s job; this module
imports no parser, so the engine and ``history`` can use the models alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from ..connection.settings import ClientSettings
from ..plan.requests import DEFAULT_CHUNK

__all__ = [
    "CHECK_TYPES",
    "CLUSTER_KEYS",
    "COMMON_CHECK_KEYS",
    "DEFAULT_FUTURE_TOLERANCE_MS",
    "DEFAULT_KEYS",
    "DEFAULT_TASK_SIZE",
    "HISTORY_KEYS",
    "LAG_KEYS",
    "LIVENESS_KEYS",
    "TIERING_KEYS",
    "TOP_KEYS",
    "TYPE_KEYS",
    "CheckDefinition",
    "CheckSpec",
    "ClusterSpec",
    "HistoryRules",
    "LagCheck",
    "LivenessCheck",
    "TieringCheck",
]

#: The check types a spec may declare (``check`` runs liveness and lag; ``serve --spec`` serves all three).
CHECK_TYPES = ("liveness", "lag", "tiering")

TOP_KEYS = ("version", "defaults", "clusters", "checks")
DEFAULT_KEYS = ("timeout", "task_size", "chunk_size", "exclude_internal", "history")

#: Partitions per Spark task by default: a few thousand, so each task's ListOffsets
#: calls (of ``chunk_size``) go out concurrently from one client.
DEFAULT_TASK_SIZE = 25000
HISTORY_KEYS = ("window", "allowed_lag", "min_samples", "lookback")
CLUSTER_KEYS = (
    "profile",
    "bootstrap_servers",
    "command_config",
    "properties",
    "secrets_env",
    "sasl_username",
    "sasl_password_env",
    "timeout",
    "isolation",
)
COMMON_CHECK_KEYS = ("name", "type", "description", "cluster", "clusters", "topics", "exclude_internal")
LIVENESS_KEYS = ("warn", "crit", "min_alive", "future_tolerance")
LAG_KEYS = (
    "groups",
    "spark_checkpoints",
    "warn_lag",
    "crit_lag",
    "warn_time_lag",
    "crit_time_lag",
    "time_lag",
    "warn_loss_eta",
    "crit_loss_eta",
    "loss_eta",
    "history",
)
#: a tiering check's thresholds: the ``tiering`` command's ``--warn-records`` … ``--crit-age``
TIERING_KEYS = ("warn_records", "crit_records", "warn_age", "crit_age")
#: each check type's own keys (beside :data:`COMMON_CHECK_KEYS`)
TYPE_KEYS = {"liveness": LIVENESS_KEYS, "lag": LAG_KEYS, "tiering": TIERING_KEYS}

#: Default allowance for record timestamps ahead of now before a partition counts as "future".
DEFAULT_FUTURE_TOLERANCE_MS = 60_000


@dataclass(frozen=True, kw_only=True)
class HistoryRules:
    """Burrow-style sliding-window settings for ``--history``.

    ``window`` samples (runs) per partition are evaluated; a partition with
    fewer than ``min_samples`` is not judged; a lag at or below ``allowed_lag``
    anywhere in the window means OK; only history from the last ``lookback_ms``
    is read.
    """

    window: int = 10
    allowed_lag: int = 0
    min_samples: int = 3
    lookback_ms: int = 7 * 86_400_000


@dataclass(frozen=True)
class ClusterSpec:
    """A named cluster and the client settings to reach it (secrets resolved from the environment)."""

    name: str
    settings: ClientSettings = field(repr=False)  # holds secrets: never in a repr

    @property
    def bootstrap_servers(self) -> str:
        """The bootstrap servers, for display."""
        return self.settings.bootstrap_servers


@dataclass(frozen=True, kw_only=True)
class LivenessCheck:
    """Partitions of the matching topics must have a record newer than ``warn_ms``/``crit_ms``."""

    type: ClassVar[Literal["liveness"]] = "liveness"
    name: str
    clusters: tuple[str, ...]
    topics: tuple[str, ...]
    warn_ms: int
    crit_ms: int
    min_alive: int | None = None
    future_tolerance_ms: int = DEFAULT_FUTURE_TOLERANCE_MS
    exclude_internal: bool = True
    description: str | None = None
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class LagCheck:
    """Groups matching ``groups`` must not lag more than the thresholds on the matching topics.

    ``spark_checkpoints`` (in place of ``groups``): Structured Streaming queries' checkpoints, each
    query's Kafka sources measured as groups ``spark:<query id>``, as ``lag --spark-checkpoint``.
    ``topics`` empty means every topic the group has committed offsets for.
    ``time_lag`` says whether the time lag is looked up (ListOffsets bisection);
    it is on when a time threshold is set, unless the spec says otherwise.
    """

    type: ClassVar[Literal["lag"]] = "lag"
    name: str
    clusters: tuple[str, ...]
    groups: tuple[str, ...]
    spark_checkpoints: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    warn_lag: int | None = None
    crit_lag: int | None = None
    warn_time_lag_ms: int | None = None
    crit_time_lag_ms: int | None = None
    time_lag: bool = False
    #: the data-loss ETA's thresholds (an ETA at or below one alerts), and whether it is computed
    #: (on with a threshold; it is measured from the time lag's search, which it turns on)
    warn_loss_eta_ms: int | None = None
    crit_loss_eta_ms: int | None = None
    loss_eta: bool = False
    exclude_internal: bool = True
    history: HistoryRules = field(default_factory=HistoryRules)
    description: str | None = None
    line: int = 0

    def thresholds(self) -> dict[str, int | None]:
        """The check's thresholds by the names ``lag``'s rule and thresholds take them
        (:func:`~kafka_offsets_cli.measures.lag.rule.lag_rule`, ``LagThresholds``)."""
        return {
            "warn_lag": self.warn_lag,
            "crit_lag": self.crit_lag,
            "warn_time_lag_ms": self.warn_time_lag_ms,
            "crit_time_lag_ms": self.crit_time_lag_ms,
            "warn_loss_eta_ms": self.warn_loss_eta_ms,
            "crit_loss_eta_ms": self.crit_loss_eta_ms,
        }


@dataclass(frozen=True, kw_only=True)
class TieringCheck:
    """The matching topics' upload backlog must stay within the thresholds, as ``tiering`` checks it.

    Served by ``serve --spec`` (as ``tiering -o prometheus``); ``check`` does not run it and refuses
    a spec that has one. ``topics`` empty means every topic, as ``tiering`` without ``--topic``.
    """

    type: ClassVar[Literal["tiering"]] = "tiering"
    name: str
    clusters: tuple[str, ...]
    topics: tuple[str, ...] = ()
    warn_records: int | None = None
    crit_records: int | None = None
    warn_age_ms: int | None = None
    crit_age_ms: int | None = None
    exclude_internal: bool = True
    description: str | None = None
    line: int = 0

    def thresholds(self) -> dict[str, int | None]:
        """The check's thresholds by the names ``tiering``'s ``Thresholds`` takes them."""
        return {
            "warn_records": self.warn_records,
            "crit_records": self.crit_records,
            "warn_age_ms": self.warn_age_ms,
            "crit_age_ms": self.crit_age_ms,
        }


#: the checks ``check`` runs on Spark (a spec's tiering checks are :attr:`CheckSpec.tiering_checks`)
CheckDefinition = LivenessCheck | LagCheck


@dataclass(frozen=True, kw_only=True)
class CheckSpec:
    """A validated spec file."""

    source: str
    clusters: Mapping[str, ClusterSpec]
    checks: tuple[CheckDefinition, ...]
    #: the tiering checks, in file order: served by ``serve --spec``, refused by ``check``
    tiering_checks: tuple[TieringCheck, ...] = ()
    chunk_size: int = DEFAULT_CHUNK
    history: HistoryRules = field(default_factory=HistoryRules)
    task_size: int = DEFAULT_TASK_SIZE
    #: what ``check --validate`` tells without failing (a secret's unset environment variable)
    notes: tuple[str, ...] = ()

    def check(self, name: str) -> CheckDefinition:
        """The check called ``name`` (KeyError when there is none)."""
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def lag_checks(self) -> tuple[LagCheck, ...]:
        """The lag checks, in file order."""
        return tuple(c for c in self.checks if isinstance(c, LagCheck))

    @property
    def liveness_checks(self) -> tuple[LivenessCheck, ...]:
        """The liveness checks, in file order."""
        return tuple(c for c in self.checks if isinstance(c, LivenessCheck))
