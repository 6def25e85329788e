"""The package's import graph, read from the source (for :mod:`dev.layout`).

Every import statement counts: the module-level ones, the lazy ones inside functions and the ones
under ``if TYPE_CHECKING:``. A lazy import only moves *when* a dependency is loaded, and a
type-checking one is still a dependency of the module's interface; both are where an import cycle
or an upward import hides, so the graph does not tell them apart.

Modules are named relative to the package: ``lag.rows`` for ``kafka_offsets_cli/lag/rows.py``,
``kafka`` for ``kafka_offsets_cli/kafka/__init__.py``, ``errors`` for ``kafka_offsets_cli/errors.py``
and ``__init__`` for the package's own ``__init__.py``. The first dotted part is then the module's
*area*: its subpackage, or the root module itself.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

#: at most this many cycles are spelt out per strongly connected component (the rest is summed up)
MAX_CYCLES = 10

#: module -> {module it imports: line of the first such import}
Graph = Mapping[str, Mapping[str, int]]


def module_name(path: Path, root: Path) -> str:
    """``kafka_offsets_cli/kafka/client.py`` (under ``root``) -> ``kafka_offsets_cli.kafka.client``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def short_name(module: str, package: str) -> str:
    """``kafka_offsets_cli.lag.rows`` -> ``lag.rows``; the package itself -> ``__init__``."""
    return module[len(package) + 1 :] if module != package else "__init__"


def area(short: str) -> str:
    """The subpackage (or root module) a module belongs to: ``lag.rows`` -> ``lag``."""
    return short.split(".")[0]


def imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Every imported module (absolute name) with its line, relative imports resolved.

    ``from x import y`` yields both ``x`` and ``x.y`` (``y`` may be a submodule); :func:`targets`,
    which knows the modules, keeps the one that is a module.
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            name = _from_base(node, module, is_package)
            yield node.lineno, name
            for alias in node.names:  # `from . import render` imports a submodule
                yield node.lineno, f"{name}.{alias.name}"


def _from_base(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name of ``x`` in ``from x import y`` (``from .. import y``: the parent package)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    anchor = base[: len(base) - (node.level - 1)]
    return ".".join([*anchor, node.module] if node.module else anchor)


def targets(tree: ast.AST, module: str, is_package: bool, known: Collection[str]) -> dict[str, int]:
    """The known modules that ``module`` imports, each with the line of its first import.

    An import resolves to the longest known module it names (``from ..kafka import KafkaClient``
    -> ``kafka_offsets_cli.kafka``; ``from . import output`` -> ``...cli.output``, not ``...cli``).
    The parent packages an import loads on the way are not edges: every submodule would otherwise
    "import" its own package's ``__init__``, and each package that re-exports its modules would be
    a cycle.
    """
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, module, is_package)
            subs = [f"{base}.{alias.name}" for alias in node.names]
            found = [s for s in subs if s in known]
            names = found if len(found) == len(subs) else [base, *found]
        else:
            continue
        for name in names:
            hit = _longest_known(name, known)
            if hit and hit != module:
                out[hit] = min(out.get(hit, node.lineno), node.lineno)  # ast.walk is not in line order
    return out


def _longest_known(name: str, known: Collection[str]) -> str:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def components(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> Iterator[str]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return iter(sorted(t for t in graph[node] if t in graph))

    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, visit(start))]
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    work.append((nxt, visit(nxt)))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    members = [stack.pop()]
                    while members[-1] != node:
                        members.append(stack.pop())
                    on_stack.difference_update(members)
                    if len(members) > 1:
                        found.append(sorted(members))
    return sorted(found)


def cycles(graph: Graph, component: Collection[str], limit: int = MAX_CYCLES) -> tuple[list[list[str]], bool]:
    """The elementary cycles in one component, each from its smallest module; and whether that is all.

    Each cycle is found once: from its smallest module, through larger ones only. A component can
    hold exponentially many cycles, so at most ``limit`` are returned (``False``: there are more).
    """
    members = set(component)
    out: list[list[str]] = []

    def onward(node: str, start: str) -> Iterator[str]:
        return iter(sorted(t for t in graph[node] if t in members and t >= start))

    for start in sorted(members):
        path = [start]
        work = [onward(start, start)]
        while work:
            for nxt in work[-1]:
                if nxt == start:
                    out.append(list(path))
                    if len(out) > limit:
                        return out[:limit], False
                elif nxt not in path:
                    path.append(nxt)
                    work.append(onward(nxt, start))
                    break
            else:
                work.pop()
                path.pop()
    return out, True
