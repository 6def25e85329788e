"""The README's first command: a local Kafka with sample data, then kafka-offsets against it.

``python -m dev.demo`` (or ``make demo``) brings up (or reuses) the local
single-node KRaft cluster named ``default``, with tiered storage (dev/tiered.py: Kafka's
``LocalTieredStorage``, a 0.6 MB jar fetched once; the broker starts as fast, the tiered topic
and its two commands add ~8 s to a ~8 s demo, measured 2026-11-24), seeds the sample topics
(``python -m dev.seed``; for the tiered topic ``tiered.orders`` it waits, bounded, until
segments have moved to remote storage) and runs ``kafka-offsets list`` with all four kinds of
spec, then ``list`` with the tiered specs and ``tiering`` on ``tiered.orders``. The broker keeps
running so you can try more commands; stop it with ``python -m dev.kafka down``. Running the
demo again reuses the broker and seeds only what is missing: records you produced, offsets you
rewound and topics you made stay as they are
(``python -m dev.seed --bootstrap HOST:PORT --reset`` goes back to the seeded state).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

from dev import seed, tiered
from dev.kafka_data import admin


def main() -> int:
    """Run the demo; returns the exit code of the last kafka-offsets command."""
    cluster = tiered.up("default", nodes=1)
    bootstrap = cluster.bootstrap
    subprocess.run([sys.executable, "-m", "dev.seed", "--bootstrap", bootstrap], check=True)
    cli = [sys.executable, "-m", "kafka_offsets_cli"]
    commands = [
        [
            "list",
            "-b",
            bootstrap,
            "--topic",
            "orders|payments|audit.empty",
            "--spec",
            "earliest",
            "--spec",
            "latest",
            "--spec",
            "max-timestamp",
            "--spec",
            "1h ago",
            "--output",
            "table",
        ],
        [
            "list",
            "-b",
            bootstrap,
            "--topic-partitions",
            "orders:0-2",
            "--spec",
            "max-timestamp",
            "--output",
            "jsonl",
        ],
    ]
    if seed.TIERED in admin(bootstrap).list_topics(timeout=15).topics:
        commands += [
            [
                "list",
                "-b",
                bootstrap,
                "-t",
                seed.TIERED,
                "-s",
                "earliest",
                "-s",
                "earliest-local",
                "-s",
                "latest-tiered",
                "-s",
                "latest",
                "-o",
                "table",
            ],
            ["tiering", "-b", bootstrap, "-t", seed.TIERED, "-o", "wide"],
        ]
    env = dict(os.environ, COLUMNS=os.environ.get("COLUMNS", "140"))
    code = 0
    for args in commands:
        shown = " ".join(shlex.quote(a) for a in ["kafka-offsets", *args])
        print(f"\n$ {shown}", flush=True)
        code = subprocess.run([*cli, *args], env=env).returncode
    print(
        f"\nThe broker is still running at {bootstrap}; `make demo` again keeps your changes to it\n"
        f"(back to the seeded data: .venv/bin/python -m dev.seed --bootstrap {bootstrap} --reset).\n"
        f"Try: export KAFKA_BOOTSTRAP_SERVERS={bootstrap}; .venv/bin/kafka-offsets --help\n"
        "Stop it with: .venv/bin/python -m dev.kafka down",
        flush=True,
    )
    return code


if __name__ == "__main__":
    raise SystemExit(main())
