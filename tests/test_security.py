"""SASL/SCRAM-SHA-512, ACLs and TLS against a real secure broker (dev/secure.py).

One single-node cluster for the module, with a SASL_PLAINTEXT and a SASL_SSL listener, a super user
``admin`` and a restricted user ``reader`` (topics and groups ``public.*`` only). Every run of the tool
is also checked for leaked secrets: no password, private key or JAAS string in stdout or stderr,
``--debug`` (with librdkafka's own ``debug=all`` logs) included.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev import secure
from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.availability import unavailable
from tests.fault_helpers import Timed, assert_one_error_line, run_timed
from tests.fault_helpers import admin as fault_admin

pytestmark = pytest.mark.broker  # every test uses the module's own secure Kafka (``sec``)


@dataclass
class Secure:
    """The module's secure cluster, its topics, and every secret a leak check must look for."""

    info: secure.SecureCluster
    public: str
    secret: str
    dir: Path
    wrong_password: str
    secrets: list[str] = field(default_factory=list)

    def properties(self, name: str, user: str, listener: str, **kw: object) -> Path:
        """A Java client properties file (``sasl.jaas.config`` and all) written for this test."""
        path = self.dir / f"{name}.properties"
        props = self.info.java_properties(user, listener, **kw)  # type: ignore[arg-type]
        path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        return path


@pytest.fixture(scope="module")
def sec(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Secure]:
    dev_kafka.reap_orphans()
    name = f"pytest-sec-{os.getpid()}"
    try:
        # auto-creation on, as on many real clusters: looking a topic up by name must not create it
        auto = {"auto.create.topics.enable": "true"}
        info = secure.up(name, sasl=True, tls=True, heap="512m", owner_pid=os.getpid(), broker_config=auto)
    except Exception as exc:  # no java/openssl, timeout: skip locally, fail under CI=true
        with contextlib.suppress(Exception):
            dev_kafka.down(name, grace=0)
        unavailable(f"secure Kafka cluster could not be started: {exc}")
    try:
        tag = uuid.uuid4().hex[:6]
        s = Secure(
            info,
            f"{secure.RESTRICTED_PREFIX}t{tag}",
            f"secret.t{tag}",
            tmp_path_factory.mktemp("secure"),
            "wrong-" + secrets.token_urlsafe(12),
        )
        create_topic(info.plaintext_bootstrap, s.public, partitions=3)
        create_topic(info.plaintext_bootstrap, s.secret, partitions=2)
        produce(
            info.plaintext_bootstrap, s.public, [(p, None, None, "x") for p in range(3) for _ in range(p + 1)]
        )
        produce(info.plaintext_bootstrap, s.secret, [(p, None, None, "y") for p in range(2)])
        s.secrets = [*info.users.values(), s.wrong_password]
        yield s
    finally:
        dev_kafka.down(name)


def no_leak(sec: Secure, run: Timed, *extra: str) -> Timed:
    """Fail if any password, private key, or JAAS login string appears in the run's output."""
    streams = run.stdout + run.stderr
    for secret in [*sec.secrets, *extra]:
        assert secret not in streams, "a secret leaked into the output"
    for marker in ("ScramLoginModule", "sasl.jaas.config=", 'password="', "PRIVATE KEY"):
        assert marker not in streams, f"{marker!r} leaked into the output"
    return run


def kafka_offsets(sec: Secure, *args: str, extra_secrets: tuple[str, ...] = ()) -> Timed:
    """Run the CLI (a child process) and check every stream for leaked secrets."""
    return no_leak(sec, run_timed(*args), *extra_secrets)


def rows(run: Timed) -> dict[tuple[str, int | None], dict[str, object]]:
    return {(r["topic"], r["partition"]): r for r in map(json.loads, run.stdout.splitlines())}


# ----------------------------------------------------------------------------- ACLs


def test_restricted_user_gets_authorization_errors_while_others_answer(sec: Secure) -> None:
    reader = str(sec.info.properties_file(secure.RESTRICTED_USER, "sasl"))
    run = kafka_offsets(
        sec, "list", "--command-config", reader, "-t", sec.public, "-t", sec.secret, "-o", "jsonl"
    )
    got = rows(run)
    assert run.code == 1, run
    assert {k: r["offset"] for k, r in got.items() if r["error"] is None} == {
        (sec.public, p): p + 1 for p in range(3)
    }
    # asked for by name, a topic it may not DESCRIBE is an authorization error, not "unknown topic"
    assert got[(sec.secret, None)]["error"] == "TOPIC_AUTHORIZATION_FAILED"
    assert got[(sec.secret, None)]["offset"] is None
    assert_one_error_line(run.stderr, contains="1 x TOPIC_AUTHORIZATION_FAILED")

    # partitions named one by one: the same answer, the others still answer
    run = kafka_offsets(
        sec,
        "list",
        "--command-config",
        reader,
        "--topic-partitions",
        f"{sec.secret}:0-2,{sec.public}:1",
        "-o",
        "jsonl",
    )
    got = rows(run)
    assert run.code == 1 and got[(sec.public, 1)]["offset"] == 2
    assert got[(sec.secret, None)]["error"] == "TOPIC_AUTHORIZATION_FAILED"

    # a name beside a regex (the whole listing, then the name asked for by name): the same answer
    run = kafka_offsets(
        sec, "list", "--command-config", reader, "-t", sec.secret, "-t", r"public\..*", "-o", "jsonl"
    )
    got = rows(run)
    assert run.code == 1 and got[(sec.public, 2)]["offset"] == 3
    assert got[(sec.secret, None)]["error"] == "TOPIC_AUTHORIZATION_FAILED"

    # a regex only matches what the user may see; the super user sees both topics
    run = kafka_offsets(sec, "list", "--command-config", reader, "-t", r"(public|secret)\..*", "-o", "jsonl")
    assert run.code == 0 and {t for t, _ in rows(run)} == {sec.public}
    admin = str(sec.info.properties_file(secure.ADMIN_USER, "sasl"))
    run = kafka_offsets(
        sec, "list", "--command-config", admin, "-t", sec.public, "-t", sec.secret, "-o", "jsonl"
    )
    assert run.code == 0 and rows(run)[(sec.secret, 1)]["offset"] == 1


def test_looking_up_a_missing_topic_never_creates_it(sec: Secure) -> None:
    """The broker auto-creates topics; the tool asks for a missing topic by name (to tell "not
    authorized" from "unknown") with auto-creation off, so the topic stays missing."""
    admin = str(sec.info.properties_file(secure.ADMIN_USER, "sasl"))
    missing = f"{secure.RESTRICTED_PREFIX}missing{uuid.uuid4().hex[:6]}"
    for _ in range(2):
        run = kafka_offsets(
            sec, "list", "--command-config", admin, "-t", missing, "-t", sec.public, "-o", "jsonl"
        )
        assert run.code == 1, run
        assert rows(run)[(missing, None)]["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
    md = fault_admin(sec.info.plaintext_bootstrap).list_topics(timeout=10)
    assert missing not in md.topics


# ----------------------------------------------------------------------------- authentication


def test_wrong_password_is_an_authentication_error_not_a_timeout(sec: Secure) -> None:
    wrong = str(sec.properties("wrong", secure.RESTRICTED_USER, "sasl", password=sec.wrong_password))
    group = f"{secure.RESTRICTED_PREFIX}g"
    commands = {
        "list": ("list", "-t", sec.public),
        "lag": ("lag", "-g", group),
        "rewind": ("rewind", "-g", group, "--to", "earliest"),
        "liveness": ("liveness", "-t", sec.public, "-w", "1h", "-c", "2h"),
    }
    for name, args in commands.items():
        run = kafka_offsets(sec, *args, "--command-config", wrong, "--timeout", "60s")
        assert run.code == (3 if name == "liveness" else 4), (name, run)  # liveness: UNKNOWN
        line = assert_one_error_line(run.stderr, contains="authentication failed with")
        assert "SASL authentication error" in line and "invalid credentials" in line, line
        assert run.seconds < 20, f"{name} took {run.seconds:.1f}s: waited for the timeout"


# ----------------------------------------------------------------------------- TLS


def test_tls_with_the_right_ca_works_and_a_wrong_ca_fails_clearly(sec: Secure) -> None:
    admin_tls = str(sec.info.properties_file(secure.ADMIN_USER, "tls"))
    run = kafka_offsets(sec, "list", "--command-config", admin_tls, "-t", sec.secret, "-o", "jsonl")
    assert run.code == 0 and rows(run)[(sec.secret, 0)]["offset"] == 1, run

    other_ca, _ = secure.make_ca(sec.dir / "other-ca", "not the broker's CA")
    wrong_ca = str(sec.properties("wrong-ca", secure.ADMIN_USER, "tls", ca_file=other_ca))
    for how in (
        ("--command-config", wrong_ca),
        ("--command-config", admin_tls, "-X", f"ssl.ca.location={other_ca}"),
    ):
        run = kafka_offsets(sec, "list", *how, "-t", sec.secret, "--timeout", "60s")
        assert run.code == 4, run
        line = assert_one_error_line(
            run.stderr, contains=f"TLS handshake failed with {sec.info.tls_bootstrap}"
        )
        assert "certificate verify failed" in line and "ssl.ca.location" in line, line
        assert run.seconds < 20, run.seconds


# ----------------------------------------------------------------------------- Java client properties


def test_java_properties_with_jaas_config_are_translated(sec: Secure) -> None:
    """A properties file as Kafka's Java tools take it: sasl.mechanism, sasl.jaas.config (quoted, escaped,
    spread over lines), a PEM truststore, and Java-only keys that are accepted and ignored."""
    password = sec.info.password(secure.RESTRICTED_USER)
    path = sec.dir / "java-client.properties"
    path.write_text(
        "# written by hand, as for kafka-get-offsets.sh --command-config\n"
        f"bootstrap.servers={sec.info.tls_bootstrap}\n"
        "security.protocol=SASL_SSL\n"
        "sasl.mechanism=SCRAM-SHA-512\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
        f'    username="{secure.RESTRICTED_USER}" \\\n'
        f'    password="{password}";\n'
        "ssl.truststore.type=PEM\n"
        f"ssl.truststore.location={sec.info.ca_file}\n"
        "ssl.endpoint.identification.algorithm=https\n"
        "key.deserializer=org.apache.kafka.common.serialization.StringDeserializer\n"
        "request.timeout.ms=20000\n"
    )
    run = kafka_offsets(sec, "list", "--command-config", str(path), "-t", sec.public, "-o", "jsonl")
    assert run.code == 0 and rows(run)[(sec.public, 2)]["offset"] == 3, run

    shown = kafka_offsets(sec, "config", "show", "--command-config", str(path), "-o", "json")
    assert shown.code == 0, shown
    doc = json.loads(shown.stdout)
    text = json.dumps(doc)
    assert "sasl.username" in text and secure.RESTRICTED_USER in text and "***" in text
    assert "sasl.jaas.config" not in text and "ssl.truststore.location" not in text  # translated away

    broken = sec.dir / "broken-jaas.properties"
    broken.write_text(f"bootstrap.servers={sec.info.sasl_bootstrap}\nsasl.jaas.config=ScramLoginModule\n")
    run = kafka_offsets(sec, "list", "--command-config", str(broken), "-t", sec.public)
    assert run.code == 2
    assert_one_error_line(run.stderr, contains=f"{broken}:2: sasl.jaas.config")


# ----------------------------------------------------------------------------- no secret anywhere


def test_no_secret_in_any_stream_even_with_debug(sec: Secure) -> None:
    """Every command, good and bad credentials, with --debug and librdkafka's debug=all logs."""
    directory = sec.dir / "client-cert"
    directory.mkdir(exist_ok=True)
    keystore = secure.make_server_cert(directory, sec.info.ca_file, sec.info.dir / "ca.key", "client")
    key_pem = (directory / "client.key").read_text()
    cert_pem = (directory / "client.crt").read_text()
    key_body = "".join(key_pem.strip().splitlines()[1:-1])[:64]
    key_password = "kp-" + secrets.token_urlsafe(12)
    assert keystore.is_file()

    reader_sasl = str(sec.info.properties_file(secure.RESTRICTED_USER, "sasl"))
    admin_tls = str(sec.info.properties_file(secure.ADMIN_USER, "tls"))
    wrong = str(sec.properties("wrong-debug", secure.RESTRICTED_USER, "sasl", password=sec.wrong_password))
    group = f"{secure.RESTRICTED_PREFIX}g"
    key_opts = (
        "-X",
        f"ssl.key.pem={key_pem}",
        "-X",
        f"ssl.certificate.pem={cert_pem}",
        "-X",
        f"ssl.key.password={key_password}",
    )
    runs = [
        ("list", "--command-config", reader_sasl, "-t", sec.public, "-t", sec.secret),
        ("lag", "--command-config", reader_sasl, "-g", group),
        ("liveness", "--command-config", reader_sasl, "-t", sec.public, "-w", "1h", "-c", "2h"),
        ("rewind", "--command-config", reader_sasl, "-g", group, "--to", "earliest"),
        ("config", "show", "--command-config", reader_sasl, "-o", "json"),
        ("config", "show", "--command-config", admin_tls, *key_opts),
        ("list", "--command-config", admin_tls, "-t", sec.public, *key_opts),
        ("list", "--command-config", wrong, "-t", sec.public),
        ("lag", "--command-config", wrong, "-g", group),
    ]
    for args in runs:
        debug_all = () if args[0] == "config" else ("-X", "debug=all")
        for prefix, more in (((), ()), (("--debug",), debug_all)):
            run = kafka_offsets(
                sec, *prefix, *args, *more, "--timeout", "20s", extra_secrets=(key_body, key_password)
            )
            assert "Traceback" not in run.stderr or prefix, run.stderr
            if prefix and args[0] != "config" and "wrong" not in args[2]:
                assert "kafka_offsets.librdkafka" in run.stderr, "--debug shows librdkafka's logs"


# ----------------------------------------------------------------------------- check


@pytest.mark.spark
def test_check_reports_authorization_errors_per_topic(sec: Secure) -> None:
    """`check` as the restricted user: a named topic it may not DESCRIBE is TOPIC_AUTHORIZATION_FAILED
    (asked for by name, as `list` does), a missing one UNKNOWN_TOPIC_OR_PARTITION, in liveness and lag
    checks alike; the public topic answers."""
    reader = sec.info.properties_file(secure.RESTRICTED_USER, "sasl")
    tag = uuid.uuid4().hex[:6]
    missing, group = f"{secure.RESTRICTED_PREFIX}nosuch{tag}", f"{secure.RESTRICTED_PREFIX}g{tag}"
    commit_group_offsets(sec.info.plaintext_bootstrap, group, {(sec.public, p): p for p in range(3)})
    topics = f"[{sec.public}, {sec.secret}, {missing}]"
    spec = sec.dir / "check-acl.yaml"
    spec.write_text(
        f"""
clusters: {{sec: {{command_config: "{reader}"}}}}
checks:
  - {{name: alive, type: liveness, topics: {topics}, warn: 1d, crit: 2d}}
  - {{name: lag, type: lag, groups: [{group}], topics: {topics}, warn_lag: 5, crit_lag: 10}}
"""
    )
    run = kafka_offsets(sec, "check", str(spec), "--master", "local[1]", "-o", "json")
    assert run.code == 3, run  # UNKNOWN: some topics could not be read
    doc = json.loads(run.stdout)
    for kind in ("alive", "lag"):
        got = {(p["topic"], p["partition"]): p for p in doc["partitions"] if p["check"] == kind}
        assert {k for k, p in got.items() if p["error"] is None} == {(sec.public, p) for p in range(3)}, kind
        assert got[(sec.secret, None)]["error"] == "TOPIC_AUTHORIZATION_FAILED", kind
        assert got[(missing, None)]["error"] == "UNKNOWN_TOPIC_OR_PARTITION", kind
    lag = {p["partition"]: p["lag"] for p in doc["partitions"] if p["check"] == "lag" and p["error"] is None}
    assert lag == {0: 1, 1: 1, 2: 1}  # partition p holds p + 1 records, the group committed p
    assert {c["name"]: c["status"] for c in doc["checks"]} == {"alive": "UNKNOWN", "lag": "UNKNOWN"}
