"""Against a real broker, on a real pseudo-terminal at 80 and 200 columns: every table fits the
terminal (render/fit.py): no line is wider, no name or number is cut (``…``) or wrapped; ``-o wide``
keeps every column; ``--columns`` chooses the table's columns."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import time

import pytest

from dev import kafka_data as kd
from tests.test_terminal_live import _read_until

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def _env() -> dict[str, str]:
    drop = ("KAFKA_BOOTSTRAP_SERVERS", "NO_COLOR", "COLUMNS", "LINES")
    return {**{k: v for k, v in os.environ.items() if k not in drop}, "TERM": "xterm-256color"}


def run_tty(args: list[str], cols: int) -> tuple[int, list[str]]:
    """Run ``kafka-offsets ARGS`` with stdout on a ``cols``-wide pseudo-terminal: (exit code, the
    lines it drew, styles stripped). stderr (progress, notes) goes to a file."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, cols, 0, 0))
    p = subprocess.Popen(
        [sys.executable, "-m", "kafka_offsets_cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.DEVNULL,
        env=_env(),
    )
    os.close(slave)
    try:
        out = _read_until(master, time.monotonic() + 120, None)
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    text = _ANSI.sub("", out.decode())
    # lines as drawn, with rich's padding: a line wider than the terminal would wrap there
    return p.returncode, [ln for ln in text.replace("\r\n", "\n").split("\n") if ln.strip()]


@pytest.fixture(scope="module")
def data(bootstrap: str) -> tuple[str, str, str]:
    """A topic with a long name (3 partitions, records an hour ago and now) and a group behind on it."""
    suffix = f"{time.monotonic_ns() % 10**6:06d}"
    topic = f"shipping-events-{suffix}"  # 22 and 20 characters: side by side, they fit 80 columns
    group = f"shipping-group-{suffix}"
    kd.create_topic(bootstrap, topic, 3)
    hour_ago = int(time.time() * 1000) - 3_600_000
    for p in range(3):
        kd.produce(bootstrap, topic, [(p, hour_ago + i, None, b"x") for i in range(1200)])
        kd.produce(bootstrap, topic, [(p, None, None, b"x")] * (50 * (p + 1)))
    kd.commit_group_offsets(bootstrap, group, {(topic, p): 1000 for p in range(3)})
    return bootstrap, topic, group


def _fits(lines: list[str], cols: int, names: list[str]) -> None:
    assert lines, "nothing drawn"
    assert max(len(ln) for ln in lines) <= cols, "\n".join(lines)
    assert not any("…" in ln for ln in lines), "\n".join(lines)
    for name in names:  # every row names it whole, on one line: nothing wrapped
        assert any(name in ln for ln in lines), (name, lines)
        assert not any(ln.strip() and name.startswith(ln.split()[0]) and name not in ln for ln in lines), (
            lines
        )


def _rows(lines: list[str], name: str) -> list[list[str]]:
    return [ln.split() for ln in lines if name in ln.split()]


@pytest.mark.parametrize("cols", [80, 200])
def test_list_with_four_specs_fits(data: tuple[str, str, str], cols: int) -> None:
    bootstrap, topic, _group = data
    specs = ["-s", "earliest", "-s", "latest", "-s", "max-timestamp", "-s", "30m ago"]
    rc, lines = run_tty(["list", "-b", bootstrap, "-t", topic, *specs], cols)
    assert rc == 0, lines
    _fits(lines, cols, [topic])
    rows = _rows(lines, topic)
    assert [r[:4] for r in rows] == [[topic, str(p), "0", f"{1200 + 50 * (p + 1):,}"] for p in range(3)]
    assert ("hidden at 80 columns" in " ".join(lines)) == (cols == 80)


@pytest.mark.parametrize("cols", [80, 200])
def test_lag_with_time_lag_fits(data: tuple[str, str, str], cols: int) -> None:
    bootstrap, topic, group = data
    rc, lines = run_tty(["lag", "-b", bootstrap, "-g", group, "--time-lag"], cols)
    assert rc == 0, lines
    _fits(lines, cols, [topic, group])
    rows = [r for r in _rows(lines, topic) if r[0] == group]
    assert len(rows) == 3
    for p, r in enumerate(rows):
        lag = 200 + 50 * (p + 1)
        assert r[2] == str(p) and str(lag) in r, r  # partition and lag whole
    assert "LAG" in lines[0].split() and "TIME-LAG" in lines[0].split()


@pytest.mark.parametrize("cols", [80, 200])
def test_liveness_fits(data: tuple[str, str, str], cols: int) -> None:
    bootstrap, topic, _group = data
    _rc, lines = run_tty(["liveness", "-b", bootstrap, "-t", topic], cols)
    _fits(lines, cols, [topic])
    rows = _rows(lines, topic)
    assert [r[1] for r in rows[:3]] == ["0", "1", "2"]
    # the newest record's time, whole, in one of its forms (ISO-8601, MM-DD HH:MM:SS, HH:MM:SS)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT[0-9:.]+Z|\d\d-\d\d|\d\d:\d\d:\d\d", r[3]) for r in rows[:3]), (
        rows
    )


@pytest.mark.parametrize("cols", [80, 200])
def test_rewind_dry_run_fits(data: tuple[str, str, str], cols: int) -> None:
    bootstrap, topic, group = data
    rc, lines = run_tty(["rewind", "-b", bootstrap, "-g", group, "--to", "earliest"], cols)
    assert rc == 0, lines
    _fits(lines, cols, [topic, group])
    rows = [r for r in _rows(lines, topic) if r[0] == group]
    assert [r[2:5] for r in rows] == [[str(p), "1,000", "0"] for p in range(3)]
    assert all("re-reads" in r and "1000" in r[5:] for r in rows), rows


def test_wide_keeps_every_column_and_columns_chooses_them(data: tuple[str, str, str]) -> None:
    bootstrap, _topic, group = data
    _rc, lines = run_tty(["lag", "-b", bootstrap, "-g", group, "-o", "wide"], 80)
    head = " ".join(lines)
    for col in ("CURRENT-OFFSET", "LOG-START-OFFSET", "LOG-END-OFFSET", "STATE"):
        assert col in head
    assert "hidden" not in head and "…" not in head
    rc, lines = run_tty(["lag", "-b", bootstrap, "-g", group, "--columns", "partition,lag,group"], 80)
    assert rc == 0, lines
    assert lines[0].split() == ["PARTITION", "LAG", "GROUP"]
    assert [ln.split()[:2] for ln in lines[1:4]] == [["0", "250"], ["1", "300"], ["2", "350"]]


def test_at_80_columns_what_the_flags_asked_for_is_shown(data: tuple[str, str, str]) -> None:
    """``--members`` keeps its three columns, every ``-s`` its offsets (the tiered specs too, in short
    forms); what makes room is the offsets nobody asked for and the times, named in the caption."""
    bootstrap, topic, group = data
    rc, lines = run_tty(["lag", "-b", bootstrap, "-g", group, "--members"], 80)
    assert rc == 0, lines
    assert max(len(ln) for ln in lines) <= 80, "\n".join(lines)
    head = lines[0].split()
    # the consumer first: long group and topic names leave room for it, the offsets made way
    assert "CONSUMER-ID" in head or "CONSUMER" in head, lines
    assert not {"CURRENT-OFFSET", "CURRENT", "LOG-END-OFFSET", "LOG-END"} & set(head), lines
    assert "CURRENT-OFFSET" in " ".join(lines), lines  # named in the caption
    rc, wide = run_tty(["lag", "-b", bootstrap, "-g", group, "--members"], 200)
    assert {"CONSUMER-ID", "HOST", "CLIENT-ID"} <= set(wide[0].split()), wide
    # the five specs of a tiered topic: each value has a few digits, only the names are long
    specs = ["latest", "max-timestamp", "earliest-local", "latest-tiered", "earliest-pending-upload"]
    rc, lines = run_tty(["list", "-b", bootstrap, "-t", topic, *(a for s in specs for a in ("-s", s))], 80)
    assert rc == 0, lines
    assert max(len(ln) for ln in lines) <= 80, "\n".join(lines)
    head = lines[0].split()
    assert len([h for h in head if h not in ("TOPIC", "PARTITION", "PART", "TIME")]) == len(specs), lines
    assert "PENDING" in head or "EARLIEST-PENDING-UPLOAD" in head, lines
    rows = _rows(lines, topic)
    assert [r[:3] for r in rows] == [[topic, str(p), f"{1200 + 50 * (p + 1):,}"] for p in range(3)], rows
