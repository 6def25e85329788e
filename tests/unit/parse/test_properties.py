"""Bad input, generated: every parser of user input either parses or raises the tool's UsageError.

Covers the time, duration, zone, offset-spec, selection and ``--watch`` parsers, the client settings
(``-b``, ``-X``, Java properties files, ``sasl.jaas.config``) and the ``check`` spec-file loader. The
inputs are grammar-aware (fragments of valid syntax mixed with noise), so hypothesis reaches deep
into each parser instead of failing at the first character. A rejected input must give ONE line:
the message the CLI prints (``kafka-offsets: error: MESSAGE``).
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from datetime import timezone
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.check.document import MAX_SPEC_VALUES
from kafka_offsets_cli.check.load import MAX_SPEC_BYTES, load_spec, parse_spec_text
from kafka_offsets_cli.check.spec import CheckSpec
from kafka_offsets_cli.cli.watch import parse_interval
from kafka_offsets_cli.connection.properties import (
    load_command_config,
    parse_jaas,
    parse_properties,
    translate_java,
)
from kafka_offsets_cli.connection.settings import build_settings, parse_overrides
from kafka_offsets_cli.errors import ExitCode, SpecFileError, UsageError
from kafka_offsets_cli.parse.durations import MAX_MS, parse_duration
from kafka_offsets_cli.parse.selection import parse_partitions, parse_selection, parse_topic_partitions
from kafka_offsets_cli.parse.specs import parse_spec, parse_specs
from kafka_offsets_cli.parse.times import parse_time, parse_tz

T = TypeVar("T")
NOW = 1_795_000_000_000
PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def total(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T | UsageError:
    """Call ``fn``; the result, or the UsageError it raised (anything else fails the test)."""
    try:
        return fn(*args, **kwargs)
    except UsageError as e:
        assert e.exit_code == ExitCode.USAGE
        assert e.message.strip(), "an empty error message"
        assert "\n" not in e.message and "\r" not in e.message, f"not one line: {e.message!r}"
        return e


# ----------------------------------------------------------------------------- fragments

digits = st.text("0123456789", min_size=1, max_size=25)
units = st.sampled_from(
    [
        "ms",
        "s",
        "sec",
        "secs",
        "m",
        "min",
        "minutes",
        "h",
        "hr",
        "hours",
        "d",
        "days",
        "w",
        "weeks",
        "y",
        "µs",
    ]
)
noise = st.text(max_size=12)
signs = st.sampled_from(["", "-", "+", "--", " "])
spaces = st.sampled_from(["", " ", "  ", "\t", "\n", "\u00a0"])


@st.composite
def durations(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        num = draw(
            st.one_of(digits, st.builds("{}.{}".format, digits, digits), st.just(".5"), st.just("1e9"))
        )
        parts.append(draw(signs) + num + draw(spaces) + draw(st.one_of(units, st.just(""))))
    text = draw(spaces).join(parts)
    return draw(st.sampled_from([text, text + draw(noise), draw(noise) + text]))


@st.composite
def iso_times(draw: st.DrawFn) -> str:
    year = draw(st.integers(0, 99999))
    month, day = draw(st.integers(0, 13)), draw(st.integers(0, 32))
    hour, minute, sec = draw(st.integers(0, 25)), draw(st.integers(0, 61)), draw(st.integers(0, 61))
    frac = draw(st.sampled_from(["", ".1", ".123", ".123456789", "."]))
    zone = draw(st.sampled_from(["", "Z", "z", "+01:00", "-0530", "+14", "+99:99", "+01:00:30", " UTC"]))
    sep = draw(st.sampled_from(["T", " ", "t", "  "]))
    date = f"{year:04d}-{month:02d}-{day:02d}"
    if draw(st.booleans()):
        return date
    return f"{date}{sep}{hour:02d}:{minute:02d}" + draw(st.sampled_from(["", f":{sec:02d}{frac}"])) + zone


relative = st.one_of(
    st.builds("{} ago".format, durations()),
    st.builds("now{}{}".format, st.sampled_from(["-", "+", ""]), durations()),
    st.builds("-{}".format, durations()),
    durations(),
)
times = st.one_of(iso_times(), relative, digits, st.builds("-{}".format, digits), noise)
specs = st.one_of(
    st.sampled_from(
        ["earliest", "LATEST", "max-timestamp", "max_timestamp", "-1", "-2", "-3", "-4", "-5", "-6"]
    ),
    times,
)
zones = st.one_of(
    st.sampled_from(
        ["UTC", "local", "Z", "GMT", "Europe/Paris", "europe/paris", "America/New_York", "+01:00"]
    ),
    st.builds(
        "{}{:02d}:{:02d}".format,
        st.sampled_from(["+", "-", "UTC+", "utc-"]),
        st.integers(0, 99),
        st.integers(0, 99),
    ),
    st.text(string.ascii_letters + "/_+-:0123456789", max_size=40),
    noise,
)
regex_bits = st.sampled_from(
    [
        "a",
        "b.c",
        ".*",
        "(",
        ")",
        "[",
        "]",
        "[a-",
        "{2}",
        "{99999999999}",
        "|",
        "\\",
        "?",
        "+",
        "*",
        "^",
        "$",
        "(?P<x>",
        "(?",
    ]
)
topic_regexes = st.lists(st.one_of(regex_bits, st.text("abc._-", min_size=1, max_size=5)), max_size=5).map(
    "".join
)
part_items = st.one_of(
    digits,
    st.builds("{}-{}".format, digits, digits),
    st.builds("{}-".format, digits),
    st.builds("-{}".format, digits),
    st.sampled_from(["", " ", "x", "1-2-3", "٣", "１"]),
)
partition_lists = st.lists(part_items, max_size=5).map(",".join)
tp_rules = st.builds(
    "{}{}{}".format, topic_regexes, st.sampled_from(["", ":", "::"]), st.one_of(part_items, st.just(""))
)
topic_partitions = st.lists(tp_rules, max_size=4).map(",".join)


# ----------------------------------------------------------------------------- time, duration, zone


@PROPS
@given(st.one_of(durations(), noise))
@example("9" * 400 + "w")
@example("1e400s")
@example("nan s")
@example("inf")
@example("1" + "0" * 30 + "ms")
def test_duration_parses_or_usage_error(text: str) -> None:
    out = total(parse_duration, text)
    if not isinstance(out, UsageError):
        assert isinstance(out, int) and 0 <= out <= MAX_MS


@PROPS
@given(st.one_of(durations(), noise))
@example("0s")
@example("-1s")
def test_watch_interval_parses_or_usage_error(text: str) -> None:
    out = total(parse_interval, text)
    if not isinstance(out, UsageError):
        assert out > 0


@PROPS
@given(times, zones)
@example("9999-12-31T23:59:59.999Z", "UTC")
@example("0000-01-01", "UTC")
@example("1970-01-01T00:00:00+14:00", "UTC")
@example("now-" + "9" * 30 + "d", "UTC")
@example("2026-03-29T02:30", "Europe/Paris")  # a time that does not exist there (DST gap)
def test_time_parses_or_usage_error(text: str, zone: str) -> None:
    tz = total(parse_tz, zone)
    if isinstance(tz, UsageError):
        return
    out = total(parse_time, text, now_ms=NOW, tz=tz)
    if not isinstance(out, UsageError):
        assert 0 <= out <= MAX_MS


@PROPS
@given(st.lists(specs, max_size=4))
@example(["-0"])
@example(["latest", "-1"])
def test_offset_specs_parse_or_usage_error(texts: list[str]) -> None:
    out = total(parse_specs, texts, now_ms=NOW, tz=timezone.utc)
    if not isinstance(out, UsageError):
        assert out and len(set(out)) == len(out)
        for text in texts:
            assert parse_spec(text, now_ms=NOW, tz=timezone.utc) in out


# ----------------------------------------------------------------------------- selections


@PROPS
@given(topic_partitions)
@example("a:" + "9" * 40)
@example(":" * 3)
@example("a:5-2")
def test_topic_partitions_parse_or_usage_error(text: str) -> None:
    out = total(parse_topic_partitions, text)
    if not isinstance(out, UsageError):
        for rule in out:
            assert all(0 <= r.lower <= 2**31 - 1 for r in rule.partitions)


@PROPS
@given(st.one_of(st.none(), partition_lists))
@example("2147483648")
@example("0-0")
@example(",,")
def test_partitions_parse_or_usage_error(text: str | None) -> None:
    out = total(parse_partitions, text)
    if not isinstance(out, UsageError):
        for r in out:
            assert 0 <= r.lower <= 2**31 - 1 and (r.upper is None or r.lower < r.upper <= 2**31 - 1)


@PROPS
@given(
    st.lists(topic_regexes, max_size=3),
    st.one_of(st.none(), partition_lists),
    st.one_of(st.none(), topic_partitions),
    st.booleans(),
)
def test_selection_parses_or_usage_error(
    topics: list[str], partitions: str | None, tps: str | None, exclude: bool
) -> None:
    out = total(parse_selection, topics, partitions, tps, exclude)
    if not isinstance(out, UsageError):
        assert out.exclude_internal is exclude
        assert out.rules or tps is not None  # "--topic-partitions ," selects nothing (as GetOffsetShell)


# ----------------------------------------------------------------------------- client settings

prop_keys = st.one_of(
    st.sampled_from(
        [
            "security.protocol",
            "sasl.mechanism",
            "sasl.jaas.config",
            "ssl.truststore.location",
            "ssl.truststore.type",
            "ssl.truststore.password",
            "bootstrap.servers",
            "key.deserializer",
            "ssl.keystore.key",
        ]
    ),
    st.text(string.ascii_letters + ".=:\\ #!", max_size=15),
)
jaas_values = st.one_of(
    st.builds(
        '{} {} username="{}" password="{}"{}'.format,
        st.sampled_from(
            [
                "org.apache.kafka.common.security.scram.ScramLoginModule",
                "org.apache.kafka.common.security.plain.PlainLoginModule",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule",
                "com.sun.security.auth.module.Krb5LoginModule",
                "x",
            ]
        ),
        st.sampled_from(["required", "optional", "requisite", "sufficient", "needed", ""]),
        st.text(max_size=8),
        st.text(max_size=8),
        st.sampled_from([";", "", ";;", " ;"]),
    ),
    noise,
)
prop_lines = st.one_of(
    st.builds(
        "{}{}{}".format, prop_keys, st.sampled_from(["=", ":", " ", " = ", ""]), st.one_of(noise, jaas_values)
    ),
    st.sampled_from(["# comment", "! comment", "", "\\", "a=b\\", "  continued\\\\", "=x", ":"]),
)


@PROPS
@given(st.lists(prop_lines, max_size=8).map("\n".join))
@example('sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u";')
@example("ssl.truststore.location=/x.jks")
@example("a=b\\")
def test_properties_text_parses_or_usage_error(text: str) -> None:
    entries = total(parse_properties, text, "client.properties")
    if isinstance(entries, UsageError):
        return
    out = total(translate_java, entries, "client.properties")
    if not isinstance(out, UsageError):
        assert all(s.source.startswith("client.properties:") for s in out.values())


@PROPS
@given(jaas_values)
def test_jaas_parses_or_usage_error(value: str) -> None:
    out = total(parse_jaas, value, "f:1")
    if not isinstance(out, UsageError):
        # an OAUTHBEARER module without unsecured or OIDC options only names the mechanism
        assert out or "OAuthBearerLoginModule" in value


@PROPS
@given(st.lists(st.one_of(st.builds("{}={}".format, prop_keys, noise), noise), max_size=4))
def test_overrides_parse_or_usage_error(items: list[str]) -> None:
    total(parse_overrides, items)


bootstraps = st.lists(
    st.one_of(
        st.builds(
            "{}:{}".format, st.sampled_from(["127.0.0.1", "localhost", "[::1]", "a_b", "", "::1"]), digits
        ),
        st.sampled_from(["SASL_SSL://h:9093", "h", ":9092", "h:", "h:0", "h:65536", " h:1 "]),
        noise,
    ),
    min_size=1,
    max_size=3,
).map(",".join)


@PROPS
@given(bootstraps)
def test_bootstrap_parses_or_usage_error(servers: str) -> None:
    out = total(build_settings, servers, environ={})
    if not isinstance(out, UsageError):
        assert out.bootstrap_servers


@PROPS
@given(st.binary(max_size=200))
def test_command_config_file_parses_or_usage_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("props") / "client.properties"
    path.write_bytes(data)
    total(load_command_config, path)


# ----------------------------------------------------------------------------- the spec file

SPEC_KEYS = [
    "version", "defaults", "clusters", "checks", "timeout", "chunk_size", "task_size", "exclude_internal",
    "history", "window", "allowed_lag", "min_samples", "lookback", "bootstrap_servers", "command_config",
    "properties", "secrets_env", "sasl_username", "sasl_password_env", "isolation", "name", "type",
    "description", "cluster", "topics", "warn", "crit", "min_alive", "future_tolerance", "groups",
    "warn_lag", "crit_lag", "warn_time_lag", "crit_time_lag", "time_lag", "sasl.password", "local",
]  # fmt: skip
SPEC_SCALARS = [
    "local", "liveness", "lag", "5m", "-5m", "30s", "1h30m", "0", "127.0.0.1:9092", "h:99999", "orders\\..*",
    "(", "read_committed", "sideways", "KAFKA_PASSWORD", "1", "",
]  # fmt: skip
scalars = st.one_of(
    st.sampled_from(SPEC_SCALARS),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(SPEC_KEYS), scalars), children, max_size=5),
    ),
    max_leaves=30,
)
valid_skeleton = st.fixed_dictionaries(
    {
        "clusters": st.dictionaries(
            st.sampled_from(["local", "dr", "bad name"]),
            st.dictionaries(st.sampled_from(SPEC_KEYS), scalars, max_size=3).map(
                lambda d: {"bootstrap_servers": "127.0.0.1:9092", **d}
            ),
            max_size=2,
        ),
        "checks": st.lists(
            st.fixed_dictionaries(
                {
                    "name": st.sampled_from(["a", "b", "a"]),
                    "type": st.sampled_from(["liveness", "lag", "other"]),
                    "cluster": st.sampled_from(["local", "dr", "nowhere"]),
                },
                optional={k: scalars for k in ("topics", "warn", "crit", "groups", "warn_lag", "min_alive")},
            ),
            max_size=3,
        ),
    },
    optional={"defaults": documents, "version": scalars},
)


def spec_outcome(text: str, tmp: Path, *, is_json: bool = False) -> CheckSpec | UsageError:
    out = total(
        parse_spec_text, text, "spec.yaml", base_dir=tmp, environ={"KAFKA_PASSWORD": "pw"}, is_json=is_json
    )
    if isinstance(out, UsageError):
        assert isinstance(out, SpecFileError), f"a spec problem without file and line: {out.message!r}"
        assert out.message.startswith("spec.yaml: ")
        assert out.problems and all(p.strip() and "\n" not in p for p in out.problems)
    return out


@PROPS
@given(st.one_of(documents, valid_skeleton))
def test_spec_documents_parse_or_spec_error(tmp_path_factory: pytest.TempPathFactory, doc: Any) -> None:
    tmp = tmp_path_factory.mktemp("spec")
    try:
        text = yaml.safe_dump(doc, allow_unicode=True)
    except (yaml.YAMLError, ValueError, OverflowError):
        return
    spec_outcome(text, tmp)
    try:
        as_json = json.dumps(doc, allow_nan=False)
    except (TypeError, ValueError):
        return
    spec_outcome(as_json, tmp, is_json=True)


yaml_bits = st.sampled_from(
    ["a:", " b", "- ", "[", "]", "{", "}", "&x ", "*x", "<<: *x", "!!python/object:os.system",
     "!!binary", "---", "...", "%YAML 1.1", "\t", "'", '"', "#", ":", "? ", "|", ">", "\n", "  ",
     "clusters:", "checks:", "@", "`"]
)  # fmt: skip


@PROPS
@given(st.lists(st.one_of(yaml_bits, st.text(max_size=4)), max_size=30).map("".join))
@example("a: &a [*a]\n")
@example("!!python/object/apply:os.system ['true']\n")
@example("x: " + "[" * 600 + "]" * 600)
@example("clusters: {a: &a {b: *a}}\n")
def test_spec_text_parses_or_spec_error(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    spec_outcome(text, tmp_path_factory.mktemp("spec"))


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    out = spec_outcome("\n".join(lines) + "\n", tmp_path)  # 9**10 values if expanded
    assert isinstance(out, SpecFileError)
    assert f"more than {MAX_SPEC_VALUES:,}" in out.problems[0]


def test_deep_nesting_is_a_spec_error(tmp_path: Path) -> None:
    for text, is_json in (
        ("x: " + "[" * 50_000 + "]" * 50_000, False),
        ('{"x": ' + "[" * 50_000 + "]" * 50_000 + "}", True),
    ):
        out = spec_outcome(text, tmp_path, is_json=is_json)
        assert isinstance(out, SpecFileError) and "nested too deeply" in out.problems[0]


def test_huge_spec_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    entry = "  - {name: c, type: liveness, cluster: local, topics: [t], warn: 5m, crit: 10m}\n"
    path.write_text(
        "clusters: {local: {bootstrap_servers: 'h:1'}}\nchecks:\n"
        + entry * (MAX_SPEC_BYTES // len(entry) + 1)
    )
    with pytest.raises(SpecFileError) as info:
        load_spec(path)
    assert (
        info.value.message
        == f"{path}: (top level): the file is too large (a spec file may have at most 1024 KiB)"
    )
    with pytest.raises(UsageError, match=r"^/dev/zero: is a character device, expected a spec file$"):
        load_spec("/dev/zero")  # never ends: must not be read at all


def test_spec_file_not_utf8_or_directory(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"clusters: \xff\xfe\n")
    for path in (bad, tmp_path, tmp_path / "missing.yaml"):
        with pytest.raises(UsageError) as info:
            load_spec(path)
        assert str(path) in info.value.message and "\n" not in info.value.message
