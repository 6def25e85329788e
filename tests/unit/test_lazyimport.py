"""Deferred imports (kafka_offsets_cli/lazyimport.py): code runs on first use, never before, never twice."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka_offsets_cli.lazyimport import defer_import, is_deferred

PKG = "ko_lazy_probe"


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package whose import appends to a log file, so each execution of its code is visible."""
    pkg = tmp_path / PKG
    pkg.mkdir()
    log = tmp_path / "runs.log"
    (pkg / "__init__.py").write_text(
        textwrap.dedent(
            f"""
            with open({str(log)!r}, "a") as fh:
                fh.write("init\\n")
            VALUE = 42
            def double(x):
                return 2 * x
            """
        )
    )
    (pkg / "sub.py").write_text(
        f"with open({str(log)!r}, 'a') as fh:\n    fh.write('sub\\n')\nNAME = 'sub'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield log
    for name in [m for m in sys.modules if m == PKG or m.startswith(PKG + ".")]:
        del sys.modules[name]


def runs(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def test_import_statement_does_not_run_the_code(probe: Path) -> None:
    assert defer_import(PKG)
    import ko_lazy_probe  # noqa: F401  (what confluent_kafka's `import asyncio` does)

    assert runs(probe) == []
    assert is_deferred(PKG)


def test_first_attribute_use_runs_it_once(probe: Path) -> None:
    assert defer_import(PKG)
    import ko_lazy_probe

    assert ko_lazy_probe.VALUE == 42
    assert ko_lazy_probe.double(4) == 8
    assert runs(probe) == ["init"]
    assert not is_deferred(PKG)
    assert sys.modules[PKG] is ko_lazy_probe


def test_from_import_and_submodule_import_load_it(probe: Path) -> None:
    assert defer_import(PKG)
    from ko_lazy_probe import VALUE

    assert VALUE == 42
    import ko_lazy_probe.sub

    assert ko_lazy_probe.sub.NAME == "sub"
    assert runs(probe) == ["init", "sub"]


def test_submodule_import_first_runs_the_package_first(probe: Path) -> None:
    assert defer_import(PKG)
    from ko_lazy_probe import sub

    assert sub.NAME == "sub"
    assert runs(probe) == ["init", "sub"]


def test_a_submodule_the_package_itself_imports_runs_once(probe: Path) -> None:
    """``import pkg.sub`` first, where ``pkg``'s code imports ``pkg.sub``: one run of each, one module.

    (CPython reads ``pkg.__path__``, which runs the package, after its own check for ``pkg.sub``.)
    """
    init = probe.parent / PKG / "__init__.py"
    init.write_text(init.read_text() + "from . import sub as _sub\n")
    assert defer_import(PKG)
    import ko_lazy_probe.sub

    assert runs(probe) == ["init", "sub"]
    assert ko_lazy_probe._sub is ko_lazy_probe.sub is sys.modules[PKG + ".sub"]
    assert ko_lazy_probe.sub.__spec__ is not None
    assert ko_lazy_probe.sub.__spec__.origin == str(probe.parent / PKG / "sub.py")
    importlib.reload(ko_lazy_probe.sub)  # a reload still runs the module again
    assert runs(probe) == ["init", "sub", "sub"]


def test_already_imported_or_unknown_or_submodule_is_left_alone(probe: Path) -> None:
    import ko_lazy_probe  # noqa: F401

    assert runs(probe) == ["init"]
    assert not defer_import(PKG)
    assert not defer_import("ko_no_such_module_anywhere")
    assert "ko_no_such_module_anywhere" not in sys.modules
    assert not defer_import(PKG + ".sub")


def test_a_failing_module_raises_on_use_and_is_not_left_half_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ko_lazy_broken.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert defer_import("ko_lazy_broken")
    import ko_lazy_broken

    with pytest.raises(RuntimeError, match="boom"):
        _ = ko_lazy_broken.anything
    assert "ko_lazy_broken" not in sys.modules


def test_the_client_leaves_asyncio_unloaded_and_usable() -> None:
    """In a fresh interpreter: importing the client (hence confluent_kafka) does not run asyncio's code."""
    code = textwrap.dedent(
        """
        import sys
        import kafka_offsets_cli.kafka
        from kafka_offsets_cli.lazyimport import is_deferred
        assert "confluent_kafka.admin" in sys.modules
        assert is_deferred("asyncio"), "asyncio was loaded"
        assert "asyncio.base_events" not in sys.modules
        import asyncio
        async def answer():
            return 42
        assert asyncio.run(answer()) == 42
        assert not is_deferred("asyncio")
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
