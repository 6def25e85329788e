"""The spec file's ``defaults`` section and the ``history`` settings (in defaults and in each lag check)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..plan.requests import DEFAULT_CHUNK
from .document import Node
from .problems import child
from .spec import DEFAULT_KEYS, DEFAULT_TASK_SIZE, HISTORY_KEYS, HistoryRules
from .values import Validator

__all__ = ["Defaults", "read_defaults", "read_history"]


@dataclass(frozen=True, kw_only=True)
class Defaults:
    """What ``defaults`` sets for every cluster and check that does not say otherwise."""

    timeout_ms: int = 30_000
    task_size: int = DEFAULT_TASK_SIZE
    chunk_size: int = DEFAULT_CHUNK
    exclude_internal: bool = True
    history: HistoryRules = field(default_factory=HistoryRules)


def read_defaults(v: Validator, node: Node) -> Defaults:
    """The ``defaults`` mapping; a value with a problem keeps its built-in default."""
    base = Defaults()
    m = v.mapping(node, "defaults", "of default settings")
    if m is None:
        return base
    v.keys(node, "defaults", DEFAULT_KEYS)
    timeout_ms = base.timeout_ms
    if "timeout" in m:
        t = v.duration(m["timeout"], "defaults.timeout")
        if t is not None:
            if t <= 0:
                v.p.add("defaults.timeout", "must be positive", m["timeout"].line)
            else:
                timeout_ms = t
    task_size = base.task_size
    if "task_size" in m:
        ts = v.integer(m["task_size"], "defaults.task_size", minimum=1)
        task_size = ts if ts is not None else task_size
    chunk_size = base.chunk_size
    if "chunk_size" in m:
        c = v.integer(m["chunk_size"], "defaults.chunk_size", minimum=1)
        chunk_size = c if c is not None else chunk_size
    exclude_internal = base.exclude_internal
    if "exclude_internal" in m:
        b = v.boolean(m["exclude_internal"], "defaults.exclude_internal")
        exclude_internal = b if b is not None else exclude_internal
    history = base.history
    if "history" in m:
        history = read_history(v, m["history"], "defaults.history", HistoryRules())
    return Defaults(
        timeout_ms=timeout_ms,
        task_size=task_size,
        chunk_size=chunk_size,
        exclude_internal=exclude_internal,
        history=history,
    )


def read_history(v: Validator, node: Node, path: str, base: HistoryRules) -> HistoryRules:
    """A ``history`` mapping at ``path``; what it leaves out (or gets wrong) comes from ``base``."""
    m = v.mapping(node, path, "of history settings")
    if m is None:
        return base
    v.keys(node, path, HISTORY_KEYS)
    window, allowed, min_samples, lookback = (
        base.window,
        base.allowed_lag,
        base.min_samples,
        base.lookback_ms,
    )
    if "window" in m:
        w = v.integer(m["window"], child(path, "window"), minimum=2)
        window = w if w is not None else window
    if "allowed_lag" in m:
        a = v.integer(m["allowed_lag"], child(path, "allowed_lag"), minimum=0)
        allowed = a if a is not None else allowed
    if "min_samples" in m:
        s = v.integer(m["min_samples"], child(path, "min_samples"), minimum=2)
        min_samples = s if s is not None else min_samples
    if "lookback" in m:
        lb = v.duration(m["lookback"], child(path, "lookback"))
        if lb is not None and lb <= 0:
            v.p.add(child(path, "lookback"), "must be positive", m["lookback"].line)
        elif lb is not None:
            lookback = lb
    if min_samples > window:
        line = (m.get("min_samples") or m.get("window") or node).line
        v.p.add(path, f"min_samples ({min_samples}) cannot exceed window ({window})", line)
    return HistoryRules(window=window, allowed_lag=allowed, min_samples=min_samples, lookback_ms=lookback)
