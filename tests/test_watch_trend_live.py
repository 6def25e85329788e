"""Against a real broker, on a pseudo-terminal: ``lag --watch`` draws each partition's and the group's
lag over the refreshes (LAG-TREND), at 80 and at 200 columns, as the sparkline of the LAG column of
the frames it drew."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from dev import kafka_data as kd
from kafka_offsets_cli.render.sparkline import SPARK_CHARS, sparkline

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
_FRAME = re.compile(r"refresh (\d+) at")


def _read(fd: int, until: float, buf: bytearray, want: bytes) -> None:
    """Read the terminal into ``buf`` until ``want`` is in it, the time ``until``, or its end."""
    while time.monotonic() < until and want not in buf:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk


def _on_pty(args: list[str], cols: int) -> tuple[subprocess.Popen[bytes], int]:
    """``kafka-offsets ARGS`` on a pseudo-terminal of 40 rows and ``cols`` columns (a colour terminal):
    the process and the terminal's side to read."""
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "NO_COLOR")}
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))
    p = subprocess.Popen(
        [sys.executable, "-m", "kafka_offsets_cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.DEVNULL,
        env={**env, "TERM": "xterm-256color"},
    )
    os.close(slave)
    return p, master


def _end(p: subprocess.Popen[bytes], master: int) -> None:
    """The watch killed if it is still running (a failed test), and the terminal closed."""
    if p.poll() is None:
        p.kill()
    os.close(master)


def _frames(text: str) -> dict[int, list[str]]:
    """Each refresh's table (the lines drawn after its status line, up to the note on the rates),
    by refresh number."""
    parts = _FRAME.split(text)
    out = {}
    for n, body in zip(parts[1::2], parts[2::2], strict=True):
        table = body.split("\nIN/S since the last refresh", 1)[0]  # the next frame's cursor moves follow
        out[int(n)] = table.splitlines()[1:]
    return out


def _cells(frame: list[str], first: list[str]) -> list[str] | None:
    return next((ln.split() for ln in frame if ln.split()[: len(first)] == first), None)


def _spark(cells: list[str]) -> str:
    """The one cell drawn in sparkline characters."""
    (drawn,) = [c for c in cells if set(c) <= set(SPARK_CHARS)]
    return drawn


@pytest.mark.parametrize("cols", [80, 200])
def test_lag_watch_draws_the_lag_trend(bootstrap: str, cols: int) -> None:
    suffix = f"{time.monotonic_ns() % 10**6:06d}"
    topic, group = f"wt-{suffix}", f"wg-{suffix}"
    kd.create_topic(bootstrap, topic, 1)
    kd.produce(bootstrap, topic, [(0, None, None, b"x")] * 100)
    kd.commit_group_offsets(bootstrap, group, {(topic, 0): 0})
    p, master = _on_pty(["lag", "-b", bootstrap, "-g", group, "--watch", "1s"], cols)
    buf, deadline = bytearray(), time.monotonic() + 60
    try:
        for n in range(1, 20):  # refresh n is drawn whole once refresh n + 1 starts
            _read(master, deadline, buf, f"refresh {n + 1} at".encode())
            frame = _frames(_ANSI.sub("", buf.decode(errors="replace"))).get(n, [])
            row = _cells(frame, [group, topic, "0"])
            assert row is not None and time.monotonic() < deadline, frame
            if n <= 2:  # records come in after the first refreshes: the lag grows to 400
                kd.produce(bootstrap, topic, [(0, None, None, b"x")] * (100 * n))
            elif n >= 3 and "400" in row:
                break
        p.send_signal(signal.SIGINT)
        p.wait(timeout=30)
    finally:
        _end(p, master)
    assert p.returncode == 0
    frames = _frames(_ANSI.sub("", buf.decode(errors="replace")))
    lags, rows, totals = [], [], []
    for k in range(1, n + 1):  # the frames read whole
        frame = frames[k]
        row, total = _cells(frame, [group, topic, "0"]), _cells(frame, [group, "(all", "topics)"])
        assert row is not None and total is not None, frame
        head = frame[0].split()
        assert "LAG-TREND" in head or "TREND" in head, frame  # shown whole at 80 columns too
        assert max(len(ln) for ln in frame) <= cols, frame
        lags.append(int(row[head.index("LAG")].replace(",", "")))
        rows.append(_spark(row))
        totals.append(_spark(total))
    assert len(lags) >= 3 and lags[0] == 100 and lags[-1] == 400 and lags == sorted(lags), lags
    assert rows == totals == [sparkline(lags[:k]) for k in range(1, len(lags) + 1)], (rows, lags)
    assert rows[-1][0] == SPARK_CHARS[2] and rows[-1][-1] == SPARK_CHARS[-1]  # 100 of 400 ... 400


@pytest.mark.parametrize("cols", [80, 200])
def test_liveness_watch_draws_the_age_trend(bootstrap: str, cols: int) -> None:
    # the topic is written once: its partition's age grows on every refresh, so AGE-TREND climbs to its
    # top character, one character a refresh (at most 16), and the table fits the terminal
    suffix = f"{time.monotonic_ns() % 10**6:06d}"
    topic = f"wl-{suffix}"
    kd.create_topic(bootstrap, topic, 1)
    kd.produce(bootstrap, topic, [(0, None, None, b"x")] * 3)
    p, master = _on_pty(
        ["liveness", "-b", bootstrap, "-t", topic, "--warn", "1h", "--crit", "2h", "--watch", "1s"], cols
    )
    buf, deadline, shown = bytearray(), time.monotonic() + 60, 4
    try:
        _read(master, deadline, buf, f"refresh {shown + 1} at".encode())
        p.send_signal(signal.SIGINT)
        p.wait(timeout=30)
    finally:
        _end(p, master)
    assert p.returncode == 0
    frames = _frames(_ANSI.sub("", buf.decode(errors="replace")))
    trends = []
    for k in range(1, shown + 1):
        frame = frames[k]
        head = next(ln.split() for ln in frame if ln.split()[:1] == ["TOPIC"])
        assert "AGE-TREND" in head or "TREND" in head, frame
        assert max(len(ln) for ln in frame) <= cols, frame
        row = _cells(frame, [topic, "0"])
        assert row is not None, frame
        trends.append(_spark(row))
    assert [len(t) for t in trends] == list(range(1, shown + 1)), trends
    for t in trends[1:]:  # the age only grows: each sparkline climbs, and ends at its top
        levels = [SPARK_CHARS.index(c) for c in t]
        assert levels == sorted(levels) and t[-1] == SPARK_CHARS[-1], trends


@pytest.mark.parametrize("cols", [80, 200])
def test_lag_summary_watch_gives_the_time_to_catch_up(bootstrap: str, cols: int) -> None:
    # a group that commits 100 records after every refresh, with nothing produced: it gains, so
    # CATCH-UP is its lag over its consumption rate (as the same frame's LAG and CONSUMED/S say)
    from kafka_offsets_cli.parse.durations import parse_duration

    suffix = f"{time.monotonic_ns() % 10**6:06d}"
    topic, group = f"wc-{suffix}", f"wcg-{suffix}"
    kd.create_topic(bootstrap, topic, 1)
    kd.produce(bootstrap, topic, [(0, None, None, b"x")] * 2000)
    kd.commit_group_offsets(bootstrap, group, {(topic, 0): 0})
    p, master = _on_pty(["lag", "-b", bootstrap, "-g", group, "--summary", "--watch", "1s"], cols)
    buf, deadline, row, head = bytearray(), time.monotonic() + 90, None, []
    try:
        for n in range(1, 16):
            _read(master, deadline, buf, f"refresh {n + 1} at".encode())
            assert time.monotonic() < deadline, buf[-3000:]
            frame = _frames(_ANSI.sub("", buf.decode(errors="replace"))).get(n, [])
            row = _cells(frame, [group])
            head = next((ln.split() for ln in frame if ln.split()[:1] == ["GROUP"]), [])
            assert row is not None and ("CATCH-UP" in head), frame
            assert max(len(ln) for ln in frame) <= cols, frame
            assert len(row) == len(head), (head, row)  # one word a cell: read by the header
            if re.fullmatch(r"\d+[hms].*", row[head.index("CATCH-UP")]):
                break
            kd.commit_group_offsets(bootstrap, group, {(topic, 0): 100 * n})
        p.send_signal(signal.SIGINT)
        p.wait(timeout=30)
    finally:
        _end(p, master)
    assert p.returncode == 0
    assert row is not None
    cell = dict(zip(head, row, strict=True))
    shown_s = parse_duration(cell["CATCH-UP"]) / 1000
    if "CONSUMED/S" in cell and "IN/S" in cell:  # wide enough for the rates: the rule, from the frame
        lag, gain = int(cell["LAG"].replace(",", "")), float(cell["CONSUMED/S"]) - float(cell["IN/S"])
        assert gain > 0 and abs(shown_s - lag / gain) <= 1 + 0.2 * lag / gain, cell
        assert set(cell["LAG-TREND"]) <= set(SPARK_CHARS), cell
    else:  # 80 columns: the rates and the picture give way to the time to catch up (named as hidden)
        assert 0 < shown_s <= 2000, cell
