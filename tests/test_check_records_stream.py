"""The check report's partition records kept as one Arrow table, and ``-o json`` streamed from it.

The streamed JSON must be byte for byte the document printed whole, the Arrow-backed records the
same records in the same order as the Python objects they replace, and ``--write`` files what
they were when written from rows. pyarrow only (no Spark).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.check.records import PartitionRecord, PartitionRecords
from kafka_offsets_cli.check.report import CheckReport, CheckResult, GroupResult, TopicResult
from kafka_offsets_cli.cli.output import write_chunks
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.render import check_monitoring
from kafka_offsets_cli.render.check import json_chunks, json_document
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from kafka_offsets_cli.spark import write as write_module
from kafka_offsets_cli.spark.frames import RECORD_COLUMNS, record_batch, record_row
from kafka_offsets_cli.spark.records import report_order
from kafka_offsets_cli.spark.write import write_table

# any text Arrow can hold (no lone surrogates), quotes, newlines and non-ASCII included
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=8)
NAME = st.sampled_from(["a", "b", "é", "Z", "a b", "日本", "x\ny", 'q"'])
INT = st.none() | st.integers(-(2**63), 2**63 - 1)


@st.composite
def record(draw: st.DrawFn) -> PartitionRecord:
    lag = draw(st.booleans())
    return PartitionRecord(
        check=draw(NAME),
        kind="lag" if lag else "liveness",
        cluster=draw(NAME),
        topic=draw(NAME),
        partition=draw(st.none() | st.integers(-1, 2**31 - 1)),
        group=draw(NAME) if lag else draw(st.none() | st.just("")),
        group_type=draw(st.sampled_from([None, "classic", "consumer", "share", "streams"])) if lag else None,
        committed=draw(INT),
        log_start=draw(INT),
        end=draw(INT),
        lag=draw(INT),
        time_lag_ms=draw(INT),
        offset=draw(INT),
        timestamp=draw(INT),
        age_ms=draw(INT),
        state=draw(st.sampled_from(["ok", "warning", "no-commit", "error"])),
        status=draw(st.sampled_from(list(MonitoringStatus))),
        error=draw(st.none() | TEXT),
        history=draw(st.none() | st.sampled_from(["ok", "stall"])),
    )


RECORDS = st.lists(record(), max_size=12)


def _checks() -> tuple[CheckResult, ...]:
    crit = MonitoringStatus.CRITICAL
    topic = TopicResult(check="live", cluster="c", topic="t", status=crit, partitions=2, alive=1, age_ms=5)
    group = GroupResult(
        check="lag", cluster="c", group="g", status=crit, partitions=2, lag=7, lagging=1,
        max_lag=7, max_time_lag_ms=None, problems=0, trend=(1, None, 3), error="x\n\"y\"",
    )  # fmt: skip
    return (
        CheckResult(
            name="live", type="liveness", status=crit, clusters=("c",), partitions=2,
            states={"ok": 1, "critical": 1}, summary="1 topic CRITICAL", topics=(topic,),
        ),
        CheckResult(
            name="lag", type="lag", status=crit, clusters=("c",), partitions=2, states={"ok": 2},
            summary="ünïcode", problems=("p",), groups=(group,),
        ),
    )  # fmt: skip


def _report(parts: Any) -> CheckReport:
    return CheckReport(status=MonitoringStatus.CRITICAL, checks=_checks(), partitions=parts, now_ms=1)


def _arrow(recs: list[PartitionRecord]) -> Any:
    return pa.Table.from_batches([record_batch(recs)])


def _ordered(recs: list[PartitionRecord]) -> PartitionRecords:
    """``recs`` as the pipeline holds them: the table as collected (in chunks), and its order."""
    table = pa.Table.from_batches([record_batch(recs[:3]), record_batch(recs[3:])])
    return PartitionRecords(table, report_order(table))


def _by_key(recs: list[PartitionRecord]) -> list[PartitionRecord]:
    return sorted(recs, key=lambda r: r.key)


def _whole(recs: list[PartitionRecord]) -> str:
    """The document printed whole, as ``-o json`` printed it before it was streamed."""
    doc = {
        "status": "CRITICAL",
        "checks": [c.to_record() for c in _checks()],
        "partitions": [r.to_record() for r in recs],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


@settings(max_examples=60, deadline=None)
@given(RECORDS, st.sampled_from([1, 2, 5, 2_000]))
def test_streamed_json_is_the_whole_document_byte_for_byte(recs: list[PartitionRecord], size: int) -> None:
    want = _whole(recs)
    for parts in (tuple(recs), PartitionRecords(_arrow(recs))):
        chunks = list(json_chunks(_report(parts), size=size))
        assert "".join(chunks) == want
        assert len(chunks) == (1 if not recs else 2 + -(-len(recs) // size))  # a chunk per slice
        assert json_document(_report(parts)) == want
        assert _report(parts).to_document() == json.loads(want)
    # as Spark's records come: unsorted, read through their report order
    assert "".join(json_chunks(_report(_ordered(recs)), size=size)) == _whole(_by_key(recs))


@settings(max_examples=40, deadline=None)
@given(RECORDS)
def test_arrow_records_are_the_records_in_order(recs: list[PartitionRecord]) -> None:
    parts = PartitionRecords(_arrow(recs))
    assert len(parts) == len(recs) and list(parts) == recs
    if recs:
        assert parts[0] == recs[0] and parts[-1] == recs[-1] and parts[1:3] == tuple(recs[1:3])
    with pytest.raises(IndexError):
        parts[len(recs)]
    ordered, want = _ordered(recs), _by_key(recs)
    assert len(ordered) == len(want) and list(ordered) == want
    assert [ordered[i] for i in range(-len(want), len(want))] == want + want
    # the writers' slices, in order, whatever their size
    for size in (1, 3, max(1, len(want))):
        assert [r for part in ordered.slices(size) for r in PartitionRecords(part)] == want


@settings(max_examples=60, deadline=None)
@given(RECORDS)
def test_arrow_sort_is_the_report_order(recs: list[PartitionRecord]) -> None:
    # stable, strings by code point: exactly what sorting the objects by their key gave
    assert list(PartitionRecords(_arrow(recs).take(report_order(_arrow(recs))))) == _by_key(recs)


@settings(max_examples=40, deadline=None)
@given(RECORDS)
def test_prometheus_partition_series_are_the_records(recs: list[PartitionRecord]) -> None:
    """The per-partition series, written a slice at a time, say what each record says, in report
    order, the same from the Arrow table as from the objects (whatever the slice size)."""
    want_order = _by_key(recs)
    text = check_monitoring.prometheus(_report(tuple(want_order)), {"site": "x"})
    assert check_monitoring.prometheus(_report(_ordered(recs)), {"site": "x"}) == text
    with patch.object(check_monitoring, "SLICE", 2):
        assert "".join(check_monitoring.prometheus_chunks(_report(tuple(want_order)), {"site": "x"})) == text
    parsed = parse_prometheus_text(text)
    with_part = [r for r in want_order if r.partition is not None]

    def labels(r: PartitionRecord) -> dict[str, str]:
        got = {"site": "x", "check": r.check, "cluster": r.cluster}
        return {
            **got,
            **({} if r.group is None else {"group": r.group}),
            "topic": r.topic,
            "partition": str(r.partition),
        }

    status = parsed.get("kafka_offsets_check_partition_status", [])
    assert status == [(labels(r), float(int(r.status))) for r in with_part]
    lag = parsed.get("kafka_offsets_check_partition_lag", [])
    assert lag == [(labels(r), float(r.lag)) for r in with_part if r.kind == "lag" and r.lag is not None]
    age = parsed.get("kafka_offsets_check_partition_age_seconds", [])
    assert [got for got, _ in age] == [
        labels(r) for r in with_part if r.kind == "liveness" and r.age_ms is not None
    ]
    assert text.count("# TYPE kafka_offsets_check_partition_status ") == (1 if with_part else 0)


def _old_csv(rows: list[tuple[Any, ...]], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow([n for n, _ in RECORD_COLUMNS])
        w.writerows(["" if v is None else v for v in r] for r in rows)


@settings(max_examples=15, deadline=None)
@given(RECORDS)
def test_write_from_the_arrow_table_gives_the_files_rows_gave(recs: list[PartitionRecord]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows = [record_row(r) for r in recs]
        write_table(None, _arrow(recs), "csv", str(tmp / "csv"))
        _old_csv([record_row(r) for r in _by_key(recs)], tmp / "sorted.csv")
        with patch.object(write_module, "WRITE_SLICE", 3):  # several slices, row groups
            write_table(None, _ordered(recs), "csv", str(tmp / "sorted"))
            write_table(None, _ordered(recs), "parquet", str(tmp / "sorted-pq"))
        assert (tmp / "sorted" / "part-00000.csv").read_bytes() == (tmp / "sorted.csv").read_bytes()
        back = pq.read_table(tmp / "sorted-pq" / "part-00000.parquet").to_pylist()
        assert back == [dict(zip(_names(), record_row(r), strict=True)) for r in _by_key(recs)]
        _old_csv(rows, tmp / "old.csv")
        assert (tmp / "csv" / "part-00000.csv").read_bytes() == (tmp / "old.csv").read_bytes()
        write_table(None, _arrow(recs), "parquet", str(tmp / "pq"))
        write_table(None, rows, "parquet", str(tmp / "rows"))
        new, old = tmp / "pq" / "part-00000.parquet", tmp / "rows" / "part-00000.parquet"
        assert new.read_bytes() == old.read_bytes()
        assert pq.read_table(new).to_pylist() == [dict(zip(_names(), r, strict=True)) for r in rows]


def _names() -> list[str]:
    return [n for n, _ in RECORD_COLUMNS]


def test_chunks_reach_stdout_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    write_chunks(iter(["{", '"a"', ": 1}\n"]))
    assert capsys.readouterr().out == '{"a": 1}\n'
