"""Output files: regular files replaced atomically; symlinks, devices, FIFOs and ``-`` never replaced."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from kafka_offsets_cli.cli.textfile import write_atomic
from kafka_offsets_cli.errors import UsageError


def test_a_symlink_stays_a_link_and_its_target_is_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real" / "x.prom"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "x.prom"
    link.symlink_to(real)
    assert write_atomic(link, "new\n") == link
    assert link.is_symlink() and real.read_text() == "new\n"
    assert sorted(p.name for p in real.parent.iterdir()) == ["x.prom"]  # no temp file left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real", "x.prom"]


def test_a_replaced_file_keeps_its_mode_a_new_one_is_0644(tmp_path: Path) -> None:
    """Issue 27 item 7: replacing a symlink's 0640 target made it 0644 (readable by every user)."""
    real = tmp_path / "real.prom"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "link.prom"
    link.symlink_to(real)
    write_atomic(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    real.chmod(0o600)
    write_atomic(real, "newer\n")
    assert real.read_text() == "newer\n" and stat.S_IMODE(real.stat().st_mode) == 0o600
    fresh = tmp_path / "fresh.prom"
    old_umask = os.umask(0o077)
    try:
        write_atomic(fresh, "x\n")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # for the collector, whatever the umask (as before)


def test_a_link_to_a_pipe_is_written_through_the_link(tmp_path: Path) -> None:
    """A link to /proc/self/fd/N (here a pipe) is written in place: realpath spelled it pipe:[N], ENOENT."""
    r, w = os.pipe()
    try:
        link = tmp_path / "out.prom"
        link.symlink_to(f"/proc/self/fd/{w}")
        assert write_atomic(link, "through\n") == link
        assert os.read(r, 100) == b"through\n"
        assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["out.prom"]
    finally:
        os.close(r)
        os.close(w)


def test_a_character_device_is_written_in_place_not_replaced(tmp_path: Path) -> None:
    link = tmp_path / "sink"
    link.symlink_to(os.devnull)
    write_atomic(link, "x\n")
    assert link.is_symlink()
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_fifo_is_written_straight(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    for _ in range(200):  # wait until the reader has the FIFO open
        try:
            write_atomic(fifo, "through\n")
            break
        except UsageError:
            threading.Event().wait(0.01)
    reader.join(10)
    assert got == ["through\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_fifo_without_reader_fails_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="no reader"):
        write_atomic(fifo, "x")


def test_dash_is_standard_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_atomic("-", "to stdout\n")
    assert capsys.readouterr().out == "to stdout\n"
    assert not (tmp_path / "-").exists()


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is a directory"):
        write_atomic(tmp_path, "x")
