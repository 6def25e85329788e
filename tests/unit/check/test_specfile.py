# ruff: noqa: E501  (expected problem messages are long on purpose)
"""The check spec loader (kafka_offsets_cli.check): every kind of bad file, with paths and lines."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from kafka_offsets_cli.check.load import load_spec, parse_spec_text
from kafka_offsets_cli.check.spec import (
    CLUSTER_KEYS,
    COMMON_CHECK_KEYS,
    DEFAULT_KEYS,
    HISTORY_KEYS,
    LAG_KEYS,
    LIVENESS_KEYS,
    TIERING_KEYS,
    TOP_KEYS,
    HistoryRules,
    LagCheck,
    LivenessCheck,
)
from kafka_offsets_cli.errors import ExitCode, SpecFileError, UsageError
from kafka_offsets_cli.models.offsets import Isolation

PACKAGE = Path(__file__).resolve().parents[3] / "kafka_offsets_cli"
EXAMPLE = PACKAGE / "examples" / "check-spec.example.yaml"
SCHEMA = PACKAGE / "schemas" / "check-spec.schema.json"

MINIMAL = r"""clusters:
  local: {bootstrap_servers: "127.0.0.1:9092"}
checks:
  - {name: orders-alive, type: liveness, cluster: local, topics: ['orders\..*'], warn: 5m, crit: 15m}
  - {name: billing-lag, type: lag, cluster: local, groups: [billing], topics: [orders], warn_lag: 1000, crit_lag: 10000, warn_time_lag: 1m, crit_time_lag: 5m}
"""


def problems(
    text: str, *, environ: dict[str, str] | None = None, is_json: bool = False, base: Path = Path(".")
) -> list[str]:
    with pytest.raises(SpecFileError) as info:
        parse_spec_text(
            textwrap.dedent(text), "spec.yaml", environ=environ or {}, is_json=is_json, base_dir=base
        )
    assert info.value.exit_code == ExitCode.USAGE
    assert info.value.problems
    return info.value.problems


def one(text: str, **kw: Any) -> str:
    ps = problems(text, **kw)
    assert len(ps) == 1, ps
    return ps[0]


# --------------------------------------------------------------------------- accepted forms


def test_minimal_form_from_the_issue_is_accepted_as_written() -> None:
    spec = parse_spec_text(MINIMAL, "min.yaml", environ={})
    assert list(spec.clusters) == ["local"]
    assert spec.clusters["local"].settings.bootstrap_servers == "127.0.0.1:9092"
    live, lag = spec.checks
    assert isinstance(live, LivenessCheck) and isinstance(lag, LagCheck)
    assert live.topics == (r"orders\..*",)
    assert (live.warn_ms, live.crit_ms) == (300_000, 900_000)
    assert live.clusters == ("local",) and live.exclude_internal
    assert lag.groups == ("billing",) and lag.topics == ("orders",)
    assert (lag.warn_lag, lag.crit_lag) == (1000, 10000)
    assert (lag.warn_time_lag_ms, lag.crit_time_lag_ms) == (60_000, 300_000)
    assert lag.time_lag is True  # a time threshold turns the lookups on
    assert lag.history == HistoryRules()
    assert spec.check("billing-lag") is lag


def test_same_spec_as_json_file(tmp_path: Path) -> None:
    doc = yaml.safe_load(MINIMAL)
    p = tmp_path / "spec.json"
    p.write_text(json.dumps(doc, indent="\t"))
    spec = load_spec(p, environ={})
    assert [c.name for c in spec.checks] == ["orders-alive", "billing-lag"]


def test_full_form_with_defaults_history_and_two_clusters(tmp_path: Path) -> None:
    (tmp_path / "client.properties").write_text(
        "bootstrap.servers=10.0.0.1:9093\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n"
        'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";\n'
    )
    text = """
    version: 1
    defaults: {timeout: 10s, task_size: 700, chunk_size: 300, exclude_internal: false, history: {window: 6, allowed_lag: 5}}
    clusters:
      primary:
        bootstrap_servers: ["a:9092", "b:9092"]
        properties: {security.protocol: SASL_PLAINTEXT, sasl.mechanism: SCRAM-SHA-512, sasl.username: svc}
        sasl_password_env: PRIMARY_PW
        isolation: read_committed
      dr:
        command_config: client.properties
        secrets_env: {ssl.key.password: KEY_PW}
        timeout: 5s
    checks:
      - name: orders-lag
        type: lag
        clusters: [primary, dr]
        groups: ['billing.*', audit]
        crit_lag: 100
        history: {min_samples: 4}
      - name: alive
        type: liveness
        cluster: dr
        topics: orders
        warn: 60
        crit: 1h
        min_alive: 2
        future_tolerance: 30s
    """
    spec = parse_spec_text(
        textwrap.dedent(text), "s.yaml", base_dir=tmp_path, environ={"PRIMARY_PW": "hunter2", "KEY_PW": "k"}
    )
    assert (spec.task_size, spec.chunk_size) == (700, 300)
    p = spec.clusters["primary"].settings
    assert p.bootstrap_servers == "a:9092,b:9092"
    conf = p.librdkafka_config()
    assert conf["sasl.password"] == "hunter2" and conf["sasl.mechanisms"] == "SCRAM-SHA-512"
    assert p.isolation is Isolation.READ_COMMITTED and p.timeout_ms == 10_000
    d = spec.clusters["dr"].settings
    assert d.bootstrap_servers == "10.0.0.1:9093" and d.timeout_ms == 5_000
    dconf = d.librdkafka_config()
    assert (
        dconf["sasl.username"] == "u" and dconf["sasl.password"] == "p" and dconf["ssl.key.password"] == "k"
    )
    lag = spec.check("orders-lag")
    assert isinstance(lag, LagCheck)
    assert lag.clusters == ("primary", "dr") and lag.groups == ("billing.*", "audit") and lag.topics == ()
    assert lag.history == HistoryRules(window=6, allowed_lag=5, min_samples=4)
    assert lag.time_lag is False and not lag.exclude_internal
    live = spec.check("alive")
    assert isinstance(live, LivenessCheck)
    assert live.topics == ("orders",) and live.warn_ms == 60_000 and live.min_alive == 2
    assert live.future_tolerance_ms == 30_000


def test_single_cluster_is_implied() -> None:
    spec = parse_spec_text(
        "clusters: {only: {bootstrap_servers: 'h:1'}}\nchecks: [{name: a, type: lag, groups: [g]}]",
        environ={},
    )
    assert spec.checks[0].clusters == ("only",)


def test_shipped_example_is_valid() -> None:
    spec = load_spec(EXAMPLE, environ={"KAFKA_DR_PASSWORD": "secret"})
    assert {c.type for c in spec.checks} == {"liveness", "lag"}
    assert any(len(c.clusters) > 1 for c in spec.checks), "the example shows a check over two clusters"


# --------------------------------------------------------------------------- syntax


def test_yaml_syntax_error_has_line() -> None:
    p = one("clusters:\n  a: {bootstrap_servers: 'h:1'\nchecks: []\n")
    assert p.startswith("(top level): invalid YAML") and re.search(r"\(line \d+\)$", p)


def test_json_syntax_error_has_line() -> None:
    assert one('{\n  "clusters": {},\n  "checks": [,]\n}', is_json=True) == (
        "(top level): invalid JSON: Expecting value (line 3)"
    )


def test_empty_and_non_mapping_documents() -> None:
    assert (
        one("") == "(top level): the file is empty: expected a mapping with 'clusters' and 'checks' (line 1)"
    )
    assert (
        one("- a\n- b\n")
        == "(top level): expected a mapping (with 'clusters' and 'checks'), got a list (line 1)"
    )


def test_non_utf8_file(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SpecFileError, match="not a UTF-8"):
        load_spec(p)


def test_missing_file_is_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such spec file"):
        load_spec(tmp_path / "nope.yaml")


# --------------------------------------------------------------------------- structure


def test_missing_sections() -> None:
    assert problems("version: 1\n") == [
        "clusters: missing: name at least one cluster (line 1)",
        "checks: missing: list at least one check (line 1)",
    ]


def test_unknown_top_level_key_suggests() -> None:
    p = problems(MINIMAL + "chekcs: []\n")
    assert "chekcs: unknown key (did you mean 'checks'?) (line 6)" in p


def test_bad_version() -> None:
    assert one("version: 2\n" + MINIMAL) == "version: unsupported version number 2; expected 1 (line 1)"


def test_duplicate_keys_and_non_string_keys() -> None:
    text = MINIMAL + "clusters: {}\nyes: 1\n"
    ps = problems(text)
    assert "clusters: duplicate key (first at line 1) (line 6)" in ps
    assert "(top level): keys must be strings, got true (quote it) (line 7)" in ps


def test_every_problem_is_reported_in_line_order() -> None:
    text = """\
    clusters:
      c1: {bootstrap_servers: 'h:1'}
    checks:
      - {name: a, type: liveness, cluster: c1, topics: [x], warn: soon, crit: 1m}
      - {name: b, type: lag, cluster: c1, groups: [g], warn_lag: -1}
      - {name: c, type: lag, cluster: c2, groups: ['(']}
    """
    assert problems(text) == [
        "checks[0].warn: invalid duration 'soon': not a duration; expected 250ms, 30s, 5m, 1h30m, 2d, 1w, 1.5h, "
        "or a bare number of seconds (line 4)",
        "checks[1].warn_lag: expected an integer >= 0, got -1 (line 5)",
        "checks[2].cluster: unknown cluster 'c2' (defined: c1) (line 6)",
        "checks[2].groups[0]: invalid regular expression '(': unclosed group (line 6)",
    ]


def test_error_message_names_source_and_counts() -> None:
    with pytest.raises(SpecFileError) as info:
        parse_spec_text("checks: 3\n", "my.yaml", environ={})
    assert str(info.value) == "my.yaml: clusters: missing: name at least one cluster (line 1) (and 1 more)"
    assert info.value.problems[1] == "checks: expected a list of checks, got number 3 (line 1)"


# --------------------------------------------------------------------------- clusters and secrets


def test_cluster_problems() -> None:
    text = """\
    clusters:
      a: {}
      b: {bootstrap_servers: 'nohost'}
      c: 'h:1'
      d: {bootstrap_servers: 'h:1', isolation: serializable, timeout: 0s}
      'bad name': {bootstrap_servers: 'h:1'}
    checks: [{name: x, type: lag, cluster: a, groups: [g]}]
    """
    ps = problems(text)
    assert ps == [
        "clusters.a.bootstrap_servers: missing (or name a profile, or set bootstrap.servers in the command_config file) (line 2)",
        "clusters.b.bootstrap_servers: bootstrap server 'nohost': expected HOST:PORT (line 3)",
        "clusters.c: expected a mapping (with bootstrap_servers), got string 'h:1' (line 4)",
        "clusters.d.timeout: must be positive (line 5)",
        "clusters.d.isolation: expected read_uncommitted or read_committed, got 'serializable' (line 5)",
        'clusters["bad name"]: cluster names use letters, digits and . _ : - (line 6)',
    ]


@pytest.mark.parametrize(
    ("snippet", "path"),
    [
        ("sasl_password: hunter2", "clusters.c.sasl_password"),
        ("password: hunter2", "clusters.c.password"),
        ("properties: {sasl.password: hunter2}", 'clusters.c.properties["sasl.password"]'),
        ("properties: {ssl.key.password: k}", 'clusters.c.properties["ssl.key.password"]'),
        (
            "properties: {sasl.jaas.config: 'org.apache.kafka.common.security.plain.PlainLoginModule required "
            "username=u password=p;'}",
            'clusters.c.properties["sasl.jaas.config"]',
        ),
        (
            "properties: {sasl.oauthbearer.client.secret: s}",
            'clusters.c.properties["sasl.oauthbearer.client.secret"]',
        ),
    ],
)
def test_inline_secrets_are_refused(snippet: str, path: str) -> None:
    text = f"clusters:\n  c: {{bootstrap_servers: 'h:1', {snippet}}}\nchecks: [{{name: x, type: lag, groups: [g]}}]\n"
    p = one(text)
    assert p.startswith(f"{path}: secrets are not accepted inline")
    assert "sasl_password_env" in p and "command_config" in p
    assert "hunter2" not in p


def test_secret_env_references() -> None:
    text = """\
    clusters:
      c:
        bootstrap_servers: 'h:1'
        sasl_password_env: MISSING_VAR
        secrets_env: {ssl.key.password: 'not a name', sasl.oauthbearer.client.secret: ALSO_MISSING}
    checks: [{name: x, type: lag, groups: [g]}]
    """
    assert problems(text, environ={}) == [
        "clusters.c.sasl_password_env: environment variable MISSING_VAR is not set (line 4)",
        "clusters.c.secrets_env[\"ssl.key.password\"]: 'not a name' is not an environment variable name (line 5)",
        'clusters.c.secrets_env["sasl.oauthbearer.client.secret"]: environment variable ALSO_MISSING is not set (line 5)',
    ]


def test_command_config_problems(tmp_path: Path) -> None:
    (tmp_path / "bad.properties").write_text("ssl.truststore.location=/x/store.jks\n")
    text = """\
    clusters:
      a: {command_config: missing.properties}
      b: {bootstrap_servers: 'h:1', command_config: bad.properties}
      c: {bootstrap_servers: 'h:1', properties: {bootstrap.servers: 'x:1', retries: [1]}}
    checks: [{name: x, type: lag, cluster: a, groups: [g]}]
    """
    ps = problems(text, base=tmp_path)
    assert ps[0] == f"clusters.a.command_config: {tmp_path / 'missing.properties'}: no such file (line 2)"
    assert ps[1].startswith(
        f"clusters.b.command_config: {tmp_path / 'bad.properties'}:1: ssl.truststore.location must be a PEM"
    )
    assert ps[2:] == [
        'clusters.c.properties["bootstrap.servers"]: use bootstrap_servers on the cluster instead (line 4)',
        "clusters.c.properties.retries: expected a string, number or boolean, got a list (line 4)",
    ]


# --------------------------------------------------------------------------- checks


def test_check_problems_of_every_kind() -> None:
    text = """\
    clusters:
      c: {bootstrap_servers: 'h:1'}
      d: {bootstrap_servers: 'h:2'}
    checks:
      - {type: liveness, cluster: c, topics: [t], warn: 5m, crit: 1m}
      - {name: b, type: lag, cluster: c, clusters: [d], groups: [g]}
      - {name: c, type: lag, groups: g, warn_lag: 10, crit_lag: 5, warn_time_lag: 2m, crit_time_lag: 1m}
      - {name: d, type: liveness, cluster: c, warn: 1m}
      - {name: e, type: lag, cluster: c, groups: [], min_alive: 3, time_lag: maybe}
      - {name: f, type: freshness, cluster: c}
      - {name: b, type: lag, cluster: c, groups: [g], warn_time_lag: 1m, time_lag: false}
      - {name: h, type: lag, cluster: c, groups: [g], topic: [t], history: {window: 1, min_samples: 3}}
      - {name: i, type: liveness, cluster: c, topics: [], warn: 1m, crit: 2m, min_alive: 0, future_tolerance: [1]}
      - "just a string"
    """
    assert problems(text) == [
        "checks[0].name: missing: every check needs a unique name (line 5)",
        "checks[0].warn: must not exceed crit (line 5)",
        "checks[1]: give either cluster or clusters, not both (line 6)",
        "checks[2].cluster: missing: name the cluster this check runs on (line 7)",
        "checks[2].warn_lag: must not exceed crit_lag (line 7)",
        "checks[2].warn_time_lag: must not exceed crit_time_lag (line 7)",
        "checks[3].topics: missing: list the topics (names or regexes) to watch (line 8)",
        "checks[3].crit: missing: the age at which a partition is crit (line 8)",
        "checks[4].min_alive: min_alive applies to liveness checks, not lag (line 9)",
        "checks[4].groups: expected at least one group name or pattern (line 9)",
        "checks[4].time_lag: expected true or false, got string 'maybe' (line 9)",
        "checks[5].type: unknown check type 'freshness'; expected one of liveness, lag, tiering (line 10)",
        "checks[6].name: duplicate check name 'b' (first at line 6) (line 11)",
        "checks[6].time_lag: cannot be false with a time-lag threshold (line 11)",
        "checks[7].topic: unknown key (did you mean 'topics'?) (line 12)",
        "checks[7].history.window: expected an integer >= 2, got 1 (line 12)",
        "checks[8].topics: expected at least one topic name or pattern (line 13)",
        "checks[8].min_alive: expected an integer >= 1, got 0 (line 13)",
        "checks[8].future_tolerance: expected a duration such as 30s, 5m or 1h, got a list (line 13)",
        "checks[9]: expected a mapping (with name and type), got string 'just a string' (line 14)",
    ]


def test_history_min_samples_cannot_exceed_window() -> None:
    text = MINIMAL.replace("crit_time_lag: 5m}", "crit_time_lag: 5m, history: {window: 3, min_samples: 4}}")
    assert one(text) == "checks[1].history: min_samples (4) cannot exceed window (3) (line 5)"


def test_boolean_and_integer_types_are_strict() -> None:
    text = """\
    clusters: {c: {bootstrap_servers: 'h:1'}}
    defaults: {chunk_size: '100', exclude_internal: 'no', timeout: true}
    checks: [{name: x, type: lag, groups: [g], crit_lag: 1.5, warn_lag: true}]
    """
    assert problems(text) == [
        "defaults.timeout: expected a duration such as 30s, 5m or 1h, got true (line 2)",
        "defaults.chunk_size: expected an integer, got string '100' (line 2)",
        "defaults.exclude_internal: expected true or false, got string 'no' (line 2)",
        "checks[0].warn_lag: expected an integer, got true (line 3)",
        "checks[0].crit_lag: expected an integer, got number 1.5 (line 3)",
    ]


# --------------------------------------------------------------------------- JSON Schema agrees with the loader


def _schema() -> dict[str, Any]:
    doc = json.loads(SCHEMA.read_text())
    assert doc["$schema"].startswith("https://json-schema.org/")
    return doc  # type: ignore[no-any-return]


def test_schema_names_exactly_the_keys_the_loader_accepts() -> None:
    s = _schema()
    defs = s["$defs"]
    assert tuple(s["properties"]) == TOP_KEYS
    assert s["additionalProperties"] is False
    assert set(defs["defaults"]["properties"]) == set(DEFAULT_KEYS)
    assert set(defs["history"]["properties"]) == set(HISTORY_KEYS)
    assert set(defs["cluster"]["properties"]) == set(CLUSTER_KEYS)
    assert set(defs["livenessCheck"]["properties"]) == set(COMMON_CHECK_KEYS + LIVENESS_KEYS) | {"type"}
    assert set(defs["lagCheck"]["properties"]) == set(COMMON_CHECK_KEYS + LAG_KEYS) | {"type"}
    assert set(defs["tieringCheck"]["properties"]) == set(COMMON_CHECK_KEYS + TIERING_KEYS) | {"type"}
    assert s["properties"]["checks"]["items"]["oneOf"] == [
        {"$ref": f"#/$defs/{name}Check"} for name in ("liveness", "lag", "tiering")
    ]
    for name in ("defaults", "history", "cluster", "livenessCheck", "lagCheck", "tieringCheck"):
        assert defs[name]["additionalProperties"] is False, name


def test_schema_required_keys_match_the_minimal_form() -> None:
    s = _schema()
    defs = s["$defs"]
    assert set(s["required"]) == {"clusters", "checks"}
    assert set(defs["livenessCheck"]["required"]) == {"name", "type", "topics", "warn", "crit"}
    assert set(defs["lagCheck"]["required"]) == {"name", "type"}
    assert set(defs["tieringCheck"]["required"]) == {"name", "type"}  # topics: every topic without
    # groups, or spark_checkpoints in their place: exactly one of them
    assert defs["lagCheck"]["oneOf"] == [{"required": ["groups"]}, {"required": ["spark_checkpoints"]}]
    doc = yaml.safe_load(MINIMAL)
    for check in doc["checks"]:
        d = defs["livenessCheck" if check["type"] == "liveness" else "lagCheck"]
        assert set(d["required"]) <= set(check)
        assert set(check) <= set(d["properties"])


def test_the_spec_models_load_no_parser() -> None:
    """history and the Spark engine use the spec models: importing them must not load yaml."""
    code = "import sys, kafka_offsets_cli.check.spec, kafka_offsets_cli.check.history; print('yaml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "False"


def test_wide_spec_records_are_keyword_only() -> None:
    """Two ``int | None`` thresholds swapped by position would pass mypy: the records refuse positions."""
    with pytest.raises(TypeError):
        LagCheck("billing-lag", ("local",), ("billing",))  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        HistoryRules(5, 0, 3)  # type: ignore[call-arg]
    check = LagCheck(name="billing-lag", clusters=("local",), groups=("billing",), warn_lag=1, crit_lag=2)
    assert (check.warn_lag, check.crit_lag) == (1, 2)
