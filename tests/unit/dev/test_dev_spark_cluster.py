"""dev/spark_cluster.py's pure parts: which driver paths a worker's namespace hides."""

from __future__ import annotations

from pathlib import Path

from dev.spark_cluster import _worker_script, outermost


def test_a_path_inside_another_hidden_path_is_not_mounted_again(tmp_path: Path) -> None:
    checkout, out = tmp_path / "main", tmp_path / "out"
    venv = checkout / ".venv"  # CI's clone: the venv inside the checkout
    for p in (venv, out):
        p.mkdir(parents=True)
    assert outermost([venv, checkout, out, checkout]) == [checkout, out]
    script = _worker_script(tmp_path / "spark", tmp_path / "home", [checkout, venv, out])
    assert f"tmpfs '{checkout}'" in script and f"tmpfs '{out}'" in script
    assert str(venv) not in script


def test_sibling_paths_are_each_hidden(tmp_path: Path) -> None:
    a, ab = tmp_path / "a", tmp_path / "ab"  # a prefix of the name is not a parent
    assert outermost([ab, a]) == [ab, a]
