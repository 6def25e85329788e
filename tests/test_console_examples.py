"""Every console example of README.md and docs/*.md, run against the demo data (real broker).

An example is a fenced block holding lines that start with ``$ `` (the ```console blocks, and any
other fence showing a prompt): each ``$`` line is a command, the lines up to the next one what it
printed. A block runs whole in one ``bash`` (so ``$ echo $?`` is the status of the command above),
``kafka-offsets`` being this checkout, ``KAFKA_BOOTSTRAP_SERVERS`` a broker of this module's own
with tiered storage seeded as ``make demo`` seeds its broker (``dev.seed``), stdout on an 80-column
pseudo-terminal (as the examples were taken: the tables' short forms) and stderr on a pipe.

What is compared, after the normalisation below: every stdout line, in order, and the stderr lines
the example shows (notes and progress it leaves out are not compared), in the order shown.

Normalisation (values that change from run to run, never the words or the other numbers):

* spaces: trailing ones dropped, runs of them one (column widths follow the widest value);
* times: ISO-8601 date-times, ``MM-DD HH:MM:SS``, clock times, 13-digit epoch milliseconds;
* ages and durations (``4m 25s``, ``13s``, ``2h 00m``) and decimal numbers (nagios perfdata ages);
* the cluster: its bootstrap servers and cluster id (``[localhost:9092, id q1Sh…]``).

Markers, an HTML comment on the line before the fence:

* ``<!-- not-run: REASON -->``: an example that cannot run here (a real cluster's host names, a
  primary and DR pair, a watch that runs until Ctrl-C, data the demo does not have). They are
  counted, and an unmarked example that does not run fails the test.
* ``<!-- clock: Ns after seeding (REASON) -->``: the output depends on the time since the data
  was seeded (ages against thresholds, ``--to '30m ago'``): the demo topics and group are seeded
  afresh and the example runs when ``orders`` is N seconds older than seeding makes it, as it was
  when the example was taken. Its CreateTimes are seeded that much in the past rather than waited
  for (``payments``' LogAppendTimes are the broker's: those ages stay the seeding's, shown as ages).
"""

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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev import seed, tiered
from tests import doc_pages
from tests.availability import unavailable
from tests.test_terminal_live import _read_until

#: how long one example may take (its commands together), and the terminal's width
TIMEOUT_S = 120
COLUMNS = 80

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_MARK = re.compile(r"<!--\s*(not-run|clock):\s*(.*?)\s*-->")
_TIMES = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?"), "<time>"),
    (re.compile(r"\b\d\d-\d\d \d\d:\d\d:\d\d\b"), "<time>"),
    (re.compile(r"\b\d\d:\d\d(:\d\d)?\b"), "<time>"),
    (re.compile(r"\b\d{13}\b"), "<ms>"),
    (re.compile(r"\b\d+(\.\d+)?[dhms]( \d+[hms])*\b"), "<age>"),
    (re.compile(r"\b\d+\.\d+\b"), "<n.n>"),
]
_CLUSTER_ID = re.compile(r"\bid [A-Za-z0-9_-]{22}\b")


@dataclass(frozen=True, kw_only=True)
class Example:
    """One fenced block with ``$`` lines: where it is, its marker, its commands and what they print."""

    page: str
    line: int
    marker: str | None  # "not-run", "clock" or None
    reason: str
    script: list[str]
    shown: list[str]

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def examples() -> list[Example]:
    """Every fenced block with a ``$`` line in README.md and docs/*.md, in page order."""
    out = []
    for page in doc_pages.pages():
        lines = page.read_text(encoding="utf-8").splitlines()
        opened: int | None = None
        for number, line in enumerate(lines, 1):
            if not line.startswith("```"):
                continue
            if opened is None:
                opened = number
                continue
            body = lines[opened : number - 1]
            if any(b.startswith("$ ") for b in body):
                before = lines[opened - 2] if opened >= 2 else ""
                mark = _MARK.match(before)
                out.append(
                    Example(
                        page=page.relative_to(doc_pages.ROOT).as_posix(),
                        line=opened,
                        marker=mark.group(1) if mark else None,
                        reason=mark.group(2) if mark else "",
                        script=[b[2:] for b in body if b.startswith("$ ")],
                        shown=[b for b in body if not b.startswith("$ ")],
                    )
                )
            opened = None
    return out


def normalise(line: str, bootstrap: str = "localhost:9092") -> str:
    """``line`` with the values that change from run to run replaced (see the module's docstring)."""
    line = line.replace(bootstrap, "<bootstrap>").replace("localhost:9092", "<bootstrap>")
    line = _CLUSTER_ID.sub("id <cluster-id>", line)
    for pattern, placeholder in _TIMES:
        line = pattern.sub(placeholder, line)
    # a time spec's heading is its time of day when that is today's, else its age (`>= 1h ago` run
    # just after midnight: CI's ci58 at 00:3x UTC); either form names the same instant
    line = line.replace(">= <age> ago", ">= <time>")
    return " ".join(line.split())


def mismatch(shown: list[str], stdout: list[str], stderr: list[str], bootstrap: str) -> str | None:
    """Why the output does not match the example (None when it does): every stdout line in order,
    each shown line being the next stdout line or a later stderr line."""
    want = [normalise(s) for s in shown if s.strip()]
    out = [normalise(s, bootstrap) for s in stdout if s.strip()]
    err = [normalise(s, bootstrap) for s in stderr if s.strip()]
    o = e = 0
    for i, line in enumerate(want):
        if o < len(out) and out[o] == line:
            o += 1
        elif line in err[e:]:
            e = err.index(line, e) + 1
        else:
            got = out[o] if o < len(out) else "(no more stdout)"
            return f"shown line {i + 1}:\n  shown: {line}\n  got:   {got}\n  stderr: {err}"
    if o < len(out):
        return f"stdout not shown: {out[o:]}"
    return None


def run(example: Example, bootstrap: str, bin_dir: Path, cwd: Path) -> tuple[list[str], list[str], float]:
    """Run the example's commands in one bash: (stdout lines as drawn, stderr lines, seconds)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "COLUMNS", "LINES", "KAFKA_OFFSETS_CLUSTER")
    }
    env.update(
        PATH=f"{bin_dir}:{env['PATH']}",
        PYTHONPATH=str(doc_pages.ROOT),
        KAFKA_BOOTSTRAP_SERVERS=bootstrap,
        NO_COLOR="1",
        TERM="xterm-256color",
    )
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    start = time.monotonic()
    p = subprocess.Popen(
        ["bash", "-c", "\n".join(example.script)],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
    )
    os.close(slave)
    try:
        drawn = _read_until(master, start + TIMEOUT_S, None)
        _, err = p.communicate(timeout=max(1.0, start + TIMEOUT_S - time.monotonic()))
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    text = _ANSI.sub("", drawn.decode(errors="replace")).replace("\r\n", "\n")
    return text.split("\n"), err.decode(errors="replace").split("\n"), time.monotonic() - start


#: how long the demo data's seeding (``tiered.orders`` kept) is given before a clock example runs (it
#: took 3.4-3.9 s on a loaded 2-core machine; a late start shows as "started Ns after seeding")
SEEDING_S = 6.0


def fresh_demo_data(bootstrap: str, after: float) -> float:
    """Seed the demo topics and group again (``tiered.orders`` kept) as if that had been ``after``
    seconds before the seeding's end (``SEEDING_S`` from now): ``orders``' CreateTimes count from
    that instant (wall time), which is returned."""
    at = time.time() + SEEDING_S - after
    seed.reset(bootstrap, keep_tiered=True)
    seed.seed(bootstrap, now_ms=int(at * 1000))
    return at


@pytest.fixture(scope="module")
def demo_broker() -> Iterator[str]:
    """A broker of this module's own, with tiered storage, seeded as ``make demo`` seeds one."""
    name = f"pytest-console-{os.getpid()}"
    try:
        cluster = tiered.up(name, nodes=1, owner_pid=os.getpid())
    except Exception as exc:
        dev_kafka.down(name)
        unavailable(f"Kafka broker with tiered storage: {exc}")
    try:
        seed.seed(cluster.bootstrap)
        yield cluster.bootstrap
    finally:
        dev_kafka.down(name)


def test_the_examples_are_found_and_marked() -> None:
    """The parser sees the pages' examples; every marker says why (a marker without a reason, or an
    unknown one, would make an example silently not run)."""
    found = examples()
    assert len(found) >= 10, [str(e) for e in found]
    assert any(e.page == "README.md" and e.marker is None for e in found)
    for e in found:
        assert e.script, e
        if e.marker:
            assert e.reason, f"{e}: <!-- {e.marker}: --> needs a reason"
        if e.marker == "clock":
            assert re.match(r"\d+s after seeding\b", e.reason), f"{e}: clock marker: 'Ns after seeding (why)'"
    for page in doc_pages.pages():  # a marker is always right before a fence
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if _MARK.match(line):
                assert i + 1 < len(lines) and lines[i + 1].startswith("```"), f"{page.name}:{i + 1}"


def test_the_comparison_ignores_only_what_changes_from_run_to_run() -> None:
    shown = [
        "orders  0  32  11-24 08:44:18  2m 36s  ok",
        "on cluster [localhost:9092, id q1Sh-9_ISia_zwGINzRvyQ]",
    ]
    stdout = ["orders 0 32 11-27 23:01:02 4s ok   "]
    stderr = ["a note the example leaves out", "on cluster [127.0.0.1:5, id kIBdhvAiQ2mZfQ5JsupOfw]"]
    assert mismatch(shown, stdout, stderr, "127.0.0.1:5") is None
    assert mismatch(shown, ["orders 0 33 11-27 23:01:02 4s ok"], stderr, "127.0.0.1:5")  # an offset
    assert mismatch(shown, ["orders 0 32 11-27 23:01:02 4s warning"], stderr, "127.0.0.1:5")  # a state
    assert mismatch(shown, [*stdout, "a line not shown"], stderr, "127.0.0.1:5")
    assert mismatch(shown, stdout, [], "127.0.0.1:5")  # a shown stderr line missing
    # a time spec's heading: today's time of day, or its age across midnight; never another column's
    heading = "TOPIC PART EARLIEST >= 07:08:16 TIME"
    assert normalise("TOPIC PART EARLIEST >= 1h ago TIME") == normalise(heading)
    assert normalise("TOPIC PART EARLIEST 1h ago TIME") != normalise(heading)


# a broker's start, the tiered topic's seeding (which waits at most 180 s) and a seeding per clock example
@pytest.mark.timeout(900)
def test_every_unmarked_example_prints_what_it_shows(demo_broker: str, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "kafka-offsets"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m kafka_offsets_cli "$@"\n')
    shim.chmod(0o755)
    found = examples()
    # (seconds after seeding, example): unmarked ones first, on the data as the fixture seeded it,
    # then each clock example on data seeded afresh for it
    plan: list[tuple[float | None, Example]] = [(None, e) for e in found if e.marker is None]
    plan += [(float(e.reason.split("s", 1)[0]), e) for e in found if e.marker == "clock"]
    ran, failed, timings = [], [], []
    for after, example in plan:
        late = ""
        if after is not None:
            seeded = fresh_demo_data(demo_broker, after)
            time.sleep(max(0.0, seeded + after - time.time()))
            late = f", started {time.time() - seeded:.0f}s after seeding"
        stdout, stderr, took = run(example, demo_broker, bin_dir, tmp_path)
        timings.append(f"{example} {took:.1f}s{late}")
        ran.append(example)
        why = mismatch(example.shown, stdout, stderr, demo_broker)
        if why:
            failed.append(f"{example} ({' ; '.join(example.script)}{late}): {why}")
    not_run = [e for e in found if e.marker == "not-run"]
    print(f"console examples: {len(found)} found, {len(ran)} run, {len(not_run)} marked not-run")
    print("\n".join(timings))
    assert not failed, "\n\n".join(failed)
    assert ran and len(ran) + len(not_run) == len(found)
