"""`python -m build` is clean and the wheel carries the man page and the shell completions."""

from __future__ import annotations

import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from kafka_offsets_cli import __version__
from tests.wheel_build import Built

ROOT = Path(__file__).resolve().parent.parent

#: Where the wheel installs each generated file (relative to the environment's prefix).
DATA_FILES = {
    "share/man/man1/kafka-offsets.1": "man/kafka-offsets.1",
    "share/bash-completion/completions/kafka-offsets.bash": "completions/kafka-offsets.bash",
    "share/zsh/site-functions/_kafka-offsets": "completions/_kafka-offsets",
    "share/fish/vendor_completions.d/kafka-offsets.fish": "completions/kafka-offsets.fish",
}


@pytest.fixture(scope="module")
def built(built_dist: Built) -> tuple[Path, Path, str]:
    """(wheel, sdist, build log): the session's one build (tests/wheel_build.py)."""
    return built_dist.wheel, built_dist.sdist, built_dist.log


@pytest.mark.slow
def test_build_is_clean(built: tuple[Path, Path, str]) -> None:
    _wheel, _sdist, log = built
    warnings = [line for line in log.splitlines() if re.search(r"warning|deprecat", line, re.I)]
    assert not warnings, "\n".join(warnings)


@pytest.mark.slow
def test_wheel_carries_man_page_and_completions(built: tuple[Path, Path, str]) -> None:
    wheel, _sdist, _log = built
    data = f"kafka_offsets-{__version__}.data/data/"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for installed, source in DATA_FILES.items():
            assert data + installed in names, installed
            assert z.read(data + installed) == (ROOT / source).read_bytes(), installed
        assert "kafka_offsets_cli/py.typed" in names
        assert "kafka_offsets_cli/cli/app.py" in names
        meta = z.read(f"kafka_offsets-{__version__}.dist-info/METADATA").decode()
        entry = z.read(f"kafka_offsets-{__version__}.dist-info/entry_points.txt").decode()
    assert "kafka-offsets = kafka_offsets_cli.__main__:main" in entry
    assert "License-Expression: Apache-2.0" in meta
    for dep in ("typer", "rich", "confluent-kafka"):
        assert re.search(rf"^Requires-Dist: {dep}\b", meta, re.M), dep
    assert not any(n.startswith(("tests/", "dev/", "bench/")) for n in names)


@pytest.mark.slow
def test_sdist_can_rebuild_the_wheel(built: tuple[Path, Path, str]) -> None:
    _wheel, sdist, _log = built
    with tarfile.open(sdist) as t:
        names = set(t.getnames())
    top = f"kafka_offsets-{__version__}/"
    for source in DATA_FILES.values():
        assert top + source in names, source
