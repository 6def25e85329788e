"""The spec file's ``checks`` list: each entry to a :class:`LivenessCheck`, a :class:`LagCheck` or a
:class:`TieringCheck`.

A check with any problem is left out (the problems are reported); the keys of one type are
refused on another with a message that says whose they are.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..measures.thresholds import time_lag_on, warn_above_crit
from .build_defaults import Defaults, read_history
from .build_tiering import tiering_check
from .document import Node
from .problems import child
from .spec import (
    CHECK_TYPES,
    COMMON_CHECK_KEYS,
    DEFAULT_FUTURE_TOLERANCE_MS,
    TYPE_KEYS,
    CheckDefinition,
    LagCheck,
    LivenessCheck,
    TieringCheck,
)
from .values import Validator, kind_of

__all__ = ["CheckReader"]


@dataclass(frozen=True, kw_only=True)
class _Common:
    """What every check type has; ``name``/``topics`` None after a problem with them."""

    name: str | None
    description: str | None
    clusters: tuple[str, ...]
    exclude_internal: bool
    topics: tuple[str, ...] | None
    line: int


class CheckReader:
    """Reads ``checks`` against the defined cluster names and the spec's defaults."""

    def __init__(self, v: Validator, defaults: Defaults) -> None:
        self.v = v
        self.p = v.p
        self.defaults = defaults

    def checks(self, node: Node, clusters: set[str]) -> list[CheckDefinition | TieringCheck]:
        """The valid checks, in file order (``clusters``: the names a check may refer to)."""
        if node.kind != "seq":
            self.p.add("checks", f"expected a list of checks, got {kind_of(node)}", node.line)
            return []
        if not node.value:
            self.p.add("checks", "list at least one check", node.line)
        out: list[CheckDefinition | TieringCheck] = []
        seen: dict[str, int] = {}
        for i, cnode in enumerate(node.value):
            check = self._check(cnode, child("checks", i), clusters, seen)
            if check is not None:
                out.append(check)
        return out

    def _check(
        self, node: Node, path: str, clusters: set[str], seen: dict[str, int]
    ) -> CheckDefinition | TieringCheck | None:
        m = self.v.mapping(node, path, "with name and type")
        if m is None:
            return None
        start = len(self.p)
        ctype = self._type(node, m, path)
        self._keys(node, path, ctype)
        name = self._name(node, m, path, seen)
        description = None
        if "description" in m:
            description = self.v.string(m["description"], child(path, "description"))
        check_clusters = self._clusters(node, m, path, clusters)
        exclude_internal = self.defaults.exclude_internal
        if "exclude_internal" in m:
            b = self.v.boolean(m["exclude_internal"], child(path, "exclude_internal"))
            exclude_internal = b if b is not None else exclude_internal
        topics = self._topics(node, m, path, ctype)
        common = _Common(
            name=name,
            description=description,
            clusters=check_clusters,
            exclude_internal=exclude_internal,
            topics=topics,
            line=node.line,
        )
        check: CheckDefinition | TieringCheck | None = None
        if ctype == "liveness":
            check = self._liveness(m, node, path, common)
        elif ctype == "lag":
            check = self._lag(m, node, path, common)
        elif ctype == "tiering":
            check = tiering_check(self.v, m, path, **asdict(common))
        return None if len(self.p) > start else check

    def _type(self, node: Node, m: dict[str, Node], path: str) -> str | None:
        """The check's type, or None when it is missing or unknown."""
        if "type" not in m:
            self.p.add(child(path, "type"), f"missing: one of {', '.join(CHECK_TYPES)}", node.line)
            return None
        ctype = self.v.string(m["type"], child(path, "type"))
        if ctype is not None and ctype not in CHECK_TYPES:
            self.p.add(
                child(path, "type"),
                f"unknown check type {ctype!r}; expected one of {', '.join(CHECK_TYPES)}",
                m["type"].line,
            )
            return None
        return ctype

    def _keys(self, node: Node, path: str, ctype: str | None) -> None:
        """Unknown keys; a key of another check type says which type it belongs to."""
        if ctype is None:
            every = (k for keys in TYPE_KEYS.values() for k in keys)
            self.v.keys(node, path, tuple(dict.fromkeys((*COMMON_CHECK_KEYS, *every))))
            return
        other = {
            k: f"{k} applies to {t} checks, not {ctype}"
            for t, keys in TYPE_KEYS.items()
            if t != ctype
            for k in keys
        }
        self.v.keys(node, path, COMMON_CHECK_KEYS + TYPE_KEYS[ctype], elsewhere=other)

    def _name(self, node: Node, m: dict[str, Node], path: str, seen: dict[str, int]) -> str | None:
        """The check's name; ``seen`` (name to line) finds duplicates."""
        if "name" not in m:
            self.p.add(child(path, "name"), "missing: every check needs a unique name", node.line)
            return None
        name = self.v.string(m["name"], child(path, "name"))
        if name is not None:
            if name in seen:
                self.p.add(
                    child(path, "name"),
                    f"duplicate check name {name!r} (first at line {seen[name]})",
                    m["name"].line,
                )
            else:
                seen[name] = m["name"].line
        return name

    def _clusters(self, node: Node, m: dict[str, Node], path: str, clusters: set[str]) -> tuple[str, ...]:
        """The clusters a check runs on (``cluster`` or ``clusters``; the only one when there is one)."""
        if "cluster" in m and "clusters" in m:
            self.p.add(path, "give either cluster or clusters, not both", m["clusters"].line)
            return ()
        if "cluster" in m:
            s = self.v.string(m["cluster"], child(path, "cluster"), what="a cluster name")
            refs = [(s, child(path, "cluster"), m["cluster"].line)] if s is not None else []
        elif "clusters" in m:
            refs = (
                self.v.string_list(
                    m["clusters"], child(path, "clusters"), what="cluster names", item="cluster name"
                )
                or []
            )
        else:
            if len(clusters) == 1:
                return (next(iter(clusters)),)
            self.p.add(child(path, "cluster"), "missing: name the cluster this check runs on", node.line)
            return ()
        out: list[str] = []
        for ref, pth, line in refs:
            if ref not in clusters:
                defined = ", ".join(sorted(clusters)) or "none"
                self.p.add(pth, f"unknown cluster {ref!r} (defined: {defined})", line)
            else:
                out.append(ref)
        return tuple(dict.fromkeys(out))

    def _topics(self, node: Node, m: dict[str, Node], path: str, ctype: str | None) -> tuple[str, ...] | None:
        """The topic patterns (none: every topic, for a lag or tiering check); None after a problem."""
        if "topics" in m:
            return self.v.regexes(
                m["topics"],
                child(path, "topics"),
                what="topic names or patterns",
                item="topic name or pattern",
            )
        if ctype == "liveness":
            self.p.add(
                child(path, "topics"), "missing: list the topics (names or regexes) to watch", node.line
            )
        return ()

    def _liveness(self, m: dict[str, Node], node: Node, path: str, common: _Common) -> LivenessCheck | None:
        warn = crit = None
        for key in ("warn", "crit"):
            if key not in m:
                self.p.add(child(path, key), f"missing: the age at which a partition is {key}", node.line)
        if "warn" in m:
            warn = self.v.duration(m["warn"], child(path, "warn"))
        if "crit" in m:
            crit = self.v.duration(m["crit"], child(path, "crit"))
        if warn_above_crit(warn, crit):
            self.p.add(child(path, "warn"), "must not exceed crit", m["warn"].line)
        min_alive = None
        if "min_alive" in m:
            min_alive = self.v.integer(m["min_alive"], child(path, "min_alive"), minimum=1)
        tolerance = DEFAULT_FUTURE_TOLERANCE_MS
        if "future_tolerance" in m:
            t = self.v.duration(m["future_tolerance"], child(path, "future_tolerance"))
            tolerance = t if t is not None else tolerance
        if warn is None or crit is None or common.name is None or common.topics is None:
            return None
        return LivenessCheck(
            **asdict(common), warn_ms=warn, crit_ms=crit, min_alive=min_alive, future_tolerance_ms=tolerance
        )

    def _lag(self, m: dict[str, Node], node: Node, path: str, common: _Common) -> LagCheck | None:
        groups: tuple[str, ...] | None = None
        checkpoints: tuple[str, ...] = ()
        if "spark_checkpoints" in m:
            found = self.v.string_list(
                m["spark_checkpoints"], child(path, "spark_checkpoints"), what="paths", item="checkpoint path"
            )
            checkpoints = tuple(s for s, _, _ in found or ())
            groups = () if found else None
            if "groups" in m:
                self.p.add(child(path, "groups"), "not with spark_checkpoints (one or the other)", node.line)
        elif "groups" not in m:
            self.p.add(
                child(path, "groups"),
                "missing: list the consumer groups (names or regexes) or spark_checkpoints",
                node.line,
            )
        else:
            groups = self.v.regexes(
                m["groups"],
                child(path, "groups"),
                what="group names or patterns",
                item="group name or pattern",
            )
        values = self._thresholds(m, path)
        loss_eta = self._loss_eta(m, path, values)
        time_lag = self._time_lag(m, path, values["warn_time_lag"], values["crit_time_lag"]) or loss_eta
        history = self.defaults.history
        if "history" in m:
            history = read_history(self.v, m["history"], child(path, "history"), self.defaults.history)
        if groups is None or common.name is None or common.topics is None:
            return None
        return LagCheck(
            **asdict(common),
            groups=groups,
            spark_checkpoints=checkpoints,
            warn_lag=values["warn_lag"],
            crit_lag=values["crit_lag"],
            warn_time_lag_ms=values["warn_time_lag"],
            crit_time_lag_ms=values["crit_time_lag"],
            time_lag=time_lag,
            warn_loss_eta_ms=values["warn_loss_eta"],
            crit_loss_eta_ms=values["crit_loss_eta"],
            loss_eta=loss_eta,
            history=history,
        )

    def _thresholds(self, m: dict[str, Node], path: str) -> dict[str, int | None]:
        """The lag, time-lag and loss-ETA thresholds by key (None: not set, or a problem); warn must not
        exceed crit (for the ETA, lower is worse: crit must not exceed warn)."""
        return self.v.thresholds(
            m,
            path,
            counts=("warn_lag", "crit_lag"),
            durations=("warn_time_lag", "crit_time_lag", "warn_loss_eta", "crit_loss_eta"),
            ordered=(
                ("warn_lag", "crit_lag"),
                ("warn_time_lag", "crit_time_lag"),
                ("crit_loss_eta", "warn_loss_eta"),  # lower is worse: the critical ETA is the shorter one
            ),
        )

    def _loss_eta(self, m: dict[str, Node], path: str, values: dict[str, int | None]) -> bool:
        """Whether the data-loss ETA is computed: on with a loss-ETA threshold (``loss_eta: false``
        cannot undo it)."""
        has = values["warn_loss_eta"] is not None or values["crit_loss_eta"] is not None
        if "loss_eta" not in m:
            return has
        b = self.v.boolean(m["loss_eta"], child(path, "loss_eta"))
        if b is False and has:
            self.p.add(
                child(path, "loss_eta"), "cannot be false with a loss-ETA threshold", m["loss_eta"].line
            )
        return bool(b) or has

    def _time_lag(self, m: dict[str, Node], path: str, warn_ms: int | None, crit_ms: int | None) -> bool:
        """Whether the time lag is looked up: on with a time threshold (``time_lag: false`` cannot undo)."""
        has_time = time_lag_on(False, warn_ms, crit_ms)
        if "time_lag" not in m:
            return has_time
        b = self.v.boolean(m["time_lag"], child(path, "time_lag"))
        if b is None:
            return has_time
        if not b and has_time:
            self.p.add(
                child(path, "time_lag"), "cannot be false with a time-lag threshold", m["time_lag"].line
            )
        return b or has_time
