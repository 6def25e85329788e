"""The layout rules of dev/layout.py: each rule caught on a small made-up package, and the real one clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from dev import layout


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / layout.PACKAGE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(layout, "ROOT", tmp_path)
    return _tree(
        tmp_path,
        {
            "__init__.py": "",
            "kafka/__init__.py": "import confluent_kafka\n",
            "spark/__init__.py": "from pyspark.sql import SparkSession\n",
            "cli/__init__.py": "from ..kafka import x\n",
            "render/__init__.py": "",
            "lag/__init__.py": "",
        },
    )


def messages(root: Path) -> list[str]:
    return [f"{b.path}:{b.line}: {b.message}" for b in layout.check(root)]


def test_the_owners_may_import_their_libraries(fake: Path) -> None:
    assert messages(fake) == []


def test_kafka_and_spark_libraries_outside_their_package(fake: Path) -> None:
    _tree(fake, {"lag/core.py": "def f():\n    import confluent_kafka.admin\n"})
    _tree(fake, {"check.py": "import pyarrow\n"})
    assert messages(fake) == [
        "kafka_offsets_cli/check.py:1: imports pyarrow: only kafka_offsets_cli/spark/ may",
        "kafka_offsets_cli/lag/core.py:2: imports confluent_kafka: only kafka_offsets_cli/kafka/ may",
    ]


def test_the_core_never_imports_the_commands(fake: Path) -> None:
    _tree(fake, {"lag/core.py": "from ..cli.options import x\n", "__main__.py": "from .cli.app import app\n"})
    assert messages(fake) == [
        "kafka_offsets_cli/lag/core.py:1: imports kafka_offsets_cli.cli.options: "
        "the core must not import the commands (cli/)"
    ]


def test_renderers_stay_pure(fake: Path) -> None:
    _tree(fake, {"render/lag.py": "from ..kafka import client\n"})
    assert messages(fake) == [
        "kafka_offsets_cli/render/lag.py:1: imports kafka_offsets_cli.kafka: render/ must not import kafka/",
    ]


def test_features_are_siblings(fake: Path) -> None:
    _tree(
        fake,
        {
            "check/__init__.py": "",
            "check/plan.py": "def f():\n    from ..lag.plan import plan_group\n",
            "measures/__init__.py": "",
            "measures/lag.py": "from ..check import plan\n",
            "lag/rows.py": "from ..measures.lag import x\n",
        },
    )
    assert messages(fake) == [
        "kafka_offsets_cli/check/plan.py:2: imports kafka_offsets_cli.lag.plan: check/ must not import lag/",
        "kafka_offsets_cli/measures/lag.py:1: imports kafka_offsets_cli.check: "
        "measures/ must not import check/",
    ]


def test_long_modules(fake: Path) -> None:
    _tree(fake, {"lag/long.py": "x = 1\n" * (layout.MAX_LINES + 1)})
    (only,) = messages(fake)
    n = layout.MAX_LINES + 1
    assert only == f"kafka_offsets_cli/lag/long.py:1: {n} lines (at most 350): split it by concern"


def test_the_real_package_keeps_the_rules() -> None:
    """The package itself: no breach of any rule (``python -m dev.layout`` prints ``layout: ok``)."""
    assert [str(b) for b in layout.check()] == []
