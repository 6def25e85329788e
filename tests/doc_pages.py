"""The user documentation as the tests read it: README.md (the front page) and the pages of docs/.

Moving a paragraph from the README to a docs page keeps it under test: the readers of install lines,
options and console examples search every page, and :func:`anchors` lets a test check the links
between them.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """README.md, then every ``docs/*.md`` in name order."""
    return [README, *sorted(DOCS.glob("*.md"))]


def text() -> str:
    """Every page's text, README first, one after the other."""
    return "\n".join(page.read_text(encoding="utf-8") for page in pages())


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (fenced blocks skipped: a ``# comment`` there is no heading)."""
    out: set[str] = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} (.*)", line)):
            out.add(slug(m.group(1)))
    return out
