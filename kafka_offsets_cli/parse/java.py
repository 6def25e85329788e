"""Java's string semantics that GetOffsetShell's options rely on, reproduced exactly.

Kafka trims, splits and rewrites the selection options with Java's ``String`` methods;
their edge cases (control characters, trailing empty items) differ from Python's.
"""

from __future__ import annotations

import re

__all__ = ["include_list_regex", "java_split_commas", "java_trim"]


def java_trim(s: str) -> str:
    """Java's ``String.trim``: strip every char <= U+0020 from both ends."""
    start, end = 0, len(s)
    while start < end and s[start] <= " ":
        start += 1
    while end > start and s[end - 1] <= " ":
        end -= 1
    return s[start:end]


def java_split_commas(s: str) -> list[str]:
    """Java's ``s.split(",")``: like ``str.split`` but trailing empty items are dropped.

    A string without a comma is returned whole (even ``""``); ``","`` gives ``[]``.
    """
    if "," not in s:
        return [s]
    parts = s.split(",")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def include_list_regex(raw: str) -> str:
    """The regex Kafka's ``TopicFilter.IncludeList`` builds from user input."""
    regex = java_trim(raw).replace(",", "|").replace(" ", "")
    # Java's ``$`` also matches before a final line terminator (``\u2028`` survives trim()).
    return re.sub(r"[\"']+(?=(?:\r\n|[\n\r\x85\u2028\u2029])?\Z)", "", re.sub(r"^[\"']+", "", regex))
