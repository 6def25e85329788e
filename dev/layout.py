"""The package's layout rules, checked from the source: ``python -m dev.layout`` (exit 1 on a breach).

The folders are the data flow (docs/development.md); these rules keep them so. Each breach is
reported under its rule's name:

* ``layer``: the package is the stack of :data:`LAYERS` (lowest first) and a module imports only
  from its own layer or a lower one, so an upward import is a breach naming both modules; every
  subpackage and root module has its place in the table (a new one is a breach until placed):
  base < models < parse < connection < plan < kafka < rules < measures < features < spark <
  render < serve < cli < entry. The order is the import order, the data flow read backwards: the frozen
  ``models/`` are low because everything above them speaks them, ``parse`` < ``connection`` <
  ``plan`` < ``kafka/`` (the client runs planned requests), then the rules' vocabulary
  (``tally``, ``decide``, ``severity``), what several features measure (``measures/``), the
  features, ``spark/`` that runs ``check`` on a cluster, the pure ``render/``, ``serve/`` (the
  HTTP endpoint's machinery, handed its measures by ``cli/``), the commands in ``cli/``, and
  ``__main__``. Nothing below ``cli/`` imports ``cli/``.
* ``sibling``: the features (the ``features`` layer: lag, liveness, tiering, listing, rewind, check) are
  siblings: none imports another; what two of them share belongs in a lower layer.
* ``cycle``: no import cycle among the package's modules (the strongly connected components of
  the module graph, each elementary cycle reported as a chain ``a:LINE -> b:LINE -> a``).
* ``command``: a command module (``cli/*_cmd.py``) is thin: at most :data:`MAX_COMMAND_LINES`
  lines; its work lives in the layers below.
* ``owner``: only ``kafka/`` imports a Kafka client library (confluent-kafka, kafka-python), and of
  it only ``kafka/kafka_python.py`` (the adapter to its client), ``kafka/list_offsets_kafka_python.py``
  and ``kafka/list_offsets_partitions.py`` (ListOffsets), ``kafka/offset_fetch.py`` (FindCoordinator,
  OffsetFetch), ``kafka/describe_groups.py`` (ConsumerGroupDescribe, DescribeGroups),
  ``kafka/coordinated.py`` (FindCoordinator for the share and streams group requests) and
  ``kafka/group_messages.py`` (their message classes) import kafka-python; only ``spark/`` imports
  pyspark (and py4j, pyarrow);
* ``pure``: ``render/`` imports neither ``kafka/`` nor ``spark/`` (nor ``cli/``: a higher layer);
* ``size``: no module is over :data:`MAX_LINES` lines;
* ``tree``: the package tree of docs/development.md (its "Development" section) lists every folder
  and root module of the package and nothing else (:mod:`dev.layout_tree`).

Every import counts, including the lazy ones inside functions and those under ``TYPE_CHECKING``
(:mod:`dev.layout_graph`). Today's breaches are allowed by the list in :mod:`dev.layout_known`, each
with the issue item that moves it; a new breach fails, and so does an entry that no longer matches
any breach (``allowlist``), so the list only shrinks.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from dev.layout_graph import Graph, area, components, cycles, imports, module_name, short_name, targets
from dev.layout_known import KNOWN, Known
from dev.layout_tree import PAGE, check_tree

PACKAGE = "kafka_offsets_cli"
ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 350
MAX_COMMAND_LINES = 150

#: The layers, lowest first: (name, its subpackages and root modules). ``__init__`` is the
#: package's own ``__init__.py`` (its version).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # leaves: nothing below
    (
        "base",
        ("__init__", "errors", "lazyimport", "gcpause", "system_topics", "elapsed", "ahead", "lingering"),
    ),
    ("models", ("models",)),  # frozen results: the vocabulary of everything above
    ("parse", ("parse",)),  # times, offset specs, the selection grammar
    ("connection", ("connection",)),  # client settings, properties, profiles
    ("plan", ("plan", "sources")),  # requests and use cases over a source (sources: what they need of it)
    ("kafka", ("kafka",)),  # the one client, runs the planned requests
    ("rules", ("tally", "decide", "severity")),  # roll-ups, per-record rules, the status order
    ("measures", ("measures",)),  # what more than one feature measures (lag, liveness ages, timestamps)
    ("features", ("lag", "liveness", "tiering", "listing", "rewind", "check")),  # siblings
    ("spark", ("spark",)),  # runs check's engine on Spark
    ("render", ("render",)),  # pure renderers of the features' results
    ("serve", ("serve",)),  # the HTTP front end's machinery (cache, collection, server); its wiring in cli
    ("cli", ("cli",)),  # thin commands
    ("entry", ("__main__",)),
)
FEATURES = dict(LAYERS)["features"]

#: third-party top-level modules -> the only subpackage allowed to import them
OWNED = {
    "confluent_kafka": "kafka",
    "kafka": "kafka",  # kafka-python
    "pyspark": "spark",
    "py4j": "spark",
    "pyarrow": "spark",
    "opentelemetry": "render",  # the otlp extra's protobuf definitions: render/otlp.py builds the request
}
#: third-party top-level modules -> the only modules allowed to import them (within their subpackage)
#: (describe_groups: ConsumerGroupDescribe and DescribeGroups go through kafka-python like OffsetFetch,
#: since librdkafka's DescribeConsumerGroups aborts the process too when the coordinator freezes)
OWNED_MODULE = {
    "kafka": (
        "kafka.kafka_python",
        "kafka.list_offsets_kafka_python",
        "kafka.list_offsets_partitions",
        "kafka.offset_fetch",
        "kafka.describe_groups",
        "kafka.coordinated",
        "kafka.group_messages",
    ),
}
#: subpackage -> lower subpackages it must not import all the same (higher ones: the ``layer`` rule)
FORBIDDEN = {"render": ("kafka", "spark")}

#: the rules in the order the summary counts them
RULES = ("layer", "sibling", "cycle", "command", "owner", "pure", "size", "tree", "allowlist")


@dataclass(frozen=True, order=True)
class Breach:
    """One broken rule: where, what, and the modules an allowlist entry would name."""

    path: str
    line: int
    rule: str
    message: str
    modules: tuple[str, ...] = ()
    size: int = 0  # a module's lines (``size``, ``command``)

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.rule}: {self.message}"


@dataclass
class Report:
    """The breaches of a check: ``new`` fail it, ``allowed`` are in the allowlist."""

    new: list[Breach] = field(default_factory=list)
    allowed: list[Breach] = field(default_factory=list)

    def summary(self) -> str:
        """One line: the count per rule (allowlisted ones in brackets) and the verdict."""
        every = Counter(b.rule for b in (*self.new, *self.allowed))
        known = Counter(b.rule for b in self.allowed)
        counts = ", ".join(f"{r} {every[r]}" + (f" ({known[r]} known)" if known[r] else "") for r in RULES)
        verdict = f"{len(self.new)} new breach(es)" if self.new else "ok"
        return f"layout: {verdict}: {counts}; {len(self.allowed)} allowlisted in all"


def check(root: Path = ROOT, package: str = PACKAGE, known: Sequence[Known] = KNOWN) -> Report:
    """Every breach in ``root/package`` (and its tree in ``root/docs/development.md``), allowlist applied."""
    return apply(breaches(root, package), known)


def breaches(root: Path, package: str) -> list[Breach]:
    """Every breach of every rule but ``allowlist``, sorted by file and line."""
    paths = {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {}
    files: dict[str, str] = {}
    out: list[Breach] = []
    for module, path in paths.items():
        short = short_name(module, package)
        files[short] = rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=rel)
        is_package = path.name == "__init__.py"
        out += _sizes(rel, short, text)
        out += _owners(rel, short, imports(tree, module, is_package), package)
        edges = targets(tree, module, is_package, paths)
        graph[short] = {short_name(t, package): line for t, line in edges.items()}
    out += _layers(graph, files)
    out += _cycles(graph, files)
    out += [Breach(PAGE, n, "tree", m) for n, m in check_tree(root / PAGE, root / package)]
    return sorted(out)


def _sizes(rel: str, short: str, text: str) -> list[Breach]:
    lines = text.count("\n") + (not text.endswith("\n") and bool(text))
    out = []
    if lines > MAX_LINES:
        message = f"{lines} lines (at most {MAX_LINES}): split it by concern"
        out.append(Breach(rel, 1, "size", message, (short,), lines))
    parts = short.split(".")
    if len(parts) == 2 and parts[0] == "cli" and parts[1].endswith("_cmd") and lines > MAX_COMMAND_LINES:
        message = f"{lines} lines (a command at most {MAX_COMMAND_LINES}): move its work below cli/"
        out.append(Breach(rel, 1, "command", message, (short,), lines))
    return out


def _owners(rel: str, short: str, names: Iterable[tuple[int, str]], package: str) -> list[Breach]:
    """The ``owner`` rule: third-party libraries imported outside the modules that own them."""
    out: dict[tuple[int, str], Breach] = {}  # one breach per import statement and library
    for line, name in names:
        top = name.split(".")[0]
        if top == package or (line, top) in out:
            continue
        if top in OWNED and area(short) != OWNED[top]:
            message = f"imports {top}: only {package}/{OWNED[top]}/ may"
            out[line, top] = Breach(rel, line, "owner", message, (short, top))
        elif top in OWNED_MODULE and short not in OWNED_MODULE[top]:
            message = f"imports {top}: only {', '.join(OWNED_MODULE[top])} may"
            out[line, top] = Breach(rel, line, "owner", message, (short, top))
    return list(out.values())


def _layers(graph: Graph, files: Mapping[str, str]) -> list[Breach]:
    """The ``layer``, ``sibling`` and ``pure`` rules, one breach per importing and imported module."""
    rank = {a: (i, name) for i, (name, areas) in enumerate(LAYERS) for a in areas}
    out: list[Breach] = []
    unplaced: set[str] = set()
    for src in sorted(graph):
        a = area(src)
        if a not in rank:
            if a not in unplaced:  # once per subpackage, at its first module
                unplaced.add(a)
                out.append(Breach(files[src], 1, "layer", f"{a} is in no layer: place it in LAYERS", (a,)))
            continue
        for dst, line in sorted(graph[src].items()):
            b = area(dst)
            if b == a or b not in rank:
                continue
            edge = (src, dst)
            if rank[b] > rank[a]:
                message = f"{src} ({rank[a][1]}) imports {dst} ({rank[b][1]}): a higher layer"
                out.append(Breach(files[src], line, "layer", message, edge))
            elif a in FEATURES and b in FEATURES:
                message = f"{src} imports {dst}: the features do not import each other"
                out.append(Breach(files[src], line, "sibling", message, edge))
            if b in FORBIDDEN.get(a, ()):
                message = f"{src} imports {dst}: {a}/ must not import {b}/"
                out.append(Breach(files[src], line, "pure", message, edge))
    return out


def _cycles(graph: Graph, files: Mapping[str, str]) -> list[Breach]:
    """The ``cycle`` rule: each elementary cycle of the module graph, as a chain with lines."""
    out: list[Breach] = []
    for component in components(graph):
        found, complete = cycles(graph, component)
        for cycle in found:
            ring = [*cycle, cycle[0]]
            chain = " -> ".join(f"{m}:{graph[m][n]}" for m, n in itertools.pairwise(ring)) + f" -> {cycle[0]}"
            line = graph[cycle[0]][cycle[1]]
            out.append(Breach(files[cycle[0]], line, "cycle", f"import cycle {chain}", tuple(cycle)))
        if not complete:
            message = f"more import cycles among {', '.join(component)} than the ones shown"
            out.append(Breach(files[component[0]], 1, "cycle", message, tuple(component)))
    return out


def apply(found: Iterable[Breach], known: Sequence[Known]) -> Report:
    """Sort breaches into new and allowed; an entry that allows nothing is itself a new breach."""
    index = {(k.rule, k.modules): i for i, k in enumerate(known)}  # a duplicate entry: the earlier is stale
    used: set[int] = set()
    report = Report()
    for b in found:
        i = index.get((b.rule, b.modules))
        if i is None:
            report.new.append(b)
            continue
        used.add(i)
        ceiling = known[i].lines
        if ceiling and b.size > ceiling:
            report.new.append(replace(b, message=f"{b.message}; allowlisted at {ceiling} lines, not more"))
        else:
            report.allowed.append(b)
    for i, k in enumerate(known):
        if i not in used:
            message = f"entry {i + 1} ({k.rule}: {', '.join(k.modules)}) matches no breach: delete it"
            report.new.append(Breach("dev/layout_known.py", 0, "allowlist", message, k.modules))
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Print each new breach on a line and the summary; exit 1 if there is any."""
    parser = argparse.ArgumentParser(prog="python -m dev.layout", description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="also print the allowlisted breaches")
    args = parser.parse_args(argv)
    report = check()
    for b in report.allowed if args.all else ():
        print(f"allowlisted: {b}")
    for b in report.new:
        print(b)
    print(report.summary())
    return 1 if report.new else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
