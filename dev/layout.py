"""The package's layout rules, checked from the source: ``python -m dev.layout`` (exit 1 on a breach).

The folders are the data flow (README "Development"); these rules keep them so:

* only ``kafka/`` imports a Kafka client library (confluent-kafka, kafka-python), and of it only
  ``kafka/kafka_python.py`` (the adapter to its client), ``kafka/tiered.py`` (ListOffsets v8-v11)
  and ``kafka/offset_fetch.py`` (FindCoordinator, OffsetFetch) import kafka-python;
* only ``spark/`` imports pyspark (and py4j, pyarrow);
* nothing outside ``cli/`` (and the ``__main__`` entry point) imports ``cli/``: the core never
  reaches up into the commands;
* ``render/`` is pure: it imports neither ``kafka/``, ``spark/`` nor ``cli/``;
* the features (``lag/``, ``liveness/``, ``tiering/``, ``rewind/``, ``check/``) are siblings: none
  imports another, and ``measures/``, the floor below them that holds what more than one of them
  measures, imports none of them;
* no module is over :data:`MAX_LINES` lines.

Every import counts, including the lazy ones inside functions.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "kafka_offsets_cli"
ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 350

#: third-party top-level modules -> the only subpackage allowed to import them
OWNED = {
    "confluent_kafka": "kafka",
    "kafka": "kafka",  # kafka-python
    "pyspark": "spark",
    "py4j": "spark",
    "pyarrow": "spark",
}
#: third-party top-level modules -> the only modules allowed to import them (within their subpackage)
OWNED_MODULE = {
    "kafka": tuple(f"{PACKAGE}.kafka.{m}" for m in ("kafka_python", "tiered", "offset_fetch")),
}
#: the feature subpackages: siblings over measures/, none imports another
FEATURES = ("lag", "liveness", "tiering", "rewind", "check")
#: subpackage -> subpackages it must not import
FORBIDDEN = {
    "render": ("kafka", "spark", "cli"),
    "measures": FEATURES,
    **{f: tuple(g for g in FEATURES if g != f) for f in FEATURES},
}


@dataclass(frozen=True)
class Breach:
    """One broken rule: where, and what."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def module_name(path: Path, root: Path = ROOT) -> str:
    """``kafka_offsets_cli/kafka/client.py`` -> ``kafka_offsets_cli.kafka.client``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Every imported module (absolute name) with its line, relative imports resolved."""
    base = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - (node.level - 1)]
                name = ".".join([*anchor, node.module] if node.module else anchor)
            else:
                name = node.module or ""
            yield node.lineno, name
            for alias in node.names:  # `from . import render` imports a submodule
                yield node.lineno, f"{name}.{alias.name}"


def _area(module: str, root: Path) -> str:
    """The subpackage a module of ours belongs to ("" for top-level modules)."""
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and (root / PACKAGE / parts[1] / "__init__.py").is_file()):
        return parts[1]
    return ""


def check_file(path: Path, root: Path = ROOT) -> list[Breach]:
    """The breaches in one module of the package."""
    rel = str(path.relative_to(root))
    text = path.read_text(encoding="utf-8")
    out: list[Breach] = []
    lines = text.count("\n") + (not text.endswith("\n") and bool(text))
    if lines > MAX_LINES:
        out.append(Breach(rel, 1, f"{lines} lines (at most {MAX_LINES}): split it by concern"))
    module = module_name(path, root)
    area = _area(module, root)
    tree = ast.parse(text, filename=rel)
    seen: set[tuple[int, str]] = set()  # one breach per import statement and rule

    def breach(line: int, rule: str, message: str) -> None:
        if (line, rule) not in seen:
            seen.add((line, rule))
            out.append(Breach(rel, line, message))

    for line, name in imports(tree, module, path.name == "__init__.py"):
        top = name.split(".")[0]
        if top in OWNED and area != OWNED[top]:
            breach(line, top, f"imports {top}: only {PACKAGE}/{OWNED[top]}/ may")
        elif top in OWNED_MODULE and module not in OWNED_MODULE[top]:
            breach(line, top, f"imports {top}: only {', '.join(OWNED_MODULE[top])} may")
        if top != PACKAGE or name == module:
            continue
        target = _area(name, root)
        if target == "cli" and area != "cli" and module != f"{PACKAGE}.__main__":
            breach(line, "cli", f"imports {name}: the core must not import the commands (cli/)")
        if target in FORBIDDEN.get(area, ()):
            breach(line, target, f"imports {name}: {area}/ must not import {target}/")
    return out


def check(root: Path = ROOT) -> list[Breach]:
    """Every breach in the package, sorted by file and line."""
    out: list[Breach] = []
    for path in sorted((root / PACKAGE).rglob("*.py")):
        out += check_file(path, root)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Print each breach on a line; exit 1 if there is any."""
    del argv
    breaches = check()
    for b in breaches:
        print(b)
    if breaches:
        print(f"{len(breaches)} layout breach(es)", file=sys.stderr)
        return 1
    print("layout: ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
