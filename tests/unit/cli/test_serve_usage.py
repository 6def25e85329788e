"""``serve``'s usage errors: one line and exit 2, found before anything listens or connects (the cluster
named is a closed port: a run that contacted it would not end this way)."""

from __future__ import annotations

import socket

import pytest

from tests.cli_runner import cli

NOWHERE = "127.0.0.1:9"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--no-lag",), "nothing to serve: --lag, --liveness or --tiering"),
        (("--label", "measure=x"), "--label measure: the exporter's series already use label 'measure'"),
        (("--label", "group=x"), "--label group: the metrics already use label 'group'"),
        (("--liveness", "--label", "state=x"), "--label state: the metrics already use label 'state'"),
        (("--listen", ":9308"), "--listen ':9308': name the address"),
        (("--min-interval", "soon"), "invalid duration 'soon'"),
        (("--warn-lag", "10", "--crit-lag", "5"), "--warn-lag 10 is above --crit-lag 5"),
        (("--liveness", "--warn", "9m", "--crit", "5m"), "--warn 9m is longer than --crit 5m"),
        (("--type", "nope"), "--type takes classic, consumer, share, streams"),
        (("--liveness", "--future-tolerance", "later"), "invalid duration 'later'"),
        (("--liveness", "--empty-status", "fine"), "Invalid value for '--empty-status'"),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    run = cli("serve", "-b", NOWHERE, *args)
    assert run.code == 2, run.stderr
    assert message in run.stderr and "listening" not in run.stderr
    assert run.stdout == ""


def test_an_address_in_use_is_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = cli("serve", "-b", NOWHERE, "--listen", f"127.0.0.1:{port}")
    assert run.code == 2
    assert f"--listen 127.0.0.1:{port}: Address already in use" in run.stderr
