"""The one rule for a missing real part (broker, Spark, groff): fail under CI=true, skip only locally."""

from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped

from tests import availability


def test_missing_part_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(availability, "IN_CI", True)
    with pytest.raises(Failed, match="no broker"):
        availability.unavailable("no broker")


def test_missing_part_skips_only_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(availability, "IN_CI", False)
    with pytest.raises(Skipped, match="no broker"):
        availability.unavailable("no broker")
