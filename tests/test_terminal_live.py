"""Against a real broker: live completion of topics and groups, cluster profiles, `list --watch`, and
terminal-only polish (digit grouping, colour, NO_COLOR) on a pseudo-terminal; without one: the
spinner while a connection is refused."""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import pty
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from dev import kafka_data as kd


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "NO_COLOR")}
    env.update(extra)
    return env


def complete_bash(words: str, cword: int, **env: str) -> list[str]:
    full = _env(_KAFKA_OFFSETS_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword), **env)
    p = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli"], capture_output=True, text=True, env=full, timeout=60
    )
    assert p.stderr == ""
    return p.stdout.split()


def test_topics_and_groups_complete_live(bootstrap: str, topic_name: str) -> None:
    kd.create_topic(bootstrap, topic_name, 2)
    group = f"g-{topic_name}"
    kd.produce(bootstrap, topic_name, [(0, None, None, b"x")])
    kd.commit_group_offsets(bootstrap, group, {(topic_name, 0): 1})
    prefix = topic_name[:-3]
    assert complete_bash(f"kafka-offsets list -b {bootstrap} -t {prefix}", 5) == [topic_name]
    words = f"kafka-offsets list --bootstrap-server={bootstrap} --topic-partitions x:1,{prefix}"
    got = complete_bash(words, 4)
    assert got == [f"x:1,{topic_name}"]
    assert complete_bash(f"kafka-offsets lag -b {bootstrap} --group g-{prefix}", 5) == [group]
    # internal topics only when asked for
    everything = complete_bash(f"kafka-offsets list -b {bootstrap} -t ", 5)
    assert topic_name in everything and not any(t.startswith("_") for t in everything)
    assert "__consumer_offsets" in complete_bash(f"kafka-offsets list -b {bootstrap} -t __", 5)


def test_completion_from_environment_and_profiles(bootstrap: str, topic_name: str, tmp_path: Path) -> None:
    kd.create_topic(bootstrap, topic_name, 1)
    prefix = topic_name[:-3]
    got = complete_bash(f"kafka-offsets list -t {prefix}", 3, KAFKA_BOOTSTRAP_SERVERS=bootstrap)
    assert got == [topic_name]
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[clusters.dev]\nbootstrap_servers = "{bootstrap}"\n')
    words = f"kafka-offsets list --cluster dev -t {prefix}"
    assert complete_bash(words, 5, KAFKA_OFFSETS_CONFIG=str(cfg)) == [topic_name]
    # a broken profile completes nothing, silently
    cfg.write_text('[clusters.dev]\nbootstrap_servers = "127.0.0.1:1"\n')
    assert complete_bash(words, 5, KAFKA_OFFSETS_CONFIG=str(cfg)) == []


def test_list_uses_a_cluster_profile(bootstrap: str, topic_name: str, tmp_path: Path) -> None:
    kd.create_topic(bootstrap, topic_name, 1)
    kd.produce(bootstrap, topic_name, [(0, None, None, b"x")] * 3)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[clusters.dev]\nbootstrap_servers = "{bootstrap}"\n')
    env = _env(KAFKA_OFFSETS_CONFIG=str(cfg), KAFKA_OFFSETS_CLUSTER="dev")
    p = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", "list", "-t", topic_name, "-o", "plain"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert (p.returncode, p.stdout) == (0, f"{topic_name}:0:3\n"), p.stderr


def _read_until(fd: int, deadline: float, done: object) -> bytes:
    buf = b""
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            if callable(done) and done(buf):
                break
    return buf


def test_watch_jsonl_blocks_rates_and_ctrl_c(bootstrap: str, topic_name: str) -> None:
    kd.create_topic(bootstrap, topic_name, 1)
    kd.produce(bootstrap, topic_name, [(0, None, None, b"x")] * 10)
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kafka_offsets_cli",
            "list",
            "-b",
            bootstrap,
            "-t",
            topic_name,
            "--watch",
            "1s",
            "-o",
            "jsonl",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    assert p.stdout is not None
    try:
        records = [json.loads(p.stdout.readline())]
        assert records[0]["offset"] == 10 and records[0]["in_per_s"] is None
        kd.produce(bootstrap, topic_name, [(0, None, None, b"x")] * 500)
        deadline = time.monotonic() + 60
        while records[-1]["offset"] < 510 and time.monotonic() < deadline:
            records.append(json.loads(p.stdout.readline()))
        assert records[-1]["offset"] == 510
        for prev, cur in itertools.pairwise(records):
            # a rate exactly when the offset moved between two refreshes
            assert (cur["in_per_s"] > 0) == (cur["offset"] > prev["offset"]), records
            assert cur["in_per_s"] >= 0
    finally:
        p.send_signal(signal.SIGINT)
        _out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err  # Ctrl-C is the normal end of a watch


def _pty_run(args: list[str], env: dict[str, str], *, until: bytes | None = None, expect: int = 0) -> bytes:
    """Run with stdout and stderr on a 200x50 pseudo-terminal; SIGINT once ``until`` shows up."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    try:
        deadline = time.monotonic() + 90
        out = _read_until(master, deadline, (lambda b: until in b) if until else None)
        if until is not None:
            p.send_signal(signal.SIGINT)
            out += _read_until(master, time.monotonic() + 30, None)
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    assert p.returncode == expect, out.decode(errors="replace")
    return out


_COLOUR = re.compile(rb"\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25];[0-9;]+)m")


def test_terminal_table_groups_digits_and_honours_no_color(bootstrap: str, topic_name: str) -> None:
    kd.create_topic(bootstrap, topic_name, 1)
    kd.produce(bootstrap, topic_name, [(0, None, None, b"x")] * 1234)
    args = [sys.executable, "-m", "kafka_offsets_cli", "list", "-b", bootstrap, "-t", topic_name]
    out = _pty_run(args, _env(TERM="xterm-256color"))
    assert b"1,234" in out
    assert re.search(rb"\x1b\[[0-9;]*m", out), "a terminal gets styles"
    plain = subprocess.run([*args, "-o", "table"], capture_output=True, env=_env(), timeout=120)
    assert b"1234" in plain.stdout and b"1,234" not in plain.stdout and b"\x1b[" not in plain.stdout

    # an error cell is red on a terminal, but not with NO_COLOR
    bad = [*args, "-t", f"{topic_name}-missing"]
    p = _pty_run(bad, _env(TERM="xterm-256color"), expect=1)
    assert _COLOUR.search(p)
    p = _pty_run(bad, _env(TERM="xterm-256color", NO_COLOR="1"), expect=1)
    assert b"UNKNOWN_TOPIC_OR_PARTITION" in p and not _COLOUR.search(p)


def test_watch_on_a_terminal_redraws_a_live_table_with_rates(bootstrap: str, topic_name: str) -> None:
    kd.create_topic(bootstrap, topic_name, 1)
    kd.produce(bootstrap, topic_name, [(0, None, None, b"x")] * 2000)
    args = [
        sys.executable,
        "-m",
        "kafka_offsets_cli",
        "list",
        "-b",
        bootstrap,
        "-t",
        topic_name,
        "--watch",
        "1s",
    ]
    out = _pty_run(args, _env(TERM="xterm-256color"), until=b"refresh 3 ")
    text = out.decode(errors="replace")
    assert "RECORDS/S" in text and "2,000" in text
    assert "Ctrl-C to stop" in text
    assert "refresh 1 " in text and "refresh 2 " in text
    assert re.search(r"\b0\.0\b", text)  # nothing produced between refreshes


def _closed_port() -> int:
    """A local port nothing listens on (bound, then released: connecting to it is refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_spinner_says_the_connection_it_waits_on_and_its_seconds_and_nothing_off_a_terminal() -> None:
    """No broker: ``lag`` against a refused port connects for ~2 s (the connect grace) and fails."""
    port = _closed_port()
    args = [sys.executable, "-m", "kafka_offsets_cli", "lag", "-b", f"127.0.0.1:{port}", "--timeout", "4s"]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = _env(TERM="xterm-256color")
    p = subprocess.Popen(
        [*args, "-o", "table"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env
    )
    os.close(slave)
    try:
        err = _read_until(master, time.monotonic() + 60, None).decode(errors="replace")
        out, _ = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    assert p.returncode == 3, err
    assert out == b""  # the spinner is on stderr only
    assert re.search(rf"Connecting to 127\.0\.0\.1:{port} \([1-9] s, --timeout 4 s\)…", err), err
    assert "cannot connect" in err

    # off a terminal (cron, a pipe) stderr has the error only (a shorter wait: nothing is drawn anyway)
    quick = [*args[:-1], "1s", "-o", "table"]
    plain = subprocess.run(quick, capture_output=True, text=True, env=_env(), timeout=60)
    assert plain.returncode == 3 and plain.stdout == ""
    assert plain.stderr.startswith("kafka-offsets: error: cannot connect"), plain.stderr
    assert "Connecting" not in plain.stderr and "\x1b" not in plain.stderr
