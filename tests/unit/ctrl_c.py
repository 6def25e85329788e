"""Ctrl-C as the tool meets it: plain, or wrapped by the code it interrupted (for the unit tests)."""

from __future__ import annotations


def wrapped_by_c_extension() -> SystemError:
    """What CPython raises when Ctrl-C lands while a C extension (confluent-kafka) calls back into Python."""
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ki:
            raise SystemError("describe_topics returned a result with an exception set") from ki
    except SystemError as e:
        return e


def replaced_by_py4j_error() -> ConnectionError:
    """py4j's 'Answer from Java side is empty', raised while a Ctrl-C was being handled (replacing it)."""
    try:
        try:
            raise KeyboardInterrupt
        finally:
            raise ConnectionError("Answer from Java side is empty")  # replaces the interrupt
    except ConnectionError as e:
        return e
