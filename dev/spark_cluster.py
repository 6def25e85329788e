"""A real Spark standalone cluster on loopback whose workers look like remote nodes (tests only).

Master and workers are the pyspark package's own daemons (``spark-class
org.apache.spark.deploy.master.Master`` / ``...deploy.worker.Worker``), 1 core and little memory
each. Every worker runs in its own mount namespace (``unshare -m``, so this needs root): the
pyspark package is bind-mounted at a path of the cluster's own (the worker's ``SPARK_HOME``), then
every path in ``hidden`` (the driver's checkout with its venv, CA files, output directories) is
covered by an empty tmpfs. A job that relies on a driver path fails there, as on a real cluster.

Executors run :attr:`SparkCluster.executor_python`: a venv of the cluster's own (outside every
hidden path) holding exactly what ``kafka-offsets check`` documents for executors (confluent-kafka),
copied from the driver's installed distributions -- the same files ``pip install`` would put
there, with no network and in well under a second. ``pyspark`` itself reaches executors from the
worker's ``SPARK_HOME`` (``python/lib/pyspark.zip``), as with any Spark installation.

With ``secret`` the daemons run with ``spark.authenticate`` and that shared secret: in standalone
mode the workers hand their own secret to the executors they launch, so an application must use
the daemons' secret (Spark generates one per application only on YARN and Kubernetes).

Python::

    from dev import spark_cluster
    cluster = spark_cluster.up(state_dir, hidden=[Path("/work/main"), out_dir])
    cluster.master_url, cluster.executor_python
    cluster.down()
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

__all__ = ["EXECUTOR_DISTRIBUTIONS", "SparkCluster", "SparkClusterError", "namespaces_work", "up"]

HOST = "127.0.0.1"
#: What executors need besides pyspark (shipped by Spark) and kafka_offsets_cli (shipped by the tool).
EXECUTOR_DISTRIBUTIONS = ("confluent-kafka", "pyarrow")
START_TIMEOUT_S = 90.0


class SparkClusterError(RuntimeError):
    """The cluster could not be started (the message says why, with the log tail)."""


@dataclass
class SparkCluster:
    """A running standalone cluster: its master URL, executors' python and daemon processes."""

    state: Path
    master_url: str
    executor_python: Path
    secret: str | None = None
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def spark_conf(self) -> list[str]:
        """``--conf`` arguments an application needs on this cluster (small executors, its python)."""
        conf = [
            "spark.executor.memory=512m",
            "spark.executor.cores=1",
            "spark.cores.max=2",
            f"spark.pyspark.python={self.executor_python}",
        ]
        if self.secret is not None:
            conf += ["spark.authenticate=true", f"spark.authenticate.secret={self.secret}"]
        return conf

    def worker_sees(self, path: Path, worker: int = 0) -> bool:
        """Whether ``path`` exists in a worker's mount namespace (``nsenter``; workers are ``procs[1:]``)."""
        pid = self.procs[1 + worker].pid
        probe = subprocess.run(
            ["nsenter", "-t", str(pid), "-m", "test", "-e", str(path)], capture_output=True, timeout=30
        )
        return probe.returncode == 0

    def logs(self) -> str:
        """Every daemon's log and every executor's stderr (for a failing test's message)."""
        out = []
        for p in sorted(self.state.rglob("*.log")) + sorted(self.state.rglob("stderr")):
            with contextlib.suppress(OSError):
                out.append(f"== {p}\n{p.read_text(errors='replace')[-4000:]}")
        return "\n".join(out)

    def down(self) -> None:
        """Stop every daemon (their executors die with them)."""
        for p in reversed(self.procs):
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.wait(5)


def namespaces_work() -> str | None:
    """``None`` when this process may create mount namespaces with tmpfs mounts, else why not."""
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not on PATH"
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /mnt && umount /mnt"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if probe.returncode != 0:
        return f"cannot create a mount namespace with a tmpfs (root needed): {probe.stderr.strip()}"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def executor_venv(path: Path, distributions: Iterable[str] = EXECUTOR_DISTRIBUTIONS) -> Path:
    """A venv at ``path`` (the driver's base interpreter) holding just ``distributions``; its python."""
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([str(base), "-m", "venv", "--without-pip", str(path)], check=True, timeout=120)
    rel = Path(sysconfig.get_path("purelib")).relative_to(sysconfig.get_path("data"))
    site = path / rel
    for name in distributions:
        dist = metadata.distribution(name)
        for f in dist.files or ():
            src = Path(str(dist.locate_file(f)))
            if ".." in f.parts or not src.is_file() or "__pycache__" in f.parts:
                continue
            dst = site / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    return path / "bin" / "python"


def _properties(path: Path, secret: str | None) -> Path:
    lines = ["spark.ui.enabled false"]
    if secret is not None:
        lines += ["spark.authenticate true", f"spark.authenticate.secret {secret}"]
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)
    return path


def outermost(paths: Sequence[Path]) -> list[Path]:
    """``paths`` resolved, without those inside another: a tmpfs over a directory already hides what
    is under it, and mounting on a path the first tmpfs hid fails ("mount point does not exist"; a venv
    inside the checkout, as in CI's clone)."""
    unique = list(dict.fromkeys(Path(p).resolve() for p in paths))
    return [p for p in unique if not any(p != q and p.is_relative_to(q) for q in unique)]


def _worker_script(spark_home: Path, mount_point: Path, hidden: Sequence[Path]) -> str:
    """The shell run inside a worker's namespace: bind SPARK_HOME, hide the driver's paths, exec."""
    lines = ["set -e", f"mount --bind '{spark_home}' '{mount_point}'"]
    lines += [f"mount -t tmpfs -o size=1m,mode=0755 tmpfs '{h}'" for h in outermost(hidden)]
    lines.append(f'exec "{mount_point}/bin/spark-class" "$@"')
    return "\n".join(lines)


def _wait_for(log: Path, text: str, procs: Sequence[subprocess.Popen[bytes]], deadline: float) -> None:
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if text in log.read_text(errors="replace"):
                return
        for p in procs:
            if p.poll() is not None:
                raise SparkClusterError(f"a Spark daemon exited ({p.returncode}); {log}")
        time.sleep(0.3)
    raise SparkClusterError(f"{text!r} not in {log} within {START_TIMEOUT_S:g}s")


def up(
    state: Path,
    *,
    hidden: Sequence[Path],
    workers: int = 2,
    secret: str | None = None,
    timeout_s: float = START_TIMEOUT_S,
) -> SparkCluster:
    """Start a master and ``workers`` workers (each hiding ``hidden``); :class:`SparkClusterError` if not.

    ``state`` (outside every hidden path) holds the logs, the work dirs, the executors' venv and the
    workers' bind mount of ``SPARK_HOME``.
    """
    why = namespaces_work()
    if why is not None:
        raise SparkClusterError(why)
    for h in hidden:
        if state.resolve().is_relative_to(h.resolve()):
            raise SparkClusterError(f"the cluster's state {state} would be hidden by {h}")
    state.mkdir(parents=True, exist_ok=True)
    python = executor_venv(state / "executor-venv")
    props = _properties(state / "daemon.properties", secret)
    home = _spark_home()
    mount_point = state / "spark-home"
    mount_point.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "SPARK_HOME": str(mount_point),
        "SPARK_DAEMON_MEMORY": "256m",
        "SPARK_LOCAL_IP": HOST,
        "SPARK_LOG_DIR": str(state),
        "SPARK_NO_DAEMONIZE": "1",
    }
    env.pop("PYSPARK_PYTHON", None)
    env.pop("PYTHONPATH", None)
    port = _free_port()
    url = f"spark://{HOST}:{port}"
    cluster = SparkCluster(state=state, master_url=url, executor_python=python, secret=secret)
    deadline = time.monotonic() + timeout_s
    try:
        master_log = state / "master.log"
        cluster.procs.append(
            _spawn(
                [str(home / "bin" / "spark-class"), "org.apache.spark.deploy.master.Master"],
                ["--host", HOST, "--port", str(port), "--webui-port", "0", "--properties-file", str(props)],
                {**env, "SPARK_HOME": str(home)},
                master_log,
                state,
            )
        )
        _wait_for(master_log, "I have been elected leader", cluster.procs, deadline)
        script = _worker_script(home, mount_point, hidden)
        for n in range(workers):
            work = state / f"worker-{n}"
            work.mkdir(exist_ok=True)
            args = [
                "org.apache.spark.deploy.worker.Worker",
                "--host", HOST, "--cores", "1", "--memory", "640m", "--webui-port", "0",
                "--work-dir", str(work), "--properties-file", str(props), url,
            ]  # fmt: skip
            log = state / f"worker-{n}.log"
            cluster.procs.append(_spawn(["unshare", "-m", "sh", "-c", script, "sh"], args, env, log, state))
        for n in range(workers):
            _wait_for(
                state / f"worker-{n}.log", "Successfully registered with master", cluster.procs, deadline
            )
    except BaseException as e:
        cluster.down()
        if isinstance(e, SparkClusterError):
            raise SparkClusterError(f"{e}\n{cluster.logs()[-3000:]}") from None
        raise
    return cluster


def _spawn(
    cmd: list[str], args: list[str], env: dict[str, str], log: Path, cwd: Path
) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(
            [*cmd, *args],
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
