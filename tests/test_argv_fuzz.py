"""A bounded, seeded fuzz of the command line: hostile values for the REAL options of every command.

The option names come from the Typer app itself (its click commands and their parameters), so a new
option is fuzzed the day it is added. Values are hostile: empty, ``-``, huge and negative numbers,
durations past what the client accepts (``2h``, ``61m``, ``100d``), epoch seconds and milliseconds, ISO
times with odd zones, regex metacharacters, bytes that are not UTF-8 (argv is passed as bytes), very
long strings, unicode, device nodes, a FIFO, a symlink, a directory, a missing directory and ``--``;
a cluster profile's ``_file`` secret reference points at each of those paths and at ``/dev/zero``.
Lines run against a real broker (``-b`` is the session's broker) so the valid ones really connect, two
children at a time, each with ``--timeout 3s`` where the command connects.

Every run must end with a documented exit code (docs/reference.md "Exit codes"), never a signal, never a
traceback, within ``--timeout`` + 10 s; afterwards no symlink, device node or FIFO may have been
replaced and no ``*.tmp`` file may be left behind. All failures are collected and printed, grouped by
cause, before the test fails.

Lines are planned so that every option of every command, every targeted value (durations on
``--timeout``, non-UTF-8 group ids, odd times, regexes, special paths on the output and config options,
zones) and every generic hostile value is tried at least once, then some fully random lines are added.
``KAFKA_OFFSETS_FUZZ_SEED`` replays a run (the seed is printed); ``KAFKA_OFFSETS_FUZZ_LINES`` sets the
number of fully random lines (default 20, which keeps CI's run short: the planned lines already try
every option and value; a deep local run sets it to hundreds).
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.files import PIPE_WAIT_S
from tests.fault_helpers import REPO_ROOT, child_env

DEFAULT_SEED = 20261124
EXTRA_LINES = int(os.environ.get("KAFKA_OFFSETS_FUZZ_LINES", "20"))
WORKERS = 2
CONNECT_TIMEOUT = "3s"
#: Past this a child counts as hung (and is killed): --timeout, plus the longest a pipe named as a
#: file may take to deliver (a FIFO whose writer never closes is waited for that long, whatever
#: --timeout says), plus 10 s for interpreter start and exit on a loaded 2-core CI machine (with 3 s
#: of margin, two FIFO lines were counted hung at load 12-15).
HANG_S = 3 + PIPE_WAIT_S + 10
#: A --watch line that really runs is interrupted (SIGINT) after this long, as a user would.
WATCH_STOP_S = 5.0
DOCUMENTED_EXIT = frozenset({0, 1, 2, 3, 4, 5, 6, 7, 130})
#: Commands that talk to a cluster: they get -b and --timeout 3s.
CONNECTING = frozenset({"list", "lag", "liveness", "rewind", "config show"})
NEVER = frozenset({"--debug", "--help", "-h", "--version", "-V"})  # tracebacks are --debug's job

Arg = str | bytes


# ----------------------------------------------------------------------------- the options, from the app


@dataclass(frozen=True)
class Opt:
    """One option of one command, as click knows it."""

    names: tuple[str, ...]  # every spelling (-t, --topic, --no-marker-check ...)
    flag: bool
    choices: tuple[str, ...]
    kind: str  # what values suit it: duration, time, path, regex, group, int, text


@dataclass(frozen=True)
class Cmd:
    path: tuple[str, ...]  # ("list",) or ("config", "show")
    options: tuple[Opt, ...]
    arguments: tuple[str, ...]  # positional parameter names (check's SPEC)

    @property
    def name(self) -> str:
        return " ".join(self.path)


def _kind(name: str, metavar: str | None, type_name: str) -> str:
    metavar = metavar or ""
    if name in {"timeout", "warn", "crit", "watch", "future_tolerance"}:
        return "duration"
    if name in {"spec", "to"}:
        return "time"
    if metavar in {"FILE", "DIR"} or name in {"spec_file"}:
        return "path"
    if metavar == "REGEX" or name in {"topic"}:
        return "regex"
    if name == "group":
        return "group"
    if type_name in {"IntParamType", "IntRange"}:
        return "int"
    return "text"


def introspect() -> list[Cmd]:
    """Every leaf command of the Typer app with its real options (the click command tree)."""
    import typer.main

    from kafka_offsets_cli.cli.app import app

    root: Any = typer.main.get_command(app)
    out: list[Cmd] = []

    def walk(cmd: Any, path: tuple[str, ...]) -> None:
        if hasattr(cmd, "list_commands"):
            ctx = cmd.context_class(cmd)
            for name in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, name), (*path, name))
            return
        options: list[Opt] = []
        arguments: list[str] = []
        for p in cmd.params:
            if p.param_type_name == "argument":
                arguments.append(p.name)
                continue
            names = tuple(n for n in (*p.opts, *p.secondary_opts) if n not in NEVER)
            if not names:
                continue
            choices = tuple(str(c) for c in getattr(p.type, "choices", None) or ())
            flag = bool(getattr(p, "is_flag", False) or getattr(p, "count", False))
            options.append(Opt(names, flag, choices, _kind(p.name, p.metavar, type(p.type).__name__)))
        out.append(Cmd(path, tuple(options), tuple(arguments)))

    ctx = root.context_class(root)
    for name in root.list_commands(ctx):
        walk(root.get_command(ctx, name), (name,))
    return out


# ----------------------------------------------------------------------------- hostile values


@dataclass
class Sandbox:
    """A scratch directory with the special files the fuzz points options at."""

    dir: Path
    topic: str
    group: str
    bootstrap: str
    symlink: Path = field(init=False)
    link_target: Path = field(init=False)
    fifo: Path = field(init=False)
    devices: dict[Path, int] = field(init=False)  # path -> st_rdev
    temp_before: set[Path] = field(init=False)

    def __post_init__(self) -> None:
        self.link_target = self.dir / "target.txt"
        self.link_target.write_text("not a spec, not a config\n")
        self.symlink = self.dir / "link.out"
        self.symlink.symlink_to(self.link_target)
        self.fifo = self.dir / "fifo"
        os.mkfifo(self.fifo)
        (self.dir / "a-directory").mkdir()
        self.devices = {}
        for name in ("null", "full"):
            real = Path("/dev") / name
            if os.geteuid() == 0:
                # as root a regression would replace the machine's /dev/null: use private copies
                # of the same character devices, which nothing else depends on
                copy = self.dir / f"dev-{name}"
                os.mknod(copy, 0o666 | stat.S_IFCHR, os.stat(real).st_rdev)
                self.devices[copy] = os.stat(real).st_rdev
            else:  # not root: /dev cannot be replaced, so the real nodes are safe to use
                self.devices[real] = os.stat(real).st_rdev
        self.temp_before = temp_files(self.dir)

    def paths(self) -> list[str]:
        return [
            *map(str, self.devices),
            str(self.fifo),
            str(self.symlink),
            str(self.dir / "a-directory"),
            str(self.dir / "a-directory") + "/",
            str(self.dir / "missing-dir" / "out.txt"),
            "relative-out.txt",
            "-",
            "",
            ".",
            "/",
            "/proc/self/status",
        ]

    def damage(self) -> list[str]:
        """What the runs did to the special files: replaced links, devices, FIFOs; leftover temp files."""
        problems: list[str] = []
        if not self.symlink.is_symlink() or os.readlink(self.symlink) != str(self.link_target):
            problems.append(f"{self.symlink} is no longer a symlink to {self.link_target}")
        if not self.link_target.is_file():
            problems.append(f"{self.link_target} is no longer a regular file")
        for path, rdev in self.devices.items():
            st = os.lstat(path)
            if not stat.S_ISCHR(st.st_mode) or st.st_rdev != rdev:
                problems.append(f"{path} is no longer the character device it was")
        if not stat.S_ISFIFO(os.lstat(self.fifo).st_mode):
            problems.append(f"{self.fifo} is no longer a FIFO")
        if not (self.dir / "a-directory").is_dir():
            problems.append("a-directory is no longer a directory")
        for real in ("/dev/null", "/dev/full"):
            if not stat.S_ISCHR(os.lstat(real).st_mode):
                problems.append(f"{real} is no longer a character device")
        problems += [f"left behind: {p}" for p in sorted(temp_files(self.dir) - self.temp_before)]
        return problems


def temp_files(work: Path) -> set[Path]:
    """``*.tmp`` files (hidden ones too) in the work directory and where a path option could point."""
    found = set(work.rglob("*.tmp"))
    for where in (REPO_ROOT, Path("/"), Path("/dev"), Path("/proc/self")):
        with contextlib.suppress(OSError):
            found |= set(where.glob("*.tmp")) | set(where.glob(".*.tmp"))
    return found


HOSTILE: tuple[Arg, ...] = (
    "",
    "-",
    "--",
    " ",
    "0",
    "-1",
    "-0",
    "99999999999999999999999999",
    "-99999999999999999999",
    "9223372036854775808",
    "1e309",
    "nan",
    "[",
    "(?P<",
    "\\",
    "*",
    "a{99999999}",
    "x" * 5000,
    "ünïcödé ☃ 𝔘𝔫𝔦",
    "\u202etxt.exe",
    "tab\there",
    "new\nline",
    b"\xff",
    b"\xc3\x28 invalid utf-8",
    b"caf\xe9",
    "=",
    "key=",
    "=value",
    "%s%n%x",
    "'; rm -rf /",
)
DURATIONS: tuple[Arg, ...] = (
    "2h",
    "61m",
    "100d",
    "3600001ms",
    "59m59s",
    "0s",
    "0",
    "-5s",
    "1ms",
    "1us",
    "5",
    "5x",
    "1.5s",
    "1e3s",
    "99999999999d",
    "h",
    "∞",
)
TIMES: tuple[Arg, ...] = (
    "earliest",
    "latest",
    "max-timestamp",
    "-1",
    "-2",
    "-3",
    "-4",
    "1700000000",  # epoch seconds
    "1700000000000",  # epoch ms
    "1700000000000000",  # epoch us
    "2026-11-21T06:00:00+14:00",
    "2026-11-21T06:00:00-12:00",
    "2026-11-21T06:00:00+23:59",
    "2026-11-21T06:00:00+25:00",
    "2026-11-21T06:00:00Z[Europe/Paris]",
    "2026-02-30",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "6h ago",
    "-30m",
    "2d",
    "100000000d ago",
    "now",
    "tomorrow",
)
REGEXES: tuple[Arg, ...] = ("[", "(?P<", "\\", "*", "a**", ".*", "(", "(?<!x", "\\p{L}", "x{2,1}", "[z-a]")
ZONES: tuple[Arg, ...] = ("local", "+14:00", "-12:00", "+25:00", "Mars/Olympus", "UTC+1", "../../etc/passwd")


@dataclass
class Line:
    """One generated command line and how its output is wired."""

    argv: list[Arg]
    cmd: Cmd
    stdout: str  # pipe, full (/dev/full), closed
    #: a config file (KAFKA_OFFSETS_CONFIG) for this line and what it holds, shown with the line
    config: tuple[Path, str] | None = None

    @property
    def watches(self) -> bool:
        # both spellings: ``--watch 3s`` and ``--watch=3s`` (argv items may be bytes)
        return any(a == "--watch" or (isinstance(a, str) and a.startswith("--watch=")) for a in self.argv)

    def shown(self, work: Path) -> str:
        """The line as a shell would show it, the work directory as $WORK, long values cut."""
        w = str(work)
        out = " ".join(_show(a.replace(w, "$WORK") if isinstance(a, str) else a) for a in self.argv)
        if len(out) > 300:
            out = out[:300] + "…"
        out += {"pipe": "", "full": " >/dev/full", "closed": " >&-"}[self.stdout]
        if self.config is not None:
            out += f"  [KAFKA_OFFSETS_CONFIG: {self.config[1].replace(w, '$WORK')}]"
        return out


def _show(a: Arg) -> str:
    s = a.decode("utf-8", "backslashreplace") if isinstance(a, bytes) else a
    if len(s) > 40:
        s = s[:20] + f"…({len(s)} chars)"
    return f"'{s}'" if (not s or any(c in s for c in " \t\n'\"\\*[(")) else s


def _value(rng: random.Random, opt: Opt, box: Sandbox) -> Arg:
    sane: dict[str, Sequence[Arg]] = {
        "duration": DURATIONS,
        "time": TIMES,
        "path": box.paths(),
        "regex": (*REGEXES, box.topic, f"{box.topic[:5]}.*"),
        "group": (box.group, b"\xff", b"caf\xe9", "g" * 300, "", "*", "ünï ☃"),
        "int": ("1", "0", "-1", "3", "99999999999999999999"),
        "text": ("1", "0-2", "0,1", "2-", "-1", "topic,partition", "nope", "acks=all", "debug=all"),
    }
    if opt.choices and rng.random() < 0.6:
        return rng.choice(opt.choices)
    if opt.kind == "text" and "--tz" in opt.names and rng.random() < 0.6:
        return rng.choice(ZONES)
    if rng.random() < 0.65:
        return rng.choice(sane[opt.kind])
    return rng.choice((*HOSTILE, *box.paths()))


def generate(
    rng: random.Random,
    cmd: Cmd,
    box: Sandbox,
    forced: tuple[Opt, Arg | None] | None = None,
    extra: int = 0,
    stdout: str | None = None,
    clean: bool = False,
) -> Line:
    """A command line of ``cmd``: a base that would run against the broker, the ``forced`` option
    (with its value, or a drawn one when None) and ``extra`` more fuzzed options; stdout a pipe,
    /dev/full or closed (drawn when None). A ``clean`` line has the whole valid base and nothing
    stray, so that the forced value is what the command meets."""
    sure = 1.0 if clean else 0.0
    argv: list[Arg] = [*cmd.path]
    by_name = {n: o for o in cmd.options for n in o.names}
    connecting = cmd.name in CONNECTING
    if connecting and rng.random() < 0.9 + sure:
        argv += ["-b", box.bootstrap]
    if "--topic" in by_name and rng.random() < 0.7 + sure:
        argv += ["-t", box.topic]
    if "--group" in by_name and rng.random() < 0.85 + sure:
        argv += ["-g", box.group]
    if "--to" in by_name and rng.random() < 0.7 + sure:
        argv += ["--to", rng.choice(("earliest", "latest", "1h ago"))]
    for _ in cmd.arguments:
        argv.append(rng.choice(box.paths() if clean else (*box.paths(), *HOSTILE[:3])))
    fuzzed: list[tuple[Opt, Arg | None]] = [forced] if forced else []
    fuzzed += [(rng.choice(cmd.options), None) for _ in range(extra if cmd.options else 0)]
    for opt, value in fuzzed:
        name = rng.choice(opt.names)
        if opt.flag:
            argv.append(name)
            continue
        if value is None:
            value = _value(rng, opt, box)
        if name.startswith("--") and isinstance(value, str) and rng.random() < 0.2:
            argv.append(f"{name}={value}")
        else:
            argv += [name, value]
    if rng.random() < 0.05 - sure:
        argv.insert(rng.randint(len(cmd.path), len(argv)), "--")
    if rng.random() < 0.05 - sure:
        argv.append(rng.choice(HOSTILE))  # a stray positional
    if connecting and not any(a == "--timeout" or str(a).startswith("--timeout=") for a in argv):
        argv += ["--timeout", CONNECT_TIMEOUT]
    if stdout is None:
        roll = rng.random()
        stdout = "full" if roll < 0.08 else "closed" if roll < 0.14 else "pipe"
    return Line(argv, cmd, stdout)


def _having(rng: random.Random, cmds: Sequence[Cmd], name: str) -> tuple[Cmd, Opt]:
    """A random command that has option ``name``, and that option."""
    cmd = rng.choice([c for c in cmds if any(name in o.names for o in c.options)])
    return cmd, next(o for o in cmd.options if name in o.names)


def plan(rng: random.Random, cmds: Sequence[Cmd], box: Sandbox) -> list[Line]:
    """The lines to run, shuffled: every option of every command once (a drawn value, maybe one more
    option); every targeted value once on its option; every generic hostile value once; then
    EXTRA_LINES fully random lines."""
    lines = [generate(rng, c, box, (o, None), extra=rng.choice((0, 0, 1))) for c in cmds for o in c.options]
    lines += [generate(rng, c, box) for c in cmds if not c.options]
    targeted: list[tuple[tuple[str, ...], Sequence[Arg]]] = [
        (("--timeout",), DURATIONS),
        (("--watch", "--warn", "--crit", "--future-tolerance"), DURATIONS[:8]),
        (("--group",), (b"\xff", b"caf\xe9", b"\xc3\x28", "", "-", "g" * 300, "ünï ☃", "x" * 5000)),
        (("--spec", "--to"), TIMES),
        (("--topic", "--group-regex"), REGEXES),
        (("--tz",), ZONES),
    ]
    for names, pool in targeted:
        for value in pool:
            cmd, opt = _having(rng, cmds, rng.choice(names))
            lines.append(generate(rng, cmd, box, (opt, value), stdout="pipe", clean=True))
    for name in ("--export", "--prometheus-file", "--command-config"):  # every special path on each
        for value in box.paths():
            cmd, opt = _having(rng, cmds, name)
            lines.append(generate(rng, cmd, box, (opt, value), stdout="pipe", clean=True))
    lines += file_reference_lines(rng, cmds, box)
    for value in HOSTILE:
        cmd = rng.choice([c for c in cmds if any(not o.flag for o in c.options)])
        opt = rng.choice([o for o in cmd.options if not o.flag])
        lines.append(generate(rng, cmd, box, (opt, value), clean=True))
    lines += [generate(rng, c, box, extra=rng.choice((1, 2, 3))) for c in rng.choices(cmds, k=EXTRA_LINES)]
    rng.shuffle(lines)
    return lines


def file_reference_lines(rng: random.Random, cmds: Sequence[Cmd], box: Sandbox) -> list[Line]:
    """A profile whose secret is a ``_file`` reference to each special path (and ``/dev/zero``), used
    through ``--cluster`` by a connecting command: a FIFO nobody writes to or an endless device must
    end like any unreadable secret file, within the timeout (issue 27 item 2)."""
    import json  # JSON strings are TOML basic strings

    keys = ("sasl.password_file", "ssl.key.password_file", "sasl.oauthbearer.client.secret_file")
    connecting = [c for c in cmds if c.name in CONNECTING and any("--cluster" in o.names for o in c.options)]
    lines = []
    for n, target in enumerate([*box.paths(), "/dev/zero"]):
        key = rng.choice(keys)
        profile = box.dir / f"profile-{n}.toml"
        profile.write_text(
            'default = "fz"\n[clusters.fz]\n'
            f"bootstrap_servers = {json.dumps(box.bootstrap)}\n[clusters.fz.properties]\n"
            f'"security.protocol" = "SASL_PLAINTEXT"\n{json.dumps(key)} = {json.dumps(target)}\n'
        )
        cmd = rng.choice(connecting)
        base = generate(rng, cmd, box, stdout="pipe", clean=True).argv
        argv = [a for k, a in enumerate(base) if a != "-b" and (k == 0 or base[k - 1] != "-b")]
        lines.append(Line([*argv, "--cluster", "fz"], cmd, "pipe", (profile, f"{key} = {target!r}")))
    return lines


# ----------------------------------------------------------------------------- running


@dataclass
class Outcome:
    line: Line
    code: int | None  # None: hung (killed)
    stderr: str
    seconds: float

    def problems(self) -> list[str]:
        out: list[str] = []
        if self.code is None:
            out.append("hang")
        elif self.code < 0:
            out.append(f"signal {signal.Signals(-self.code).name}")
        elif self.code not in DOCUMENTED_EXIT:
            out.append(f"exit {self.code}")
        if "Traceback" in self.stderr:
            out.append("traceback")
        return out

    def first_error(self) -> str:
        lines = [ln for ln in self.stderr.splitlines() if ln.strip()]
        if "Traceback" in self.stderr:
            exc = [ln for ln in lines if not ln.startswith((" ", "Traceback"))]
            return exc[-1][:200] if exc else lines[-1][:200]
        return lines[0][:200] if lines else "(no stderr)"


def run_line(line: Line, cwd: Path) -> Outcome:
    """Run one line; a child still running at HANG_S (or a --watch child not stopping on SIGINT) is killed."""
    argv = [os.fsencode(sys.executable), b"-m", b"kafka_offsets_cli"]
    argv += [a if isinstance(a, bytes) else os.fsencode(a) for a in line.argv]
    env = child_env(PYTHONPATH=str(REPO_ROOT), PYTHONFAULTHANDLER="1")
    if line.config is not None:
        env["KAFKA_OFFSETS_CONFIG"] = str(line.config[0])
    with contextlib.ExitStack() as stack:
        if line.stdout == "full":
            out: Any = stack.enter_context(open("/dev/full", "wb"))
        elif line.stdout == "pipe":
            out = subprocess.PIPE
        else:
            out = None
        t0 = time.monotonic()
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.PIPE,
            preexec_fn=(lambda: os.close(1)) if line.stdout == "closed" else None,
        )
        code: int | None
        try:
            first = WATCH_STOP_S if line.watches else HANG_S
            _, err = proc.communicate(timeout=first)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            if line.watches:  # a --watch that really runs: stop it with Ctrl-C, as a user would
                proc.send_signal(signal.SIGINT)
                try:
                    _, err = proc.communicate(timeout=HANG_S)
                    code = proc.returncode
                except subprocess.TimeoutExpired:
                    # its threads' stacks (PYTHONFAULTHANDLER) into its stderr: where it ignored Ctrl-C
                    proc.send_signal(signal.SIGABRT)
                    try:
                        _, err = proc.communicate(timeout=10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        _, err = proc.communicate()
                    code = None
            else:
                proc.kill()
                _, err = proc.communicate()
                code = None
    return Outcome(line, code, err.decode("utf-8", "replace"), time.monotonic() - t0)


@contextlib.contextmanager
def fifo_drain(path: Path) -> Iterator[None]:
    """Keep the FIFO open for reading and writing (so opening it never blocks) and drain what is
    written to it. A child reading it then waits for data that never comes: that is a hang it must
    bound itself (issue 11 item 9), not one this harness causes."""
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(fd, 1 << 16)

    thread = threading.Thread(target=drain, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)
        os.close(fd)


# ----------------------------------------------------------------------------- the test


@pytest.fixture
def sandbox(bootstrap: str, tmp_path: Path) -> Sandbox:
    topic = f"fuzz-{uuid.uuid4().hex[:8]}"
    group = f"fuzz-g-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, partitions=3)
    produce(bootstrap, topic, [(p, None, None, "x") for p in range(3) for _ in range(p + 2)])
    commit_group_offsets(bootstrap, group, {(topic, p): 1 for p in range(3)})
    work = tmp_path / "work"
    work.mkdir()
    return Sandbox(work, topic, group, bootstrap)


def cause(outcome: Outcome) -> str:
    """What groups failures: the kind of problem and the error it showed (numbers and paths blurred)."""
    import re

    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", outcome.first_error())
    first = re.sub(r"\d+", "N", first)
    return f"{'+'.join(outcome.problems())}: {first[:140]}"


def test_argv_fuzz(sandbox: Sandbox) -> None:
    seed = int(os.environ.get("KAFKA_OFFSETS_FUZZ_SEED", DEFAULT_SEED))
    rng = random.Random(seed)
    cmds = introspect()
    names = {c.name for c in cmds}
    assert {"list", "lag", "liveness", "rewind", "check", "config show"} <= names, names
    assert sum(len(c.options) for c in cmds) > 60  # the real option tables, not an empty walk
    lines = plan(rng, cmds, sandbox)
    print(f"\nargv fuzz: seed {seed} (KAFKA_OFFSETS_FUZZ_SEED={seed} replays it), {len(lines)} lines")
    t0 = time.monotonic()
    with fifo_drain(sandbox.fifo), ThreadPoolExecutor(WORKERS) as pool:
        outcomes = list(pool.map(lambda ln: run_line(ln, sandbox.dir), lines))
    took = time.monotonic() - t0

    codes: dict[int | None, int] = {}
    for o in outcomes:
        codes[o.code] = codes.get(o.code, 0) + 1
    failed = [o for o in outcomes if o.problems()]
    groups: dict[str, list[Outcome]] = {}
    for o in failed:
        groups.setdefault(cause(o), []).append(o)
    damage = sandbox.damage()
    slowest = max(outcomes, key=lambda o: o.seconds)
    print(
        f"{len(outcomes)} runs in {took:.1f}s ({WORKERS} at a time); exit codes "
        f"{dict(sorted(codes.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))}; "
        f"slowest {slowest.seconds:.1f}s; failing runs {len(failed)} in {len(groups)} causes; "
        f"damage {len(damage)}"
    )
    for key, members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"  [{len(members)}x] {key}")
        for o in members[:3]:
            print(f"      exit {o.code} {o.seconds:.1f}s: kafka-offsets {o.line.shown(sandbox.dir)}")
            print(f"        {o.first_error()}")
            if o.code is None and "Fatal Python error" in o.stderr:  # the stacks of a hung child
                print(textwrap.indent(o.stderr[-4000:], "        | "))
    for d in damage:
        print(f"  damage: {d}")
    assert not failed and not damage, f"{len(failed)} failing runs in {len(groups)} causes; damage {damage}"
