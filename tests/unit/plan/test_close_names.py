"""Did you mean (pure, a fake cluster): a named topic that does not exist gets the cluster's close names."""

from __future__ import annotations

from kafka_offsets_cli.models.topics import ClusterMetadata
from kafka_offsets_cli.parse.selection import Selection, TopicRule
from kafka_offsets_cli.plan.queries import close_names, resolve_selection
from tests.unit.fake_cluster import FakeCluster, topic


def test_close_names_are_a_case_variant_then_difflibs_matches() -> None:
    names = ["orders", "Orders.v2", "payments", "order-audit"]
    assert close_names("ordrs", names) == ("orders",)
    assert close_names("ORDERS", names) == ("orders",)  # the same name in another case first
    assert close_names("zzz", names) == ()
    assert close_names("orders", names) == ()  # never the name itself


def test_a_missing_plain_name_is_resolved_with_the_clusters_close_names() -> None:
    md = ClusterMetadata({"orders": topic("orders", 1), "payments": topic("payments", 1)})
    source = FakeCluster(md, {}, [])

    def missing(*names: str) -> list[str]:
        selection = Selection(rules=tuple(TopicRule(n) for n in names), topics=names)
        _md, res = resolve_selection(source, selection)
        return [str(m) for m in res.missing]

    # a plain name is described by name (a narrowed listing): the close names cost one listing
    assert missing("orders", "ordrs") == ["ordrs: UNKNOWN_TOPIC_OR_PARTITION (did you mean 'orders'?)"]
    assert missing("orders", "xyz") == ["xyz: UNKNOWN_TOPIC_OR_PARTITION"]
