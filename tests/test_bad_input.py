# ruff: noqa: E501  (expected messages and file contents are long on purpose)
"""Bad input and hostile surroundings: one clear line and exit 2, a closed pipe, Ctrl-C.

Usage errors need no broker (they are found before any connection). The pipe and Ctrl-C tests use the
shared 3-node cluster: Ctrl-C arrives while the tool waits on a frozen (SIGSTOPped) broker, for `list`
and for `check`, whose Spark session (a JVM child) must be stopped too.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev.kafka_data import produce
from tests.cli_runner import cli
from tests.fault_helpers import (
    REPO_ROOT,
    assert_one_error_line,
    child_env,
    command,
    create_assigned,
    delete_topics,
    descendants,
    heal,
    run_timed,
    running,
    start,
    wait_gone,
)

NOWHERE = "127.0.0.1:9"  # never contacted: every error below is found first


def usage_error(*args: str, contains: str) -> str:
    """Run the CLI in-process: exit 2 (3, UNKNOWN, for ``check``, a monitoring check) and exactly
    one error line containing ``contains``."""
    run = cli(*args)
    assert run.code == (3 if args[0] == "check" else 2), (args, run)
    assert run.stdout == "", run.stdout
    return assert_one_error_line(run.stderr, contains=contains)


# ----------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("args", "contains"),
    [
        (("-X", "foo.bar=1"), "-X foo.bar: unknown client property 'foo.bar'"),
        (("-X", "socket.timeout.ms=abc"), "-X socket.timeout.ms: invalid value 'abc' for client property"),
        (("-X", "no-equals-sign"), "-X 'no-equals-sign': expected key=value"),
        (("-t", "orders("), "invalid topic regex 'orders(': unclosed group"),
        (("-t", "a{99999999999999999999}"), "invalid topic regex"),
        (("--topic-partitions", "(:1"), "invalid topic regex '('"),
        (
            ("-t", "t", "-p", "2147483648"),
            "partition number 2147483648 in --partitions '2147483648' is too large",
        ),
        (("-t", "t", "-p", "-1"), "invalid --partitions item '-1'"),
        (("-t", "t", "-p", "5-2"), "empty --partitions range '5-2'"),
        (("--topic-partitions", "t:99999999999"), "partition number 99999999999 in --topic-partitions"),
        (("--topic-partitions", "t:1:2"), "invalid --topic-partitions rule 't:1:2'"),
        (("-t", "t", "--topic-partitions", "t:1"), "--topic-partitions cannot be used with --topic"),
        (("--spec", "yesterday-ish"), "invalid offset spec 'yesterday-ish'"),
        (("--spec", "-7"), "invalid offset spec '-7'"),
        (("--timeout", "0s"), "--timeout '0s': must be positive"),
        # Kafka's tools read a bare --timeout as ms, a duration here is s: refused, both named
        (("--timeout", "5000"), "--timeout 5000: give a unit, e.g. 5000ms or 5000s"),
        (("--timeout", "forever"), "invalid duration 'forever'"),
        (("--watch", "-1s"), "--watch: invalid duration '-1s'"),
        (("--tz", "Mars/Olympus"), "unknown time zone 'Mars/Olympus'"),
        (("--columns", "topic,nope"), "--columns: unknown column 'nope'"),
    ],
)
def test_bad_list_options_give_one_line_and_exit_2(args: tuple[str, ...], contains: str) -> None:
    usage_error("list", "-b", NOWHERE, *args, contains=contains)


@pytest.mark.parametrize(
    ("servers", "contains"),
    [
        ("localhost", "bootstrap server 'localhost': expected HOST:PORT"),
        ("127.0.0.1:99999", "bootstrap server '127.0.0.1:99999': port must be 1-65535"),
        ("127.0.0.1:0", "port must be 1-65535"),
        ("h:1,,h:2", "bootstrap server '': expected HOST:PORT"),
    ],
)
def test_bad_bootstrap_servers(servers: str, contains: str) -> None:
    usage_error("list", "-b", servers, contains=contains)


# ----------------------------------------------------------------------------- client config files


@pytest.mark.parametrize(
    ("text", "contains"),
    [
        (
            "security.protocol=PLAINTEXT\n# ok\nno.such.property=1\n",
            "{f}:3: unknown client property 'no.such.property'",
        ),
        ("a.valid.looking=1\n", "{f}:1: unknown client property 'a.valid.looking'"),
        ("security.protocol=PLAINTEXT\n=value-without-key\n", "{f}:2: missing property name"),
        ("sasl.jaas.config=not a jaas entry\n", "{f}:1: sasl.jaas.config is not a JAAS login module entry"),
        (
            'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u";\n',
            "{f}:1: sasl.jaas.config needs username and password",
        ),
        (
            "sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;\n",
            "login module com.sun.security.auth.module.Krb5LoginModule is not supported",
        ),
        (
            "ssl.truststore.location=/etc/kafka/truststore.jks\n",
            "{f}:1: ssl.truststore.location must be a PEM file",
        ),
        (
            "security.protocol=SASL_SPAGHETTI\n",
            "{f}:1: invalid value 'SASL_SPAGHETTI' for client property 'security.protocol'",
        ),
    ],
)
def test_bad_command_config_files_name_file_and_line(tmp_path: Path, text: str, contains: str) -> None:
    path = tmp_path / "client.properties"
    path.write_text(text)
    line = usage_error("list", "-b", NOWHERE, "--command-config", str(path), contains=contains.format(f=path))
    assert "password" not in line.lower() or "needs username and password" in line


def test_unreadable_command_config_files(tmp_path: Path) -> None:
    binary = tmp_path / "binary.properties"
    binary.write_bytes(b"\x00\xff\xfe\xfd")
    usage_error("list", "-b", NOWHERE, "--command-config", str(binary), contains=f"{binary}: not a text")
    usage_error("list", "-b", NOWHERE, "--command-config", str(tmp_path), contains=f"{tmp_path}: cannot read")
    missing = tmp_path / "missing.properties"
    usage_error("list", "-b", NOWHERE, "--command-config", str(missing), contains=f"{missing}: no such file")


# ----------------------------------------------------------------------------- check spec files

CLUSTER = "clusters:\n  c: {bootstrap_servers: '127.0.0.1:9'}\n"


@pytest.mark.parametrize(
    ("name", "content", "contains"),
    [
        ("not-yaml.yaml", "clusters: [unclosed\n  x: 1\n", "{f}: (top level): invalid YAML: "),
        ("empty.yaml", "", "{f}: (top level): the file is empty"),
        ("only-comments.yaml", "# nothing here\n", "{f}: (top level): the file is empty"),
        ("list.yaml", "- 1\n- 2\n", "{f}: (top level): expected a mapping"),
        ("types.yaml", CLUSTER + "checks:\n  - {name: a, type: liveness, cluster: c, topics: [t], warn: 5, crit: true}\n",
         "{f}: checks[0].crit: expected a duration such as 30s, 5m or 1h, got true (line 4)"),
        ("bad-regex.yaml", CLUSTER + "checks:\n  - {name: a, type: liveness, cluster: c, topics: ['('], warn: 5m, crit: 9m}\n",
         "{f}: checks[0].topics[0]: invalid regular expression '('"),
        ("inline-secret.yaml", "clusters:\n  c: {bootstrap_servers: 'h:1', sasl_password: hunter2}\nchecks: []\n",
         "{f}: clusters.c.sasl_password: secrets are not accepted inline"),
        ("bad.json", '{"clusters": {', "{f}: (top level): invalid JSON: "),
        ("control-char.yaml", "clusters:\x08\n", "{f}: (top level): invalid YAML: unacceptable character #x0008"),
        ("merge.yaml", "&x <<: *x\n", "invalid merge key"),
        ("recursive.yaml", "a: &a [*a]\n", "a YAML alias refers to the collection that contains it"),
        ("python-tag.yaml", "!!python/object/apply:os.system ['true']\n", "expected a mapping"),  # never run
        ("python-scalar.yaml", "x: !!python/name:os.system\n", "could not determine a constructor"),
    ],
)  # fmt: skip
def test_bad_spec_files_name_file_and_line(tmp_path: Path, name: str, content: str, contains: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    run = cli("check", str(path))
    assert run.code == 3, run  # a monitoring check: a bad spec is UNKNOWN
    assert "Traceback" not in run.stderr
    first = run.stderr.splitlines()[0]
    assert first.startswith(f"kafka-offsets: error: {path}: "), run.stderr
    assert contains.format(f=path) in run.stderr, run.stderr  # the first problem, or one listed below
    assert all(not ln.startswith("kafka-offsets: error:") for ln in run.stderr.splitlines()[1:])


def test_huge_bomb_deep_and_binary_spec_files(tmp_path: Path) -> None:
    cases = {
        "huge.yaml": "clusters: {c: {bootstrap_servers: 'h:1'}}\nchecks:\n"
        + "  - {name: c, type: liveness, cluster: c, topics: [t], warn: 5m, crit: 10m}\n" * 20_000,
        "bomb.yaml": "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10)),
        "deep.yaml": "x: " + "[" * 100_000 + "]" * 100_000 + "\n",
    }
    expect = {
        "huge.yaml": "the file is too large",
        "bomb.yaml": "too many values once YAML aliases are expanded",
        "deep.yaml": "nested too deeply",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content)
        t0 = time.monotonic()
        usage_error("check", str(path), contains=f"{path}: (top level): {expect[name]}")
        assert time.monotonic() - t0 < 20, name
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"clusters: \xff\xfe\n")
    usage_error("check", str(binary), contains=f"{binary}: (top level): not a UTF-8 text file")
    usage_error("check", str(tmp_path), contains=f"{tmp_path}: is a directory")
    usage_error("check", "/dev/zero", contains="/dev/zero: is a character device, expected a spec file")


def test_spec_file_path_that_cannot_be_a_file_name(tmp_path: Path) -> None:
    path = tmp_path / "surrogate.yaml"  # a YAML escape gives a lone surrogate: no file can have that name
    path.write_text('clusters:\n  c: {command_config: "client\\ud800.properties"}\nchecks: []\n')
    run = cli("check", str(path))
    assert run.code == 3 and "Traceback" not in run.stderr, run
    assert (
        f"{path}: clusters.c.command_config: " in run.stderr
        and "not a usable file name (line 2)" in run.stderr
    )


def test_regex_warnings_do_not_reach_stderr() -> None:
    """Python warns "Possible nested set" for '[[' in a regex: noise, not for the user's terminal."""
    run = run_timed("list", "-b", NOWHERE, "-t", "[[a]b]", "--timeout", "1s")
    assert run.code == 3, run
    assert_one_error_line(run.stderr, contains="cannot connect to 127.0.0.1:9: Connection refused")


# ----------------------------------------------------------------------------- a closed pipe


@pytest.fixture(scope="module")
def wide(cluster3: dev_kafka.Cluster) -> Iterator[str]:
    """A 600-partition topic on the shared cluster: `list` with 4 specs prints ~300 KB."""
    topic = f"bad-{uuid.uuid4().hex[:6]}.wide"
    create_assigned(cluster3.bootstrap, topic, [[1 + p % 3] for p in range(600)])
    yield topic
    delete_topics(cluster3.bootstrap, [topic])


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "table", "json"])
def test_output_into_a_closed_pipe_exits_quietly(cluster3: dev_kafka.Cluster, wide: str, fmt: str) -> None:
    args = ["list", "-b", cluster3.bootstrap, "-t", wide, "-o", fmt]
    args += ["--spec", "earliest", "--spec", "latest", "--spec", "max-timestamp", "--spec", "1h ago"]
    script = f"set -o pipefail; {shlex.join(command(*args))} | head -1"
    p = subprocess.run(
        ["bash", "-c", script], cwd=REPO_ROOT, env=child_env(), capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr  # pipefail: kafka-offsets' own status
    assert p.stderr == "", p.stderr
    assert p.stdout.count("\n") == 1


def test_watch_into_a_closed_pipe_exits_quietly(cluster3: dev_kafka.Cluster, wide: str) -> None:
    args = command("list", "-b", cluster3.bootstrap, "-t", wide, "--spec", "earliest", "--spec", "latest")
    script = f"set -o pipefail; {shlex.join([*args, '--watch', '1s'])} | head -3"
    p = subprocess.run(
        ["bash", "-c", script], cwd=REPO_ROOT, env=child_env(), capture_output=True, text=True, timeout=120
    )
    assert (p.returncode, p.stderr, p.stdout.count("\n")) == (0, "", 3)


# ----------------------------------------------------------------------------- Ctrl-C

VICTIM = 2


@pytest.fixture
def frozen_topic(cluster3: dev_kafka.Cluster) -> Iterator[str]:
    """A topic whose partitions 0-3 live on node 2 only (1 more on node 1); healed afterwards."""
    topic = f"bad-{uuid.uuid4().hex[:6]}.frozen"
    heal(cluster3)
    create_assigned(cluster3.bootstrap, topic, [[VICTIM]] * 4 + [[1]])
    produce(cluster3.bootstrap, topic, [(p, None, None, "x") for p in range(5)])
    try:
        yield topic
    finally:
        heal(cluster3)
        delete_topics(cluster3.bootstrap, [topic])


def _interrupted(proc: subprocess.Popen[str], after: float) -> tuple[float, str, str]:
    """SIGINT ``proc`` after ``after`` seconds; (seconds it took to exit, stdout, stderr)."""
    time.sleep(after)
    assert proc.poll() is None, "finished before Ctrl-C"
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        # still running: its threads' stacks (PYTHONFAULTHANDLER, set by start) say where it waits
        proc.send_signal(signal.SIGABRT)
        out, err = proc.communicate(timeout=30)
    return time.monotonic() - t0, out, err


def test_ctrl_c_during_a_long_list_exits_130_without_traceback(
    cluster3: dev_kafka.Cluster, frozen_topic: str
) -> None:
    cluster3.signal(VICTIM, signal.SIGSTOP)
    # every broker frozen that the tool talks to: the metadata request itself hangs
    only = cluster3.node(VICTIM).bootstrap
    for bootstrap in (only, cluster3.bootstrap):  # then: metadata answers, ListOffsets hangs
        proc = start("list", "-b", bootstrap, "-t", frozen_topic, "--timeout", "60s", PYTHONFAULTHANDLER="1")
        took, out, err = _interrupted(proc, 2.0)
        assert proc.returncode == 130, err
        assert err.strip() == "kafka-offsets: interrupted", err
        assert out == ""
        assert took < 5, f"Ctrl-C took {took:.1f}s to end the run"


def _spec(tmp_path: Path, bootstrap: str, topic: str) -> Path:
    path = tmp_path / "checks.yaml"
    path.write_text(
        f'clusters:\n  c: {{bootstrap_servers: "{bootstrap}", timeout: 60s}}\n'
        f"checks:\n  - {{name: alive, type: liveness, cluster: c, topics: [{topic}], warn: 5m, crit: 15m}}\n"
    )
    return path


def _wait_for(proc: subprocess.Popen[str], what: str, timeout: float = 120) -> list[tuple[int, str]]:
    """Wait until a process below ``proc`` has ``what`` in its command line; all descendants then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        tree = descendants(proc.pid)
        if any(what in cmd for _, cmd in tree):
            return tree
        time.sleep(0.1)
    raise AssertionError(f"no {what!r} process below {proc.pid} after {timeout}s")


@pytest.mark.parametrize("when", ["while Spark starts", "while Spark tasks run"])
def test_ctrl_c_during_check_stops_spark(
    cluster3: dev_kafka.Cluster, frozen_topic: str, tmp_path: Path, when: str
) -> None:
    marker = f"spark.kafkaoffsets.testrun={uuid.uuid4().hex}"  # on the JVM's command line
    proc = start(
        "check", str(_spec(tmp_path, cluster3.bootstrap, frozen_topic)), "-o", "json", "--conf", marker
    )
    try:
        _wait_for(proc, "java")  # planning is over, the Spark JVM is being launched
        cluster3.signal(VICTIM, signal.SIGSTOP)  # from now on the tasks' ListOffsets hang
        if when == "while Spark starts":
            delay = 0.5
        else:
            _wait_for(proc, "pyspark.daemon")  # Python workers: tasks are running
            delay = 2.0
        tree = [pid for pid, _ in descendants(proc.pid)]
        took, _, err = _interrupted(proc, delay)
        tree += [pid for pid, _ in descendants(proc.pid)]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "ERROR" not in err, err
    assert err.strip().endswith("kafka-offsets: interrupted"), err
    assert took < 15, f"Ctrl-C took {took:.1f}s"
    left = wait_gone(set(tree) | _with_marker(marker), 20)
    assert not left, f"left running after exit: {[p for p in left if running(p)]}"


def _with_marker(marker: str) -> set[int]:
    """Processes (anywhere: an orphan is re-parented) whose command line carries ``marker``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.add(int(entry.name))
            except OSError:
                continue
    return found
