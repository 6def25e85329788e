"""dev.kafka.resolve_extra under two pytest-xdist lanes: a lane that waited for the lock uses what
the other fetched, never deletes and fetches it again under the jars the other is using."""

from __future__ import annotations

import hashlib
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from dev import kafka


def test_a_fetch_done_while_waiting_for_the_lock_is_used_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kafka, "TARGET_DIR", tmp_path)
    calls = tmp_path / "mvn-calls"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    mvn = bin_dir / "mvn"
    mvn.write_text(f"#!/bin/sh\necho x >> {calls}\nexit 1\n")  # a Maven run here would fail the test
    mvn.chmod(mvn.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    lib, pom = tmp_path / "streams-lib", "<project/>"
    got: list[list[Path]] = []

    with kafka._flock(tmp_path / f".{lib.name}.lock"):  # the other lane, fetching
        waiter = threading.Thread(target=lambda: got.append(kafka.resolve_extra(lib, pom, "x")))
        waiter.start()
        time.sleep(0.3)  # the waiter found no stamp and now waits for the lock
        lib.mkdir()
        (lib / "kafka-streams.jar").write_bytes(b"jar")
        (lib / "resolved.stamp").write_text(hashlib.sha256(pom.encode()).hexdigest() + "\n")
    waiter.join(timeout=30)

    assert got == [[lib / "kafka-streams.jar"]]
    assert not calls.exists(), "Maven ran again and deleted the other lane's jars first"
