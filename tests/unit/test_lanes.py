"""tests/lanes.py: which modules share an xdist worker, and the longest-first order of the units."""

from __future__ import annotations

import json
from pathlib import Path

from tests import lanes


def test_modules_sharing_a_costly_fixture_are_one_unit_even_through_a_chain() -> None:
    uses = {
        "tests/test_a.py": {"bootstrap", "cluster3"},
        "tests/test_b.py": {"cluster", "tiered_bootstrap"},  # cluster (healed cluster3) joins a and c
        "tests/test_c.py": {"tiered_bootstrap"},
        "tests/test_d.py": {"bootstrap"},
        "tests/test_e.py": {"spark_runtime"},
    }
    unit = lanes.families(uses)
    assert unit["tests/test_a.py"] == unit["tests/test_b.py"] == unit["tests/test_c.py"]
    assert unit["tests/test_a.py"] == "cluster3+tiered_bootstrap"
    assert unit["tests/test_d.py"] == "tests/test_d.py"  # the plain broker is not shared across lanes
    assert unit["tests/test_e.py"] == "spark_runtime"


def test_the_spark_jvm_modules_are_one_unit() -> None:
    uses = {"tests/test_spark_cluster.py": {"bootstrap"}, "tests/test_install_matrix.py": {"built_dist"}}
    unit = lanes.families(uses)
    assert unit["tests/test_spark_cluster.py"] == "built_dist+spark-jvms"
    assert unit["tests/test_install_matrix.py"] == "built_dist+spark-jvms"


def test_units_go_longest_first_and_a_units_modules_keep_their_order() -> None:
    modules = ["m1", "m2", "m3", "m4"]
    unit = {"m1": "u", "m2": "m2", "m3": "u", "m4": "m4"}
    seconds = {"m1": 10.0, "m2": 25.0, "m3": 20.0, "m4": 5.0}
    assert lanes.order(modules, unit, seconds) == ["m1", "m3", "m2", "m4"]  # u = 30 s, m2 = 25, m4 = 5


def test_an_unknown_module_counts_the_default_and_ties_keep_collection_order() -> None:
    modules = ["old", "new", "other"]
    unit = {m: m for m in modules}
    assert lanes.order(modules, unit, {"old": lanes.UNKNOWN_S, "other": lanes.UNKNOWN_S + 1}) == [
        "other",
        "old",
        "new",
    ]


def test_durations_are_read_from_the_file_and_a_missing_file_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "durations.json"
    assert lanes.load_durations(path) == {}
    path.write_text(json.dumps({"tests/test_a.py": 12}), encoding="utf-8")
    assert lanes.load_durations(path) == {"tests/test_a.py": 12.0}


def test_the_committed_durations_name_modules_that_exist() -> None:
    root = lanes.DURATIONS.parent.parent
    missing = [m for m in lanes.load_durations() if not (root / m).is_file()]
    assert missing == []


def test_a_test_belongs_to_its_modules_family_or_to_its_module() -> None:
    units = {"tests/test_chaos.py": "cluster3"}
    assert lanes.unit_of_test("tests/test_chaos.py::test_x[a-b]", units) == "cluster3"
    assert lanes.unit_of_test("tests/test_list_cmd.py::TestX::test_y", units) == "tests/test_list_cmd.py"


def test_a_stale_units_file_is_named_with_what_it_should_hold() -> None:
    unit_of = {"tests/test_a.py": "cluster3", "tests/test_b.py": "tests/test_b.py"}
    assert lanes.stale(unit_of, {"tests/test_a.py": "cluster3", "tests/test_gone.py": "x"}) is None
    problem = lanes.stale(unit_of, {"tests/test_b.py": "cluster3"})
    assert problem is not None and str(lanes.UNITS) in problem
    assert json.loads(problem.split("\n", 1)[1]) == {"tests/test_a.py": "cluster3"}


def test_the_committed_units_are_what_the_families_give_for_the_committed_modules() -> None:
    committed = lanes.load_units()
    assert committed, "tests/units.json lists the modules of the shared families"
    root = lanes.UNITS.parent.parent
    assert [m for m in committed if not (root / m).is_file()] == []
