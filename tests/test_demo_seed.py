"""``make demo`` twice keeps the user's experiments: ``dev.seed`` seeds only what is missing (real broker)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dev import seed
from dev.kafka_data import admin, commit_group_offsets

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
