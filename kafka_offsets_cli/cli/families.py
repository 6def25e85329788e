"""Which command lines are monitoring checks: the one rule for their exit codes on a usage error.

A monitoring check (``liveness``, ``tiering``, ``check``, and ``lag`` with a threshold, ``-o
nagios|prometheus`` or ``--prometheus-file``) answers 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
Nagios, Icinga and cron wrappers read 2 as CRITICAL, so an invalid argument there is UNKNOWN
(3), as the monitoring-plugins guidelines say, and with ``-o nagios`` its status line is an
UNKNOWN one; the other commands keep exit 2 for usage errors.

The commands decide from their parsed options (:func:`lag_monitors`); a command line the parser
itself refuses (no such option, a bad value) is judged from its words (:func:`from_argv`).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Family", "from_argv", "lag_monitors", "service"]

#: Commands that are always monitoring checks.
ALWAYS = frozenset({"liveness", "tiering", "check"})
#: The threshold options of ``lag``: any of them (whatever its value) makes a run a monitoring check.
LAG_THRESHOLDS = frozenset({"--warn-lag", "--crit-lag", "--warn-time-lag", "--crit-time-lag"})
#: The output formats that make ``lag`` a monitoring check.
MONITOR_FORMATS = frozenset({"nagios", "prometheus"})
#: Where each monitoring command's Nagios service name is defined (module under the package, name).
_SERVICES = {
    "liveness": ("render.liveness", "SERVICE"),
    "tiering": ("render.tiering", "SERVICE"),
    "check": ("render.check_monitoring", "SERVICE"),
    "lag": ("render.lag_metrics", "SERVICE"),
}


def service(command: str) -> str:
    """The Nagios service name of a monitoring command (``KAFKA LIVENESS``…)."""
    module, name = _SERVICES[command]
    value: str = getattr(importlib.import_module(f"kafka_offsets_cli.{module}"), name)
    return value


def lag_monitors(*, thresholds: bool, prometheus_file: bool, output: str | None) -> bool:
    """Whether a ``lag`` run is a monitoring check (docs/reference.md "Exit codes"): thresholds, metrics
    delivered (``prometheus_file``: ``--prometheus-file`` or ``--otlp-endpoint``) or a monitoring format."""
    return thresholds or prometheus_file or (output is not None and output.lower() in MONITOR_FORMATS)


class Family(NamedTuple):
    """How a command line's usage error is reported: exit 3 (UNKNOWN), and the Nagios service of
    its UNKNOWN status line when ``-o nagios`` was asked (None otherwise)."""

    nagios_service: str | None


def from_argv(command: str, args: Sequence[str]) -> Family | None:
    """The family of ``kafka-offsets COMMAND ARGS`` that the parser refused; None: not monitoring.

    ``args`` are the words after the command name (``--`` ends the options).
    """
    if command not in ALWAYS and command != "lag":
        return None
    words = list(args[: args.index("--")] if "--" in args else args)
    output = _output(words)
    names = {w.split("=", 1)[0] for w in words if w.startswith("--")}
    if command == "lag" and not lag_monitors(
        thresholds=bool(names & LAG_THRESHOLDS),
        prometheus_file=bool(names & {"--prometheus-file", "--otlp-endpoint"}),
        output=output,
    ):
        return None
    return Family(service(command) if output is not None and output.lower() == "nagios" else None)


def _output(words: list[str]) -> str | None:
    """The value of the last ``-o``/``--output`` among ``words`` (``-o X``, ``-oX``, ``--output=X``)."""
    found = None
    for i, w in enumerate(words):
        if w in ("-o", "--output") and i + 1 < len(words):
            found = words[i + 1]
        elif w.startswith("--output="):
            found = w.split("=", 1)[1]
        elif w.startswith("-o") and not w.startswith("--") and len(w) > 2:
            found = w[2:]
    return found
