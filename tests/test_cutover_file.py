"""DR cutover from a saved ``lag -o json --time-lag`` (``rewind --from-lag-file``) on the real DR pair
(two KRaft clusters and Kafka's MirrorMaker 2, ``dr_pair``): with the primary gone from the
configuration, the file gives the plan ``--from-cluster`` gave when the file was taken, and
consuming on DR after ``--execute`` skips no record the group had not read on the primary."""

from __future__ import annotations

import json
from pathlib import Path

from dev import mirror as dev_mirror
from tests.cli_runner import cli
from tests.test_cutover import PARTITIONS, RECORDS, commit, committed, ends, produce, read_dr, wait_for


def test_dr_cutover_from_a_lag_file(
    dr_pair: tuple[str, str, dev_mirror.Mirror], tmp_path: Path, topic_name: str
) -> None:
    primary, dr, mm2 = dr_pair
    topic = "lagfile-" + topic_name
    group = "g-" + topic
    name = f"{mm2.name}-lagfile"  # a MirrorMaker of its own: the session's may be stopped by now
    mirror = dev_mirror.up(name, primary, dr, topics="lagfile-.*", aliases=("lf", "lfdr"))
    remote = mirror.remote_topic(topic)
    try:
        produce(primary, topic)
        wait_for("the DR copy", lambda: ends(dr, remote) == {p: RECORDS for p in range(PARTITIONS)})
    finally:
        dev_mirror.down(name)  # before the group commits: no synced DR offsets move under the two plans
    position = {0: 150, 1: 152, 2: RECORDS}  # unique times, five per ms, out of order and read to the end
    commit(primary, group, topic, position)
    both = tmp_path / "both.toml"
    both.write_text(
        f'[clusters.primary]\nbootstrap_servers = "{primary}"\n[clusters.dr]\nbootstrap_servers = "{dr}"\n'
    )
    on_both = {"KAFKA_OFFSETS_CONFIG": str(both)}
    saved = tmp_path / "lag.json"
    lag = cli("lag", "--cluster", "primary", "-g", group, "-o", "json", "--time-lag", env=on_both)
    assert lag.code == 0, lag.stderr
    saved.write_text(lag.stdout)
    assert all(r["resume_timestamp"] is not None and r["taken_at_ms"] for r in json.loads(lag.stdout))
    args = ["rewind", "--cluster", "dr", "-g", group, "--remote-topic-prefix", "lf.", "-o", "json"]
    live = cli(*args, "--from-cluster", "primary", env=on_both)
    assert live.code == 0, live.stderr

    dr_only = tmp_path / "dr.toml"  # the primary is gone: only DR is known
    dr_only.write_text(f'[clusters.dr]\nbootstrap_servers = "{dr}"\n')
    on_dr = {"KAFKA_OFFSETS_CONFIG": str(dr_only)}
    from_file = cli(*args, "--from-lag-file", str(saved), env=on_dr)
    assert from_file.code == 0, from_file.stderr
    assert json.loads(from_file.stdout) == json.loads(live.stdout)
    assert "re-reads not known on 3 partition(s)" in from_file.stderr
    assert "was taken at" in from_file.stderr and f"DR offset {json.loads(live.stdout)[0]['target']}" in (
        from_file.stderr
    )

    plain = tmp_path / "plain.json"  # taken without --time-lag: refused, naming the flag
    plain_lag = cli("lag", "--cluster", "primary", "-g", group, "-o", "json", env=on_both)
    plain.write_text(plain_lag.stdout)
    refused = cli(*args, "--from-lag-file", str(plain), env=on_dr)
    assert refused.code == 2 and "--time-lag" in refused.stderr
    other = cli("rewind", "--cluster", "dr", "-g", "nobody", "--from-lag-file", str(saved), env=on_dr)
    assert other.code == 5 and "no rows for group 'nobody'" in other.stderr

    undo = tmp_path / "undo.csv"
    done = cli(*args, "--from-lag-file", str(saved), "--execute", "--undo-file", str(undo), env=on_dr)
    assert done.code == 0, done.stderr
    planned = {r["partition"]: r["target"] for r in json.loads(live.stdout)}
    assert committed(dr, group, remote) == planned
    read = read_dr(dr, group, remote, {p: RECORDS for p in range(PARTITIONS)})
    for p in range(PARTITIONS):
        assert set(range(position[p], RECORDS)) <= set(read[p]), (
            f"partition {p}: an unread record was skipped"
        )
        assert planned[p] <= position[p]
