"""SASL/SCRAM-SHA-512, TLS, mutual TLS and ACLs for dev clusters (``python -m dev.kafka up --sasl --tls``).

A secure dev cluster is an ordinary ``dev.kafka`` cluster with extra client listeners on every node:

* ``SASL``: SASL_PLAINTEXT with SCRAM-SHA-512 (``--sasl``);
* ``TLS``: SSL, or SASL_SSL with SCRAM-SHA-512 when ``--sasl`` is given too (``--tls``), served with a
  broker certificate (SAN ``IP:127.0.0.1``, ``DNS:localhost``) signed by a CA generated for the run;
* ``MTLS``: SSL with ``ssl.client.auth=required`` (``mtls=True``): a client must present a certificate
  signed by the same CA. One is issued for the run (``client.crt``, its PKCS#8 key ``client.key``
  encrypted with a random password, and ``client-keystore.pem``, both in one file, for Java's PEM key
  store); its principal ``User:CN=kafka-offsets-client`` is a super user.

ACLs are enforced by KRaft's StandardAuthorizer. Two SCRAM users are created with random passwords:
``admin`` (a super user) and ``reader``, who may only DESCRIBE/READ topics and groups whose names start
with :data:`RESTRICTED_PREFIX` (``public.``); any other topic answers ``TOPIC_AUTHORIZATION_FAILED``.

The PLAINTEXT listener of ``dev.kafka`` stays, on loopback, for the harness itself (readiness checks,
inter-broker and controller traffic, test helpers creating topics): its principal ``User:ANONYMOUS``
is a super user. Tests exercise the secure listeners.

Everything lives in the cluster's state directory (``dev/.state/NAME/secure/``) and goes with
``python -m dev.kafka down``: ``secure.json`` (ports, users, passwords -- dev only), ``ca.pem``/``ca.key``,
the broker's ``broker-keystore.pem``, and Java client properties per user and listener
(``admin-sasl.properties``, ``reader-tls.properties``...) ready for ``--command-config``.

Python::

    from dev import secure
    sc = secure.up("sec", sasl=True, tls=True)
    sc.sasl_bootstrap, sc.tls_bootstrap, sc.ca_file, sc.password("reader")
    sc.properties_file("reader", "sasl")      # Java client properties (sasl.jaas.config)
    sc.librdkafka_config("admin", "tls")      # the same for librdkafka
    sc = secure.up("m", sasl=False, mtls=True)
    sc.librdkafka_config(None, "mtls")        # ssl.certificate.location, ssl.key.location, ssl.key.password
    secure.make_ca(directory, "some other CA")  # e.g. a CA the brokers do not use
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dev import kafka

MECHANISM = "SCRAM-SHA-512"
ADMIN_USER = "admin"
RESTRICTED_USER = "reader"
#: Topics and groups the restricted user may describe and read (a PREFIXED ACL).
RESTRICTED_PREFIX = "public."
SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule"
CERT_DAYS = 7
LISTENERS = ("sasl", "tls", "mtls")
#: Subject of the client certificate issued for the mTLS listener (its principal: User:CN=...).
CLIENT_CN = "kafka-offsets-client"


class SecureClusterError(kafka.KafkaHarnessError):
    """The secure part of a dev cluster could not be set up."""


# --------------------------------------------------------------------------------------------------
# certificates (openssl command line)


def _openssl(*args: str, cwd: Path, env: Mapping[str, str] | None = None) -> None:
    exe = shutil.which("openssl")
    if exe is None:
        raise SecureClusterError("openssl is not on PATH; it is needed to make the dev CA and certificates")
    proc = subprocess.run(
        [exe, *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env} if env else None,
    )
    if proc.returncode != 0:
        raise SecureClusterError(f"openssl {args[0]} failed (exit {proc.returncode}): {proc.stderr.strip()}")


def make_ca(directory: Path, common_name: str, stem: str = "ca") -> tuple[Path, Path]:
    """A self-signed CA certificate and its unencrypted key in ``directory``: (``STEM.pem``, ``STEM.key``)."""
    directory.mkdir(parents=True, exist_ok=True)
    cert, key = directory / f"{stem}.pem", directory / f"{stem}.key"
    _openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", str(CERT_DAYS),
        "-keyout", key.name, "-out", cert.name, "-subj", f"/CN={common_name}",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        cwd=directory,
    )  # fmt: skip
    return cert, key


def make_server_cert(directory: Path, ca_cert: Path, ca_key: Path, stem: str = "broker") -> Path:
    """A PEM keystore (PKCS#8 key, certificate, CA) for 127.0.0.1/localhost signed by the CA."""
    ext = directory / f"{stem}.ext"
    ext.write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
        "basicConstraints=CA:FALSE\n"
        "keyUsage=critical,digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=serverAuth,clientAuth\n"
    )
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-sha256", "-keyout", f"{stem}.key",
        "-out", f"{stem}.csr", "-subj", "/CN=localhost",
        cwd=directory,
    )  # fmt: skip
    _openssl(
        "x509", "-req", "-in", f"{stem}.csr", "-CA", str(ca_cert), "-CAkey", str(ca_key),
        "-CAcreateserial", "-sha256", "-days", str(CERT_DAYS), "-out", f"{stem}.crt", "-extfile", ext.name,
        cwd=directory,
    )  # fmt: skip
    keystore = directory / f"{stem}-keystore.pem"
    keystore.write_text(
        (directory / f"{stem}.key").read_text()
        + (directory / f"{stem}.crt").read_text()
        + ca_cert.read_text()
    )
    for leftover in (f"{stem}.csr", f"{stem}.ext"):
        (directory / leftover).unlink(missing_ok=True)
    return keystore


def make_client_cert(directory: Path, ca_cert: Path, ca_key: Path, password: str) -> tuple[Path, Path, Path]:
    """A client certificate (CN :data:`CLIENT_CN`) signed by the CA, for mutual TLS.

    Returns (``client.crt``, ``client.key``, ``client-keystore.pem``): the key is PKCS#8 encrypted
    with ``password`` (AES-256, PBKDF2), as librdkafka's ``ssl.key.location``/``ssl.key.password`` and
    Java's PEM key store (``ssl.keystore.type=PEM``, ``ssl.key.password``) read it; the key store is
    that key followed by the certificate and the CA. The password goes to openssl through its
    environment, never its command line.
    """
    ext = directory / "client.ext"
    ext.write_text(
        "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=clientAuth\n"
    )
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-sha256", "-keyout", "client-plain.key",
        "-out", "client.csr", "-subj", f"/CN={CLIENT_CN}",
        cwd=directory,
    )  # fmt: skip
    _openssl(
        "x509", "-req", "-in", "client.csr", "-CA", str(ca_cert), "-CAkey", str(ca_key),
        "-CAcreateserial", "-sha256", "-days", str(CERT_DAYS), "-out", "client.crt", "-extfile", ext.name,
        cwd=directory,
    )  # fmt: skip
    _openssl(
        "pkcs8", "-topk8", "-v1", "PBE-SHA1-3DES", "-in", "client-plain.key", "-out", "client.key",
        "-passout", "env:KAFKA_OFFSETS_DEV_KEY_PASSWORD",
        cwd=directory,
        env={"KAFKA_OFFSETS_DEV_KEY_PASSWORD": password},
    )  # fmt: skip
    cert, key = directory / "client.crt", directory / "client.key"
    keystore = directory / "client-keystore.pem"
    keystore.write_text(key.read_text() + cert.read_text() + ca_cert.read_text())
    for path in (key, keystore):
        path.chmod(0o600)
    for leftover in ("client.csr", "client.ext", "client-plain.key"):
        (directory / leftover).unlink(missing_ok=True)
    return cert, key, keystore


# --------------------------------------------------------------------------------------------------
# the secure cluster's description


def secure_dir(name: str) -> Path:
    """Where a cluster's certificates, users and client properties live."""
    return kafka.state_root() / name / "secure"


@dataclasses.dataclass(frozen=True)
class SecureCluster:
    """A dev cluster with SASL and/or TLS listeners, its CA and its users."""

    name: str
    sasl: bool
    tls: bool
    #: node id -> {"sasl": port, "tls": port} (only the enabled listeners)
    ports: Mapping[int, Mapping[str, int]]
    users: Mapping[str, str]
    plaintext_bootstrap: str
    mtls: bool = False
    #: password of the mTLS client key (``client.key``, ``client-keystore.pem``)
    key_password: str = dataclasses.field(default="", repr=False)

    @property
    def dir(self) -> Path:
        return secure_dir(self.name)

    @property
    def ca_file(self) -> Path:
        """The CA that signed the broker certificate (PEM)."""
        return self.dir / "ca.pem"

    @property
    def client_cert(self) -> Path:
        """The mTLS client certificate (PEM)."""
        return self.dir / "client.crt"

    @property
    def client_key(self) -> Path:
        """The mTLS client's private key (PKCS#8 PEM, encrypted with :attr:`key_password`)."""
        return self.dir / "client.key"

    @property
    def client_keystore(self) -> Path:
        """The mTLS client's key and certificate in one file: a Java PEM key store."""
        return self.dir / "client-keystore.pem"

    def bootstrap(self, listener: str) -> str:
        """``host:port,...`` of the ``sasl``, ``tls`` or ``mtls`` listener of every node."""
        if listener not in LISTENERS or not getattr(self, listener):
            raise SecureClusterError(f"cluster {self.name!r} has no {listener} listener")
        return ",".join(f"{kafka.HOST}:{p[listener]}" for _, p in sorted(self.ports.items()))

    @property
    def sasl_bootstrap(self) -> str:
        """Bootstrap servers of the SASL_PLAINTEXT listener."""
        return self.bootstrap("sasl")

    @property
    def tls_bootstrap(self) -> str:
        """Bootstrap servers of the SSL (or SASL_SSL) listener."""
        return self.bootstrap("tls")

    def security_protocol(self, listener: str) -> str:
        """Kafka's security protocol name of ``listener``."""
        if listener == "sasl":
            return "SASL_PLAINTEXT"
        return "SASL_SSL" if self.sasl and listener == "tls" else "SSL"

    def password(self, user: str) -> str:
        """The SCRAM password of ``user``."""
        return self.users[user]

    def java_properties(
        self,
        user: str | None,
        listener: str,
        *,
        password: str | None = None,
        ca_file: Path | None = None,
        certificate: bool = True,
    ) -> dict[str, str]:
        """Java client properties (as for ``--command-config``) for ``user`` on ``listener``.

        On ``mtls`` the client's PEM key store and key password come too, unless ``certificate=False``.
        """
        protocol = self.security_protocol(listener)
        props = {"bootstrap.servers": self.bootstrap(listener), "security.protocol": protocol}
        if protocol.startswith("SASL"):
            if user is None:
                raise SecureClusterError(f"the {listener} listener needs a user")
            secret = self.password(user) if password is None else password
            props["sasl.mechanism"] = MECHANISM
            props["sasl.jaas.config"] = (
                f'{SCRAM_MODULE} required username="{user}" password="{_jaas_quote(secret)}";'
            )
        if protocol.endswith("SSL"):
            props["ssl.truststore.type"] = "PEM"
            props["ssl.truststore.location"] = str(ca_file or self.ca_file)
        if listener == "mtls" and certificate:
            props["ssl.keystore.type"] = "PEM"
            props["ssl.keystore.location"] = str(self.client_keystore)
            props["ssl.key.password"] = self.key_password
        return props

    def librdkafka_config(
        self,
        user: str | None,
        listener: str,
        *,
        password: str | None = None,
        ca_file: Path | None = None,
        certificate: bool = True,
    ) -> dict[str, str]:
        """The same settings for librdkafka (confluent-kafka clients in tests)."""
        protocol = self.security_protocol(listener)
        conf = {"bootstrap.servers": self.bootstrap(listener), "security.protocol": protocol}
        if protocol.startswith("SASL"):
            if user is None:
                raise SecureClusterError(f"the {listener} listener needs a user")
            conf.update(
                {
                    "sasl.mechanisms": MECHANISM,
                    "sasl.username": user,
                    "sasl.password": self.password(user) if password is None else password,
                }
            )
        if protocol.endswith("SSL"):
            conf["ssl.ca.location"] = str(ca_file or self.ca_file)
        if listener == "mtls" and certificate:
            conf["ssl.certificate.location"] = str(self.client_cert)
            conf["ssl.key.location"] = str(self.client_key)
            conf["ssl.key.password"] = self.key_password
        return conf

    def properties_file(self, user: str | None, listener: str) -> Path:
        """The Java client properties file written for ``user`` (None: TLS without SASL) on ``listener``."""
        return self.dir / f"{user or 'client'}-{listener}.properties"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sasl": self.sasl,
            "tls": self.tls,
            "ports": {str(k): dict(v) for k, v in self.ports.items()},
            "users": dict(self.users),
            "plaintext_bootstrap": self.plaintext_bootstrap,
            "mtls": self.mtls,
            "key_password": self.key_password,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SecureCluster:
        return cls(
            name=str(data["name"]),
            sasl=bool(data["sasl"]),
            tls=bool(data["tls"]),
            ports={int(k): {str(n): int(p) for n, p in v.items()} for k, v in data["ports"].items()},
            users={str(k): str(v) for k, v in data["users"].items()},
            plaintext_bootstrap=str(data["plaintext_bootstrap"]),
            mtls=bool(data.get("mtls", False)),
            key_password=str(data.get("key_password", "")),
        )

    def save(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / "secure.json"
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n")
        path.chmod(0o600)

    def summary(self) -> list[str]:
        """Human-readable lines for ``python -m dev.kafka up --sasl/--tls``."""
        lines = [f"plaintext (harness, ANONYMOUS super user): {self.plaintext_bootstrap}"]
        for listener in LISTENERS:
            if getattr(self, listener):
                lines.append(f"{listener} ({self.security_protocol(listener)}): {self.bootstrap(listener)}")
        if self.tls or self.mtls:
            lines.append(f"CA certificate: {self.ca_file}")
        if self.mtls:
            lines.append(f"client certificate: {self.client_cert}, key: {self.client_key} (encrypted)")
        if self.sasl:
            lines.append(
                f"users: {ADMIN_USER} (super user), {RESTRICTED_USER} (topics/groups {RESTRICTED_PREFIX}*)"
            )
        for listener, user in self.clients():
            lines.append(f"--command-config {self.properties_file(user, listener)}")
        return lines

    def clients(self) -> list[tuple[str, str | None]]:
        """(listener, user) of every client properties file: every user on the SASL and TLS listeners
        (no user: TLS without SASL), the certificate's holder (no SCRAM user) on mTLS."""
        users: list[str | None] = [*self.users] or [None]
        out: list[tuple[str, str | None]] = []
        for listener in LISTENERS:
            if getattr(self, listener):
                out += [(listener, None)] if listener == "mtls" else [(listener, u) for u in users]
        return out


def _jaas_quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def get(name: str = kafka.DEFAULT_NAME) -> SecureCluster | None:
    """The secure description of cluster ``name``, or None if it was not started with --sasl/--tls."""
    path = secure_dir(name) / "secure.json"
    try:
        return SecureCluster.from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise SecureClusterError(f"corrupt {path}: {exc}") from exc


# --------------------------------------------------------------------------------------------------
# broker configuration


def _enabled(sasl: bool, tls: bool, mtls: bool) -> list[str]:
    return [lst for lst, on in zip(LISTENERS, (sasl, tls, mtls), strict=True) if on]


def _listener_config(
    node: kafka.Node,
    ports: Mapping[str, int],
    *,
    sasl: bool,
    tls: bool,
    keystore: Path | None,
    mtls: bool = False,
) -> dict[str, str]:
    """server.properties entries adding the secure listeners and the authorizer to one node."""
    host = kafka.HOST
    names = {"sasl": "SASL", "tls": "TLS", "mtls": "MTLS"}
    protocols = {"sasl": "SASL_PLAINTEXT", "tls": "SASL_SSL" if sasl else "SSL", "mtls": "SSL"}
    enabled = _enabled(sasl, tls, mtls)
    extra = [f"{names[lst]}://{host}:{ports[lst]}" for lst in enabled]
    props = {
        "listeners": ",".join(
            [f"PLAINTEXT://{host}:{node.port}", f"CONTROLLER://{host}:{node.controller_port}", *extra]
        ),
        "advertised.listeners": ",".join([f"PLAINTEXT://{host}:{node.port}", *extra]),
        "listener.security.protocol.map": ",".join(
            [
                "PLAINTEXT:PLAINTEXT",
                "CONTROLLER:PLAINTEXT",
                *(f"{names[lst]}:{protocols[lst]}" for lst in enabled),
            ]
        ),
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": f"User:ANONYMOUS;User:{ADMIN_USER};User:CN={CLIENT_CN}",
        "allow.everyone.if.no.acl.found": "false",
    }
    if sasl:
        props["sasl.enabled.mechanisms"] = MECHANISM
        for lst in (e for e in enabled if e != "mtls"):
            props[f"listener.name.{names[lst].lower()}.{MECHANISM.lower()}.sasl.jaas.config"] = (
                f"{SCRAM_MODULE} required;"
            )
    if tls or mtls:
        assert keystore is not None
        props.update(
            {
                "ssl.keystore.type": "PEM",
                "ssl.keystore.location": str(keystore),
                "ssl.client.auth": "none",
            }
        )
    if mtls:  # only this listener asks for (and verifies) a client certificate
        assert keystore is not None
        props.update(
            {
                "listener.name.mtls.ssl.client.auth": "required",
                "listener.name.mtls.ssl.truststore.type": "PEM",
                "listener.name.mtls.ssl.truststore.location": str(keystore.parent / "ca.pem"),
            }
        )
    return props


def up(
    name: str = kafka.DEFAULT_NAME,
    nodes: int = 1,
    *,
    sasl: bool = True,
    tls: bool = False,
    mtls: bool = False,
    timeout: float | None = None,
    heap: str | None = None,
    owner_pid: int | None = None,
    broker_config: Mapping[str, str] | None = None,
) -> SecureCluster:
    """Start (or reuse) cluster ``name`` with SASL and/or TLS listeners, users and ACLs.

    ``broker_config`` overrides server.properties entries (as for ``dev.kafka.up``). Returns once
    both users can authenticate on every secure listener of every node.
    """
    if not (sasl or tls or mtls):
        raise SecureClusterError("a secure cluster needs --sasl, --tls, mTLS or several")
    existing = kafka.get(name)
    if existing is not None and existing.alive_nodes():
        info = get(name)
        if info is None or (info.sasl, info.tls, info.mtls) != (sasl, tls, mtls):
            raise SecureClusterError(
                f"cluster {name!r} is running with other security settings; "
                f"run `python -m dev.kafka down --name {name}` first"
            )
        cluster = kafka.up(name, nodes, timeout=timeout, heap=heap, owner_pid=owner_pid)
        _wait_authenticated(info, cluster, timeout)
        return info

    chosen: dict[int, dict[str, int]] = {}
    key_password = secrets.token_urlsafe(18) if mtls else ""

    def node_config(node: kafka.Node) -> dict[str, str]:
        keystore = None
        if tls or mtls:
            directory = secure_dir(name)
            if not (directory / "ca.pem").is_file():  # (again) after a retry removed the state directory
                ca_cert, ca_key = make_ca(directory, f"kafka-offsets dev CA {name}")
                make_server_cert(directory, ca_cert, ca_key)
                if mtls:
                    make_client_cert(directory, ca_cert, ca_key, key_password)
            keystore = directory / "broker-keystore.pem"
        wanted = _enabled(sasl, tls, mtls)
        used = {node.port, node.controller_port, *(p for ps in chosen.values() for p in ps.values())}
        free = [p for p in kafka._free_ports(len(wanted) + 2) if p not in used][: len(wanted)]
        chosen[node.node_id] = dict(zip(wanted, free, strict=True))
        return _listener_config(node, chosen[node.node_id], sasl=sasl, tls=tls, keystore=keystore, mtls=mtls)

    cluster = kafka.up(
        name,
        nodes,
        timeout=timeout,
        heap=heap,
        owner_pid=owner_pid,
        broker_config=broker_config,
        node_config=node_config,
    )
    users = (
        {ADMIN_USER: secrets.token_urlsafe(18), RESTRICTED_USER: secrets.token_urlsafe(18)} if sasl else {}
    )
    info = SecureCluster(
        name,
        sasl,
        tls,
        {n: dict(chosen[n]) for n in cluster.node_ids},
        users,
        cluster.bootstrap,
        mtls=mtls,
        key_password=key_password,
    )
    info.save()
    _write_properties(info)
    if sasl:
        _provision_until(info, cluster, timeout)
    _wait_authenticated(info, cluster, timeout)
    return info


def _provision_until(info: SecureCluster, cluster: kafka.Cluster, timeout: float | None) -> None:
    """:func:`_provision`, asked again until the start timeout: a 3-node cluster just up may refuse
    the first writes for a moment (its controller quorum or metadata still settling); both writes are
    idempotent, so a repeat is harmless. The last refusal is the error."""
    limit = kafka._start_timeout() if timeout is None else timeout
    deadline = time.monotonic() + limit
    while True:
        try:
            _provision(info, cluster)
            return
        except SecureClusterError as exc:
            if time.monotonic() > deadline:
                raise SecureClusterError(f"{exc} (asked until the {limit:.0f}s start timeout)") from exc
            kafka._progress(f"{info.name}: {exc}; asking again")
            time.sleep(1.0)


def _write_properties(info: SecureCluster) -> None:
    """Java client properties files for every user (TLS only: one without a user) and listener."""
    for listener, user in info.clients():
        path = info.properties_file(user, listener)
        text = "".join(f"{k}={v}\n" for k, v in info.java_properties(user, listener).items())
        path.write_text(text)
        path.chmod(0o600)


def _provision(info: SecureCluster, cluster: kafka.Cluster) -> None:
    """SCRAM credentials for both users and the restricted user's ACLs (as ANONYMOUS on PLAINTEXT)."""
    from confluent_kafka.admin import (  # type: ignore[attr-defined]
        AclBinding,
        AclOperation,
        AclPermissionType,
        AdminClient,
        ResourcePatternType,
        ResourceType,
        ScramCredentialInfo,
        ScramMechanism,
        UserScramCredentialUpsertion,
    )

    conf: dict[str, Any] = {"bootstrap.servers": cluster.bootstrap, "logger": kafka._LIBRDKAFKA_LOG}
    admin = AdminClient(conf)
    upserts: list[Any] = [
        UserScramCredentialUpsertion(
            user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password.encode()
        )
        for user, password in info.users.items()
    ]
    for user, fut in admin.alter_user_scram_credentials(upserts, request_timeout=30).items():
        try:
            fut.result(timeout=40)
        except Exception as exc:
            raise SecureClusterError(f"creating SCRAM user {user!r} failed: {exc}") from exc
    principal = f"User:{RESTRICTED_USER}"
    acls = [
        AclBinding(
            rtype,
            RESTRICTED_PREFIX,
            ResourcePatternType.PREFIXED,
            principal,
            "*",
            op,
            AclPermissionType.ALLOW,
        )
        for rtype in (ResourceType.TOPIC, ResourceType.GROUP)
        for op in (AclOperation.DESCRIBE, AclOperation.READ)
    ]
    for binding, fut in admin.create_acls(acls, request_timeout=30).items():
        try:
            fut.result(timeout=40)
        except Exception as exc:
            raise SecureClusterError(f"creating ACL {binding} failed: {exc}") from exc


def _wait_authenticated(info: SecureCluster, cluster: kafka.Cluster, timeout: float | None) -> None:
    """Until every user gets metadata on every secure listener of every node (credentials propagate
    through the metadata log, so a freshly created user may be refused for a moment)."""
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    limit = kafka._start_timeout() if timeout is None else timeout
    deadline = time.monotonic() + limit
    for node_id, ports in sorted(info.ports.items()):
        for listener, user in info.clients():
            conf: dict[str, Any] = info.librdkafka_config(user, listener)
            conf["bootstrap.servers"] = f"{kafka.HOST}:{ports[listener]}"
            conf["logger"] = kafka._LIBRDKAFKA_LOG
            last = ""
            while True:
                try:
                    AdminClient(conf).list_topics(timeout=5)
                    break
                except KafkaException as exc:
                    last = str(exc.args[0]) if exc.args else str(exc)
                if time.monotonic() > deadline:
                    raise SecureClusterError(
                        f"{user or 'the client'} cannot use the {listener} listener of node {node_id} "
                        f"after {limit:.0f}s: {last}"
                    )
                time.sleep(0.5)
