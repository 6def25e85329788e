"""Generate the shell completions and the man page from the Typer app.

    python -m dev.gendocs           # (re)write completions/ and man/
    python -m dev.gendocs --check   # exit 1 and name the files that differ from a fresh generation

The man page is built from the click command tree (every command, argument and
option, with its help, metavar and default), plus the reference sections below
(offset specs, times, selection, output, profiles, watch mode, completion,
environment, files, exit status). A new command or option appears by itself.
The completion scripts are Typer's (bash's from
:mod:`kafka_offsets_cli.cli.complete_shells`): they call back into ``kafka-offsets``, so
they never go stale. Output is deterministic (no dates, no absolute paths).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
PROG = "kafka-offsets"
COMPLETE_VAR = "_KAFKA_OFFSETS_COMPLETE"

#: Generated files, relative to the repository root.
BASH = Path("completions/kafka-offsets.bash")
ZSH = Path("completions/_kafka-offsets")
FISH = Path("completions/kafka-offsets.fish")
MAN = Path("man/kafka-offsets.1")

#: Options whose help Typer words by the shell it detects; fixed here so the page is deterministic.
FIXED_HELP = {
    "--install-completion": (
        "--install-completion",
        "Install completion for the current shell (bash, zsh, fish, PowerShell) in the user's shell "
        "start-up files. Packages install the scripts of SHELL COMPLETION below instead.",
    ),
    "--show-completion": (
        "--show-completion",
        "Print the completion script for the current shell, to copy it or customise the installation.",
    ),
}

# --------------------------------------------------------------------------- roff


def _char(ch: str) -> str:
    return ch if ord(ch) < 128 else f"\\[u{ord(ch):04X}]"


def esc(text: str) -> str:
    """Text made safe for a roff text line (no request can start it, ASCII only)."""
    out = (
        text.replace("\\", "\\e")
        .replace("-", "\\-")
        .replace("'", "\\(aq")
        .replace("`", "\\(ga")
        .replace('"', "\\(dq")
    )
    out = "".join(_char(c) for c in out)
    return "\n".join("\\&" + line if line.startswith(".") else line for line in out.split("\n"))


def inline(text: str) -> str:
    """Escape ``text``, showing `code` spans in bold and collapsing whitespace."""
    text = re.sub(r"\s+", " ", text).strip()
    parts = text.split("`")
    if len(parts) % 2 == 0:  # unbalanced backticks: keep them
        return esc(text)
    return "".join(esc(p) if i % 2 == 0 else f"\\fB{esc(p)}\\fR" for i, p in enumerate(parts))


def option_names(record: str) -> str:
    """``-b, --bootstrap-server HOST:PORT`` with names in bold and the metavar in italics."""
    out: list[str] = []
    for token in re.split(r"(\s*,\s*|\s+/\s+|\s+)", record):
        if not token:
            continue
        if token.strip() in (",", "/") or not token.strip():
            out.append(esc(token))
        elif token.startswith("-"):
            out.append(f"\\fB{esc(token)}\\fR")
        else:
            out.append(f"\\fI{esc(token)}\\fR")
    return "".join(out)


def prose(text: str) -> str:
    """Roff for a small markup: paragraphs, indented literal blocks, ``* term :: text`` lists."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        lines = block.split("\n")
        if all(line.startswith("  ") for line in lines):
            width = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
            out += [".PP", ".RS 4", ".nf", *(esc(line[width:]) for line in lines), ".fi", ".RE"]
        elif lines[0].startswith("* "):
            items: list[str] = []
            for line in lines:
                if line.startswith("* "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line.strip()
            for item in items:
                term, _, desc = item.partition(" :: ")
                out += [".TP", f"\\fB{esc(term.strip())}\\fR", inline(desc)]
        else:
            out += [".PP", inline(block)]
    return "\n".join(out)


# --------------------------------------------------------------------------- the command tree


def root_command() -> Any:
    """The click command tree of the application."""
    import typer.main

    from kafka_offsets_cli.cli.app import app

    return typer.main.get_command(app)


def _context(cmd: Any, name: str, parent: Any = None) -> Any:
    # the command's own context class: older typers run on click, newer ones on a vendored copy
    return cmd.context_class(cmd, info_name=name, parent=parent)


def walk(cmd: Any, ctx: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    """Every visible command below ``cmd`` (groups included), depth first, in registration order."""
    if not hasattr(cmd, "list_commands"):
        return
    for name in cmd.list_commands(ctx):
        sub = cmd.get_command(ctx, name)
        if sub is None or getattr(sub, "hidden", False):
            continue
        sctx = _context(sub, name, ctx)
        yield (*path, name), sub, sctx
        yield from walk(sub, sctx, (*path, name))


def params(cmd: Any) -> list[Any]:
    """The visible parameters of a command."""
    return [p for p in cmd.params if not getattr(p, "hidden", False)]


def help_record(param: Any, ctx: Any) -> tuple[str, str]:
    """(names with metavar, help with default) as ``--help`` shows them."""
    for name in getattr(param, "opts", ()):
        if name in FIXED_HELP:
            return FIXED_HELP[name]
    rec = param.get_help_record(ctx)
    if rec is None:  # arguments without help
        return (arg_name(param), getattr(param, "help", None) or "")
    return rec[0], rec[1]


def arg_name(param: Any) -> str:
    """How a positional argument is shown: its metavar, or its name in capitals."""
    return str(param.metavar or param.name.upper())


def long_names(param: Any) -> list[str]:
    """The names a reader looks for: long options (or the short one when there is no long one)."""
    names = [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())]
    longs = [n for n in names if n.startswith("--")]
    return longs or names


def options_of(cmd: Any) -> list[Any]:
    """Visible options (not arguments) of a command."""
    return [p for p in params(cmd) if getattr(p, "param_type_name", "") == "option"]


def arguments_of(cmd: Any) -> list[Any]:
    """Visible positional arguments of a command."""
    return [p for p in params(cmd) if getattr(p, "param_type_name", "") == "argument"]


def _help_text(cmd: Any) -> str:
    text = cmd.help or ""
    return "\n".join(line for line in text.split("\n") if line.strip() != "\b")


def _epilog(text: str) -> str:
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        lines = [line for line in block.split("\n") if line.strip() != "\b"]
        if not lines:
            continue
        if all(line.startswith("  ") for line in lines):
            width = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
            out += [".PP", ".RS 4", ".nf", *(esc(line[width:]) for line in lines), ".fi", ".RE"]
        elif len(lines) == 1 and lines[0].rstrip().endswith(":") and len(lines[0]) < 40:
            out += [".PP", f"\\fB{inline(lines[0])}\\fR"]
        else:
            out += [".PP", inline(" ".join(lines))]
    return "\n".join(out)


def _usage(path: Sequence[str], cmd: Any) -> str:
    words = [f"\\fB{esc(' '.join((PROG, *path)))}\\fR"]
    if options_of(cmd):
        words.append("[\\fIOPTIONS\\fR]")
    if hasattr(cmd, "list_commands"):
        words.append("\\fICOMMAND\\fR [\\fIARGS\\fR]...")
    for arg in arguments_of(cmd):
        name = esc(arg_name(arg))
        words.append(f"\\fI{name}\\fR" if arg.required else f"[\\fI{name}\\fR]")
    return " ".join(words)


def _options_block(cmd: Any, ctx: Any) -> list[str]:
    out: list[str] = []
    args = arguments_of(cmd)
    if args:
        out += [".PP", "\\fBArguments\\fR"]
        for arg in args:
            _, text = help_record(arg, ctx)
            out += [".TP", f"\\fI{esc(arg_name(arg))}\\fR", inline(text)]
    panels: dict[str, list[Any]] = {"Options": []}
    for p in options_of(cmd):
        panels.setdefault(getattr(p, "rich_help_panel", None) or "Options", []).append(p)
    order = sorted(panels, key=lambda k: (k == "Connection", k != "Options"))  # stable: appearance
    for panel in order:
        opts = panels[panel]
        if not opts:
            continue
        title = panel if panel == "Options" or panel.lower().endswith("options") else f"{panel} options"
        if len(panels) > 1 or args:
            out += [".PP", f"\\fB{esc(title)}\\fR"]
        for p in opts:
            names, text = help_record(p, ctx)
            out += [".TP", option_names(names), inline(text) if text else "\\&"]
    return out


# --------------------------------------------------------------------------- reference sections

SPECS = """\
`list` (and every command that takes --spec or --time) asks Kafka's ListOffsets for one of:

* earliest, -2 :: The log start offset (the first offset still in the log).
* latest, -1 :: The high watermark with --isolation read_uncommitted (the default), or the last stable
  offset with read_committed: the offset the next record will get.
* max-timestamp, -3 :: The offset and time of the record with the highest timestamp (KIP-734, Kafka 3.0
  and later); none for an empty partition.
* TIME :: The earliest offset whose timestamp is at or after TIME (KIP-79); none when no such record
  exists (the time is after the newest record). Kafka's tiered-storage codes -4, -5 and -6 are refused.

A spec may be given several times; `list` then shows one column (or record) per spec.
"""

SELECTION = """\
* -t, --topic REGEX :: Repeatable; the union is selected. A regular expression matching the WHOLE topic
  name (as Java's String.matches), trimmed, spaces removed, surrounding quotes stripped and a comma
  meaning "or" (so -t a,b selects a and b), as Kafka's tools do. Default: every topic.
* -p, --partitions LIST :: Comma-separated partition ids and ranges N-M (upper bound EXCLUSIVE) or N-.
* --topic-partitions PATTERNS :: GetOffsetShell's syntax: comma-separated TOPIC_REGEX[:PARTITIONS] with
  PARTITIONS N, N-M (M excluded), N-, -M or empty for all. Cannot be combined with --topic or
  --partitions.
* --exclude-internal-topics :: Leave out the topics the cluster flags as internal (liveness leaves
  them out by default; --include-internal adds them there).

Unlike kafka-get-offsets.sh, a selected topic or partition that does not exist is reported (with its
error, and exit status 1) rather than silently dropped.
"""

OUTPUT = """\
Data goes to standard output, everything else (progress, warnings, errors) to standard error. Tables are
the default on a terminal, JSON lines otherwise. Colour appears only on a terminal and never when
NO_COLOR is set; thousands separators only in terminal tables. --no-headers drops the header row of
tables and CSV, --columns keeps only the named record fields (in that order), and --tz sets the time
zone of shown times.

The record of `list` (json: an array of them; jsonl: one per line; csv: these columns):

  {"topic": str, "partition": int, "spec": str, "offset": int|null,
   "timestamp": int|null, "leader_epoch": int|null, "error": str|null}

spec is earliest, latest, max-timestamp or the target time in epoch milliseconds; offset and timestamp
are null when Kafka has none (no record at or after a time, an empty partition's max-timestamp, the time
of earliest/latest) or on error; error is Kafka's error name (UNKNOWN_TOPIC_OR_PARTITION,
NOT_LEADER_OR_FOLLOWER...). A selected topic that does not exist gives one record per spec with
partition null. Under --watch the record also has in_per_s (records/s appended since the previous
refresh, on latest records; null otherwise and on the first refresh). -o plain prints
topic:partition:offset lines exactly as kafka-get-offsets.sh.

The other commands document their records in their --help; every machine format is stable and additive.
"""

PROFILES = """\
Named clusters live in a TOML file, $XDG_CONFIG_HOME/kafka-offsets/config.toml
(~/.config/kafka-offsets/config.toml when XDG_CONFIG_HOME is unset), or the file named by
KAFKA_OFFSETS_CONFIG. `kafka-offsets config path` prints where it is looked for.

  default = "local"      # optional

  [clusters.local]
  bootstrap_servers = "localhost:9092"

  [clusters.prod]
  bootstrap_servers = ["kafka-1.prod:9093", "kafka-2.prod:9093"]
  command_config = "~/kafka/prod.properties"    # optional Java properties file
  [clusters.prod.properties]
  "security.protocol" = "SASL_SSL"
  "sasl.mechanism" = "SCRAM-SHA-512"
  "sasl.username" = "ops"
  "sasl.password_env" = "PROD_KAFKA_PASSWORD"   # from the environment
  "ssl.key.password_file" = "~/.secrets/key"    # from a file

Properties take Java client names (translated as for --command-config) or librdkafka names. A key ending
in _env takes its value from that environment variable and one ending in _file from that file (trailing
newline dropped), so secrets need not be written in the file; such values are always masked.

The profile is chosen by --cluster NAME, else KAFKA_OFFSETS_CLUSTER, else the file's default -- the
default only when no bootstrap servers are given by -b, --command-config or KAFKA_BOOTSTRAP_SERVERS.
Precedence, per setting: flags (-b, --command-config, -X) first, then the environment
(KAFKA_BOOTSTRAP_SERVERS), then the profile. A warning is printed when KAFKA_BOOTSTRAP_SERVERS overrides
the bootstrap servers of a chosen profile. `kafka-offsets config show` prints the effective settings,
secrets masked, with the source of each.
"""

WATCH = """\
--watch DURATION (list; lag and liveness where offered) repeats the query every DURATION until Ctrl-C,
which ends it with exit status 0. On a terminal the table is redrawn in place with a RECORDS/S column:
the records per second appended to each partition since the previous refresh (from the latest offsets;
consumed records per second from committed offsets where a command shows groups, over the commit steps
of the last 30 s or five refreshes, since committed offsets move in steps). lag and liveness also draw
each row's lag (LAG-TREND; with --summary beside CATCH-UP, the time to catch up while the group gains)
or age (AGE-TREND) over the last 16 refreshes as a sparkline, on a terminal only. When standard output
is not a terminal, or with a machine format, one block is printed per refresh (a CSV watch is one CSV
stream: its header once, then each refresh's rows, told apart by refreshed_ms; JSON gives one array per
refresh, which jq reads as a stream). One connection is reused and --timeout
applies to each refresh; a failed refresh after the first is reported and the watch goes on.
"""

COMPLETION = """\
The scripts call kafka-offsets back to complete commands, options and values, so they stay right as the
tool changes. Topic names (--topic, --topic-partitions) and consumer group ids (--group) are completed
live from the cluster named on the command line so far (-b, --cluster, --command-config, -X) or by the
environment and the default profile, with a 2 second limit; any failure just completes nothing. Names
starting with an underscore (internal topics) are offered once an underscore is typed. Cluster profile
names complete from the config file. File names are offered only where a value is a path (the FILE and
DIR options, check SPEC), never for a topic, group, offset spec or time, even when nothing else completes.

Packages install the scripts for bash (share/bash-completion/completions/kafka-offsets.bash), zsh
(share/zsh/site-functions/_kafka-offsets) and fish (share/fish/vendor_completions.d/kafka-offsets.fish).
pipx keeps them inside its own venv; kafka-offsets completion SHELL prints the same script to place by hand:

  kafka-offsets completion bash > ~/.local/share/bash-completion/completions/kafka-offsets
  kafka-offsets completion zsh > ~/.zfunc/_kafka-offsets     # with fpath+=~/.zfunc before compinit
  kafka-offsets completion fish > ~/.config/fish/completions/kafka-offsets.fish
"""

ENVIRONMENT = {
    "KAFKA_BOOTSTRAP_SERVERS": "Bootstrap servers when -b is not given (before any cluster profile).",
    "KAFKA_OFFSETS_CLUSTER": "Cluster profile when --cluster is not given.",
    "KAFKA_OFFSETS_CONFIG": "Path of the config file, instead of the XDG location.",
    "XDG_CONFIG_HOME": "Base directory of the config file (default ~/.config).",
    "NO_COLOR": "When set and not empty, no colour in any output (https://no-color.org).",
    "TZ": "The local time zone, used by --tz local.",
    COMPLETE_VAR: "Set by the completion scripts when they call kafka-offsets back; not for users.",
}

FILES = """\
* ~/.config/kafka-offsets/config.toml :: Cluster profiles (see CLUSTER PROFILES; $XDG_CONFIG_HOME and
  KAFKA_OFFSETS_CONFIG move it).
* --command-config FILE :: A Java client properties file as for Kafka's own tools (security.protocol,
  sasl.jaas.config, ssl.truststore.location as PEM...); keys shared with librdkafka are translated,
  Java-only ones ignored.
* share/man/man1/kafka-offsets.1 :: This page, installed with the package.
* share/bash-completion/completions/kafka-offsets.bash, share/zsh/site-functions/_kafka-offsets,
  share/fish/vendor_completions.d/kafka-offsets.fish :: Shell completions, installed with the package.
"""

EXIT_CODES = {
    "OK": "Success.",
    "PARTIAL": "Some partitions or groups answered with an error; the rest was printed.",
    "USAGE": "Usage error: a bad option, spec, time, selection, config file, profile or spec file.",
    "UNREACHABLE": "The cluster did not answer within --timeout.",
    "AUTH": "Authentication (SASL) or TLS failure.",
    "NOT_FOUND": "The selection matched no topic, partition or group.",
    "REFUSED": "An action was refused for safety (e.g. rewinding a group with active members); "
    "nothing changed.",
    "OUTPUT": "Standard output could not be written (closed, a full disk); monitoring checks say "
    "UNKNOWN (3) instead. A closed pipe (| head) is not an error.",
    "INTERRUPTED": "Interrupted (Ctrl-C), except under --watch, where Ctrl-C is the normal end (0).",
}

MONITORING_CODES = {
    "OK": "OK: every check passed.",
    "WARNING": "WARNING: a warning threshold was crossed.",
    "CRITICAL": "CRITICAL: a critical threshold was crossed.",
    "UNKNOWN": "UNKNOWN: the cluster could not be asked (unreachable, authentication), or a usage "
    "error (an invalid argument would read as CRITICAL); with -o nagios an UNKNOWN status line.",
}

EXAMPLES = """\
  # offsets of a topic, then the same as JSON for jq
  kafka-offsets list -b localhost:9092 -t orders
  kafka-offsets list -b localhost:9092 -t orders -o json | jq '.[] | select(.offset > 0)'

  # where was every partition 6 hours ago, and now
  kafka-offsets list --cluster prod -t 'orders\\..*' --time '6h ago' --time latest

  # the busiest partitions first, refreshed every 5 seconds
  kafka-offsets list --cluster prod --sort offset --reverse --watch 5s

  # the effective settings of a profile, secrets masked
  kafka-offsets config show --cluster prod
"""

SEE_ALSO = (
    "\\fBkafka\\-get\\-offsets.sh\\fR(1), \\fBkafka\\-consumer\\-groups.sh\\fR(1), "
    "\\fBkcat\\fR(1), \\fBkafkactl\\fR(1); KIP\\-79 (ListOffsets by timestamp), "
    "KIP\\-734 (max\\-timestamp)."
)


def _times() -> str:
    from kafka_offsets_cli.parse.durations import DURATION_FORMS
    from kafka_offsets_cli.parse.times import TIME_FORMS

    return (
        f"A TIME is one of: {TIME_FORMS}. A time without a zone is read in the --tz zone (UTC by default); "
        "a clock time still to come today is yesterday's. A bare number is epoch milliseconds, as for "
        "Kafka's tools; one that looks like epoch seconds gets a warning with the form to write. "
        f"A DURATION (--timeout, --watch, thresholds) is one of: {DURATION_FORMS}."
    )


def _exit_status() -> str:
    from kafka_offsets_cli.errors import ExitCode, MonitoringStatus

    missing = [c.name for c in ExitCode if c.name not in EXIT_CODES]
    missing += [f"monitoring {c.name}" for c in MonitoringStatus if c.name not in MONITORING_CODES]
    if missing:
        raise SystemExit(f"dev/gendocs.py: describe exit code(s) {', '.join(missing)} in EXIT_CODES")
    out = [".PP", "list, lag, rewind and config:"]
    for c in ExitCode:
        out += [".TP", f"\\fB{int(c)}\\fR", inline(EXIT_CODES[c.name])]
    out += [
        ".PP",
        "liveness, tiering, check, and lag with a threshold or a monitoring output, as monitoring plugins:",
    ]
    for m in MonitoringStatus:
        out += [".TP", f"\\fB{int(m)}\\fR", inline(MONITORING_CODES[m.name])]
    return "\n".join(out)


def _environment(root: Any, ctx: Any) -> str:
    found: dict[str, None] = {}
    for p in params(root):
        _collect_env(p, help_record(p, ctx)[1], found)
    for _path, cmd, sctx in walk(root, ctx):
        for p in params(cmd):
            _collect_env(p, help_record(p, sctx)[1], found)
    out: list[str] = []
    for name, text in ENVIRONMENT.items():
        out += [".TP", f"\\fB{esc(name)}\\fR", inline(text)]
    for name in sorted(set(found) - set(ENVIRONMENT)):
        users = ", ".join(_env_users(root, ctx, name))
        out += [".TP", f"\\fB{esc(name)}\\fR", inline(f"Default of {users}.")]
    return "\n".join(out)


def _collect_env(param: Any, text: str, found: dict[str, None]) -> None:
    envvar = getattr(param, "envvar", None)
    names = [envvar] if isinstance(envvar, str) else list(envvar or ())
    names += re.findall(r"\benv(?: var)?: ([A-Z_][A-Z0-9_]*)", text)
    for n in names:
        found[n] = None


def _env_users(root: Any, ctx: Any, name: str) -> list[str]:
    users: dict[str, None] = {}
    for _path, cmd, sctx in walk(root, ctx):
        for p in params(cmd):
            mine: dict[str, None] = {}
            _collect_env(p, help_record(p, sctx)[1], mine)
            if name in mine:
                users[" ".join(long_names(p)[:1])] = None
    return list(users) or ["an option"]


def man_page() -> str:
    """The man page, in roff."""
    from kafka_offsets_cli import __version__

    root = root_command()
    ctx = _context(root, PROG)
    summary = _help_text(root).strip().split("\n")[0].rstrip(".")
    out = [
        '.\\" Generated by dev/gendocs.py from the Typer app; do not edit.',
        f'.TH KAFKA\\-OFFSETS 1 "" "{PROG} {__version__}" "User Commands"',
        ".nh",
        ".ad l",
        ".SH NAME",
        f"{PROG} \\- {esc(summary)}",
        ".SH SYNOPSIS",
    ]
    first = True
    for path, cmd, _sctx in walk(root, ctx):
        if hasattr(cmd, "list_commands"):
            continue
        if not first:
            out.append(".br")
        out.append(_usage(path, cmd))
        first = False
    out += [".SH DESCRIPTION", prose(_help_text(root))]
    out += [".SH OPTIONS", *_options_block(root, ctx)]
    out.append(".SH COMMANDS")
    for path, cmd, sctx in walk(root, ctx):
        out += [f'.SS "{esc(" ".join(path))}"', _usage(path, cmd), ".PP", inline(_help_text(cmd))]
        if hasattr(cmd, "list_commands"):
            subs = ", ".join(f"\\fB{esc(' '.join((*path, n)))}\\fR" for n in cmd.list_commands(sctx))
            out += [".PP", f"Commands: {subs}."]
        out += _options_block(cmd, sctx)
        if cmd.epilog:
            out.append(_epilog(cmd.epilog))
    out += [".SH OFFSET SPECS", prose(SPECS)]
    out += [".SH TIMES AND DURATIONS", prose(_times())]
    out += [".SH SELECTION", prose(SELECTION)]
    out += [".SH OUTPUT", prose(OUTPUT)]
    out += [".SH CLUSTER PROFILES", prose(PROFILES)]
    out += [".SH WATCH MODE", prose(WATCH)]
    out += [".SH SHELL COMPLETION", prose(COMPLETION)]
    out += [".SH ENVIRONMENT", _environment(root, ctx)]
    out += [".SH FILES", prose(FILES)]
    out += [".SH EXIT STATUS", _exit_status()]
    out += [".SH EXAMPLES", prose(EXAMPLES)]
    out += [".SH SEE ALSO", SEE_ALSO]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- completions


def completion_script(shell: str) -> str:
    """The completion script for ``shell``: what ``kafka-offsets completion SHELL`` prints."""
    from kafka_offsets_cli.cli.complete import completion_script as script

    return script(shell)


# --------------------------------------------------------------------------- driver


def generate() -> dict[Path, str]:
    """Every generated file (relative path -> content)."""
    return {
        BASH: completion_script("bash"),
        ZSH: completion_script("zsh"),
        FISH: completion_script("fish"),
        MAN: man_page(),
    }


def drift(root: Path = REPO_ROOT, files: dict[Path, str] | None = None) -> list[Path]:
    """Generated files whose committed content differs from a fresh generation."""
    fresh = generate() if files is None else files
    stale: list[Path] = []
    for rel, text in fresh.items():
        p = root / rel
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            stale.append(rel)
    return stale


def write(root: Path = REPO_ROOT, files: dict[Path, str] | None = None) -> list[Path]:
    """Write the generated files; return those that changed."""
    fresh = generate() if files is None else files
    changed = drift(root, fresh)
    for rel in changed:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(fresh[rel], encoding="utf-8")
    return changed


def main(argv: Iterable[str] | None = None) -> int:
    """Command line: regenerate, or ``--check`` for drift."""
    ap = argparse.ArgumentParser(prog="python -m dev.gendocs", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated file is out of date")
    args = ap.parse_args(list(argv) if argv is not None else None)
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    if args.check:
        stale = drift()
        for rel in stale:
            print(f"{rel}: out of date; run `python -m dev.gendocs` (make docs)", file=sys.stderr)
        return 1 if stale else 0
    for rel in write():
        print(f"wrote {rel}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
