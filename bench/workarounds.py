"""Does each workaround pay? Every case runs the same command with and without one, alternating.

    python -m bench.workarounds --bootstrap B [--reps 7] [--only REGEX]

Needs a cluster holding :mod:`bench.setup_data`'s data set (``bench.p1``; ``bench.m.00`` …
``bench.m.19``: 10,000 partitions; groups ``bench.g.00`` … ``bench.g.19``). Every sample is a
whole process run as ``python -c WRAPPER kafka_offsets_cli ARGS…``: the wrapper imports the
module that holds the workaround and, for the "without" runs only, switches it off, then runs
the CLI's ``main`` on ``ARGS``; both variants pay the same wrapper. The cases:

* ``asyncio``: ``list -t bench.p1`` (one partition, what a cron job or a shell runs), with
  asyncio deferred (:mod:`kafka_offsets_cli.lazyimport`, as shipped) and imported at once
  (what ``confluent_kafka``'s ``__init__`` does without the deferral);
* ``fast-list-offsets``: ``list`` of four specs over the 10,000 ``bench.m`` partitions, through
  librdkafka's C entry point (one future per call, as shipped) and through
  ``AdminClient.list_offsets`` (a future per partition: the fallback);
* ``gcpause``: the same ``list`` with the cyclic garbage collector paused while the answers
  are turned into results (:mod:`kafka_offsets_cli.gcpause`, as shipped) and left running;
* ``gcpause-lag``: the same for ``lag`` of the 20 groups (10,000 rows): one pause over its read and
  output kept to the exit, and no last full collection at the exit (``gcpause.no_final_pass``);
* ``arenas``: ``check`` (``local[*]``, liveness and lag with time lag over the 10,000 partitions
  and 20 groups, ``-o json``) with glibc's malloc arenas capped at two (``MALLOC_ARENA_MAX=2``:
  what the removed ``cli/arenas.py`` set) and as shipped (glibc's default, 8 per core).

``--reps`` pairs run A B A B … (the order flips every pair), so a busy machine weighs on both
alike; the first pair's outputs must match (the check's records without their timestamps).
Reported per variant: median wall, CPU (the process tree's) and peak RSS of the CLI's Python
process (``VmHWM``, polled) with min–max, and the median of the per-pair ratios without/with.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import setup_data  # noqa: E402
from bench.bench_check import PY, Run, alternation, run, spec_text  # noqa: E402
from bench.runner import log, machine_info, now_iso  # noqa: E402

#: The wrapper: ``{load}`` imports the workaround's module, ``{off}`` switches it off ("" when on).
WRAPPER = (
    "import sys\n{load}\n{off}\n"
    "sys.argv = ['kafka-offsets', *sys.argv[2:]]\n"
    "from kafka_offsets_cli.__main__ import main\nmain()\n"
)


@dataclass(frozen=True, kw_only=True)
class Case:
    """One workaround: the command, how to load and switch it off, what must match in the outputs."""

    key: str
    args: Callable[[str, Path], list[str]]
    load: str
    off: str
    same: Callable[[str], object] = lambda out: out
    #: environment of the "with" runs (a workaround that is a setting, not code)
    env_on: tuple[str, ...] = ()


def _check_records(out: str) -> object:
    """A check's JSON records without what changes from run to run (timestamps, ages, timings)."""
    volatile = re.compile(r"(time|age|_at$|_ms$|duration|elapsed)", re.I)

    def strip(x: object) -> object:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if not volatile.search(k)}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip(json.loads(out))


#: ``list`` of three named specs (the fourth, a time, is added per case)
FOUR_SPECS = ("list", "-s", "earliest", "-s", "latest", "-s", "max-timestamp")


def cases() -> list[Case]:
    """The workarounds measured, each with its command at the scale its claim is about."""
    m = alternation(setup_data.m_topics())
    ts = "2025-01-01T00:10:00Z"
    groups = alternation(setup_data.groups())
    return [
        Case(
            key="asyncio",
            args=lambda b, _: ["list", "-b", b, "-t", "bench.p1", "-o", "plain"],
            load="",
            off="import asyncio",
        ),
        Case(
            key="fast-list-offsets",
            args=lambda b, _: [*FOUR_SPECS, "-b", b, "-t", m, "-s", ts, "-o", "csv", "--timeout", "120s"],
            load="import kafka_offsets_cli.kafka.list_offsets as lo",
            off="lo._C_LIST_OFFSETS = None",
            same=lambda out: sorted(out.splitlines()),
        ),
        Case(
            key="gcpause",
            args=lambda b, _: [*FOUR_SPECS, "-b", b, "-t", m, "-s", ts, "-o", "csv", "--timeout", "120s"],
            load="import contextlib, kafka_offsets_cli.gcpause as gcpause",  # before its users import it
            off="gcpause.gc_paused = contextlib.nullcontext",
            same=lambda out: sorted(out.splitlines()),
        ),
        Case(
            key="gcpause-lag",
            args=lambda b, _: ["lag", "-b", b, "--group-regex", groups, "-o", "jsonl", "--timeout", "120s"],
            load="import contextlib, kafka_offsets_cli.gcpause as gcpause",
            # both parts: no pause over the read and output, and the exit's last full collection
            off=(
                "gcpause.gc_paused = lambda **_: contextlib.nullcontext(); "
                "gcpause.no_final_pass = lambda: None"
            ),
            same=lambda out: sorted(out.splitlines()),
        ),
        Case(
            key="arenas",
            args=lambda b, tmp: ["check", str(_spec(b, tmp)), "-o", "json"],
            load="",
            off="",
            env_on=("MALLOC_ARENA_MAX=2",),  # what the removed cli/arenas.py set with mallopt(M_ARENA_MAX, 2)
            same=_check_records,
        ),
    ]


def _spec(bootstrap: str, tmp: Path) -> Path:
    path = tmp / "check.yaml"
    path.write_text(
        spec_text(bootstrap, alternation(setup_data.m_topics()), alternation(setup_data.groups()))
    )
    return path


def _argv(case: Case, on: bool, args: list[str]) -> list[str]:
    code = WRAPPER.format(load=case.load, off="" if on else case.off)
    env = ["/usr/bin/env", *case.env_on] if on and case.env_on else []  # env execs: the same process
    # "kafka_offsets_cli" marks the CLI's process for the poller
    return [*env, PY, "-c", code, "kafka_offsets_cli", *args]


def _stat(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}–{max(xs):.3f})"


def bench_case(case: Case, bootstrap: str, reps: int, tmp: Path) -> dict[str, object]:
    """Verify, then time ``reps`` pairs of ``case``; a summary line is logged and returned."""
    args = case.args(bootstrap, tmp)
    samples: dict[bool, list[Run]] = {True: [], False: []}
    for i in range(reps):
        for on in (True, False) if i % 2 == 0 else (False, True):
            r = run([_argv(case, on, args)], tmp, f"{case.key}.{on}.{i}")
            if r.rc:
                raise SystemExit(
                    f"{case.key} (workaround {'on' if on else 'off'}) failed:\n{r.errs[-1][-2000:]}"
                )
            samples[on].append(r)
        if i == 0 and case.same(samples[True][0].outs[0]) != case.same(samples[False][0].outs[0]):
            raise SystemExit(f"{case.key}: the outputs with and without the workaround differ")

    def col(on: bool, f: Callable[[Run], float]) -> list[float]:
        return [f(r) for r in samples[on]]

    wall = {on: col(on, lambda r: r.wall) for on in (True, False)}
    cpu = {on: col(on, lambda r: r.cpu) for on in (True, False)}
    rss = {on: col(on, lambda r: r.peaks.get("driver_python", 0.0)) for on in (True, False)}
    pair = {
        name: [off / on for on, off in zip(xs[True], xs[False], strict=True) if on > 0]
        for name, xs in (("wall", wall), ("cpu", cpu), ("rss", rss))
    }
    result = {
        "case": case.key,
        "reps": reps,
        **{
            f"{n}_{'on' if on else 'off'}": _stat(xs[on])
            for n, xs in (("wall_s", wall), ("cpu_s", cpu))
            for on in (True, False)
        },
        **{f"rss_mb_{'on' if on else 'off'}": _stat(rss[on]) for on in (True, False)},
        **{
            f"{n}_off_over_on": f"{statistics.median(r):.3f} ({min(r):.3f}–{max(r):.3f})"
            for n, r in pair.items()
        },
    }
    log(json.dumps(result))
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the cases; print one JSON line per case (and the machine's state) on stdout."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--only", default="", help="only the cases whose key matches this regex")
    a = p.parse_args(argv)
    print(json.dumps({"at": now_iso(), **machine_info()}))
    with tempfile.TemporaryDirectory(prefix="bench-workarounds-") as d:
        for case in cases():
            if re.search(a.only, case.key):
                print(json.dumps(bench_case(case, a.bootstrap, a.reps, Path(d))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
