"""Bounded reads of the files a user names, and output files checked before the run (issue 11 items 6, 9).

Real processes (a FIFO as each of the three inputs, ``/dev/zero``, ``--prometheus-file`` with an
unreachable cluster) are in ``tests/test_file_paths.py``; these are the two modules' rules.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kafka_offsets_cli.cli.textfile import ResultNotWritten, check_writable, write_down, write_result
from kafka_offsets_cli.connection import files
from kafka_offsets_cli.connection.files import FileTooLarge, NotARegularFile, read_regular_file
from kafka_offsets_cli.connection.profiles import load_file
from kafka_offsets_cli.connection.properties import load_command_config
from kafka_offsets_cli.errors import ClusterUnreachable, ConfigError, UsageError

# ----------------------------------------------------------------------------- read_regular_file


def test_a_regular_file_is_read_and_a_symlink_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.properties"
    real.write_bytes(b"a=1\n")
    link = tmp_path / "link.properties"
    link.symlink_to(real)
    assert read_regular_file(real) == read_regular_file(link) == b"a=1\n"


def test_the_cap_is_inclusive(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_regular_file(path, limit=10) == b"x" * 10
    with pytest.raises(FileTooLarge) as info:
        read_regular_file(path, limit=9)
    assert info.value.limit == 9


@contextmanager
def rescued(fifo: Path, after: float = 5.0) -> Iterator[None]:
    """Should a read block on ``fifo``, open and close its writing end after ``after`` s (EOF)."""
    done = threading.Event()

    def rescue() -> None:
        if not done.wait(after):
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)

    t = threading.Thread(target=rescue)
    t.start()
    t0 = time.monotonic()
    try:
        yield
    finally:
        done.set()
        t.join()
    assert time.monotonic() - t0 < after, "blocked on the FIFO"


def test_special_files_are_refused_unread(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with rescued(fifo), pytest.raises(NotARegularFile) as info:
        read_regular_file(fifo)
    assert info.value.kind == "a FIFO with no writer"
    with pytest.raises(NotARegularFile) as info:
        read_regular_file("/dev/zero")
    assert info.value.kind == "a character device"
    sock_path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
        with pytest.raises(NotARegularFile) as info:
            read_regular_file(sock_path)
    assert info.value.kind == "a socket"
    with pytest.raises(IsADirectoryError):  # as open() raises: callers keep their messages
        read_regular_file(tmp_path)


def test_properties_and_config_files_name_what_the_path_is(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with rescued(fifo), pytest.raises(ConfigError) as info:
        load_command_config(fifo)
    assert info.value.message == f"{fifo}: is a FIFO with no writer, expected a properties file"
    with rescued(fifo), pytest.raises(ConfigError) as info:
        load_file(fifo)
    assert info.value.message == f"{fifo}: is a FIFO with no writer, expected a TOML config file"
    with pytest.raises(ConfigError, match=r"^/dev/zero: is a character device, expected a properties file$"):
        load_command_config("/dev/zero")
    with pytest.raises(ConfigError) as info:
        load_command_config(tmp_path)
    assert info.value.message == f"{tmp_path}: cannot read: Is a directory"  # as before
    huge = tmp_path / "huge.toml"
    huge.write_text("#\n" * (1024 * 1024))
    with pytest.raises(ConfigError) as info:
        load_file(huge)
    assert info.value.message == f"{huge}: the file is too large (a config file may have at most 1024 KiB)"


# ----------------------------------------------------------------------------- check_writable


def test_writable_paths_pass(tmp_path: Path) -> None:
    check_writable("-")
    check_writable(tmp_path / "new.prom")
    (tmp_path / "old.prom").write_text("x")
    check_writable(tmp_path / "old.prom")
    check_writable(os.devnull)  # a device is written in place
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    check_writable(fifo)  # not opened now: a reader would see an end of file
    link = tmp_path / "link.prom"
    link.symlink_to(tmp_path / "old.prom")
    check_writable(link)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.prom", "old.prom", "pipe"]  # nothing made


def test_unwritable_paths_are_usage_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing" / "x.prom"
    with pytest.raises(UsageError) as info:
        check_writable(missing)
    assert info.value.message == f"cannot write {missing}: directory {missing.parent} does not exist"
    with pytest.raises(UsageError) as info:
        check_writable(tmp_path)
    assert info.value.message == f"cannot write {tmp_path}: it is a directory"
    (tmp_path / "file").write_text("")
    below_a_file = tmp_path / "file" / "x.prom"
    with pytest.raises(UsageError, match=f"^{re.escape(f'cannot write {below_a_file}: ')}"):
        check_writable(below_a_file)


# ----------------------------------------------------------------------------- after the run


def test_a_write_that_fails_after_the_run_is_returned_not_raised(tmp_path: Path) -> None:
    assert write_result(tmp_path / "ok.prom", "x\n") is None
    failed = write_result("/dev/full", "x\n")
    assert isinstance(failed, ResultNotWritten) and not isinstance(failed, UsageError)  # UNKNOWN, not 2
    assert failed.message == "cannot write /dev/full: No space left on device"


def test_an_unwritable_down_file_names_both_failures(tmp_path: Path) -> None:
    cause = ClusterUnreachable("no answer from h:1 within 2s", hint="check the network")
    write_down(tmp_path / "down.prom", "up 0\n", cause)
    assert (tmp_path / "down.prom").read_text() == "up 0\n"
    with pytest.raises(ResultNotWritten) as info:
        write_down("/dev/full", "up 0\n", cause)
    assert info.value.message == (
        "no answer from h:1 within 2s (and cannot write /dev/full: No space left on device)"
    )
    assert info.value.hint == "check the network"


def test_a_pipe_with_a_writer_is_read_to_its_end() -> None:
    """``--command-config <(vault read ...)``: a pipe whose writer is there is read, bounded in time."""
    r, w = os.pipe()
    try:
        os.write(w, b"client.id=from-pipe\n")
        os.close(w)
        assert read_regular_file(f"/dev/fd/{r}") == b"client.id=from-pipe\n"
    finally:
        os.close(r)


def test_a_pipe_that_never_ends_is_refused_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "PIPE_WAIT_S", 0.3)
    r, w = os.pipe()
    try:
        os.write(w, b"x=1\n")  # and the writer stays open, silent
        t0 = time.monotonic()
        with pytest.raises(NotARegularFile, match=r"a pipe that did not end within 0\.3s"):
            read_regular_file(f"/dev/fd/{r}")
        assert time.monotonic() - t0 < 3
    finally:
        os.close(r)
        os.close(w)


def test_dev_null_reads_as_empty() -> None:
    assert read_regular_file(os.devnull) == b""
