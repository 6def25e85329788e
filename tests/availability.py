"""When a real part a test needs (Kafka, Spark, groff…) cannot be had: fail under CI=true, skip locally."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

#: True under CI (CI=1/true/yes): a test that cannot get its broker, Spark or tool fails there.
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def unavailable(message: str) -> NoReturn:
    """Fail the test (under CI) or skip it (locally) with ``message``."""
    if IN_CI:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
