"""The two lanes of ``make test``: which test modules share a pytest-xdist worker, and in what order.

One lane leaves the machine half idle: over a whole run on the 2-core CI size, ``vmstat`` showed 45 %
of the CPU idle, while brokers start, fault tests wait out the timeouts they test, tiered storage
uploads and MirrorMaker copies. So ``make test`` runs two pytest-xdist workers and this module
decides what runs where:

- **Families.** A worker starts the session fixtures its tests use. Modules that use one of the
  costly shared ones (:data:`SHARED`: the 3-node clusters, the tiered broker, the DR pair, the local
  Spark session, the built wheel) are one unit of work, so each is still started once per run; and
  a fault test that kills or freezes a node of the 3-node cluster never runs beside another module
  using that cluster. Modules that start a Spark cluster or Connect server of their own are one unit
  too (:data:`SPARK_JVMS`): two of those at once on 2 cores starved each other's workers. Any other
  module is a unit of its own.
- **Who knows what.** Only workers collect, and only they see the fixtures; xdist's scheduler (in
  the controller) sees test ids. ``tests/units.json`` (:data:`UNITS`) is the committed family of
  every module that shares one; each worker recomputes it from the fixtures at collection and stops
  the run when it differs (:func:`stale`), and :func:`scheduler` hands xdist the units. (xdist's own
  ``--dist loadgroup`` rewrites ``item._nodeid``, which pytest 9.2 no longer reads.)
- **Order.** Units go longest first (:func:`order`), timed by ``tests/durations.json`` (``python -m
  dev.durations JUNIT.xml`` writes it from a run's ``--junitxml``; a module not in it counts
  :data:`UNKNOWN_S`), so that the two lanes end together.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

#: fixtures that a worker starts once for the session, and that must therefore serve one lane only
SHARED = frozenset(
    {
        "cluster3",
        "tiered_bootstrap",
        "tiered_cluster3",
        "dr_pair",
        "spark_runtime",
        "built_dist",
    }
)
#: fixtures that are another name for one of :data:`SHARED`
ALIASES = {"cluster": "cluster3"}  # cluster3, healed around a fault test
#: the family of the modules that start a Spark standalone cluster or a Spark Connect server
SPARK_JVMS = "spark-jvms"
#: modules that start a Spark cluster or Connect server of their own (not a fixture of conftest's)
SPARK_JVM_MODULES = frozenset(
    {
        "test_spark_cluster.py",
        "test_spark_connect.py",
        "test_history_store_connect.py",
        "test_install_matrix.py",
        "test_spark_checkpoint_lag.py",  # a Structured Streaming query in a pyspark venv of its own
    }
)
#: seconds assumed for a module that tests/durations.json does not know yet
UNKNOWN_S = 30.0
DURATIONS = Path(__file__).resolve().parent / "durations.json"
UNITS = Path(__file__).resolve().parent / "units.json"


def families(uses: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """The unit of work of each module: ``{module: unit}``, where ``uses`` maps each module to the
    fixture names its tests use.

    Modules that share a fixture of :data:`SHARED` (directly, or through a chain of modules) get one
    unit named after those fixtures; the Spark-JVM modules are one unit with them; any other module is
    a unit of its own, named by itself.
    """
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def union(a: str, b: str) -> None:
        parent[find(a)] = find(b)

    for module, fixtures in uses.items():
        keys = sorted(SHARED.intersection(ALIASES.get(f, f) for f in fixtures))
        if Path(module).name in SPARK_JVM_MODULES:
            keys.append(SPARK_JVMS)
        for key in keys:
            union(f"module:{module}", f"fixture:{key}")
    members: dict[str, list[str]] = {}
    for module in uses:
        members.setdefault(find(f"module:{module}"), []).append(module)
    unit_of: dict[str, str] = {}
    for root, modules in members.items():
        keys = sorted(
            k.removeprefix("fixture:") for k in parent if k.startswith("fixture:") and find(k) == root
        )
        name = "+".join(keys) if keys else modules[0]
        for module in modules:
            unit_of[module] = name
    return unit_of


def order(modules: Sequence[str], unit_of: Mapping[str, str], seconds: Mapping[str, float]) -> list[str]:
    """``modules`` (in collection order) reordered so that the units go longest first; a unit's modules
    keep their order among themselves.  Ties keep collection order."""
    total: dict[str, float] = {}
    first: dict[str, int] = {}
    for n, module in enumerate(modules):
        unit = unit_of[module]
        total[unit] = total.get(unit, 0.0) + seconds.get(module, UNKNOWN_S)
        first.setdefault(unit, n)
    rank = {unit: r for r, unit in enumerate(sorted(total, key=lambda u: (-total[u], first[u])))}
    place = {module: n for n, module in enumerate(modules)}
    return sorted(modules, key=lambda m: (rank[unit_of[m]], place[m]))


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    """``{module path relative to the repository: seconds}`` from ``path``; empty when it is missing."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {str(k): float(v) for k, v in data.items()}


def shared_units(unit_of: Mapping[str, str]) -> dict[str, str]:
    """The part of ``unit_of`` that ``tests/units.json`` holds: the modules whose unit is a family."""
    return {module: unit for module, unit in sorted(unit_of.items()) if unit != module}


def load_units(path: Path = UNITS) -> dict[str, str]:
    """``{module: unit}`` of the modules in a family, from ``path``; empty when it is missing."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {str(k): str(v) for k, v in data.items()}


def stale(unit_of: Mapping[str, str], committed: Mapping[str, str]) -> str | None:
    """Why ``committed`` (tests/units.json) is not what the fixtures say, with the content it should
    have; ``None`` when it is right.  Only the collected modules are compared (a run of a few files)."""
    wanted = shared_units(unit_of)
    seen = {m: u for m, u in committed.items() if m in unit_of}
    if wanted == seen:
        return None
    expected = {**{m: u for m, u in committed.items() if m not in unit_of}, **wanted}
    return f"{UNITS} does not match the fixtures the tests use; write this into it:\n" + json.dumps(
        dict(sorted(expected.items())), indent=1
    )


def unit_of_test(nodeid: str, units: Mapping[str, str]) -> str:
    """The unit of work of the test ``nodeid``: its module's family, or its module."""
    module = nodeid.split("::", 1)[0]
    return units.get(module, module)


def scheduler(config: Any, log: Any) -> Any:
    """xdist's load-by-scope scheduling with :func:`unit_of_test` as the scope (its
    ``pytest_xdist_make_scheduler`` hook in tests/conftest.py returns this)."""
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    units = load_units()

    class UnitScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return unit_of_test(nodeid, units)

    return UnitScheduling(config, log)
