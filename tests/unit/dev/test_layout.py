"""The layout rules of dev/layout.py: each rule caught on a small made-up package, and the real one clean.

The made-up package is ``shop`` under ``tmp_path``, with its own docs/development.md: the check takes the root
and the package's name, so nothing here reads the real package but the last test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dev import layout, layout_graph
from dev.layout_known import Known

PKG = "shop"

#: one module per layer, each importing downward only, and the commands thin
CLEAN = {
    "__init__.py": '__version__ = "1"\n',
    "errors.py": "",
    "models/__init__.py": "",
    "models/offsets.py": "from ..errors import Failure\n",
    "kafka/__init__.py": "import confluent_kafka\nfrom ..models import offsets\n",
    "kafka/kafka_python.py": "import kafka.protocol\n",
    "lag/__init__.py": "",
    "lag/rows.py": "from ..models.offsets import Offset\n",
    "liveness/__init__.py": "",
    "liveness/rules.py": "from ..kafka import KafkaClient\n",
    "spark/__init__.py": (
        "from pyspark.sql import SparkSession\n\nfrom .. import __version__\nfrom ..lag import rows\n"
    ),
    "render/__init__.py": "",
    "render/lag.py": "from ..lag.rows import LagRow\n",
    "cli/__init__.py": "",
    "cli/output.py": "",
    "cli/lag_cmd.py": (
        "from ..render import lag\nfrom . import output\n\n\ndef f():\n    from ..spark import x\n"
    ),
    "__main__.py": "from .cli.lag_cmd import f\n",
}

DEVELOPMENT = """# Development

- Layout:

  ```
  shop/
    models/      frozen results
    kafka/       the one client;
                 kafka_python
    lag/ liveness/   the rules
    spark/       only what imports pyspark
    render/      pure renderers
    cli/         thin commands
    errors.py    the exceptions
  ```

## Licence
"""
TREE_LINE = 6  # the docs/development.md line of `shop/`


def write(root: Path, files: dict[str, str]) -> None:
    """Write (or overwrite) modules of the made-up package."""
    for name, text in files.items():
        path = root / PKG / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A clean made-up package and its docs/development.md, under ``tmp_path``."""
    write(tmp_path, CLEAN)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "development.md").write_text(DEVELOPMENT)
    return tmp_path


def new(root: Path, known: tuple[Known, ...] = ()) -> list[str]:
    """The breaches that fail the check, as ``python -m dev.layout`` prints them."""
    return [str(b) for b in layout.check(root, PKG, known).new]


def test_a_clean_package_passes(shop: Path) -> None:
    report = layout.check(shop, PKG, ())
    assert report.new == report.allowed == []
    assert report.summary().startswith("layout: ok: layer 0, sibling 0, cycle 0, command 0,")


def test_an_upward_import_names_both_modules(shop: Path) -> None:
    write(shop, {"kafka/client.py": "from ..render.lag import table\n"})
    assert new(shop) == [
        "shop/kafka/client.py:1: layer: kafka.client (kafka) imports render.lag (render): a higher layer"
    ]


def test_the_core_never_imports_the_commands_even_lazily(shop: Path) -> None:
    write(shop, {"lag/core.py": '"""Doc."""\n\n\ndef f():\n    from ..cli.output import x\n'})
    assert new(shop) == [
        "shop/lag/core.py:5: layer: lag.core (features) imports cli.output (cli): a higher layer"
    ]


def test_a_module_outside_the_layers_must_be_placed(shop: Path) -> None:
    write(shop, {"newthing/__init__.py": "", "newthing/a.py": ""})
    assert new(shop) == [
        f"docs/development.md:{TREE_LINE}: tree: the package tree omits newthing/",
        "shop/newthing/__init__.py:1: layer: newthing is in no layer: place it in LAYERS",
    ]


def test_a_feature_imports_a_sibling(shop: Path) -> None:
    write(shop, {"liveness/report.py": "from ..lag.rows import LagRow\n"})
    assert new(shop) == [
        "shop/liveness/report.py:1: sibling: liveness.report imports lag.rows: "
        "the features do not import each other"
    ]


def test_a_two_module_cycle(shop: Path) -> None:
    write(shop, {"cli/a.py": "from .b import x\n", "cli/b.py": "import os\nfrom shop.cli.a import y\n"})
    assert new(shop) == ["shop/cli/a.py:1: cycle: import cycle cli.a:1 -> cli.b:2 -> cli.a"]


def test_a_cycle_through_a_lazy_import(shop: Path) -> None:
    """``from . import a`` inside a function: the submodule ``a``, loaded late, is still a dependency."""
    write(shop, {"lag/a.py": "from .b import x\n", "lag/b.py": "def f():\n    from . import a\n"})
    assert new(shop) == ["shop/lag/a.py:1: cycle: import cycle lag.a:1 -> lag.b:2 -> lag.a"]


def test_each_cycle_of_a_tangle_is_a_chain(shop: Path) -> None:
    """a -> b -> c -> a and b -> a: one component, two cycles, each read from its smallest module."""
    write(shop, {"cli/a.py": "from . import b\n", "cli/b.py": "from . import a, c\n"})
    write(shop, {"cli/c.py": "from . import a\n"})
    assert new(shop) == [
        "shop/cli/a.py:1: cycle: import cycle cli.a:1 -> cli.b:1 -> cli.a",
        "shop/cli/a.py:1: cycle: import cycle cli.a:1 -> cli.b:1 -> cli.c:1 -> cli.a",
    ]


def test_cycles_beyond_the_limit_are_summed_up() -> None:
    graph = {m: {n: 1 for n in "abcd" if n != m} for m in "abcd"}  # every module imports every other
    (component,) = layout_graph.components(graph)
    found, complete = layout_graph.cycles(graph, component, limit=5)
    assert (len(found), complete) == (5, False)
    triangle = {m: {n: 1 for n in "abc" if n != m} for m in "abc"}
    assert layout_graph.cycles(triangle, "abc") == (
        [["a", "b"], ["a", "b", "c"], ["a", "c"], ["a", "c", "b"], ["b", "c"]],
        True,
    )


def test_an_oversized_command(shop: Path) -> None:
    n = layout.MAX_COMMAND_LINES + 1
    write(shop, {"cli/list_cmd.py": "x = 1\n" * n, "cli/list_view.py": "x = 1\n" * n})  # a view may be longer
    assert new(shop) == [
        f"shop/cli/list_cmd.py:1: command: {n} lines (a command at most 150): move its work below cli/"
    ]


def test_long_modules(shop: Path) -> None:
    n = layout.MAX_LINES + 1
    write(shop, {"lag/long.py": "x = 1\n" * n})
    assert new(shop) == [f"shop/lag/long.py:1: size: {n} lines (at most 350): split it by concern"]


def test_kafka_and_spark_libraries_outside_their_package(shop: Path) -> None:
    write(shop, {"lag/core.py": "def f():\n    import confluent_kafka.admin\n"})
    write(shop, {"errors.py": "import pyarrow\n", "kafka/admin.py": "from kafka.protocol import x\n"})
    assert new(shop) == [
        "shop/errors.py:1: owner: imports pyarrow: only shop/spark/ may",
        "shop/kafka/admin.py:1: owner: imports kafka: "
        "only kafka.kafka_python, kafka.list_offsets_kafka_python, kafka.list_offsets_partitions, "
        "kafka.offset_fetch, kafka.describe_groups, kafka.coordinated, kafka.group_messages may",
        "shop/lag/core.py:2: owner: imports confluent_kafka: only shop/kafka/ may",
    ]


def test_renderers_stay_pure(shop: Path) -> None:
    write(shop, {"render/offsets.py": "from ..kafka import client\n"})
    assert new(shop) == [
        "shop/render/offsets.py:1: pure: render.offsets imports kafka: render/ must not import kafka/"
    ]


def test_an_allowlisted_breach_passes_and_is_counted(shop: Path) -> None:
    write(shop, {"liveness/report.py": "from ..lag.rows import LagRow\n"})
    known = (Known("sibling", ("liveness.report", "lag.rows"), "moves in issue 28.1"),)
    report = layout.check(shop, PKG, known)
    assert report.new == []
    assert [str(b) for b in report.allowed] == [
        "shop/liveness/report.py:1: sibling: liveness.report imports lag.rows: "
        "the features do not import each other"
    ]
    assert report.summary().startswith("layout: ok: layer 0, sibling 1 (1 known), cycle 0,")
    assert report.summary().endswith("; 1 allowlisted in all")


def test_a_stale_allowlist_entry_fails(shop: Path) -> None:
    """The code moved: its entry matches nothing, and must go (the list only shrinks)."""
    known = (Known("cycle", ("cli.a", "cli.b"), "moves in issue 28.2"),)
    assert new(shop, known) == [
        "dev/layout_known.py: allowlist: entry 1 (cycle: cli.a, cli.b) matches no breach: delete it"
    ]
    assert layout.check(shop, PKG, known).summary().startswith("layout: 1 new breach(es): ")


def test_an_allowlisted_command_may_not_grow(shop: Path) -> None:
    known = (Known("command", ("cli.lag_cmd",), "moves in issue 28.3", lines=160),)
    write(shop, {"cli/lag_cmd.py": "x = 1\n" * 160})
    assert new(shop, known) == []
    write(shop, {"cli/lag_cmd.py": "x = 1\n" * 161})
    assert new(shop, known) == [
        "shop/cli/lag_cmd.py:1: command: 161 lines (a command at most 150): move its work below cli/; "
        "allowlisted at 160 lines, not more"
    ]


def test_the_tree_missing_a_folder_or_a_module(shop: Path) -> None:
    write(shop, {"tiering/__init__.py": "", "tally.py": ""})
    (shop / PKG / "schemas").mkdir()  # package data counts too
    (shop / PKG / "schemas" / "spec.json").write_text("{}")
    assert new(shop) == [
        f"docs/development.md:{TREE_LINE}: tree: the package tree omits schemas/",
        f"docs/development.md:{TREE_LINE}: tree: the package tree omits tally.py",
        f"docs/development.md:{TREE_LINE}: tree: the package tree omits tiering/",
    ]


def test_the_tree_listing_what_is_not_there(shop: Path) -> None:
    errors = "    errors.py    the exceptions\n"
    text = DEVELOPMENT.replace(errors, f"{errors}    gone/ old.py  x\n")
    (shop / "docs" / "development.md").write_text(text)
    assert new(shop) == [
        f"docs/development.md:{TREE_LINE + 9}: tree: the package tree lists gone/, not in shop/",
        f"docs/development.md:{TREE_LINE + 9}: tree: the package tree lists old.py, not in shop/",
    ]


def test_a_development_page_without_a_tree(shop: Path) -> None:
    page = "# Development\n\nNo tree.\n\n## Licence\n\n```\nshop/\n```\n"
    (shop / "docs" / "development.md").write_text(page)
    assert new(shop) == ["docs/development.md: tree: no fenced package tree in the '# Development' section"]


def test_the_real_repository_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """The package, docs/development.md and allowlist as they are: ``python -m dev.layout`` passes."""
    assert [str(b) for b in layout.check().new] == []
    assert layout.main([]) == 0
    assert capsys.readouterr().out.startswith("layout: ok: ")
