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


def _site_without_pandas(where: Path) -> Path:
    """A copy of this interpreter's site-packages (symlinks) without pandas: what a user has who
    added pyspark and pyarrow by hand but not the ``[spark]`` extra."""
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"])
    overlay = where / "site-without-pandas"
    overlay.mkdir()
    for entry in site.iterdir():
        if entry.name == "pandas" or entry.name.startswith("pandas-"):
            continue
        (overlay / entry.name).symlink_to(entry)
    return overlay


def test_without_pandas_check_stops_before_spark_with_the_install_hint(
    bootstrap: str, tmp_path: Path
) -> None:
    """pyspark's Arrow functions need pandas on the driver: without it ``check`` says so in one line and
    how to install it, exit 3, before a Spark session starts (rather than every job failing after)."""
    i = uuid.uuid4().hex[:6]
    topic = create_topic(bootstrap, f"nopd-{i}", 2)
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f'clusters: {{local: {{bootstrap_servers: "{bootstrap}"}}}}\n'
        f"checks:\n  - {{name: alive, type: liveness, topics: [{topic}], warn: 1h, crit: 1d}}\n"
    )
    overlay = _site_without_pandas(tmp_path)
    repo = Path(__file__).resolve().parent.parent
    p = subprocess.run(
        # -S: not the real site-packages (it holds pandas); the overlay and the checkout instead
        [sys.executable, "-S", "-m", "kafka_offsets_cli", "check", str(spec), "--master", "local[1]"],
        capture_output=True,
        text=True,
        timeout=300,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": f"{repo}:{overlay}",
            "HOME": str(tmp_path),
            "NO_COLOR": "1",
        },
        cwd=tmp_path,
    )
    assert p.returncode == 3, p.stderr
    assert p.stdout == "", p.stdout
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert "needs pandas, which is not installed" in lines[0], p.stderr
    assert "pandas>=2.2,<3" in p.stderr and "pip install '.[spark]'" in p.stderr, p.stderr
    assert "SparkContext" not in p.stderr and "Running Spark version" not in p.stderr, p.stderr
    assert not list(tmp_path.glob("spark-*")), list(tmp_path.iterdir())
