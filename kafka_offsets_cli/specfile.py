"""Load and validate the spec file of ``kafka-offsets check`` (YAML or JSON).

The whole file is checked before anything else happens (no cluster is
contacted, no Spark session starts), and every problem is reported, each as
``path: message (line N)``, e.g. ``checks[3].crit_lag: expected an integer
(line 12)``. A file with problems raises :class:`~kafka_offsets_cli.errors.SpecFileError`
(exit 2).

The format (see ``examples/check-spec.example.yaml`` and
``schemas/check-spec.schema.json``)::

    version: 1                       # optional; 1 is the only version
    defaults:                        # optional
      timeout: 30s                   # per-cluster request budget
      task_size: 5000                # partitions per Spark task (one Kafka client each)
      chunk_size: 500                # partitions per ListOffsets call within a task
      exclude_internal: true         # leave out internal topics (__consumer_offsets...)
      history: {window: 10, allowed_lag: 0, min_samples: 3}
    clusters:
      NAME:
        bootstrap_servers: "host:9092"       # or a list of host:port
        command_config: client.properties    # Java client properties (relative to this file)
        properties: {security.protocol: SASL_SSL, sasl.mechanism: PLAIN, sasl.username: svc}
        sasl_password_env: KAFKA_PASSWORD     # secrets come from the environment ...
        secrets_env: {ssl.key.password: KEY_PASSWORD}   # ... never inline
        timeout: 30s
        isolation: read_uncommitted | read_committed
    checks:
      - {name: orders-alive, type: liveness, cluster: NAME, topics: ['orders\\..*'],
         warn: 5m, crit: 15m, min_alive: 2, future_tolerance: 1m}
      - {name: billing-lag, type: lag, clusters: [NAME, DR], groups: ['billing.*'], topics: [orders],
         warn_lag: 1000, crit_lag: 10000, warn_time_lag: 1m, crit_time_lag: 5m,
         history: {window: 10, allowed_lag: 100}}

Topic and group patterns are regular expressions matching the whole name (as
``--topic``). Durations are strings such as ``30s``, ``5m``, ``1h30m`` (a bare
number means seconds). Secrets are never accepted inline: a property whose
name looks like a secret (password, jaas, token, key...) is refused with a
pointer to ``*_env`` and ``command_config``.

This module is pure (file reading aside): it imports neither confluent-kafka
nor pyspark.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

import yaml

from .config import ClientSettings, Setting, build_settings, is_secret, load_command_config, translate_java
from .errors import ConfigError, SpecFileError, UsageError
from .models import Isolation
from .planner import DEFAULT_CHUNK
from .timeparse import parse_duration

__all__ = [
    "CHECK_TYPES",
    "CheckDefinition",
    "CheckSpec",
    "ClusterSpec",
    "HistoryRules",
    "LagCheck",
    "LivenessCheck",
    "load_spec",
    "parse_spec_text",
]

#: The check types a spec may declare.
CHECK_TYPES = ("liveness", "lag")

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_PATH_KEY = re.compile(r"[A-Za-z0-9_-]+")

TOP_KEYS = ("version", "defaults", "clusters", "checks")
DEFAULT_KEYS = ("timeout", "task_size", "chunk_size", "exclude_internal", "history")

#: Partitions per Spark task by default: a few thousand, so each task's ListOffsets
#: calls (of ``chunk_size``) go out concurrently from one client.
DEFAULT_TASK_SIZE = 5000
HISTORY_KEYS = ("window", "allowed_lag", "min_samples", "lookback")
CLUSTER_KEYS = (
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
LAG_KEYS = ("groups", "warn_lag", "crit_lag", "warn_time_lag", "crit_time_lag", "time_lag", "history")

#: A spec file larger than this is refused before parsing (YAML parsing is slow; real specs are KBs).
MAX_SPEC_BYTES = 1024 * 1024

#: At most this many values once YAML aliases are expanded (an alias "bomb" expands exponentially).
MAX_SPEC_VALUES = 200_000

#: Default allowance for record timestamps ahead of now before a partition counts as "future".
DEFAULT_FUTURE_TOLERANCE_MS = 60_000


# --------------------------------------------------------------------------- result model


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class LagCheck:
    """Groups matching ``groups`` must not lag more than the thresholds on the matching topics.

    ``topics`` empty means every topic the group has committed offsets for.
    ``time_lag`` says whether the time lag is looked up (ListOffsets bisection);
    it is on when a time threshold is set, unless the spec says otherwise.
    """

    type: ClassVar[Literal["lag"]] = "lag"
    name: str
    clusters: tuple[str, ...]
    groups: tuple[str, ...]
    topics: tuple[str, ...] = ()
    warn_lag: int | None = None
    crit_lag: int | None = None
    warn_time_lag_ms: int | None = None
    crit_time_lag_ms: int | None = None
    time_lag: bool = False
    exclude_internal: bool = True
    history: HistoryRules = field(default_factory=HistoryRules)
    description: str | None = None
    line: int = 0


CheckDefinition = LivenessCheck | LagCheck


@dataclass(frozen=True)
class CheckSpec:
    """A validated spec file."""

    source: str
    clusters: Mapping[str, ClusterSpec]
    checks: tuple[CheckDefinition, ...]
    chunk_size: int = DEFAULT_CHUNK
    history: HistoryRules = field(default_factory=HistoryRules)
    task_size: int = DEFAULT_TASK_SIZE

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


# --------------------------------------------------------------------------- located document


@dataclass
class _Node:
    """A parsed value with the (1-based) line it starts on."""

    kind: Literal["map", "seq", "scalar"]
    value: Any
    line: int
    key_lines: dict[str, int] = field(default_factory=dict)


def _describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return f"number {v}"
    if isinstance(v, str):
        return f"string {v!r}" if len(v) <= 40 else "a string"
    return type(v).__name__


class _Problems:
    """Collects ``path: message (line N)`` entries."""

    def __init__(self) -> None:
        self.items: list[tuple[int, int, str]] = []

    def add(self, path: str, message: str, line: int | None) -> None:
        where = path or "(top level)"
        text = f"{where}: {message}" + (f" (line {line})" if line else "")
        self.items.append((line or 0, len(self.items), text))

    def sorted(self) -> list[str]:
        return [t for _, _, t in sorted(self.items)]

    def __bool__(self) -> bool:
        return bool(self.items)


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    part = key if _PATH_KEY.fullmatch(key) else json.dumps(key)
    if not _PATH_KEY.fullmatch(key):
        return f"{path}[{part}]"
    return f"{path}.{part}" if path else part


def _compose(text: str, source: str, problems: _Problems, *, is_json: bool) -> _Node | None:
    """Parse YAML/JSON text into a located tree; syntax errors become problems."""
    if is_json:
        try:
            json.loads(text)
        except json.JSONDecodeError as e:
            problems.add("", f"invalid JSON: {e.msg}", e.lineno)
            return None
        except RecursionError:
            problems.add("", "nested too deeply", None)
            return None
        # JSON allows tabs between tokens where YAML does not; tabs cannot occur
        # unescaped inside JSON strings, so replacing them keeps every value and line.
        text = text.replace("\t", " ")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "syntax error"
        problems.add("", f"invalid {'JSON' if is_json else 'YAML'}: {what}", mark.line + 1 if mark else None)
        return None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow: no mark, a position
        line = text.count("\n", 0, max(0, e.position)) + 1
        problems.add("", f"invalid {'JSON' if is_json else 'YAML'}: {str(e).splitlines()[0]}", line)
        return None
    except yaml.YAMLError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        problems.add("", f"invalid {'JSON' if is_json else 'YAML'}: {first}", None)
        return None
    except RecursionError:
        problems.add("", "nested too deeply", None)
        return None
    if root is None:
        problems.add("", "the file is empty: expected a mapping with 'clusters' and 'checks'", 1)
        return None
    reason = _expansion_problem(root, MAX_SPEC_VALUES)
    if reason is not None:
        problems.add("", reason, root.start_mark.line + 1)
        return None
    constructor = yaml.SafeLoader("")
    try:
        return _convert(root, "", constructor, problems)
    except RecursionError:
        problems.add("", "nested too deeply", None)
        return None


def _too_large() -> str:
    return f"(top level): the file is too large (a spec file may have at most {MAX_SPEC_BYTES // 1024} KiB)"


class _Unexpandable(Exception):
    """A document whose aliases expand past the limit, or refer to themselves."""


def _expansion_problem(root: yaml.Node, limit: int) -> str | None:
    """Why the document cannot be expanded (aliases repeat shared nodes), or None.

    Counts the values of the document as if every alias were copied out, once per
    shared node (memoised), without copying anything.
    """
    sizes: dict[int, int] = {}

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            if sizes[key] < 0:
                raise _Unexpandable("a YAML alias refers to the collection that contains it")
            return sizes[key]
        sizes[key] = -1  # on the current path
        total = 1
        if isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total += sum(size(v) for v in node.value)
        if total > limit:
            raise _Unexpandable(f"too many values once YAML aliases are expanded (more than {limit:,})")
        sizes[key] = total
        return total

    try:
        size(root)
    except _Unexpandable as e:
        return str(e)
    except RecursionError:
        return "nested too deeply"
    return None


def _convert(node: yaml.Node, path: str, ctor: yaml.SafeLoader, problems: _Problems) -> _Node:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        try:
            ctor.flatten_mapping(node)  # "<<: *defaults" merge keys
        except yaml.YAMLError as e:
            what = getattr(e, "problem", None) or (str(e).strip().splitlines() or [type(e).__name__])[0]
            problems.add(path, f"invalid merge key: {what}", line)
            return _Node("map", {}, line)
        out: dict[str, _Node] = {}
        key_lines: dict[str, int] = {}
        for knode, vnode in node.value:
            kline = knode.start_mark.line + 1
            try:
                key: Any = None
                if isinstance(knode, yaml.ScalarNode):
                    key = ctor.construct_object(knode, deep=True)
            except yaml.YAMLError as e:
                what = getattr(e, "problem", None) or (str(e).strip().splitlines() or [type(e).__name__])[0]
                problems.add(path, f"invalid key: {what}", kline)
                continue
            if not isinstance(key, str):
                shown = _describe(key) if isinstance(knode, yaml.ScalarNode) else "a collection"
                hint = " (quote it)" if isinstance(key, bool | int | float) or key is None else ""
                problems.add(path, f"keys must be strings, got {shown}{hint}", kline)
                continue
            if key in out:
                problems.add(_child(path, key), f"duplicate key (first at line {key_lines[key]})", kline)
                continue
            key_lines[key] = kline
            out[key] = _convert(vnode, _child(path, key), ctor, problems)
        return _Node("map", out, line, key_lines)
    if isinstance(node, yaml.SequenceNode):
        return _Node(
            "seq", [_convert(v, _child(path, i), ctor, problems) for i, v in enumerate(node.value)], line
        )
    try:
        value = ctor.construct_object(node, deep=True)
    except yaml.YAMLError as e:
        what = getattr(e, "problem", None) or (str(e).strip().splitlines() or [type(e).__name__])[0]
        problems.add(path, f"invalid value: {what}", line)
        value = None
    return _Node("scalar", value, line)


# --------------------------------------------------------------------------- value checks


class _Validator:
    """Typed readers of located values that record a problem instead of raising."""

    def __init__(self, problems: _Problems) -> None:
        self.p = problems

    def mapping(self, node: _Node, path: str, what: str) -> dict[str, _Node] | None:
        if node.kind != "map":
            self.p.add(path, f"expected a mapping ({what}), got {self._kind(node)}", node.line)
            return None
        return dict(node.value)

    def keys(
        self,
        node: _Node,
        path: str,
        allowed: tuple[str, ...],
        *,
        elsewhere: Mapping[str, str] | None = None,
    ) -> None:
        for key in node.value:
            if key in allowed:
                continue
            line = node.key_lines.get(key, node.line)
            if elsewhere and key in elsewhere:
                self.p.add(_child(path, key), elsewhere[key], line)
                continue
            if is_secret(key) and not key.endswith("_env"):
                self.p.add(_child(path, key), _INLINE_SECRET, line)
                continue
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else f"expected one of: {', '.join(allowed)}"
            self.p.add(_child(path, key), f"unknown key ({hint})", line)

    def string(self, node: _Node, path: str, *, what: str = "a string") -> str | None:
        if node.kind != "scalar" or not isinstance(node.value, str):
            self.p.add(path, f"expected {what}, got {self._kind(node)}", node.line)
            return None
        if not node.value.strip():
            self.p.add(path, f"expected {what}, got an empty string", node.line)
            return None
        return node.value

    def integer(self, node: _Node, path: str, *, minimum: int = 0) -> int | None:
        v = node.value
        if node.kind != "scalar" or isinstance(v, bool) or not isinstance(v, int):
            self.p.add(path, f"expected an integer, got {self._kind(node)}", node.line)
            return None
        if v < minimum:
            self.p.add(path, f"expected an integer >= {minimum}, got {v}", node.line)
            return None
        return v

    def boolean(self, node: _Node, path: str) -> bool | None:
        if node.kind != "scalar" or not isinstance(node.value, bool):
            self.p.add(path, f"expected true or false, got {self._kind(node)}", node.line)
            return None
        return bool(node.value)

    def duration(self, node: _Node, path: str) -> int | None:
        v = node.value
        if node.kind == "scalar" and isinstance(v, int) and not isinstance(v, bool):
            if v < 0:
                self.p.add(path, f"expected a duration >= 0, got {v}", node.line)
                return None
            return v * 1000
        if node.kind != "scalar" or not isinstance(v, str):
            self.p.add(path, f"expected a duration such as 30s, 5m or 1h, got {self._kind(node)}", node.line)
            return None
        try:
            return parse_duration(v)
        except UsageError as e:
            self.p.add(path, str(e), node.line)
            return None

    def string_list(
        self, node: _Node, path: str, *, what: str, item: str
    ) -> list[tuple[str, str, int]] | None:
        """A list of strings (or one string); returns (value, path, line) triples."""
        if node.kind == "scalar" and isinstance(node.value, str):
            items = [(node, path)]
        elif node.kind == "seq":
            items = [(n, _child(path, i)) for i, n in enumerate(node.value)]
        else:
            self.p.add(path, f"expected a list of {what}, got {self._kind(node)}", node.line)
            return None
        if not items:
            self.p.add(path, f"expected at least one {item}", node.line)
            return None
        out = []
        for n, pth in items:
            s = self.string(n, pth, what=f"a {item}")
            if s is not None:
                out.append((s, pth, n.line))
        return out

    def regexes(self, node: _Node, path: str, *, what: str, item: str) -> tuple[str, ...] | None:
        items = self.string_list(node, path, what=what, item=item)
        if items is None:
            return None
        ok = True
        for value, pth, line in items:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", FutureWarning)
                    re.compile(value, re.ASCII)
            except (re.error, OverflowError, RecursionError, ValueError) as e:
                self.p.add(pth, f"invalid regular expression {value!r}: {e}", line)
                ok = False
        return tuple(dict.fromkeys(v for v, _, _ in items)) if ok else None

    def env_var(self, node: _Node, path: str, environ: Mapping[str, str]) -> str | None:
        name = self.string(node, path, what="an environment variable name")
        if name is None:
            return None
        if not _ENV_NAME.fullmatch(name):
            self.p.add(path, f"{name!r} is not an environment variable name", node.line)
            return None
        value = environ.get(name)
        if value is None:
            self.p.add(path, f"environment variable {name} is not set", node.line)
            return None
        return value

    @staticmethod
    def _kind(node: _Node) -> str:
        if node.kind == "map":
            return "a mapping"
        if node.kind == "seq":
            return "a list"
        return _describe(node.value)


_INLINE_SECRET = (
    "secrets are not accepted inline: name an environment variable "
    "(sasl_password_env: VAR, or secrets_env: {property: VAR}) or use command_config: FILE"
)


# --------------------------------------------------------------------------- the spec


def load_spec(path: str | Path, *, environ: Mapping[str, str] | None = None) -> CheckSpec:
    """Read and validate a spec file (``.json`` is JSON, anything else YAML, which also reads JSON).

    Raises :class:`SpecFileError` listing every problem, or :class:`UsageError`
    when the file cannot be read.
    """
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_SPEC_BYTES + 1)  # bounded: a huge file (or /dev/zero) is not read whole
        if len(data) > MAX_SPEC_BYTES:
            raise SpecFileError(str(p), [_too_large()])
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise UsageError(f"{p}: no such spec file") from None
    except IsADirectoryError:
        raise UsageError(f"{p}: is a directory, expected a spec file") from None
    except OSError as e:
        raise UsageError(f"{p}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise SpecFileError(str(p), ["(top level): not a UTF-8 text file"]) from None
    return parse_spec_text(
        text,
        str(p),
        base_dir=p.parent,
        environ=environ,
        is_json=p.suffix.lower() == ".json",
    )


def parse_spec_text(
    text: str,
    source: str = "<spec>",
    *,
    base_dir: str | Path = ".",
    environ: Mapping[str, str] | None = None,
    is_json: bool = False,
) -> CheckSpec:
    """Validate spec text; ``source`` names it in messages, ``base_dir`` anchors relative paths.

    ``environ`` (default ``os.environ``) resolves ``*_env`` secret references.
    Raises :class:`SpecFileError` with every problem found.
    """
    env = os.environ if environ is None else environ
    if len(text) > MAX_SPEC_BYTES:
        raise SpecFileError(source, [_too_large()])
    problems = _Problems()
    root = _compose(text, source, problems, is_json=is_json)
    spec: CheckSpec | None = None
    if root is not None:
        spec = _Builder(problems, source, Path(base_dir), env).build(root)
    if problems or spec is None:
        raise SpecFileError(source, problems.sorted() or ["(top level): invalid spec"])
    return spec


class _Builder:
    """Turns a located document into a :class:`CheckSpec`, recording every problem."""

    def __init__(self, problems: _Problems, source: str, base_dir: Path, environ: Mapping[str, str]) -> None:
        self.p = problems
        self.v = _Validator(problems)
        self.source = source
        self.base_dir = base_dir
        self.env = environ
        self.timeout_ms = 30_000
        self.exclude_internal = True
        self.history = HistoryRules()
        self.task_size = DEFAULT_TASK_SIZE

    def build(self, root: _Node) -> CheckSpec | None:
        top = self.v.mapping(root, "", "with 'clusters' and 'checks'")
        if top is None:
            return None
        self.v.keys(root, "", TOP_KEYS)
        if "version" in top:
            n = top["version"]
            if not (n.kind == "scalar" and n.value == 1 and not isinstance(n.value, bool)):
                self.p.add("version", f"unsupported version {_describe(n.value)}; expected 1", n.line)
        chunk = DEFAULT_CHUNK
        if "defaults" in top:
            chunk = self._defaults(top["defaults"])
        clusters: dict[str, ClusterSpec] = {}
        names: set[str] = set()
        if "clusters" not in top:
            self.p.add("clusters", "missing: name at least one cluster", root.line)
        else:
            clusters, names = self._clusters(top["clusters"])
        checks: list[CheckDefinition] = []
        if "checks" not in top:
            self.p.add("checks", "missing: list at least one check", root.line)
        else:
            checks = self._checks(top["checks"], names)
        return CheckSpec(self.source, clusters, tuple(checks), chunk, self.history, self.task_size)

    # -- defaults -----------------------------------------------------------

    def _defaults(self, node: _Node) -> int:
        chunk = DEFAULT_CHUNK
        m = self.v.mapping(node, "defaults", "of default settings")
        if m is None:
            return chunk
        self.v.keys(node, "defaults", DEFAULT_KEYS)
        if "timeout" in m:
            t = self.v.duration(m["timeout"], "defaults.timeout")
            if t is not None:
                if t <= 0:
                    self.p.add("defaults.timeout", "must be positive", m["timeout"].line)
                else:
                    self.timeout_ms = t
        if "task_size" in m:
            ts = self.v.integer(m["task_size"], "defaults.task_size", minimum=1)
            if ts is not None:
                self.task_size = ts
        if "chunk_size" in m:
            c = self.v.integer(m["chunk_size"], "defaults.chunk_size", minimum=1)
            if c is not None:
                chunk = c
        if "exclude_internal" in m:
            b = self.v.boolean(m["exclude_internal"], "defaults.exclude_internal")
            if b is not None:
                self.exclude_internal = b
        if "history" in m:
            self.history = self._history(m["history"], "defaults.history", HistoryRules())
        return chunk

    def _history(self, node: _Node, path: str, base: HistoryRules) -> HistoryRules:
        m = self.v.mapping(node, path, "of history settings")
        if m is None:
            return base
        self.v.keys(node, path, HISTORY_KEYS)
        window, allowed, min_samples, lookback = (
            base.window,
            base.allowed_lag,
            base.min_samples,
            base.lookback_ms,
        )
        if "window" in m:
            w = self.v.integer(m["window"], _child(path, "window"), minimum=2)
            window = w if w is not None else window
        if "allowed_lag" in m:
            a = self.v.integer(m["allowed_lag"], _child(path, "allowed_lag"), minimum=0)
            allowed = a if a is not None else allowed
        if "min_samples" in m:
            s = self.v.integer(m["min_samples"], _child(path, "min_samples"), minimum=2)
            min_samples = s if s is not None else min_samples
        if "lookback" in m:
            lb = self.v.duration(m["lookback"], _child(path, "lookback"))
            if lb is not None and lb <= 0:
                self.p.add(_child(path, "lookback"), "must be positive", m["lookback"].line)
            elif lb is not None:
                lookback = lb
        if min_samples > window:
            line = (m.get("min_samples") or m.get("window") or node).line
            self.p.add(path, f"min_samples ({min_samples}) cannot exceed window ({window})", line)
        return HistoryRules(window, allowed, min_samples, lookback)

    # -- clusters -----------------------------------------------------------

    def _clusters(self, node: _Node) -> tuple[dict[str, ClusterSpec], set[str]]:
        m = self.v.mapping(node, "clusters", "of cluster name to connection settings")
        if m is None:
            return {}, set()
        if not m:
            self.p.add("clusters", "name at least one cluster", node.line)
        out: dict[str, ClusterSpec] = {}
        names: set[str] = set()
        for name, cnode in m.items():
            path = _child("clusters", name)
            if not _NAME.fullmatch(name):
                self.p.add(path, "cluster names use letters, digits and . _ : -", node.key_lines.get(name))
                continue
            names.add(name)
            spec = self._cluster(name, cnode, path)
            if spec is not None:
                out[name] = spec
        return out, names

    def _cluster(self, name: str, node: _Node, path: str) -> ClusterSpec | None:
        m = self.v.mapping(node, path, "with bootstrap_servers")
        if m is None:
            return None
        self.v.keys(node, path, CLUSTER_KEYS)
        start = len(self.p.items)
        props: dict[str, Setting] = {}
        bootstrap: str | None = None
        if "bootstrap_servers" in m:
            bootstrap = self._bootstrap(m["bootstrap_servers"], _child(path, "bootstrap_servers"))
        if "command_config" in m:
            props.update(self._command_config(m["command_config"], _child(path, "command_config")))
        if "properties" in m:
            props.update(self._properties(m["properties"], _child(path, "properties")))
        if "sasl_username" in m:
            user = self.v.string(m["sasl_username"], _child(path, "sasl_username"))
            if user is not None:
                props["sasl.username"] = Setting(user, f"{self.source}:{m['sasl_username'].line}")
        if "sasl_password_env" in m:
            pw = self.v.env_var(m["sasl_password_env"], _child(path, "sasl_password_env"), self.env)
            if pw is not None:
                props["sasl.password"] = Setting(pw, f"{self.source}:{m['sasl_password_env'].line}")
        if "secrets_env" in m:
            props.update(self._secrets_env(m["secrets_env"], _child(path, "secrets_env")))
        timeout = self.timeout_ms
        if "timeout" in m:
            t = self.v.duration(m["timeout"], _child(path, "timeout"))
            if t is not None and t <= 0:
                self.p.add(_child(path, "timeout"), "must be positive", m["timeout"].line)
            elif t is not None:
                timeout = t
        isolation = Isolation.READ_UNCOMMITTED
        if "isolation" in m:
            s = self.v.string(m["isolation"], _child(path, "isolation"))
            if s is not None:
                try:
                    isolation = Isolation(s.lower())
                except ValueError:
                    self.p.add(
                        _child(path, "isolation"),
                        f"expected read_uncommitted or read_committed, got {s!r}",
                        m["isolation"].line,
                    )
        if len(self.p.items) > start:
            return None
        if bootstrap is None and "bootstrap.servers" not in props:
            self.p.add(
                _child(path, "bootstrap_servers"),
                "missing (or set bootstrap.servers in the command_config file)",
                node.line,
            )
            return None
        try:
            settings = build_settings(
                bootstrap, profile=props, timeout_ms=timeout, isolation=isolation, environ={}
            )
        except (UsageError, ConfigError) as e:
            self.p.add(_child(path, "bootstrap_servers"), str(e), (m.get("bootstrap_servers") or node).line)
            return None
        return ClusterSpec(name, settings)

    def _bootstrap(self, node: _Node, path: str) -> str | None:
        items = self.v.string_list(node, path, what="host:port strings", item="host:port")
        if items is None:
            return None
        servers: list[str] = []
        for value, pth, line in items:
            for part in value.split(","):
                part = part.strip()
                if not re.fullmatch(r"(?:[\w.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}", part) and "://" not in part:
                    self.p.add(pth, f"bootstrap server {part!r}: expected HOST:PORT", line)
                    return None
                servers.append(part)
        return ",".join(servers)

    def _command_config(self, node: _Node, path: str) -> dict[str, Setting]:
        s = self.v.string(node, path, what="a file path")
        if s is None:
            return {}
        p = Path(os.path.expanduser(s))
        if not p.is_absolute():
            p = self.base_dir / p
        try:
            return load_command_config(p)
        except (ConfigError, UsageError) as e:
            self.p.add(path, str(e), node.line)
            return {}

    def _properties(self, node: _Node, path: str) -> dict[str, Setting]:
        m = self.v.mapping(node, path, "of client property to value")
        if m is None:
            return {}
        entries: list[tuple[str, str, int]] = []
        for key, vnode in m.items():
            kpath = _child(path, key)
            if is_secret(key):
                self.p.add(kpath, _INLINE_SECRET, node.key_lines.get(key))
                continue
            if key == "bootstrap.servers":
                self.p.add(kpath, "use bootstrap_servers on the cluster instead", node.key_lines.get(key))
                continue
            v = vnode.value
            if vnode.kind != "scalar" or v is None:
                self.p.add(
                    kpath, f"expected a string, number or boolean, got {_Validator._kind(vnode)}", vnode.line
                )
                continue
            text = ("true" if v else "false") if isinstance(v, bool) else str(v)
            entries.append((key, text, vnode.line))
        try:
            return translate_java(entries, self.source)
        except ConfigError as e:
            self.p.add(path, str(e), node.line)
            return {}

    def _secrets_env(self, node: _Node, path: str) -> dict[str, Setting]:
        m = self.v.mapping(node, path, "of client property to environment variable")
        if m is None:
            return {}
        out: dict[str, Setting] = {}
        for key, vnode in m.items():
            value = self.v.env_var(vnode, _child(path, key), self.env)
            if value is None:
                continue
            if key == "sasl.jaas.config":
                try:
                    for k, v in translate_java([(key, value, vnode.line)], self.source).items():
                        out[k] = v
                except ConfigError as e:
                    self.p.add(_child(path, key), str(e), vnode.line)
                continue
            out[key] = Setting(value, f"{self.source}:{vnode.line}")
        return out

    # -- checks -------------------------------------------------------------

    def _checks(self, node: _Node, clusters: set[str]) -> list[CheckDefinition]:
        if node.kind != "seq":
            self.p.add("checks", f"expected a list of checks, got {_Validator._kind(node)}", node.line)
            return []
        if not node.value:
            self.p.add("checks", "list at least one check", node.line)
        out: list[CheckDefinition] = []
        seen: dict[str, int] = {}
        for i, cnode in enumerate(node.value):
            path = _child("checks", i)
            check = self._check(cnode, path, clusters, seen)
            if check is not None:
                out.append(check)
        return out

    def _check(
        self, node: _Node, path: str, clusters: set[str], seen: dict[str, int]
    ) -> CheckDefinition | None:
        m = self.v.mapping(node, path, "with name and type")
        if m is None:
            return None
        start = len(self.p.items)
        ctype: str | None = None
        if "type" not in m:
            self.p.add(_child(path, "type"), f"missing: one of {', '.join(CHECK_TYPES)}", node.line)
        else:
            ctype = self.v.string(m["type"], _child(path, "type"))
            if ctype is not None and ctype not in CHECK_TYPES:
                self.p.add(
                    _child(path, "type"),
                    f"unknown check type {ctype!r}; expected one of {', '.join(CHECK_TYPES)}",
                    m["type"].line,
                )
                ctype = None
        if ctype == "liveness":
            other = {k: f"{k} applies to lag checks, not liveness" for k in LAG_KEYS}
            self.v.keys(node, path, COMMON_CHECK_KEYS + LIVENESS_KEYS, elsewhere=other)
        elif ctype == "lag":
            other = {k: f"{k} applies to liveness checks, not lag" for k in LIVENESS_KEYS}
            self.v.keys(node, path, COMMON_CHECK_KEYS + LAG_KEYS, elsewhere=other)
        else:
            self.v.keys(node, path, tuple(dict.fromkeys(COMMON_CHECK_KEYS + LIVENESS_KEYS + LAG_KEYS)))
        name = None
        if "name" not in m:
            self.p.add(_child(path, "name"), "missing: every check needs a unique name", node.line)
        else:
            name = self.v.string(m["name"], _child(path, "name"))
            if name is not None:
                if name in seen:
                    self.p.add(
                        _child(path, "name"),
                        f"duplicate check name {name!r} (first at line {seen[name]})",
                        m["name"].line,
                    )
                else:
                    seen[name] = m["name"].line
        description = None
        if "description" in m:
            description = self.v.string(m["description"], _child(path, "description"))
        check_clusters = self._check_clusters(node, m, path, clusters)
        exclude_internal = self.exclude_internal
        if "exclude_internal" in m:
            b = self.v.boolean(m["exclude_internal"], _child(path, "exclude_internal"))
            exclude_internal = b if b is not None else exclude_internal
        topics: tuple[str, ...] | None = ()
        if "topics" in m:
            topics = self.v.regexes(
                m["topics"],
                _child(path, "topics"),
                what="topic names or patterns",
                item="topic name or pattern",
            )
        elif ctype == "liveness":
            self.p.add(
                _child(path, "topics"), "missing: list the topics (names or regexes) to watch", node.line
            )
        if ctype == "liveness":
            live = self._liveness(m, node, path)
            if len(self.p.items) > start or live is None or name is None or topics is None:
                return None
            warn, crit, min_alive, tolerance = live
            return LivenessCheck(
                name,
                check_clusters,
                topics,
                warn,
                crit,
                min_alive,
                tolerance,
                exclude_internal,
                description,
                node.line,
            )
        if ctype == "lag":
            lag = self._lag(m, node, path)
            if len(self.p.items) > start or lag is None or name is None or topics is None:
                return None
            groups, wl, cl, wt, ct, time_lag, history = lag
            return LagCheck(
                name,
                check_clusters,
                groups,
                topics,
                wl,
                cl,
                wt,
                ct,
                time_lag,
                exclude_internal,
                history,
                description,
                node.line,
            )
        return None

    def _check_clusters(
        self, node: _Node, m: dict[str, _Node], path: str, clusters: set[str]
    ) -> tuple[str, ...]:
        if "cluster" in m and "clusters" in m:
            self.p.add(path, "give either cluster or clusters, not both", m["clusters"].line)
            return ()
        if "cluster" in m:
            s = self.v.string(m["cluster"], _child(path, "cluster"), what="a cluster name")
            refs = [(s, _child(path, "cluster"), m["cluster"].line)] if s is not None else []
        elif "clusters" in m:
            refs = (
                self.v.string_list(
                    m["clusters"], _child(path, "clusters"), what="cluster names", item="cluster name"
                )
                or []
            )
        else:
            if len(clusters) == 1:
                return (next(iter(clusters)),)
            self.p.add(_child(path, "cluster"), "missing: name the cluster this check runs on", node.line)
            return ()
        out: list[str] = []
        for ref, pth, line in refs:
            if ref not in clusters:
                defined = ", ".join(sorted(clusters)) or "none"
                self.p.add(pth, f"unknown cluster {ref!r} (defined: {defined})", line)
            else:
                out.append(ref)
        return tuple(dict.fromkeys(out))

    def _liveness(
        self, m: dict[str, _Node], node: _Node, path: str
    ) -> tuple[int, int, int | None, int] | None:
        warn = crit = None
        for key in ("warn", "crit"):
            if key not in m:
                self.p.add(_child(path, key), f"missing: the age at which a partition is {key}", node.line)
        if "warn" in m:
            warn = self.v.duration(m["warn"], _child(path, "warn"))
        if "crit" in m:
            crit = self.v.duration(m["crit"], _child(path, "crit"))
        if warn is not None and crit is not None and warn > crit:
            self.p.add(_child(path, "warn"), "must not exceed crit", m["warn"].line)
        min_alive = None
        if "min_alive" in m:
            min_alive = self.v.integer(m["min_alive"], _child(path, "min_alive"), minimum=1)
        tolerance = DEFAULT_FUTURE_TOLERANCE_MS
        if "future_tolerance" in m:
            t = self.v.duration(m["future_tolerance"], _child(path, "future_tolerance"))
            tolerance = t if t is not None else tolerance
        if warn is None or crit is None:
            return None
        return warn, crit, min_alive, tolerance

    def _lag(
        self, m: dict[str, _Node], node: _Node, path: str
    ) -> tuple[tuple[str, ...], int | None, int | None, int | None, int | None, bool, HistoryRules] | None:
        groups = None
        if "groups" not in m:
            self.p.add(
                _child(path, "groups"), "missing: list the consumer groups (names or regexes)", node.line
            )
        else:
            groups = self.v.regexes(
                m["groups"],
                _child(path, "groups"),
                what="group names or patterns",
                item="group name or pattern",
            )
        values: dict[str, int | None] = {}
        for key in ("warn_lag", "crit_lag"):
            values[key] = self.v.integer(m[key], _child(path, key)) if key in m else None
        for key in ("warn_time_lag", "crit_time_lag"):
            values[key] = self.v.duration(m[key], _child(path, key)) if key in m else None
        for lo, hi in (("warn_lag", "crit_lag"), ("warn_time_lag", "crit_time_lag")):
            a, b = values[lo], values[hi]
            if a is not None and b is not None and a > b:
                self.p.add(_child(path, lo), f"must not exceed {hi}", m[lo].line)
        has_time = values["warn_time_lag"] is not None or values["crit_time_lag"] is not None
        time_lag = has_time
        if "time_lag" in m:
            b = self.v.boolean(m["time_lag"], _child(path, "time_lag"))
            if b is not None:
                if not b and has_time:
                    self.p.add(
                        _child(path, "time_lag"),
                        "cannot be false with a time-lag threshold",
                        m["time_lag"].line,
                    )
                time_lag = b or has_time
        history = self.history
        if "history" in m:
            history = self._history(m["history"], _child(path, "history"), self.history)
        if groups is None:
            return None
        return (
            groups,
            values["warn_lag"],
            values["crit_lag"],
            values["warn_time_lag"],
            values["crit_time_lag"],
            time_lag,
            history,
        )
