"""Monitoring output formats, shared by ``liveness`` and the Spark ``check`` command.

* Nagios / monitoring-plugins: one status line
  ``SERVICE STATUS - summary | 'label'=value[UOM];[warn];[crit];[min];[max] ...``
  (https://nagios-plugins.org/doc/guidelines.html#AEN200); labels are quoted
  when needed, a quote inside a label is doubled; ``=`` is not allowed in labels
  and becomes ``_``.
* Prometheus text exposition format 0.0.4 for node_exporter's textfile collector:
  ``# HELP``/``# TYPE`` per family, one sample per line, label values escaped
  (``\\``, ``"``, newline). Writing the file atomically is the caller's job
  (:func:`kafka_offsets_cli.cli.textfile.write_atomic`). Every series carries the
  run's constant labels (:func:`constant_labels`): ``cluster`` first, so two jobs
  for two clusters never write the same series; names follow Prometheus' conventions
  (base units, ``_seconds``; checked by ``promtool check metrics`` in the tests).

Pure: text in, text out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import MonitoringStatus, UsageError

if TYPE_CHECKING:  # rich only where a line is drawn for people
    from rich.text import Text

_METRIC_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
_PLAIN_LABEL = re.compile(r"[A-Za-z0-9_.:/-]+")


#: A status's colour on a terminal, the same in every command's tables and summary lines.
STATUS_STYLE = {
    MonitoringStatus.OK: "green",
    MonitoringStatus.WARNING: "yellow",
    MonitoringStatus.CRITICAL: "red",
    MonitoringStatus.UNKNOWN: "magenta",
}


def status_text(status: MonitoringStatus, *, before: str = "", after: str = "") -> Text:
    """``before``, the status's name in its colour, ``after``: one line for people (stderr, tables)."""
    from rich.text import Text

    line = Text(before)
    line.append(status.name, style=STATUS_STYLE[status])
    line.append(after)
    return line


# ----------------------------------------------------------------------------- nagios


@dataclass(frozen=True, kw_only=True)
class PerfDatum:
    """One performance-data item. ``None`` fields are left empty; a ``None`` value is ``U`` (unknown).
    ``warn``/``crit``: a number (alert above it), or a range of the guidelines as text (:func:`at_most`)."""

    label: str
    value: float | int | None
    uom: str = ""
    warn: float | int | str | None = None
    crit: float | int | str | None = None
    min: float | int | None = None
    max: float | int | None = None

    def render(self) -> str:
        """``'label'=value[UOM];[warn];[crit];[min];[max]`` with trailing empty fields dropped."""
        label = self.label.replace("=", "_")
        if not _PLAIN_LABEL.fullmatch(label):
            label = "'" + label.replace("'", "''") + "'"
        value = "U" if self.value is None else _num(self.value) + self.uom
        fields = [value] + [
            "" if v is None else v if isinstance(v, str) else _num(v)
            for v in (self.warn, self.crit, self.min, self.max)
        ]
        while len(fields) > 1 and fields[-1] == "":
            fields.pop()
        return f"{label}={';'.join(fields)}"


def at_most(v: float | int | None) -> str | None:
    """The threshold range that alerts at or below ``v`` (for a value where lower is worse): ``@~:v``,
    the guidelines' "inside -infinity..v, ends included" (a bare ``v`` would alert *above* it)."""
    return None if v is None else f"@~:{_num(v)}"


def _num(v: float | int) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if math.isnan(v) or math.isinf(v):
        return "U"
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _one_line(text: str) -> str:
    # '|' starts perfdata and a newline starts long output: neither may appear in the summary.
    return " ".join(text.replace("|", "/").split())


def nagios_line(
    service: str, status: MonitoringStatus, summary: str, perfdata: Sequence[PerfDatum] = ()
) -> str:
    """The plugin's one output line (with a trailing newline): ``SERVICE STATUS - summary | perfdata``."""
    line = f"{_one_line(service)} {status.name} - {_one_line(summary)}"
    if perfdata:
        line += " | " + " ".join(p.render() for p in perfdata)
    return line + "\n"


# ----------------------------------------------------------------------------- prometheus


@dataclass(frozen=True)
class Sample:
    """One sample of a metric family: labels and a value."""

    labels: Mapping[str, str]
    value: float | int


@dataclass(frozen=True)
class MetricFamily:
    """A Prometheus metric family (name, help text, type and samples)."""

    name: str
    help: str
    type: str = "gauge"
    samples: tuple[Sample, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if not _METRIC_NAME.fullmatch(self.name):
            raise ValueError(f"invalid metric name {self.name!r}")
        for s in self.samples:
            for k in s.labels:
                if not _LABEL_NAME.fullmatch(k) or k.startswith("__"):
                    raise ValueError(f"invalid label name {k!r}")


def _escape_label(v: str) -> str:
    return v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _escape_help(v: str) -> str:
    return v.replace("\\", "\\\\").replace("\n", "\\n")


def _value(v: float | int) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+Inf" if v > 0 else "-Inf"
    return repr(float(v))


#: The label that names the cluster on every series (the profile name, or the bootstrap servers).
CLUSTER_LABEL = "cluster"
#: The label of a group's type on its series (``lag`` and ``check`` alike).
TYPE_LABEL = "type"


def group_labels(group: str, group_type: str | None) -> dict[str, str]:
    """A group's labels: ``group``, then ``type`` (classic, consumer, share, streams) where the
    brokers listed one (a group they did not list has no ``type`` label)."""
    return {"group": group} if group_type is None else {"group": group, TYPE_LABEL: group_type}


def constant_labels(
    cluster: str | None, given: Sequence[str] = (), *, reserved: Iterable[str] = ()
) -> dict[str, str]:
    """The labels every series of a run carries: ``cluster`` (unless ``None``), then ``--label k=v``.

    A ``--label`` must be ``name=value`` with a Prometheus label name (not ``__``-prefixed),
    given once, and not one of ``reserved`` (the labels the series already use; ``cluster``
    may be given to replace the default unless reserved). A bad one is a UsageError.
    """
    taken = set(reserved)
    out: dict[str, str] = {} if cluster is None else {CLUSTER_LABEL: cluster}
    seen: set[str] = set()
    for item in given:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not _LABEL_NAME.fullmatch(name) or name.startswith("__"):
            raise UsageError(
                f"--label {item!r}: expected NAME=VALUE, NAME a label name: [a-zA-Z_][a-zA-Z0-9_]*, not __…"
            )
        if name in taken:
            raise UsageError(f"--label {name}: the metrics already use label {name!r}")
        if name in seen:
            raise UsageError(f"--label {name}: given twice")
        seen.add(name)
        out[name] = value
    return out


def prometheus_text(families: Iterable[MetricFamily], labels: Mapping[str, str] | None = None) -> str:
    """The exposition text of ``families`` (families without samples are left out).

    ``labels`` (:func:`constant_labels`) come first on every sample; a sample's own label
    of the same name wins (check's per-cluster series keep their cluster).
    """
    return "".join(
        chunk
        for fam in families
        for chunk in family_chunks(fam, ([(s.labels, s.value) for s in fam.samples],), labels)
    )


def family_chunks(
    family: MetricFamily,
    batches: Iterable[Sequence[tuple[Mapping[str, str], float | int]]],
    labels: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """The exposition text of ``family`` with the samples of ``batches`` (lists of (labels, value)),
    a chunk per batch: its ``# HELP``/``# TYPE`` lines before the first sample, nothing without one.

    The one writer of sample lines (:func:`prometheus_text` too): a family of one sample per
    partition is written a slice of partitions at a time, never as one object per partition.
    ``family.samples`` are not read.
    """
    const = dict(labels or {})
    name = family.name
    head = f"# HELP {name} {_escape_help(family.help)}\n# TYPE {name} {family.type}\n"
    for batch in batches:
        lines = []
        for own, value in batch:
            merged = {**const, **own} if const else own
            labels_text = ",".join(f'{k}="{_escape_label(v)}"' for k, v in merged.items())
            lines.append(
                f"{name}{{{labels_text}}} {_value(value)}\n" if labels_text else f"{name} {_value(value)}\n"
            )
        if lines:
            yield head + "".join(lines)
            head = ""


def parse_prometheus_text(text: str) -> dict[str, list[tuple[dict[str, str], float]]]:
    """Parse exposition text back into ``{name: [(labels, value)]}`` (for tests and sanity checks).

    Accepts what :func:`prometheus_text` writes: no timestamps, escaped label values.
    """
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    sample = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)", re.S)
    label = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')
    for line in text.split("\n"):  # only LF ends a line; label values may hold CR and the like
        if not line or line.startswith("#"):
            continue
        m = sample.fullmatch(line)
        if m is None:
            raise ValueError(f"not a sample line: {line!r}")
        name, body, raw = m.groups()
        labels: dict[str, str] = {}
        if body:
            pos = 0
            while pos < len(body):
                lm = label.match(body, pos)
                if lm is None:
                    raise ValueError(f"bad labels in {line!r}")
                labels[lm.group(1)] = re.sub(
                    r"\\(.)", lambda x: "\n" if x.group(1) == "n" else x.group(1), lm.group(2)
                )
                pos = lm.end()
        out.setdefault(name, []).append((labels, float(raw)))
    return out


def status_families(
    prefix: str, status: MonitoringStatus, now_ms: int, up: bool = True
) -> list[MetricFamily]:
    """The run-level families every monitoring textfile carries: up, status and last run time."""
    return [
        MetricFamily(
            f"{prefix}_up",
            "1 if the cluster answered in the last run, 0 if not.",
            samples=(Sample({}, int(up)),),
        ),
        MetricFamily(
            f"{prefix}_status",
            "Overall status of the last run: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=(Sample({}, int(status)),),
        ),
        MetricFamily(
            f"{prefix}_last_run_timestamp_seconds",
            "Unix time of the last run.",
            samples=(Sample({}, now_ms / 1000),),
        ),
    ]
