"""The use cases behind ``rewind`` and ``check`` take one request and an injected front end: their
option checks, and what they say, need neither a terminal nor a cluster (pure)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timezone
from typing import Any

import pytest

from kafka_offsets_cli.connection.resolver import ConnectionOptions
from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.rewind.plan import Plan, TargetKind
from kafka_offsets_cli.rewind.request import RewindRequest, announce, checked
from kafka_offsets_cli.spark.driver import CheckRequest, prepared

NOW = 1_790_000_000_000  # 2026-09-21T14:13:20Z


class Recorder:
    """A :class:`~kafka_offsets_cli.rewind.io.RewindIO` that keeps what it was told."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.warned: list[str] = []
        self.readied = 0

    def ready(self) -> None:
        self.readied += 1

    def say(self, line: str) -> None:
        self.said.append(line)

    def warn(self, text: str) -> None:
        self.warned.append(text)

    @contextmanager
    def progress(self, text: str) -> Iterator[Any]:
        yield None

    def show_plans(self, plans: Sequence[Plan]) -> None:
        raise AssertionError("nothing is planned before the cluster is asked")

    def summary(self, plan: Plan, **_: Any) -> None:
        raise AssertionError("nothing is planned before the cluster is asked")

    def check_writable(self, path: str) -> None:
        pass

    def write(self, path: str, text: str) -> None:
        raise AssertionError("nothing is written before the cluster is asked")


def _request(**given: Any) -> RewindRequest:
    return RewindRequest(connection=ConnectionOptions(bootstrap="h:1"), now=NOW, tz="UTC", **given)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({}, "name the consumer groups"),
        ({"names": ("g",), "all_groups": True}, "--all-groups selects every group"),
        ({"names": ("g",), "to": "earliest", "force": True}, "--force only applies to --from-file"),
        ({"names": ("g",), "to_current": True, "allow_future": True}, "--allow-future only applies"),
        ({"names": ("g",), "to": "earliest", "from_cluster": "primary"}, "--from-cluster is the target"),
        ({"names": ("g",)}, "give one target"),
        ({"from_file": "p.csv", "topics": ("orders",)}, "--from-file takes its partitions from the file"),
    ],
)
def test_rewind_refuses_options_that_do_not_fit(given: dict[str, Any], message: str) -> None:
    io = Recorder()
    with pytest.raises(UsageError, match=message):
        checked(_request(**given), io)
    assert io.said == io.warned == []
    assert io.readied == (1 if "from_file" in given else 0)  # the output options come after the target


def test_a_relative_time_is_resolved_once_and_said_through_the_front_end() -> None:
    io = Recorder()
    ok = checked(_request(names=("g",), to="6h ago"), io)
    assert ok.target.kind is TargetKind.TIME and ok.target.time_ms == NOW - 6 * 3600 * 1000
    assert ok.zone.utcoffset(None) == timezone.utc.utcoffset(None) and ok.cutover is None
    announce(ok.target, NOW, ok.zone, io)
    assert io.readied == 1  # the front end's own options: checked once the target is valid
    assert io.said == ["--to '6h ago' = 2026-09-21T08:13:20.000Z (resolved once, now)"]


def test_a_lag_file_is_the_cutover_target() -> None:
    ok = checked(_request(names=("g",), from_lag_file="lag.json", remote_topic_prefix="primary."), Recorder())
    assert ok.cutover is not None and ok.cutover.lag_file == "lag.json" and ok.cutover.prefix == "primary."
    assert ok.target.kind is TargetKind.FILE


def test_check_request_is_checked_in_the_order_the_command_reports() -> None:
    warned: list[str] = []
    seen: list[str] = []
    base = CheckRequest(master="local[*]", worst=20)
    with pytest.raises(UsageError, match="--write FORMAT and --write-dir DIR go together"):
        prepared(
            CheckRequest(master="local[*]", worst=20, write="csv", conf=("novalue",)), warn=warned.append
        )
    with pytest.raises(UsageError, match="--conf 'novalue': expected KEY=VALUE"):
        prepared(CheckRequest(master="local[*]", worst=20, conf=("novalue",)), warn=warned.append)
    with pytest.raises(UsageError, match="cannot be used together"):
        prepared(
            CheckRequest(master="yarn", master_given=True, remote="sc://h:15002", worst=20),
            warn=warned.append,
        )
    how = prepared(
        CheckRequest(master="local[*]", remote="sc://h:15002", ui=True, conf=("a= b=c",), worst=5),
        warn=warned.append,
        outputs=lambda: seen.append("outputs"),
    )
    assert warned == ["--spark-ui has no effect with --remote: a Spark Connect server's web UI is its own"]
    assert seen == ["outputs"]
    assert how.settings == (("a", " b=c"),) and how.remote == "sc://h:15002" and how.worst == 5
    assert prepared(base, warn=warned.append).settings == ()
