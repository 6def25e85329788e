"""Problems in a spec file, each ``path: message (line N)``, and the paths and value names they use.

Every problem of a file is collected (not only the first) and reported in line order, so one run
of ``check --validate`` shows everything to fix.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["Problems", "child", "describe"]

_PATH_KEY = re.compile(r"[A-Za-z0-9_-]+")


class Problems:
    """Collects ``path: message (line N)`` entries.

    With ``secrets_required`` false (``check --validate``), an unset environment variable that
    holds a secret is a note, not a problem: the file is checked where the secrets are not
    (a CI job, an editor), and the run itself still refuses it.
    """

    def __init__(self, *, secrets_required: bool = True) -> None:
        self.items: list[tuple[int, int, str]] = []
        self.secrets_required = secrets_required
        self.notes: list[tuple[int, int, str]] = []

    def add(self, path: str, message: str, line: int | None) -> None:
        """Record ``message`` about ``path`` ("" is the top level) on ``line`` (None or 0: unknown)."""
        self.items.append((line or 0, len(self.items), _entry(path, message, line)))

    def secret_unset(self, path: str, message: str, line: int | None) -> None:
        """A secret's environment variable is unset: a problem, or a note when secrets are not required."""
        if self.secrets_required:
            self.add(path, message, line)
        else:
            self.notes.append((line or 0, len(self.notes), _entry(path, message, line)))

    def sorted_notes(self) -> list[str]:
        """The notes by line."""
        return [t for _, _, t in sorted(self.notes)]

    def sorted(self) -> list[str]:
        """The problems by line, those on one line in the order found."""
        return [t for _, _, t in sorted(self.items)]

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)


def _entry(path: str, message: str, line: int | None) -> str:
    where = path or "(top level)"
    return f"{where}: {message}" + (f" (line {line})" if line else "")


def child(path: str, key: str | int) -> str:
    """The path of ``key`` under ``path``: ``checks[3]``, ``defaults.timeout``, ``properties["a b"]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    part = key if _PATH_KEY.fullmatch(key) else json.dumps(key)
    if not _PATH_KEY.fullmatch(key):
        return f"{path}[{part}]"
    return f"{path}.{part}" if path else part


def describe(v: Any) -> str:
    """A scalar value as a problem names it: ``null``, ``true``, ``number 3``, ``string 'x'``."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return f"number {v}"
    if isinstance(v, str):
        return f"string {v!r}" if len(v) <= 40 else "a string"
    return type(v).__name__
