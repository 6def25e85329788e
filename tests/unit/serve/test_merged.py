"""serve/metrics.py's merged(): several renderers' texts as one valid exposition (pure)."""

from __future__ import annotations

from kafka_offsets_cli.render.monitoring import MetricFamily, Sample, parse_prometheus_text, prometheus_text
from kafka_offsets_cli.serve.metrics import merged


def text(cluster: str, lag: int) -> str:
    return prometheus_text(
        [
            MetricFamily("kafka_offsets_lag_up", "Up.", samples=(Sample({}, 1),)),
            MetricFamily("kafka_offsets_lag_group_lag", "Lag.", samples=(Sample({"group": "g"}, lag),)),
            MetricFamily("kafka_offsets_lag_warn_lag", "Threshold.", samples=()),
        ],
        {"cluster": cluster},
    )


def test_each_family_once_with_every_texts_samples_in_first_seen_order() -> None:
    body = merged([text("a", 3), text("b", 4)])
    lines = body.splitlines()
    assert lines.count("# HELP kafka_offsets_lag_group_lag Lag.") == 1
    assert lines.count("# TYPE kafka_offsets_lag_group_lag gauge") == 1
    assert [ln.split(" ")[2] for ln in lines if ln.startswith("# HELP")] == [
        "kafka_offsets_lag_up",
        "kafka_offsets_lag_group_lag",
    ]  # a family without samples is not written at all
    at = lines.index("# TYPE kafka_offsets_lag_group_lag gauge")
    assert lines[at + 1 : at + 3] == [
        'kafka_offsets_lag_group_lag{cluster="a",group="g"} 3',
        'kafka_offsets_lag_group_lag{cluster="b",group="g"} 4',
    ]
    assert parse_prometheus_text(body)["kafka_offsets_lag_up"] == [
        ({"cluster": "a"}, 1.0),
        ({"cluster": "b"}, 1.0),
    ]


def test_one_text_is_unchanged() -> None:
    one = text("a", 3)
    assert merged([one]) == one
    assert merged([]) == ""


def test_a_series_two_texts_write_is_kept_once_the_first_ones() -> None:
    # lag and liveness of one cluster both give --metrics-compat's partition-offset aliases
    def offsets(value: int) -> str:
        labels = {"topic": "t x", "partition": "0"}
        fam = MetricFamily("kafka_topic_partition_current_offset", "C.", samples=(Sample(labels, value),))
        return prometheus_text([fam], {"cluster": "a"})

    body = merged([offsets(5), offsets(6), text("a", 3)])
    assert parse_prometheus_text(body)["kafka_topic_partition_current_offset"] == [
        ({"cluster": "a", "topic": "t x", "partition": "0"}, 5.0)
    ]
    assert merged([text("a", 3), text("a", 3)]) == text("a", 3)
