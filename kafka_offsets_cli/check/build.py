"""A located spec document to a :class:`~.spec.CheckSpec`: the top level, then each section's reader."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .build_checks import CheckReader
from .build_clusters import ClusterReader
from .build_defaults import Defaults, read_defaults
from .document import Node
from .problems import Problems, describe
from .spec import TOP_KEYS, CheckDefinition, CheckSpec, ClusterSpec, TieringCheck
from .values import Validator

__all__ = ["build_spec"]


def build_spec(
    root: Node, problems: Problems, *, source: str, base_dir: Path, environ: Mapping[str, str]
) -> CheckSpec | None:
    """The spec of a document, recording every problem (a spec is only valid without any)."""
    v = Validator(problems)
    top = v.mapping(root, "", "with 'clusters' and 'checks'")
    if top is None:
        return None
    v.keys(root, "", TOP_KEYS)
    if "version" in top:
        n = top["version"]
        if not (n.kind == "scalar" and n.value == 1 and not isinstance(n.value, bool)):
            problems.add("version", f"unsupported version {describe(n.value)}; expected 1", n.line)
    defaults = read_defaults(v, top["defaults"]) if "defaults" in top else Defaults()
    clusters: dict[str, ClusterSpec] = {}
    names: set[str] = set()
    if "clusters" not in top:
        problems.add("clusters", "missing: name at least one cluster", root.line)
    else:
        reader = ClusterReader(
            v, source=source, base_dir=base_dir, environ=environ, timeout_ms=defaults.timeout_ms
        )
        clusters, names = reader.clusters(top["clusters"])
    checks: list[CheckDefinition | TieringCheck] = []
    if "checks" not in top:
        problems.add("checks", "missing: list at least one check", root.line)
    else:
        checks = CheckReader(v, defaults).checks(top["checks"], names)
    return CheckSpec(
        source=source,
        clusters=clusters,
        checks=tuple(c for c in checks if not isinstance(c, TieringCheck)),
        tiering_checks=tuple(c for c in checks if isinstance(c, TieringCheck)),
        chunk_size=defaults.chunk_size,
        history=defaults.history,
        task_size=defaults.task_size,
    )
