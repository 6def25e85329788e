"""cli/otlp_push.py: the push's options checked before anything is contacted (no receiver, no broker)."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_offsets_cli.cli import otlp_push
from kafka_offsets_cli.errors import UsageError


@pytest.mark.parametrize(
    ("given", "url"),
    [
        ("http://collector:4318", "http://collector:4318/v1/metrics"),
        ("http://collector:4318/", "http://collector:4318/v1/metrics"),
        ("https://otlp.example/api/v1/otlp/v1/metrics", "https://otlp.example/api/v1/otlp/v1/metrics"),
    ],
)
def test_a_url_without_a_path_gets_the_metrics_path(given: str, url: str) -> None:
    target = otlp_push.otlp_target(given, ["Authorization=Bearer a=b", " X-Scope = t1 "])
    assert target is not None and target.url == url
    assert dict(target.headers) == {"Authorization": "Bearer a=b", "X-Scope": "t1"}
    assert "Bearer" not in repr(target)


def test_the_url_shown_has_no_user_info_or_query() -> None:
    target = otlp_push.otlp_target("https://user:pw@otlp.example:443/v1/metrics?token=x#f", None)
    assert target is not None and target.shown == "https://otlp.example:443/v1/metrics"


def test_without_the_extra_the_option_names_the_install_line(monkeypatch: Any) -> None:
    monkeypatch.setattr("kafka_offsets_cli.render.otlp.available", lambda: False)
    with pytest.raises(UsageError) as e:
        otlp_push.otlp_target("http://collector:4318", None)
    assert "otlp extra" in e.value.message and "pip install '.[otlp]'" in (e.value.hint or "")


def test_no_endpoint_no_push() -> None:
    assert otlp_push.otlp_target(None, None) is None
    with pytest.raises(UsageError, match="needs --otlp-endpoint"):
        otlp_push.otlp_target(None, ["A=b"])


def test_a_receiver_that_is_not_there_is_a_failure_returned_not_raised() -> None:
    target = otlp_push.otlp_target("http://127.0.0.1:1", ["Authorization=secret"])
    assert target is not None
    failed = otlp_push.push(target, b"", 2.0)
    assert failed is not None and failed.message.startswith(
        "OTLP push to http://127.0.0.1:1/v1/metrics failed: "
    )
    assert "secret" not in failed.message
