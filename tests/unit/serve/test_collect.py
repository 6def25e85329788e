"""A collection: measures rendered by their own functions, a cluster down as its up 0 series (never an
exception), other failures counted per measure; the exporter's series on top."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from kafka_offsets_cli.errors import ClusterUnreachable, NotFound
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from kafka_offsets_cli.serve.collect import ClusterJob, Measure, collect, collect_cluster
from kafka_offsets_cli.serve.exporter import Exporter
from kafka_offsets_cli.serve.metrics import exposition

LABELS = {"cluster": "k1:9092", "env": "test"}


def measure(name: str, read: Callable[[Any], str]) -> Measure:
    return Measure(name=name, read=read, down=lambda: f"# TYPE {name}_up gauge\n{name}_up 0\n")


def ok(name: str) -> Measure:
    return measure(name, lambda client: f'# TYPE {name}_up gauge\n{name}_up{{client="{client}"}} 1\n')


def raising(name: str, err: Exception) -> Measure:
    def read(_client: Any) -> str:
        raise err

    return measure(name, read)


def job(*measures: Measure, connect: Callable[[], Any] | None = None) -> ClusterJob:
    @contextmanager
    def client() -> Iterator[str]:
        yield "c"

    return ClusterJob(labels=LABELS, connect=connect or client, measures=measures)


def ticking() -> Callable[[], float]:
    times = iter(range(0, 1000, 2))
    return lambda: float(next(times))


def test_every_measure_read_over_one_client_in_order() -> None:
    out = collect_cluster(job(ok("a"), ok("b")), ticking())
    assert out.texts == ('# TYPE a_up gauge\na_up{client="c"} 1\n', '# TYPE b_up gauge\nb_up{client="c"} 1\n')
    assert out.up and out.failed == {"a": False, "b": False} and out.errors == ()
    assert out.duration_s == 2.0


def test_a_cluster_down_mid_way_gives_the_rest_their_up_0_without_asking_again() -> None:
    asked: list[str] = []

    def counted(name: str) -> Measure:
        def read(_client: Any) -> str:
            asked.append(name)
            return f"{name}_up 1\n"

        return measure(name, read)

    out = collect_cluster(job(counted("a"), raising("b", ClusterUnreachable("gone")), counted("c")))
    assert asked == ["a"]
    assert out.texts == ("a_up 1\n", "# TYPE b_up gauge\nb_up 0\n", "# TYPE c_up gauge\nc_up 0\n")
    assert not out.up and out.failed == {"a": False, "b": True, "c": True}
    assert out.errors == ("b: gone", "c: gone")


def test_a_cluster_that_cannot_be_connected_is_every_measure_down() -> None:
    def refuse() -> Any:
        raise ClusterUnreachable("cannot connect")

    out = collect_cluster(job(ok("a"), ok("b"), connect=refuse))
    assert not out.up and out.failed == {"a": True, "b": True}
    assert [t.splitlines()[-1] for t in out.texts] == ["a_up 0", "b_up 0"]


def test_a_measure_failing_otherwise_leaves_its_series_out_and_the_cluster_up() -> None:
    out = collect_cluster(job(raising("a", NotFound("no group")), ok("b")))
    assert out.up and out.failed == {"a": True, "b": False}
    assert out.texts == ('# TYPE b_up gauge\nb_up{client="c"} 1\n',) and out.errors == ("a: no group",)


def test_a_bug_is_not_swallowed() -> None:
    with pytest.raises(KeyError):
        collect_cluster(job(raising("a", KeyError("x"))))


def test_the_exporter_series_count_collections_and_failures() -> None:
    flaky = iter([NotFound("none yet"), None, NotFound("none again")])

    def read(_client: Any) -> str:
        err = next(flaky)
        if err is not None:
            raise err
        return ""

    jobs = [job(ok("a"), measure("b", read))]
    first = collect(jobs, None, 1)
    second = collect(jobs, first, 2)
    third = collect(jobs, second, 3)
    metrics = parse_prometheus_text(exposition(third, 4.5))
    assert metrics["a_up"] == [({"client": "c"}, 1.0)]
    assert metrics["kafka_offsets_up"] == [(LABELS, 1.0)]
    assert metrics["kafka_offsets_collections_total"] == [(LABELS, 3.0)]
    assert metrics["kafka_offsets_collection_age_seconds"] == [(LABELS, 4.5)]
    assert metrics["kafka_offsets_collection_failed"] == [
        ({**LABELS, "measure": "a"}, 0.0),
        ({**LABELS, "measure": "b"}, 1.0),
    ]
    assert metrics["kafka_offsets_collection_errors_total"] == [
        ({**LABELS, "measure": "a"}, 0.0),
        ({**LABELS, "measure": "b"}, 2.0),
    ]


def test_the_exporter_logs_each_failure_and_serves_a_cached_collection() -> None:
    now = [0.0]
    lines: list[str] = []
    exporter = Exporter(
        [job(raising("a", ClusterUnreachable("refused")))],
        min_interval_s=10,
        log=lines.append,
        clock=lambda: now[0],
    )
    first = parse_prometheus_text(exporter.metrics())
    now[0] = 3.0
    again = parse_prometheus_text(exporter.metrics())
    assert first["kafka_offsets_up"] == [(LABELS, 0.0)] and first["a_up"] == [({}, 0.0)]
    assert again["kafka_offsets_collections_total"] == [(LABELS, 1.0)]
    assert again["kafka_offsets_collection_age_seconds"] == [(LABELS, 3.0)]
    assert lines == ["cluster=k1:9092,env=test: a: refused"]
