"""Java regular expressions (``java.util.regex.Pattern``), as Kafka's tools take them.

GetOffsetShell's ``--topic``/``--topic-partitions``, kafka-consumer-groups' group
patterns and our spec files use Java's syntax, matched against a whole name
(``String.matches``). :func:`translate_java_regex` turns a Java pattern into an equivalent
pattern for Python's ``regex`` package (VERSION1, whose sets support ``&&``); the reader is
:mod:`.jre_grammar`, written from Java's documentation and checked against a JVM
(tests/test_java_regex_oracle.py). Anything we cannot translate exactly is refused with
one line naming the construct — a pattern never silently matches something else. What is
refused: ``(?iu)``, ``(?U)``, ``(?c)``, lookbehind, ``\\b``, ``\\B``, ``\\X``, quantifiers on
anchors, lookaheads or ``\\R``, back references under ``(?i)`` or to a group that is open,
later or inside a repetition/lookahead/atomic group, Unicode properties under ``(?i)``,
properties outside the documented set we know, ``\\N{..}`` by alias, and some class forms
(an empty or mixed ``&&`` operand, ``&&&``, a ``-`` after a range or a set, spaces in a
class under ``(?x)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import UsageError
from .jre_grammar import JavaInvalid, Untranslatable, translate

__all__ = ["JavaPattern", "compile_java_regex", "names_and_patterns", "translate_java_regex"]

#: A name given outright in a spec file's list (a group, a topic): no character a pattern needs.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9._-]+")


def names_and_patterns(given: Sequence[str]) -> tuple[list[str], list[str]]:
    """A spec file's list split into the names given outright and the Java patterns: a name has only
    ``[A-Za-z0-9._-]`` (as ``lag --group``; its ``.`` is a dot), anything else is a pattern (as
    ``--group-regex``)."""
    names = [g for g in given if _PLAIN_NAME.fullmatch(g)]
    return names, [g for g in given if not _PLAIN_NAME.fullmatch(g)]


def translate_java_regex(pattern: str, what: str = "regex") -> str:
    """``pattern`` as ``regex`` VERSION1 text, for a whole-string match (``fullmatch``).

    Raises :class:`UsageError` (one line) when Java rejects the pattern or when it has no
    exact translation. Does not import ``regex``.
    """
    try:
        return translate(pattern)
    except JavaInvalid as exc:
        raise UsageError(f"invalid {what} {pattern!r}: {exc}") from None
    except Untranslatable as exc:
        raise UsageError(
            f"{what} {pattern!r} uses {exc}, which kafka-offsets cannot match exactly as Java does"
        ) from None
    except RecursionError:
        raise UsageError(
            f"{what} {pattern!r} uses groups nested too deeply, which kafka-offsets "
            "cannot match exactly as Java does"
        ) from None


@dataclass(frozen=True)
class JavaPattern:
    """A compiled Java pattern: ``matches`` is Java's ``String.matches`` (the whole text)."""

    source: str
    translated: str
    compiled: Any = field(repr=False, compare=False)

    def matches(self, text: str) -> bool:
        """True when the whole of ``text`` matches, as Java's ``Pattern.matcher(text).matches()``."""
        return self.compiled.fullmatch(text) is not None


@lru_cache(maxsize=256)
def compile_java_regex(pattern: str, what: str = "regex") -> JavaPattern:
    """Translate and compile a Java pattern (``regex`` is imported here, on first use)."""
    import regex  # heavy: only when a pattern is compiled

    translated = translate_java_regex(pattern, what)
    try:
        compiled = regex.compile(translated, regex.VERSION1)
    except (regex.error, OverflowError, RecursionError) as exc:  # a translation regex cannot take
        raise UsageError(
            f"{what} {pattern!r} uses a construct the regex package cannot compile ({exc}), "
            "which kafka-offsets cannot match exactly as Java does"
        ) from None
    return JavaPattern(pattern, translated, compiled)
