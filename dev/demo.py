"""The README's first command: a local Kafka with sample data, then kafka-offsets against it.

``python -m dev.demo`` (or ``make demo``) brings up (or reuses) the local
single-node KRaft cluster named ``default``, seeds the sample topics
(``python -m dev.seed``) and runs ``kafka-offsets list`` with all four kinds of
spec. The broker keeps running so you can try more commands; stop it with
``python -m dev.kafka down``. Running the demo again reuses the broker and seeds only what is
missing: records you produced, offsets you rewound and topics you made stay as they are
(``python -m dev.seed --bootstrap HOST:PORT --reset`` goes back to the seeded state).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

from dev import kafka


def main() -> int:
    """Run the demo; returns the exit code of the last kafka-offsets command."""
    cluster = kafka.up("default", nodes=1)
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
