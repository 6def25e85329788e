"""Text from the command line or a file that is not valid UTF-8: refused, with the bad byte shown.

Bytes on the command line that are not UTF-8 reach Python as lone surrogates
(``-g $'\\xff'``). Handed to confluent-kafka, such a group id crashed the process (SIGSEGV
in DescribeConsumerGroups); as a topic regex it matched nothing and looked like an empty
selection. Both are refused here, the first before the C library, the second when parsed.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import UsageError


def shown(value: str) -> str:
    """``value`` with every byte that is not UTF-8 escaped (``ops\\xff``) for a one-line message."""
    try:
        return value.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no byte stands for (e.g. from a YAML escape)
        return value.encode("utf-8", "backslashreplace").decode("ascii")


def is_utf8(value: str) -> bool:
    """Whether ``value`` can be encoded as UTF-8 (no lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def require_utf8(kind: str, values: Iterable[str]) -> None:
    """Refuse (exit 2) each of ``values`` that is not valid UTF-8, naming it as ``kind``."""
    for value in values:
        if not is_utf8(value):
            raise UsageError(f"{kind} '{shown(value)}' is not valid UTF-8")
