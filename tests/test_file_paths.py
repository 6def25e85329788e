"""Paths the user names, as a real process sees them (issue 11 items 6 and 9).

- ``--command-config``, the config file (``KAFKA_OFFSETS_CONFIG``) and ``check``'s spec file are
  regular files, read up to a cap: a FIFO blocked the run for ever (whatever ``--timeout`` said)
  and ``/dev/zero`` was read until memory ran out; now each is one line and exit 2, at once;
- an unwritable ``--prometheus-file`` is a usage error (exit 2) found before anything is
  contacted: ``liveness`` waited out ``--timeout`` on the cluster first, ``check`` its whole run;
- a result file that cannot be written once the run is over (here ``/dev/full``: writable,
  but every write fails with ENOSPC) is UNKNOWN (exit 3), the status line still on stdout.

Only the last test needs a broker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fault_helpers import REPO_ROOT, Timed, assert_one_error_line, child_env, run_timed

NOWHERE = "127.0.0.1:9"  # a closed port: a run that contacts it fails at once (exit 3, "cannot connect")
MIB = 1024 * 1024
# A child that reads /dev/zero whole must fail, not take the machine's memory with it.
_LIMITED = (
    "import resource, runpy, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
    "sys.argv[0] = 'kafka-offsets'; runpy.run_module('kafka_offsets_cli', run_name='__main__')"
)


def run_limited(*args: str, timeout: float = 20, **extra: str) -> Timed:
    """The CLI in a child with 1 GiB of address space; a hang fails the test (TimeoutExpired)."""
    t0 = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-c", _LIMITED, *args],
        cwd=REPO_ROOT,
        env=child_env(**extra),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return Timed(p.returncode, p.stdout, p.stderr, time.monotonic() - t0)


def usage_error(run: Timed, contains: str, *, code: int = 2) -> str:
    """Exit 2 (3, UNKNOWN, for a monitoring check), nothing on stdout, one error line holding ``contains``."""
    assert run.code == code, run
    assert run.stdout == "", run
    return assert_one_error_line(run.stderr, contains=contains)


def check_usage_error(run: Timed, contains: str) -> str:
    """``check`` is a monitoring check: a usage error is UNKNOWN (3), not 2 (CRITICAL)."""
    return usage_error(run, contains, code=3)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def spec_text(timeout: str = "30s") -> str:
    return (
        f"defaults: {{timeout: {timeout}}}\n"
        f"clusters:\n  c: {{bootstrap_servers: '{NOWHERE}'}}\n"
        "checks:\n  - {name: alive, type: liveness, cluster: c, topics: [t], warn: 5m, crit: 10m}\n"
    )


# ----------------------------------------------------------------------------- config and spec reads


def test_a_fifo_command_config_fails_at_once(fifo: Path) -> None:
    run = run_limited("list", "-b", NOWHERE, "-t", "t", "--command-config", str(fifo), "--timeout", "30s")
    usage_error(run, f"{fifo}: is a FIFO with no writer, expected a properties file")


def test_a_fifo_config_file_fails_at_once(fifo: Path) -> None:
    run = run_limited("list", "--cluster", "c", "-t", "t", "--timeout", "30s", KAFKA_OFFSETS_CONFIG=str(fifo))
    usage_error(run, f"{fifo}: is a FIFO with no writer, expected a TOML config file")


def test_a_fifo_spec_file_fails_at_once(fifo: Path) -> None:
    check_usage_error(
        run_limited("check", str(fifo)), f"{fifo}: is a FIFO with no writer, expected a spec file"
    )


def test_a_fifo_named_by_a_spec_as_command_config_fails_at_once(tmp_path: Path, fifo: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"clusters:\n  c: {{bootstrap_servers: '{NOWHERE}', command_config: pipe}}\n"
        "checks:\n  - {name: a, type: liveness, cluster: c, topics: [t], warn: 5m, crit: 10m}\n"
    )
    run = run_limited("check", str(spec), "--validate")
    assert run.code == 3, run
    assert f"{fifo}: is a FIFO with no writer, expected a properties file" in run.stderr, run


def test_character_devices_are_not_read(tmp_path: Path) -> None:
    for device in ("/dev/zero", "/dev/full"):  # both read zeros for ever
        run = run_limited("list", "-b", NOWHERE, "-t", "t", "--command-config", device)
        usage_error(run, f"{device}: is a character device, expected a properties file")
        run = run_limited("list", "--cluster", "c", "-t", "t", KAFKA_OFFSETS_CONFIG=device)
        usage_error(run, f"{device}: is a character device, expected a TOML config file")
        check_usage_error(
            run_limited("check", device), f"{device}: is a character device, expected a spec file"
        )


def test_huge_command_config_and_config_files_are_refused(tmp_path: Path) -> None:
    props = tmp_path / "huge.properties"
    props.write_text("# a comment line of a properties file that goes on and on\n" * (MIB // 50))
    run = run_limited("list", "-b", NOWHERE, "-t", "t", "--command-config", str(props), "--timeout", "30s")
    usage_error(run, f"{props}: the file is too large (a properties file may have at most 1024 KiB)")
    config = tmp_path / "huge.toml"
    config.write_text("[clusters.c]\nbootstrap_servers = '127.0.0.1:9'\n" + "# comment\n" * (MIB // 9))
    run = run_limited("list", "--cluster", "c", "-t", "t", KAFKA_OFFSETS_CONFIG=str(config))
    usage_error(run, f"{config}: the file is too large (a config file may have at most 1024 KiB)")


def profile_with_secret_file(tmp_path: Path, secret_file: str) -> Path:
    """A config file whose profile ``c`` takes its SASL password from ``secret_file``."""
    config = tmp_path / "config.toml"
    config.write_text(
        f"[clusters.c]\nbootstrap_servers = '{NOWHERE}'\n[clusters.c.properties]\n"
        f"'security.protocol' = 'SASL_PLAINTEXT'\n'sasl.mechanism' = 'PLAIN'\n'sasl.username' = 'u'\n"
        f"'sasl.password_file' = '{secret_file}'\n"
    )
    return config


def test_a_fifo_secret_file_fails_at_once(tmp_path: Path, fifo: Path) -> None:
    """Issue 27 item 2: a ``_file`` secret on a FIFO with no writer blocked for ever (whatever --timeout)."""
    config = profile_with_secret_file(tmp_path, str(fifo))
    args = ("list", "--cluster", "c", "-t", "t", "--timeout", "5s")
    run = run_limited(*args, KAFKA_OFFSETS_CONFIG=str(config))
    line = usage_error(run, f"{fifo} is a FIFO with no writer, expected a file holding the secret")
    assert "sasl.password_file" in line, run  # names the reference


def test_a_device_secret_file_is_not_read(tmp_path: Path) -> None:
    """/dev/zero as a secret file was read until MemoryError (a traceback, exit 1)."""
    config = profile_with_secret_file(tmp_path, "/dev/zero")
    run = run_limited("list", "--cluster", "c", "-t", "t", KAFKA_OFFSETS_CONFIG=str(config))
    usage_error(run, "/dev/zero is a character device, expected a file holding the secret")
    run = run_limited("config", "show", "--cluster", "c", KAFKA_OFFSETS_CONFIG=str(config))
    usage_error(run, "/dev/zero is a character device, expected a file holding the secret")


def test_a_huge_secret_file_is_refused(tmp_path: Path) -> None:
    huge = tmp_path / "huge-secret"
    huge.write_bytes(b"x" * (MIB + 1))
    config = profile_with_secret_file(tmp_path, str(huge))
    run = run_limited("config", "show", "--cluster", "c", KAFKA_OFFSETS_CONFIG=str(config))
    usage_error(run, f"{huge} is too large (a secret file may have at most 1024 KiB)")


def test_a_secret_from_process_substitution_is_read(tmp_path: Path) -> None:
    """``<(vault read ...)``: a pipe that is written (here a second late) is still read, and masked."""
    config = profile_with_secret_file(tmp_path, "/dev/fd/3")
    script = (
        'exec 3< <(sleep 1; printf "s3cret-from-pipe\\n"); '
        f'exec {sys.executable} -c "$LIMITED" config show --cluster c -o json'
    )
    p = subprocess.run(
        ["bash", "-c", script],
        cwd=REPO_ROOT,
        env=child_env(KAFKA_OFFSETS_CONFIG=str(config), LIMITED=_LIMITED),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert p.returncode == 0, p
    assert "s3cret" not in p.stdout + p.stderr, p  # read, never printed
    password = json.loads(p.stdout)["properties"]["sasl.password"]
    assert password["value"] == "***", p
    assert password["source"].endswith("sasl.password_file (/dev/fd/3)"), p


# ----------------------------------------------------------------------------- nesting


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_a_deeply_nested_config_file_is_one_line(tmp_path: Path) -> None:
    """Issue 27 item 3: 500 nested arrays in config.toml were a 3,000-line RecursionError, exit 1."""
    config = tmp_path / "config.toml"
    for depth in (500, 100_000):
        config.write_text(f"[clusters.c]\nbootstrap_servers = '{NOWHERE}'\nx = {nested(depth)}\n")
        expect = f"{config}: invalid TOML: nested too deeply"
        usage_error(run_limited("config", "list", KAFKA_OFFSETS_CONFIG=str(config)), expect)
        usage_error(
            run_limited("list", "--cluster", "c", "-t", "t", KAFKA_OFFSETS_CONFIG=str(config)), expect
        )


def test_a_deeply_nested_lag_file_is_one_line(tmp_path: Path) -> None:
    """``rewind --from-lag-file``: json's decoder recursed out of the stack (a traceback, exit 1)."""
    for name, text in (("lag.json", nested(100_000)), ("lag.jsonl", '{"a": 1}\n' + nested(100_000))):
        saved = tmp_path / name
        saved.write_text(text)
        run = run_limited("rewind", "-b", NOWHERE, "-g", "g", "--from-lag-file", str(saved))
        usage_error(run, f"{saved}: not a lag -o json or jsonl file (nested too deeply)")


def test_deeply_nested_spec_files_are_problems(tmp_path: Path) -> None:
    """A guard (these already held): YAML and JSON spec files of any depth are a spec problem."""
    for name, text in (
        ("deep.yaml", f"clusters: {nested(500)}\n"),
        ("deep.yaml", f"clusters: {nested(100_000)}\n"),
        ("deep.json", f'{{"clusters": {nested(100_000)}}}\n'),
    ):
        spec = tmp_path / name
        spec.write_text(text)
        check_usage_error(
            run_limited("check", str(spec), "--validate"), f"{spec}: (top level): nested too deeply"
        )


# ----------------------------------------------------------------------------- --prometheus-file


@pytest.mark.parametrize("where", ["missing", "directory"])
def test_liveness_refuses_an_unwritable_prometheus_file_before_connecting(tmp_path: Path, where: str) -> None:
    path = tmp_path / "missing" / "x.prom" if where == "missing" else tmp_path
    expect = f"directory {path.parent} does not exist" if where == "missing" else "it is a directory"
    run = run_timed(
        "liveness", "-b", NOWHERE, "-t", "t", "--timeout", "30s", "--prometheus-file", str(path), timeout=60
    )
    usage_error(run, f"cannot write {path}: {expect}", code=3)  # UNKNOWN: issue 27 item 6
    assert run.seconds < 10, run  # the cluster was not waited for: nothing was contacted


def test_check_refuses_an_unwritable_prometheus_file_before_planning(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(spec_text("30s"))
    path = tmp_path / "missing" / "x.prom"
    run = run_timed("check", str(spec), "-o", "nagios", "--prometheus-file", str(path), timeout=60)
    message = f"cannot write {path}: directory {path.parent} does not exist"
    assert run.code == 3 and run.stdout == f"KAFKA CHECK UNKNOWN - {message}\n", run  # issue 27 item 6
    assert_one_error_line(run.stderr, contains=message)
    assert run.seconds < 5, run  # neither the cluster (30 s) nor Spark was started


def test_a_prometheus_file_linked_to_stdout_is_written_there(tmp_path: Path) -> None:
    """Issue 27 item 7: ``--prometheus-file`` through a symlink to /proc/self/fd/1 failed with ENOENT."""
    link = tmp_path / "stdout.prom"
    link.symlink_to("/proc/self/fd/1")
    args = ("-b", NOWHERE, "-t", "t", "--timeout", "2s", "-o", "nagios", "--prometheus-file", str(link))
    run = run_timed("liveness", *args)
    assert run.code == 3, run  # the cluster's failure, and only that
    assert run.stdout.startswith("KAFKA LIVENESS UNKNOWN - cannot connect to"), run
    assert f'kafka_offsets_liveness_up{{cluster="{NOWHERE}"}} 0' in run.stdout.splitlines(), run
    assert_one_error_line(run.stderr, contains="cannot connect to")  # no "cannot write"
    assert link.is_symlink()


def test_liveness_that_cannot_write_its_down_file_is_still_unknown() -> None:
    args = ("-b", NOWHERE, "-t", "t", "--timeout", "2s", "-o", "nagios", "--prometheus-file", "/dev/full")
    run = run_timed("liveness", *args)
    assert run.code == 3, run  # the cluster's failure, not a usage error
    assert run.stdout.startswith("KAFKA LIVENESS UNKNOWN"), run
    line = assert_one_error_line(run.stderr, contains="cannot connect to")  # the run's failure and the file's
    assert line.endswith("(and cannot write /dev/full: No space left on device)"), run


def test_check_that_cannot_write_its_result_is_unknown_with_the_status_shown(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(spec_text("2s"))  # nothing reachable: a report without Spark, written after the run
    run = run_timed("check", str(spec), "-o", "nagios", "--prometheus-file", "/dev/full", timeout=60)
    assert run.code == 3, run
    assert run.stdout.startswith("KAFKA CHECK UNKNOWN - 1 check(s)"), run  # the status line is printed
    assert_one_error_line(run.stderr, contains="error: cannot write /dev/full: No space left on device")


def test_a_result_that_cannot_be_written_after_the_run_is_unknown(bootstrap: str, topic_name: str) -> None:
    from dev.kafka_data import create_topic, produce

    create_topic(bootstrap, topic_name)
    produce(bootstrap, topic_name, [(0, int(time.time() * 1000), None, "now")])
    args = ("liveness", "-b", bootstrap, "-t", topic_name, "-o", "nagios")
    ok = run_timed(*args)
    assert ok.code == 0 and ok.stdout.startswith("KAFKA LIVENESS OK"), ok
    run = run_timed(*args, "--prometheus-file", "/dev/full")
    assert run.code == 3, run  # UNKNOWN: the status could not be published, though it was measured
    assert run.stdout.startswith("KAFKA LIVENESS OK"), run  # the status line is still printed
    assert_one_error_line(run.stderr, contains="cannot write /dev/full: No space left on device")
