"""``lag --staleness`` and ``serve --staleness`` on a real broker, with real consumer commits.

A stopped consumer (offsets committed by a real consumer that then left): two ``lag`` runs, as from
cron, show the staleness growing by the wall time between them (the first run knows nothing: null
and one line on stderr); a commit resets it to 0; a fully consumed, idle group never alerts,
whatever the threshold; the thresholds give the monitoring exit codes, the nagios perfdata and the
Prometheus series, which promtool accepts; ``serve`` scraped twice shows it grow. Each test keeps its
state in its own XDG_STATE_HOME.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import Run, cli
from tests.test_prometheus_lint import lint, uid
from tests.test_serve import scrape, serve

RECORDS = 10


def _setup(bootstrap: str, committed: int) -> tuple[str, str]:
    topic, group = f"stale-{uid()}", f"stale-g-{uid()}"
    create_topic(bootstrap, topic, partitions=1)
    produce(bootstrap, topic, [(0, None, None, b"x")] * RECORDS)
    commit_group_offsets(bootstrap, group, {(topic, 0): committed})
    return topic, group


def _lag(state: Path, bootstrap: str, group: str, *args: str) -> tuple[Run, float, float]:
    """One ``lag`` run with its state in ``state``; the wall clock before and after it (ms)."""
    before = time.time() * 1000
    run = cli("lag", "-b", bootstrap, "-g", group, *args, env={"XDG_STATE_HOME": str(state)})
    return run, before, time.time() * 1000


def _record(run: Run) -> dict[str, Any]:
    (rec,) = run.json()
    return dict(rec)


def test_a_stopped_consumer_grows_by_the_wall_time_and_a_commit_resets_it(
    bootstrap: str, tmp_path: Path
) -> None:
    topic, group = _setup(bootstrap, committed=3)
    first, start1, end1 = _lag(tmp_path, bootstrap, group, "--staleness", "-o", "json")
    assert first.code == 0, first.stderr
    rec = _record(first)
    assert (rec["lag"], rec["commit_stale_ms"]) == (RECORDS - 3, None)  # nothing known yet: null, not 0
    assert "seen for the first time" in first.stderr
    assert list(tmp_path.glob("kafka-offsets/staleness/*.json"))  # in the XDG state directory
    time.sleep(1.5)
    second, start2, end2 = _lag(tmp_path, bootstrap, group, "--staleness", "-o", "json")
    stale = _record(second)["commit_stale_ms"]
    # the wall time between the two sights: each taken somewhere within its run
    assert start2 - end1 <= stale <= end2 - start1, (stale, start2 - end1, end2 - start1)
    assert stale >= 1500
    assert "seen for the first time" not in second.stderr
    time.sleep(1.0)
    third, _, _ = _lag(tmp_path, bootstrap, group, "--staleness", "-o", "json")
    assert _record(third)["commit_stale_ms"] >= stale + 1000  # still growing from the first sight
    # the consumer commits: back to 0, then counting again
    commit_group_offsets(bootstrap, group, {(topic, 0): 5})
    moved, _, _ = _lag(tmp_path, bootstrap, group, "--staleness", "-o", "json")
    assert (_record(moved)["committed"], _record(moved)["commit_stale_ms"]) == (5, 0)
    # the table's STALE column and the summary's group maximum
    table, _, _ = _lag(tmp_path, bootstrap, group, "--staleness", "-o", "wide")
    assert "STALE" in table.stdout
    summary, _, _ = _lag(tmp_path, bootstrap, group, "--sort", "staleness", "--summary", "-o", "json")
    (srec,) = summary.json()
    assert srec["max_commit_stale_ms"] is not None and srec["max_commit_stale_ms"] >= 0


def test_thresholds_exit_codes_nagios_and_prometheus(bootstrap: str, tmp_path: Path) -> None:
    _topic, group = _setup(bootstrap, committed=2)
    first, _, _ = _lag(tmp_path, bootstrap, group, "--warn-stale", "1s", "--crit-stale", "1h", "-o", "json")
    assert first.code == 0  # unknown on the first run: not compared
    rec = _record(first)
    assert rec["commit_stale_ms"] is None and rec["status"] == "ok"
    time.sleep(1.5)
    warn, _, _ = _lag(tmp_path, bootstrap, group, "--warn-stale", "1s", "--crit-stale", "1h", "-o", "nagios")
    assert warn.code == 1, warn.stdout + warn.stderr
    assert warn.stdout.startswith("KAFKA LAG WARNING") and "commit stale" in warn.stdout
    assert f"'{group} commit_stale'=" in warn.stdout
    crit, _, _ = _lag(tmp_path, bootstrap, group, "--crit-stale", "1s", "-o", "prometheus")
    assert crit.code == 2
    lint(crit.stdout)
    fams = parse_prometheus_text(crit.stdout)
    (part,) = fams["kafka_offsets_lag_partition_commit_stale_seconds"]
    (grp,) = fams["kafka_offsets_lag_group_max_commit_stale_seconds"]
    assert part[1] == grp[1] >= 1.5
    assert fams["kafka_offsets_lag_crit_commit_stale_seconds"][0][1] == 1.0


def test_an_idle_fully_consumed_group_never_alerts(bootstrap: str, tmp_path: Path) -> None:
    _topic, group = _setup(bootstrap, committed=RECORDS)  # read to the end; nothing is produced after
    for _ in range(2):
        run, _, _ = _lag(tmp_path, bootstrap, group, "--crit-stale", "1ms", "-o", "json")
        assert run.code == 0, run.stdout + run.stderr
        rec = _record(run)
        assert (rec["lag"], rec["commit_stale_ms"], rec["status"]) == (0, 0, "ok")
        assert "first time" not in run.stderr  # nothing is unknown: no note
        time.sleep(0.5)


def test_serve_scraped_twice_shows_the_staleness_grow(bootstrap: str) -> None:
    topic, group = _setup(bootstrap, committed=4)
    served = serve("-b", bootstrap, "-g", group, "-t", topic, "--staleness", "--min-interval", "1s")
    try:
        name = "kafka_offsets_lag_partition_commit_stale_seconds"
        _, _, first = scrape(served.url)
        assert not parse_prometheus_text(first).get(name)  # first sight: no sample yet
        time.sleep(2.0)
        _, _, second = scrape(served.url)
        lint(second)
        ((labels, value),) = parse_prometheus_text(second)[name]
        assert labels["group"] == group and value >= 1.0
        time.sleep(1.2)
        _, _, third = scrape(served.url)
        assert parse_prometheus_text(third)[name][0][1] >= value + 1.0
    finally:
        served.process.terminate()
        served.process.communicate(timeout=30)


def test_serve_staleness_file_is_shared_with_lag_and_a_corrupt_one_is_one_warning(
    bootstrap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    topic, group = _setup(bootstrap, committed=6)
    first, _, _ = _lag(tmp_path, bootstrap, group, "--staleness", "-o", "json")  # lag writes the file
    assert _record(first)["commit_stale_ms"] is None
    (state,) = tmp_path.glob("kafka-offsets/staleness/*.json")
    state.write_text("{ truncated")  # then something corrupts it
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))  # serve's process inherits it
    served = serve(
        "-b", bootstrap, "-g", group, "-t", topic, "--staleness", "--staleness-file", "--min-interval", "1s"
    )
    name = "kafka_offsets_lag_partition_commit_stale_seconds"
    try:
        _, _, scraped = scrape(served.url)
        assert not parse_prometheus_text(scraped).get(name)  # a fresh start: unknown again
        time.sleep(1.5)
        _, _, scraped = scrape(served.url)
        assert parse_prometheus_text(scraped)[name][0][1] >= 1.0
    finally:
        code, err = served.stop(signal.SIGTERM)
    assert code == 0
    assert err.count("unreadable") == 1 and "starting afresh" in err, err
    # lag reads what serve wrote: the same sight, not a first one
    after, _, _ = _lag(tmp_path, bootstrap, group, "--staleness", "-o", "json")
    assert _record(after)["commit_stale_ms"] >= 1500
    assert "first time" not in after.stderr
