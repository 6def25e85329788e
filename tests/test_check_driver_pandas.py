"""``check``'s driver never loads pandas (kafka_offsets_cli/spark/deferred.py): 35-40 MB of its memory.

pyspark checks pandas' version on every Arrow UDF and on its first py4j call; the driver itself
reads the records with pyarrow only. A real run (a real broker, a fresh local Spark session, in
a child process as users run it) with ``-o json`` and with ``--write parquet`` must give its
records and leave pandas unloaded. Under CI=true a Spark session that cannot start fails it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce

pytestmark = pytest.mark.spark

#: runs the CLI like its entry point, then says on stderr whether pandas' code ran
DRIVER = textwrap.dedent(
    """
    import atexit, sys
    from kafka_offsets_cli.spark.deferred import pandas_loaded
    atexit.register(lambda: sys.stderr.write(f"pandas loaded: {pandas_loaded()}\\n"))
    sys.argv = ["kafka-offsets", *sys.argv[1:]]
    from kafka_offsets_cli.__main__ import main
    main()
    """
)


@pytest.mark.parametrize("extra", [(), ("--write", "parquet")], ids=["json", "json+write"])
def test_a_check_run_leaves_pandas_unloaded(bootstrap: str, tmp_path: Path, extra: tuple[str, ...]) -> None:
    i = uuid.uuid4().hex[:6]
    topic = create_topic(bootstrap, f"nopd-{i}", 3, config={"retention.ms": "-1"})
    now = int(time.time() * 1000)
    produce(bootstrap, topic, [(0, now, None, b"x"), (1, now, None, b"y")])
    commit_group_offsets(bootstrap, f"nopd-g-{i}", {(topic, 0): 1, (topic, 1): 0})
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f"""
clusters: {{local: {{bootstrap_servers: "{bootstrap}"}}}}
checks:
  - {{name: alive, type: liveness, topics: [{topic}], warn: 1h, crit: 1d}}
  - {{name: lag, type: lag, groups: [nopd-g-{i}], topics: [{topic}], warn_lag: 5, crit_lag: 10}}
"""
    )
    write = [*extra, "--write-dir", str(tmp_path / "out")] if extra else []
    p = subprocess.run(
        [sys.executable, "-c", DRIVER, "check", str(spec), "--master", "local[2]", "-o", "json", *write],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode in (0, 1), p.stderr
    doc = json.loads(p.stdout)
    assert {(r["check"], r["partition"]) for r in doc["partitions"]} == {
        (c, n) for c in ("alive", "lag") for n in range(3)
    }
    assert p.stderr.strip().splitlines()[-1] == "pandas loaded: False", p.stderr
    if extra:
        assert list((tmp_path / "out").glob("*.parquet")), list((tmp_path / "out").iterdir())
