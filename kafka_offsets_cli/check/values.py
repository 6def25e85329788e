"""Typed readers of located spec values: each returns the value, or records a problem and returns None.

A reader never raises on a bad value, so the builder goes on and every problem of a file is
reported at once.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence

from ..connection.settings import is_secret
from ..errors import UsageError
from ..measures.thresholds import warn_above_crit
from ..parse.durations import parse_duration
from ..parse.java_regex import compile_java_regex
from .document import Node
from .problems import Problems, child, describe

__all__ = ["INLINE_SECRET", "Validator", "kind_of"]

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

INLINE_SECRET = (
    "secrets are not accepted inline: name an environment variable "
    "(sasl_password_env: VAR, or secrets_env: {property: VAR}) or use command_config: FILE"
)


def kind_of(node: Node) -> str:
    """What a node is, as a problem names it: ``a mapping``, ``a list`` or the scalar (``number 3``)."""
    if node.kind == "map":
        return "a mapping"
    if node.kind == "seq":
        return "a list"
    return describe(node.value)


class Validator:
    """Typed readers of located values that record a problem instead of raising."""

    def __init__(self, problems: Problems) -> None:
        self.p = problems

    def mapping(self, node: Node, path: str, what: str) -> dict[str, Node] | None:
        """The mapping at ``path`` (``what`` says what it maps, for the problem)."""
        if node.kind != "map":
            self.p.add(path, f"expected a mapping ({what}), got {kind_of(node)}", node.line)
            return None
        return dict(node.value)

    def keys(
        self,
        node: Node,
        path: str,
        allowed: tuple[str, ...],
        *,
        elsewhere: Mapping[str, str] | None = None,
    ) -> None:
        """Record each key of a mapping not in ``allowed`` (``elsewhere``: keys with their own message)."""
        for key in node.value:
            if key in allowed:
                continue
            line = node.key_lines.get(key, node.line)
            if elsewhere and key in elsewhere:
                self.p.add(child(path, key), elsewhere[key], line)
                continue
            if is_secret(key) and not key.endswith("_env"):
                self.p.add(child(path, key), INLINE_SECRET, line)
                continue
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else f"expected one of: {', '.join(allowed)}"
            self.p.add(child(path, key), f"unknown key ({hint})", line)

    def string(self, node: Node, path: str, *, what: str = "a string") -> str | None:
        """A non-blank string."""
        if node.kind != "scalar" or not isinstance(node.value, str):
            self.p.add(path, f"expected {what}, got {kind_of(node)}", node.line)
            return None
        if not node.value.strip():
            self.p.add(path, f"expected {what}, got an empty string", node.line)
            return None
        return node.value

    def integer(self, node: Node, path: str, *, minimum: int = 0) -> int | None:
        """An integer (not a boolean) of at least ``minimum``."""
        v = node.value
        if node.kind != "scalar" or isinstance(v, bool) or not isinstance(v, int):
            self.p.add(path, f"expected an integer, got {kind_of(node)}", node.line)
            return None
        if v < minimum:
            self.p.add(path, f"expected an integer >= {minimum}, got {v}", node.line)
            return None
        return v

    def boolean(self, node: Node, path: str) -> bool | None:
        """``true`` or ``false``."""
        if node.kind != "scalar" or not isinstance(node.value, bool):
            self.p.add(path, f"expected true or false, got {kind_of(node)}", node.line)
            return None
        return bool(node.value)

    def duration(self, node: Node, path: str) -> int | None:
        """A duration in ms: a string such as ``5m``, or a whole number of seconds."""
        v = node.value
        if node.kind == "scalar" and isinstance(v, int) and not isinstance(v, bool):
            if v < 0:
                self.p.add(path, f"expected a duration >= 0, got {v}", node.line)
                return None
            return v * 1000
        if node.kind != "scalar" or not isinstance(v, str):
            self.p.add(path, f"expected a duration such as 30s, 5m or 1h, got {kind_of(node)}", node.line)
            return None
        try:
            return parse_duration(v)
        except UsageError as e:
            self.p.add(path, str(e), node.line)
            return None

    def thresholds(
        self,
        m: Mapping[str, Node],
        path: str,
        *,
        counts: Sequence[str],
        durations: Sequence[str],
        ordered: Sequence[tuple[str, str]],
    ) -> dict[str, int | None]:
        """The threshold keys of mapping ``m`` by key (None: not set, or a problem): ``counts`` as
        integers, ``durations`` as durations in ms; of each pair ``(lo, hi)`` in ``ordered``, ``lo``
        must not exceed ``hi`` (said at ``lo``: the warning's key, or the critical's where lower is worse)."""
        values: dict[str, int | None] = {}
        for key in counts:
            values[key] = self.integer(m[key], child(path, key)) if key in m else None
        for key in durations:
            values[key] = self.duration(m[key], child(path, key)) if key in m else None
        for lo, hi in ordered:
            if warn_above_crit(values[lo], values[hi]):
                self.p.add(child(path, lo), f"must not exceed {hi}", m[lo].line)
        return values

    def string_list(
        self, node: Node, path: str, *, what: str, item: str
    ) -> list[tuple[str, str, int]] | None:
        """A list of strings (or one string); returns (value, path, line) triples."""
        if node.kind == "scalar" and isinstance(node.value, str):
            items = [(node, path)]
        elif node.kind == "seq":
            items = [(n, child(path, i)) for i, n in enumerate(node.value)]
        else:
            self.p.add(path, f"expected a list of {what}, got {kind_of(node)}", node.line)
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

    def regexes(self, node: Node, path: str, *, what: str, item: str) -> tuple[str, ...] | None:
        """A list of regular expressions (deduplicated, in order); None if any does not compile."""
        items = self.string_list(node, path, what=what, item=item)
        if items is None:
            return None
        ok = True
        for value, pth, line in items:
            try:
                compile_java_regex(value, "regular expression")  # Java regexes, as Kafka's tools take
            except UsageError as e:
                self.p.add(pth, str(e), line)
                ok = False
        return tuple(dict.fromkeys(v for v, _, _ in items)) if ok else None

    def env_var(self, node: Node, path: str, environ: Mapping[str, str]) -> str | None:
        """The value of the environment variable named at ``path`` (unset: :meth:`Problems.secret_unset`)."""
        name = self.string(node, path, what="an environment variable name")
        if name is None:
            return None
        if not _ENV_NAME.fullmatch(name):
            self.p.add(path, f"{name!r} is not an environment variable name", node.line)
            return None
        value = environ.get(name)
        if value is None:
            self.p.secret_unset(path, f"environment variable {name} is not set", node.line)
            return None
        return value
