"""Unit tests of the monitoring formats (nagios, prometheus), the liveness renderers and atomic writes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kafka_offsets_cli.cli.textfile import write_atomic
from kafka_offsets_cli.errors import MonitoringStatus as S
from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.liveness.report import LivenessReport, build_report
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.render import liveness as rl
from kafka_offsets_cli.render.liveness_metrics import SERIES_LABELS
from kafka_offsets_cli.render.monitoring import (
    MetricFamily,
    PerfDatum,
    Sample,
    constant_labels,
    nagios_line,
    parse_prometheus_text,
    prometheus_text,
)

NOW = 1_800_000_000_000
MIN = 60_000

# monitoring-plugins perfdata: 'label'=value[UOM];[warn];[crit];[min];[max]
PERF = re.compile(r"^('(?:[^']|'')+'|[^'= ]+)=(U|-?[0-9.]+)([a-zA-Z%]*)(;[-0-9.]*){0,4}$")


def test_perfdatum_rendering() -> None:
    assert (
        PerfDatum(label="age", value=12.5, uom="s", warn=300, crit=900, min=0).render()
        == "age=12.5s;300;900;0"
    )
    assert (
        PerfDatum(label="alive", value=3, uom="", warn=None, crit=None, min=0, max=6).render()
        == "alive=3;;;0;6"
    )
    assert PerfDatum(label="x", value=None).render() == "x=U"
    assert PerfDatum(label="orders age", value=1.0, uom="s").render() == "'orders age'=1s"
    assert PerfDatum(label="it's", value=1).render() == "'it''s'=1"
    assert PerfDatum(label="a=b", value=1).render() == "a_b=1"


def test_nagios_line_is_one_line_and_keeps_pipes_out_of_the_summary() -> None:
    line = nagios_line("KAFKA X", S.WARNING, "a|b\nc", [PerfDatum(label="v", value=1)])
    assert line == "KAFKA X WARNING - a/b c | v=1\n"
    assert nagios_line("S", S.OK, "fine") == "S OK - fine\n"


def test_prometheus_text_format_and_escaping() -> None:
    fam = MetricFamily("m_x", "help \\ text\nmore", samples=(Sample({"a": 'q"\\\n'}, 1.5), Sample({}, 2)))
    text = prometheus_text([fam, MetricFamily("empty", "none")])
    assert text == ('# HELP m_x help \\\\ text\\nmore\n# TYPE m_x gauge\nm_x{a="q\\"\\\\\\n"} 1.5\nm_x 2\n')
    assert parse_prometheus_text(text) == {"m_x": [({"a": 'q"\\\n'}, 1.5), ({}, 2.0)]}


@given(st.text(min_size=0, max_size=30), st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_prometheus_roundtrip(value: str, number: float) -> None:
    text = prometheus_text([MetricFamily("m", "h", samples=(Sample({"topic": value}, number),))])
    assert parse_prometheus_text(text) == {"m": [({"topic": value}, float(number))]}


def test_invalid_names_are_rejected() -> None:
    with pytest.raises(ValueError):
        MetricFamily("1bad", "h")
    with pytest.raises(ValueError):
        MetricFamily("ok", "h", samples=(Sample({"__reserved": "x"}, 1),))


def report() -> LivenessReport:
    m = OffsetSpec.max_timestamp()
    results = [
        OffsetResult("orders", 0, m, 41, NOW - 10_000),
        OffsetResult("orders", 1, m, 17, NOW - 20 * MIN),
        OffsetResult("orders", 2, m, None),  # empty
        OffsetResult("clicks", 0, m, 3, NOW + 30 * MIN),  # future
    ]
    return build_report(
        results,
        NOW,
        5 * MIN,
        15 * MIN,
        timestamp_types={"orders": "CreateTime", "clicks": "LogAppendTime"},
        missing_topics=[("gone", "UNKNOWN_TOPIC_OR_PARTITION")],
        empty=S.CRITICAL,  # as --empty-status critical
    )


def test_liveness_nagios_line() -> None:
    line = rl.nagios(report())
    assert line.count("\n") == 1
    status, perf = line.rstrip("\n").split(" | ")
    assert status.startswith("KAFKA LIVENESS CRITICAL - 4 partition(s) in 3 topic(s): ")
    assert "orders CRITICAL" in status and "orders:1 critical 20m 00s" in status
    assert "clicks WARNING" in status and "future by 30m 00s" in status
    assert "gone UNKNOWN: UNKNOWN_TOPIC_OR_PARTITION" in status
    items = re.findall(r"'[^']*'=\S+|\S+=\S+", perf)
    assert all(PERF.match(i) for i in items), items
    assert "'orders age'=1200s;300;900;0" in items
    assert "'orders alive'=1;;;0;3" in items
    assert "'gone age'=U;300;900;0" in items


def test_liveness_prometheus_metrics() -> None:
    got = parse_prometheus_text(rl.prometheus(report()))
    assert got["kafka_offsets_liveness_up"] == [({}, 1.0)]
    assert got["kafka_offsets_liveness_status"] == [({}, 2.0)]
    ages = {(lab["topic"], lab["partition"]): v for lab, v in got["kafka_offsets_liveness_age_seconds"]}
    assert ages == {("orders", "0"): 10.0, ("orders", "1"): 1200.0, ("clicks", "0"): -1800.0}
    states = {
        (lab["topic"], lab["partition"]): lab["state"]
        for lab, _ in got["kafka_offsets_liveness_partition_state"]
    }
    assert states == {
        ("orders", "0"): "ok",
        ("orders", "1"): "critical",
        ("orders", "2"): "empty",
        ("clicks", "0"): "future",
    }
    topic = {lab["topic"]: v for lab, v in got["kafka_offsets_liveness_topic_status"]}
    assert topic == {"clicks": 1.0, "gone": 3.0, "orders": 2.0}
    types = {
        lab["topic"]: lab["timestamp_type"] for lab, _ in got["kafka_offsets_liveness_timestamp_type_info"]
    }
    assert types == {"orders": "CreateTime", "clicks": "LogAppendTime"}
    offs = {
        (lab["topic"], lab["partition"]): v for lab, v in got["kafka_offsets_liveness_max_timestamp_offset"]
    }
    assert offs == {("orders", "0"): 41, ("orders", "1"): 17, ("clicks", "0"): 3}


def test_prometheus_down_file() -> None:
    got = parse_prometheus_text(rl.prometheus_down(S.UNKNOWN, NOW, {"cluster": "prod"}))
    assert got == {
        "kafka_offsets_liveness_up": [({"cluster": "prod"}, 0.0)],
        "kafka_offsets_liveness_status": [({"cluster": "prod"}, 3.0)],
        "kafka_offsets_liveness_last_run_timestamp_seconds": [({"cluster": "prod"}, NOW / 1000)],
    }


def test_constant_labels_come_first_on_every_series() -> None:
    labels = constant_labels("127.0.0.1:9092", ["env=prod", "dc=eu-1"], reserved=SERIES_LABELS)
    assert list(labels) == ["cluster", "env", "dc"]
    text = rl.prometheus(report(), labels)
    samples = [line for line in text.splitlines() if not line.startswith("#")]
    assert samples and all(
        line.split("{", 1)[1].startswith('cluster="127.0.0.1:9092",env="prod",dc="eu-1"') for line in samples
    )
    # --label cluster=NAME replaces the default name
    assert constant_labels("127.0.0.1:9092", ["cluster=prod"]) == {"cluster": "prod"}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (["env"], "expected NAME=VALUE"),
        (["1env=x"], "expected NAME=VALUE"),
        (["__name__=x"], "expected NAME=VALUE"),
        (["topic=x"], "already use label 'topic'"),
        (["env=a", "env=b"], "given twice"),
    ],
)
def test_bad_label_options_are_usage_errors(given: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        constant_labels("c", given, reserved=SERIES_LABELS)


def test_liveness_records_include_missing_topics() -> None:
    recs = rl.records(report())
    assert [(r["topic"], r["partition"], r["state"]) for r in recs] == [
        ("clicks", 0, "future"),
        ("gone", None, "error"),
        ("orders", 0, "ok"),
        ("orders", 1, "critical"),
        ("orders", 2, "empty"),
    ]


def test_write_atomic_replaces_the_file_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "kafka.prom"
    target.write_text("old\n")
    inode_before = os.stat(target).st_ino
    write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert os.stat(target).st_ino != inode_before  # renamed over, not rewritten in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kafka.prom"]
    assert oct(os.stat(target).st_mode & 0o777) == oct(0o644)


def test_write_atomic_reports_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        write_atomic(tmp_path / "nope" / "x.prom", "x")
