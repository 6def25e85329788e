"""The option groups every cluster command shares, declared once and handed over as one value.

sqlite-utils' shared option decorators: :func:`targeted` puts the connection and selection
options (:data:`HEAD`, where the command names its ``target`` parameter; :data:`TAIL`, last)
into the command's signature for typer, and calls the command with one :class:`Target` built
from them. The options and their order on the command line and in ``--help`` are what each
command declared by hand before. The same machinery hands a command a group of its own options
that go on as they are (``rewind``'s :data:`RESET`, by the names of its request's fields), so
each option's name is written once, not again in a pass-through.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from ..connection.resolver import ConnectionOptions
from ..lag.monitor import LagThresholds, parse_thresholds
from ..models.offsets import Isolation
from . import lag_options as lag_opts
from . import liveness_options as live_opts
from . import rewind_options as ro
from . import tiering_options as tier_opts
from .connection import connection_of
from .monitor_limits import LiveLimits, TierLimits
from .options import (
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    NoHeadersOpt,
    PartitionsOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    TzOpt,
    XOpt,
)
from .otlp_push import OtlpEndpointOpt, OtlpHeaderOpt


@dataclass(frozen=True, kw_only=True)
class Target:
    """The cluster a command talks to and the partitions it reads, as the options gave them."""

    bootstrap_server: str | None = None
    cluster: str | None = None
    topics: tuple[str, ...] = ()
    partitions: str | None = None
    topic_partitions: str | None = None
    command_config: str | None = None
    overrides: tuple[str, ...] = ()  # -X
    timeout: str = "30s"

    def connection(self, isolation: Isolation = Isolation.READ_UNCOMMITTED) -> ConnectionOptions:
        """The connection options: the one route of each (``--isolation`` too: the client's setting)."""
        given = (self.bootstrap_server, self.cluster, self.command_config, self.overrides, self.timeout)
        return connection_of(*given, isolation)

    def selection(self) -> dict[str, Any]:
        """The selection options, as the features' ``request_of`` take them."""
        return {
            "topics": self.topics,
            "partitions": self.partitions,
            "topic_partitions": self.topic_partitions,
        }


@dataclass(frozen=True, kw_only=True)
class Layout:
    """How a command lays out what it shows: ``--tz``, ``--no-headers``, ``--columns``."""

    tz: str | None = None
    no_headers: bool = False
    columns: str | None = None


@dataclass(frozen=True, kw_only=True)
class Push:
    """Where a monitoring command pushes its metrics, as the options gave it: ``--otlp-endpoint``,
    ``--otlp-header`` (checked by :func:`~.otlp_push.otlp_target` inside the command's boundary)."""

    endpoint: str | None = None
    headers: tuple[str, ...] = field(default=(), repr=False)


@dataclass(frozen=True, kw_only=True)
class LagLimits:
    """lag's thresholds and the measures they turn on, as the options gave them (``lag``, ``serve``):
    ``--warn-lag`` … ``--crit-stale``, ``--loss-eta`` and ``--staleness``."""

    warn_lag: int | None = None
    crit_lag: int | None = None
    warn_time_lag: str | None = None
    crit_time_lag: str | None = None
    loss_eta: bool = False
    warn_loss_eta: str | None = None
    crit_loss_eta: str | None = None
    staleness: bool = False
    warn_stale: str | None = None
    crit_stale: str | None = None

    def _given(self) -> tuple[Any, ...]:
        return (
            self.warn_lag, self.crit_lag, self.warn_time_lag, self.crit_time_lag, self.warn_loss_eta,
            self.crit_loss_eta, self.warn_stale, self.crit_stale,
        )  # fmt: skip

    @property
    def given(self) -> bool:
        """Whether any threshold was given (a monitoring run)."""
        return any(t is not None for t in self._given())

    def thresholds(self) -> LagThresholds:
        """The thresholds, checked (:func:`~kafka_offsets_cli.lag.monitor.parse_thresholds`)."""
        return parse_thresholds(*self._given())


#: The default of a command's ``target`` parameter: :func:`targeted` always passes the options'.
FROM_OPTIONS = Target()
#: The default of a command's ``layout`` parameter (likewise).
AS_GIVEN = Layout()
#: The default of a command's ``push`` parameter (likewise).
NO_PUSH = Push()
#: The default of a command's ``limits`` parameter (likewise).
NO_LIMITS = LagLimits()
#: The defaults of a command's ``live_limits`` and ``tier_limits`` parameters (likewise).
LIVE_DEFAULTS = LiveLimits()
NO_TIER_LIMITS = TierLimits()
#: The default of ``rewind``'s ``reset`` parameter (likewise).
AS_ASKED: Mapping[str, Any] = MappingProxyType({})


class Shared(NamedTuple):
    """One shared option: its parameter name, its typer annotation, its default."""

    name: str
    annotation: Any
    default: Any = None


#: Where the command names its ``target`` parameter: --bootstrap-server … --topic-partitions.
HEAD = (
    Shared("bootstrap_server", BootstrapOpt),
    Shared("cluster", ClusterOpt),
    Shared("topic", TopicOpt),
    Shared("partitions", PartitionsOpt),
    Shared("topic_partitions", TopicPartitionsOpt),
)
#: After the command's own options (before ``trailing`` ones): --command-config, -X, --timeout.
TAIL = (Shared("command_config", CommandConfigOpt), Shared("x", XOpt), Shared("timeout", TimeoutOpt, "30s"))
#: Where the command names a ``layout`` parameter: --tz, --no-headers, --columns.
LAYOUT = (Shared("tz", TzOpt), Shared("no_headers", NoHeadersOpt, False), Shared("columns", ColumnsOpt))
#: Where a monitoring command names a ``push`` parameter: --otlp-endpoint, --otlp-header.
PUSH = (Shared("otlp_endpoint", OtlpEndpointOpt), Shared("otlp_header", OtlpHeaderOpt))
#: Where a lag command names a ``limits`` parameter: --warn-lag … --crit-stale.
LIMITS = (
    Shared("warn_lag", lag_opts.WarnLagOpt),
    Shared("crit_lag", lag_opts.CritLagOpt),
    Shared("warn_time_lag", lag_opts.WarnTimeLagOpt),
    Shared("crit_time_lag", lag_opts.CritTimeLagOpt),
    Shared("loss_eta", lag_opts.LossEtaOpt, False),
    Shared("warn_loss_eta", lag_opts.WarnLossEtaOpt),
    Shared("crit_loss_eta", lag_opts.CritLossEtaOpt),
    Shared("staleness", lag_opts.StalenessOpt, False),
    Shared("warn_stale", lag_opts.WarnStaleOpt),
    Shared("crit_stale", lag_opts.CritStaleOpt),
)
#: Where a liveness command names a ``live_limits`` parameter: --warn … --future-status.
LIVE_LIMITS = tuple(
    Shared(name, annotation, getattr(LIVE_DEFAULTS, name))
    for name, annotation in (
        ("warn", live_opts.WarnOpt),
        ("crit", live_opts.CritOpt),
        ("min_alive", live_opts.MinAliveOpt),
        ("future_tolerance", live_opts.FutureToleranceOpt),
        ("empty_status", live_opts.EmptyStatusOpt),
        ("future_status", live_opts.FutureStatusOpt),
    )
)
#: Where a tiering command names a ``tier_limits`` parameter: --warn-records … --crit-age.
TIER_LIMITS = (
    Shared("warn_records", tier_opts.WarnRecordsOpt),
    Shared("crit_records", tier_opts.CritRecordsOpt),
    Shared("warn_age", tier_opts.WarnAgeOpt),
    Shared("crit_age", tier_opts.CritAgeOpt),
)


#: Where ``rewind`` names its ``reset`` parameter: --all-groups … --undo-file, its own options, handed
#: over by name (each is the :class:`~kafka_offsets_cli.rewind.request.RewindRequest` field of that name).
RESET = (
    Shared("all_groups", ro.AllGroupsOpt, False),
    Shared("to", ro.ToOpt),
    Shared("to_offset", ro.ToOffsetOpt),
    Shared("to_current", ro.ToCurrentOpt, False),
    Shared("shift_by", ro.ShiftByOpt),
    Shared("from_file", ro.FromFileOpt),
    Shared("from_cluster", ro.FromClusterOpt),
    Shared("from_lag_file", ro.FromLagFileOpt),
    Shared("remote_topic_prefix", ro.RemoteTopicPrefixOpt, ""),
    Shared("delete_offsets", ro.DeleteOffsetsOpt, False),
    Shared("to_group", ro.ToGroupOpt),
    Shared("execute", ro.ExecuteOpt, False),
    Shared("allow_future", ro.AllowFutureOpt, False),
    Shared("allow_other_cluster", ro.AllowOtherClusterOpt, False),
    Shared("force", ro.ForceOpt, False),
    Shared("export", ro.ExportOpt),
    Shared("undo_file", ro.UndoFileOpt),
)


def _target(given: dict[str, Any]) -> Target:
    return Target(
        bootstrap_server=given["bootstrap_server"],
        cluster=given["cluster"],
        topics=tuple(given["topic"] or ()),
        partitions=given["partitions"],
        topic_partitions=given["topic_partitions"],
        command_config=given["command_config"],
        overrides=tuple(given["x"] or ()),
        timeout=given["timeout"],
    )


def _layout(given: dict[str, Any]) -> Layout:
    return Layout(tz=given["tz"], no_headers=given["no_headers"], columns=given["columns"])


def _push(given: dict[str, Any]) -> Push:
    return Push(endpoint=given["otlp_endpoint"], headers=tuple(given["otlp_header"] or ()))


def _limits(given: dict[str, Any]) -> LagLimits:
    return LagLimits(**given)


def _live_limits(given: dict[str, Any]) -> LiveLimits:
    return LiveLimits(**given)


def _tier_limits(given: dict[str, Any]) -> TierLimits:
    return TierLimits(**given)


#: A group's marker parameter -> the options standing in its place, those after the command's own,
#: and the record made of their values.
GROUPS: dict[str, tuple[Sequence[Shared], Sequence[Shared], Callable[[dict[str, Any]], Any]]] = {
    "target": (HEAD, TAIL, _target),
    "layout": (LAYOUT, (), _layout),
    "push": (PUSH, (), _push),
    "limits": (LIMITS, (), _limits),
    "live_limits": (LIVE_LIMITS, (), _live_limits),
    "tier_limits": (TIER_LIMITS, (), _tier_limits),
    "reset": (RESET, (), MappingProxyType),
}


def _parameters(group: Sequence[Shared]) -> list[inspect.Parameter]:
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return [inspect.Parameter(s.name, keyword, default=s.default, annotation=s.annotation) for s in group]


def targeted(*, trailing: Sequence[str] = ()) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The one decorator of the shared option groups (:data:`GROUPS`): a command's ``target:
    Target`` and ``layout: Layout`` parameters become the groups' options.

    A group's options stand where its parameter stood, the :data:`TAIL` ones after the command's
    own (before those named in ``trailing``); typer sees them all in the signature, the command
    gets one record per group.
    """

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        own = list(inspect.signature(command, eval_str=True).parameters.values())
        groups = {p.name: GROUPS[p.name] for p in own if p.name in GROUPS}
        params: list[inspect.Parameter] = []
        for p in own:
            if p.name in trailing:
                params += [q for _, tail, _ in groups.values() for q in _parameters(tail)]
            params += _parameters(groups[p.name][0]) if p.name in groups else [p]
        if not any(p.name in trailing for p in own):
            params += [q for _, tail, _ in groups.values() for q in _parameters(tail)]

        @functools.wraps(command)
        def with_groups(*args: Any, **kwargs: Any) -> None:
            for marker, (head, tail, record) in groups.items():
                kwargs[marker] = record({s.name: kwargs.pop(s.name) for s in (*head, *tail)})
            command(*args, **kwargs)

        with_groups.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        with_groups.__annotations__ = {p.name: p.annotation for p in params}
        return with_groups

    return decorate
