"""The check driver defers pandas (kafka_offsets_cli/spark/deferred.py): pyspark's version checks pass
without loading it, any real use loads the real module, and the records' report order needs none."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka_offsets_cli.lazyimport import defer_import, is_deferred

PKG = "ko_lazy_probe"


def _fresh(code: str) -> str:
    """Run ``code`` in a new interpreter (pandas never imported before it); its stdout."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A module whose import appends to a log file and which has a version of its own."""
    log = tmp_path / "runs.log"
    (tmp_path / f"{PKG}.py").write_text(
        f"with open({str(log)!r}, 'a') as fh:\n    fh.write('init\\n')\n__version__ = 'own'\nVALUE = 7\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield log
    sys.modules.pop(PKG, None)


def test_an_answered_attribute_does_not_load_the_module(probe: Path) -> None:
    assert defer_import(PKG, answers={"__version__": lambda: "1.2.3"})
    import ko_lazy_probe

    assert hasattr(ko_lazy_probe, "__version__")
    assert ko_lazy_probe.__version__ == "1.2.3"
    assert is_deferred(PKG)
    assert not probe.exists()
    assert ko_lazy_probe.VALUE == 7  # anything else loads it, once
    assert ko_lazy_probe.__version__ == "own"  # then the module's own attributes answer
    assert probe.read_text().split() == ["init"]


def test_an_answer_of_none_loads_the_module(probe: Path) -> None:
    assert defer_import(PKG, answers={"__version__": lambda: None})
    import ko_lazy_probe

    assert ko_lazy_probe.__version__ == "own"
    assert not is_deferred(PKG)


def test_pyspark_version_checks_pass_without_loading_pandas() -> None:
    """What pyspark does on mapInArrow and on its first py4j call, with pandas deferred."""
    out = _fresh(
        """
        from kafka_offsets_cli.spark.deferred import defer_pandas, pandas_loaded
        assert defer_pandas()
        import pyspark.testing.utils  # the py4j numpy converter's import: checks pandas' version
        from pyspark.sql.pandas.utils import require_minimum_pandas_version
        require_minimum_pandas_version()  # what mapInArrow's pandas_udf calls
        assert pyspark.testing.utils.have_pandas
        assert not pandas_loaded(), "pandas was loaded"
        from importlib.metadata import version
        import pandas
        assert pandas.__version__ == version("pandas")
        print("ok")
        """
    )
    assert out == "ok"


def test_a_real_use_of_pandas_loads_the_real_module() -> None:
    out = _fresh(
        """
        import sys
        from kafka_offsets_cli.spark.deferred import defer_pandas, pandas_loaded
        assert defer_pandas()
        import pandas
        import pyarrow as pa
        table = pa.table({"a": [1, 2]})  # converts Python values: pyarrow's pandas check loads it
        assert pandas_loaded()
        frame = table.to_pandas()
        assert isinstance(frame, pandas.DataFrame) and list(frame["a"]) == [1, 2]
        assert sys.modules["pandas"] is pandas
        print("ok")
        """
    )
    assert out == "ok"


def test_the_report_order_does_not_load_pandas() -> None:
    """The driver sorts the records it gets back with Arrow values only (no Python conversion)."""
    out = _fresh(
        """
        from kafka_offsets_cli.spark.deferred import defer_pandas, pandas_loaded
        assert defer_pandas()
        import pyarrow as pa
        from kafka_offsets_cli.spark.arrow_build import arrow_column
        from kafka_offsets_cli.spark.records import report_order
        table = pa.table({
            "check": arrow_column(["b", "a", "a", "a"], "string"),
            "cluster": arrow_column(["c", "c", "c", "c"], "string"),
            "group": arrow_column([None, "g", None, ""], "string"),
            "topic": arrow_column(["t", "t", "u", "t"], "string"),
            "partition": arrow_column([0, 1, None, 0], "int"),
        })
        print(report_order(table).to_pylist())
        assert not pandas_loaded(), "pandas was loaded"
        """
    )
    # check "a" first; in it group "" (a null group counts as "") before "g"; then topic "t" before "u"
    assert out == "[3, 2, 1, 0]"


def test_defer_pandas_leaves_an_imported_pandas_alone() -> None:
    out = _fresh(
        """
        import pandas
        from kafka_offsets_cli.spark.deferred import defer_pandas, pandas_loaded
        assert not defer_pandas()
        assert pandas_loaded()
        print("ok")
        """
    )
    assert out == "ok"
