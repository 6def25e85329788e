"""What ``rewind`` says, and in which order (issue 27 item 7).

- the ``--to … (resolved once, now)`` line came before the other options were checked, so a
  usage error came second; it was printed for absolute times too, where "now" means nothing;
- an ``--export`` destination that cannot be written was found after the cluster was asked and
  the plan printed: a plan on stdout with no plan file behind it.

The first two tests need no broker (a closed port: contacting it fails at once, exit 3).
"""

from __future__ import annotations

import uuid
from pathlib import Path

from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.fault_helpers import assert_one_error_line, run_timed

NOWHERE = "127.0.0.1:9"


def test_a_usage_error_comes_alone_before_the_resolved_time(tmp_path: Path) -> None:
    args = ("rewind", "-g", "g", "--to", "30m ago")
    bad_profile = run_timed(*args, "--cluster", "nosuch", KAFKA_OFFSETS_CONFIG=str(tmp_path / "none.toml"))
    bad_property = run_timed(*args, "-b", NOWHERE, "-X", "no.such.property=1")
    bad_regex = run_timed("rewind", "-b", NOWHERE, "--group-regex", "(", "--to", "30m ago")
    empty_group = run_timed("rewind", "-b", NOWHERE, "-g", "", "--to", "30m ago")
    for run in (bad_profile, bad_property, bad_regex, empty_group):
        assert run.code == 2 and run.stdout == "", run
        assert "resolved once" not in run.stderr, run  # the error alone
        assert_one_error_line(run.stderr)


def test_an_unwritable_export_is_refused_before_anything_is_contacted(tmp_path: Path) -> None:
    for path in (tmp_path / "missing" / "plan.csv", tmp_path):
        run = run_timed("rewind", "-b", NOWHERE, "-g", "g", "--to", "30m ago", "--export", str(path))
        assert run.code == 2 and run.stdout == "", run  # not 3: the closed port was never tried
        assert_one_error_line(run.stderr, contains=f"cannot write {path}")
        assert "resolved once" not in run.stderr, run
    seen_dir = tmp_path / "plan.csv.seen"
    seen_dir.mkdir()  # the plan's record beside it cannot be written either
    run = run_timed(
        "rewind", "-b", NOWHERE, "-g", "g", "--to", "30m ago", "--export", str(tmp_path / "plan.csv")
    )
    assert run.code == 2 and run.stdout == "", run
    assert_one_error_line(run.stderr, contains=f"cannot write {seen_dir}: it is a directory")


def test_absolute_times_are_not_resolved_and_a_failed_export_prints_no_plan(bootstrap: str) -> None:
    topic = create_topic(
        bootstrap, f"rwm-{uuid.uuid4().hex[:8]}", partitions=1, config={"retention.ms": "-1"}
    )
    produce(bootstrap, topic, [(0, 1_790_000_000_000 + i * 1000, None, "a") for i in range(5)])
    group = f"rwm-g-{uuid.uuid4().hex[:8]}"
    commit_group_offsets(bootstrap, group, {(topic, 0): 4})
    base = ("rewind", "-b", bootstrap, "-g", group, "-t", topic, "-o", "csv")
    absolute = run_timed(*base, "--to", "2026-09-21T14:13:22Z")
    assert absolute.code == 0 and f"{group},{topic},0," in absolute.stdout, absolute
    assert "resolved once" not in absolute.stderr, absolute
    relative = run_timed(*base, "--to", "30m ago")
    assert relative.code == 0 and "--to '30m ago' = " in relative.stderr, relative
    assert "(resolved once, now)" in relative.stderr, relative
    # /dev/full passes the check (a device is written in place) and fails only when written
    full = run_timed(*base, "--to", "2026-09-21T14:13:22Z", "--export", "/dev/full")
    assert full.code == 2, full
    assert full.stdout == "", full  # the plan was not shown: it was not exported
    assert_one_error_line(full.stderr, contains="cannot write /dev/full: No space left on device")


def test_rewind_says_a_clock_time_still_to_come_is_yesterdays(bootstrap: str) -> None:
    """``rewind --to 23:30`` before 23:30 prints the note ``list`` prints, with the resolved time."""
    from datetime import datetime, timedelta, timezone

    topic = create_topic(bootstrap, f"rwm-{uuid.uuid4().hex[:8]}", partitions=1)
    group = f"rwm-g-{uuid.uuid4().hex[:8]}"
    commit_group_offsets(bootstrap, group, {(topic, 0): 0})
    now = datetime.now(timezone.utc)
    if now.hour >= 22:  # an hour ahead would be tomorrow's clock: one 30 minutes back instead
        clock, ahead = (now - timedelta(minutes=30)).strftime("%H:%M"), False
    else:
        clock, ahead = (now + timedelta(hours=1)).strftime("%H:%M"), True
    run = run_timed("rewind", "-b", bootstrap, "-g", group, "-t", topic, "--to", clock, "--tz", "UTC")
    assert run.code == 0, run
    assert f"--to '{clock}' = " in run.stderr, run.stderr
    note = f"{clock} is still to come today: read as yesterday's"
    assert (note in run.stderr) is ahead, run.stderr
