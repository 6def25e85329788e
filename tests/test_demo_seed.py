"""``make demo`` twice keeps the user's experiments: ``dev.seed`` seeds only what is missing (real broker)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dev import kafka as dev_kafka
from dev import seed
from dev.kafka_data import admin, commit_group_offsets
from tests.kafka_helpers import broker_warnings

ROOT = Path(__file__).resolve().parent.parent


def run_seed(bootstrap: str) -> str:
    """``python -m dev.seed --bootstrap ...`` as ``make demo`` runs it; its summary (stderr)."""
    p = subprocess.run(
        [sys.executable, "-m", "dev.seed", "--bootstrap", bootstrap],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr
    return p.stderr


def test_seeding_again_keeps_a_rewound_group_and_restores_what_was_deleted(bootstrap: str) -> None:
    run_seed(bootstrap)
    client = admin(bootstrap)
    seeded = seed.billing_offsets(client)
    assert seeded and len(seeded) == len(seed.ORDERS_COUNTS)
    try:
        # the user's experiment: billing rewound to the start of orders
        commit_group_offsets(
            bootstrap, seed.GROUP, {(seed.ORDERS, p): 0 for p in range(len(seed.ORDERS_COUNTS))}
        )
        summary = run_seed(bootstrap)
        assert seed.billing_offsets(client) == dict.fromkeys(range(len(seed.ORDERS_COUNTS)), 0)
        assert "left as they are" in summary and "already seeded" in summary
        # what is missing is seeded again: the group, once deleted
        client.delete_consumer_groups([seed.GROUP], request_timeout=15)[seed.GROUP].result()
        assert seed.billing_offsets(client) == {}
        summary = run_seed(bootstrap)
        assert "committed now" in summary
        assert seed.billing_offsets(client) == seeded
    finally:  # leave the demo data as seeded for the other tests on this broker
        client.delete_consumer_groups([seed.GROUP], request_timeout=15)[seed.GROUP].result()
        seed.seed(bootstrap)
    assert seed.billing_offsets(client) == seeded


def test_on_a_broker_without_tiered_storage_the_tiered_topic_is_left_out(bootstrap: str) -> None:
    summary = run_seed(bootstrap)
    assert f"{seed.TIERED}: left out: this broker has no tiered storage" in summary
    assert seed.TIERED not in admin(bootstrap).list_topics(timeout=15).topics


def _tiered_offsets(bootstrap: str) -> dict[tuple[int, str], int | None]:
    specs = ["-s", "earliest", "-s", "earliest-local", "-s", "latest-tiered", "-s", "latest", "-o", "jsonl"]
    run = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", "list", "-b", bootstrap, "-t", seed.TIERED, *specs],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    return {(r["partition"], r["spec"]): r["offset"] for r in rows}


def test_the_tiered_topic_has_remote_local_and_pending_records_and_is_seeded_once(
    fresh_tiered_cluster: dev_kafka.Cluster,
) -> None:
    """On a tiered broker as make demo starts it: offsets 0-199 remote only, 200-204 local only (the
    upload backlog); seeding again adds nothing."""
    tiered_bootstrap = fresh_tiered_cluster.bootstrap
    client = admin(tiered_bootstrap)
    try:
        note = seed.seed_tiered(
            tiered_bootstrap, client, wait_s=360
        )  # a loaded CI machine: 180 s was once short
        moved = "produced now" in note and "segments in remote storage" in note
        assert moved, f"{note}\n{broker_warnings(fresh_tiered_cluster)}"
        expected = {
            "earliest": 0,
            "earliest-local": seed.TIERED_RECORDS,
            "latest-tiered": seed.TIERED_RECORDS - 1,
            "latest": seed.TIERED_RECORDS + seed.TIERED_LOCAL,
        }
        want = {(p, spec): o for p in range(seed.TIERED_PARTITIONS) for spec, o in expected.items()}
        assert _tiered_offsets(tiered_bootstrap) == want
        note = seed.seed_tiered(tiered_bootstrap, client, wait_s=5)
        assert "already seeded" in note, note
        assert _tiered_offsets(tiered_bootstrap) == want
    finally:
        client.delete_topics([seed.TIERED], operation_timeout=30)[seed.TIERED].result()
