"""Topic and group filters pushed into the data source's read: what the units keep (no Spark session)."""

from __future__ import annotations

from pyspark.sql.datasource import EqualTo, GreaterThan, In, IsNotNull

from kafka_offsets_cli.check.units import WorkUnit
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.spark.source_pushdown import allowed_values, narrowed_units, pushdown_on

A0, A1, B0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0)


def unit(
    index: int, live: tuple[TopicPartition, ...], groups: dict[str, tuple[TopicPartition, ...]]
) -> WorkUnit:
    return WorkUnit(
        cluster="source",
        index=index,
        settings=build_settings("h:1"),
        live=live,
        groups=tuple(groups.items()),
        time_lag=False,
        chunk_size=10,
    )


def test_equal_and_in_filters_on_a_column_are_anded() -> None:
    filters = [In(("topic",), ("a", "b", "c")), EqualTo(("topic",), "a"), GreaterThan(("partition",), 0)]
    assert allowed_values(filters, "topic") == frozenset({"a"})
    assert allowed_values(filters, "group") is None  # nothing restricts it
    assert allowed_values([IsNotNull(("topic",))], "topic") is None  # not a list of values
    assert allowed_values([EqualTo(("topic",), "a"), EqualTo(("topic",), "b")], "topic") == frozenset()


def test_units_keep_only_what_the_filters_allow_and_empty_ones_go() -> None:
    units = (unit(0, (A0, A1), {}), unit(1, (B0,), {}))
    assert narrowed_units(units, frozenset({"a"}), None) == (units[0],)
    assert narrowed_units(units, None, None) == units
    lag = (unit(0, (), {"g": (A0, B0), "h": (A1,)}),)
    [kept] = narrowed_units(lag, frozenset({"b"}), frozenset({"g", "h"}))
    assert kept.groups == (("g", (B0,)),)  # h has nothing on b: gone
    assert narrowed_units(lag, None, frozenset({"x"})) == ()


class _Conf:
    def __init__(self, value: str | None) -> None:
        self.value = value

    def get(self, key: str, default: str) -> str:
        assert key == "spark.sql.python.filterPushdown.enabled"
        return default if self.value is None else self.value


class _Session:
    def __init__(self, value: str | None) -> None:
        self.conf = _Conf(value)


def test_pushdown_is_on_only_where_the_session_says_so() -> None:
    assert pushdown_on(_Session("true")) and pushdown_on(_Session(" TRUE "))
    assert not pushdown_on(_Session(None)) and not pushdown_on(_Session("false"))
