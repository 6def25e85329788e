"""A cluster that has just started: group coordinators are not ready yet, and nothing may crash."""

from __future__ import annotations

import os

import pytest

from dev import kafka as dev_kafka
from tests.availability import unavailable
from tests.fault_helpers import start

pytestmark = pytest.mark.broker


def test_lag_right_after_the_cluster_starts_waits_for_the_coordinator() -> None:
    """librdkafka (confluentinc/librdkafka#5040) crashes an admin client whose OffsetFetch is answered
    NOT_COORDINATOR, what a new cluster answers while it creates __consumer_offsets. The client only
    fetches offsets once the group's coordinator has answered a describe: every run ends normally."""
    dev_kafka.reap_orphans()
    name = f"pytest-new-{os.getpid()}"
    try:
        cluster = dev_kafka.up(name, nodes=1, owner_pid=os.getpid())
    except Exception as exc:
        dev_kafka.down(name, grace=0)
        unavailable(f"Kafka broker could not be started: {exc}")
    try:
        runs = [
            start("lag", "-b", cluster.bootstrap, "-g", f"new.g{i}", "--timeout", "60s") for i in range(8)
        ]
        for proc in runs:
            _, err = proc.communicate(timeout=120)
            assert proc.returncode >= 0, f"killed by signal {-proc.returncode}\n{err[-2000:]}"
            # the group was never used: it does not exist (exit 1), told apart from "nothing committed"
            assert proc.returncode == 1, err
            assert "consumer group 'new.g" in err and "does not exist" in err
    finally:
        dev_kafka.down(name, grace=0)
