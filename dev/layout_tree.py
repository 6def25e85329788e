"""The package tree of docs/development.md, checked against the package (for :mod:`dev.layout`).

The tree is the first fenced block of that page's ``# Development`` section (the README's, until the
README became the front page and its manual moved to docs/), the package's name and ``/`` on its
first line::

    kafka_offsets_cli/
      parse/       times and durations, ...
      lag/ liveness/ tiering/ rewind/   the rules, ...
      errors.py    one exception hierarchy and the exit codes

An entry is a ``name/`` or ``name.py`` at the start of a line indented as the first one under the
package (several may share a line); the rest of the line, and any line indented further, is prose.
Every folder of the package and every root module but the dunder ones (``__init__.py``,
``__main__.py``) must be listed, and nothing that does not exist.
"""

from __future__ import annotations

import re
from pathlib import Path

#: the page that holds the tree, relative to the repository's root
PAGE = "docs/development.md"
HEADING = "# Development"
_ENTRY = re.compile(r"[A-Za-z_][\w-]*(/|\.py)")


def tree_block(text: str) -> tuple[int, list[str]] | None:
    """The tree's lines (fences excluded) and the line number of its first one, or ``None``."""
    lines = text.splitlines()
    try:
        start = lines.index(HEADING)
    except ValueError:
        return None
    opened: int | None = None
    for number, line in enumerate(lines[start + 1 :], start + 2):
        if line.startswith("## ") and opened is None:
            return None  # the next section: the Development section has no fenced block
        if line.strip().startswith("```"):
            if opened is not None:
                return opened, lines[opened - 1 : number - 1]
            opened = number + 1
    return None


def listed(block: list[str], first: int) -> list[tuple[int, str]]:
    """The entries of a tree (``lag/``, ``errors.py``) with their line numbers."""
    children = [line for line in block[1:] if line.strip()]
    if not children:
        return []
    indent = len(children[0]) - len(children[0].lstrip())
    out: list[tuple[int, str]] = []
    for number, line in enumerate(block[1:], first + 1):
        if not line.strip() or len(line) - len(line.lstrip()) != indent:
            continue  # a continuation of the line above
        for word in line.split():
            if not _ENTRY.fullmatch(word):
                break  # the description starts
            out.append((number, word))
    return out


def expected(package_dir: Path) -> set[str]:
    """What the tree must list: every folder (``lag/``) and non-dunder root module (``errors.py``)."""
    out: set[str] = set()
    for path in package_dir.iterdir():
        if path.name.startswith((".", "__")):
            continue  # __pycache__, __init__.py, __main__.py
        if path.is_dir():
            out.add(f"{path.name}/")
        elif path.suffix == ".py":
            out.add(path.name)
    return out


def check_tree(page: Path, package_dir: Path) -> list[tuple[int, str]]:
    """The tree's problems, each with its line in ``page`` (0: not found at all)."""
    if not page.is_file():
        return [(0, f"no {page.name}: the package tree lives in its {HEADING!r} section")]
    found = tree_block(page.read_text(encoding="utf-8"))
    if found is None:
        return [(0, f"no fenced package tree in the {HEADING!r} section")]
    first, block = found
    head = f"{package_dir.name}/"
    if not block or block[0].strip() != head:
        return [(first, f"the package tree's first line is not {head!r}")]
    entries = listed(block, first)
    want = expected(package_dir)
    out = [(n, f"the package tree lists {name}, not in {head}") for n, name in entries if name not in want]
    have = {name for _, name in entries}
    out += [(first, f"the package tree omits {name}") for name in sorted(want - have)]
    return out
