"""The one place where exceptions become a message on stderr and an exit code."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, NoReturn

import typer

from ..errors import (
    ExitCode,
    KafkaOffsetsError,
    MonitoringStatus,
    OutputError,
    SpecFileError,
    UsageError,
    interrupted,
)
from .output import err_console
from .streams import silence_stdout

PROG = "kafka-offsets"

#: Whether the running command is a monitoring one (liveness, check): set by :func:`boundary`, read
#: when stdout fails at the very end (:func:`finish`), where the command's own context is gone.
_monitoring = False


def report(err: KafkaOffsetsError) -> None:
    """Print an error as one line (plus a hint, and every problem of a spec file)."""
    from rich.markup import escape

    c = err_console()
    c.print(f"[red]{PROG}: error:[/] {escape(err.message)}", soft_wrap=True)
    if isinstance(err, SpecFileError) and len(err.problems) > 1:
        for p in err.problems[1:]:
            c.print(f"  {escape(p)}", soft_wrap=True)
    if err.hint:
        c.print(f"  hint: {escape(err.hint)}", soft_wrap=True)


def _interrupt(debug: bool) -> NoReturn:
    """Ctrl-C: one line and exit 130 (the traceback with ``--debug``)."""
    if debug:
        traceback.print_exc()
    sys.stderr.write(f"\n{PROG}: interrupted\n")
    raise typer.Exit(int(ExitCode.INTERRUPTED)) from None


@contextmanager
def boundary(debug: bool = False, *, monitoring: bool = False, nagios: str | None = None) -> Iterator[None]:
    """Map the tool's exceptions to one line and an exit code; tracebacks only with ``--debug``.

    With ``monitoring`` (a monitoring check, :mod:`.families`) every failure exits 3 (UNKNOWN) per
    the monitoring-plugin convention, usage errors too (exit 2 reads as CRITICAL); ``nagios``, the
    service name when ``-o nagios`` was asked, prints a usage error's UNKNOWN status line on stdout
    (the commands print it for the other failures).
    """
    global _monitoring
    _monitoring = monitoring
    try:
        yield
    except KafkaOffsetsError as e:
        if debug:
            traceback.print_exc()
        if isinstance(e, OutputError):
            silence_stdout()
        if monitoring and nagios is not None and isinstance(e, UsageError):
            _unknown_line(nagios, e.message)
        report(e)
        code = int(e.exit_code)
        if monitoring:
            code = int(MonitoringStatus.UNKNOWN)
        raise typer.Exit(code) from None
    except KeyboardInterrupt:
        _interrupt(debug)
    except BrokenPipeError:
        silence_stdout()
        raise typer.Exit(0) from None
    except Exception as e:
        if not interrupted(e):  # a bug: Python's own traceback, exit 1
            raise
        _interrupt(debug)  # a Ctrl-C that surfaced wrapped (e.g. SystemError from a C extension)


def _unknown_line(service: str, message: str) -> None:
    """A monitoring check's UNKNOWN status line (``KAFKA LIVENESS UNKNOWN - …``) on stdout."""
    from ..render.monitoring import nagios_line
    from .output import write

    try:
        write(nagios_line(service, MonitoringStatus.UNKNOWN, message))
    except (OutputError, BrokenPipeError):  # stdout closed: the message and exit code still come
        silence_stdout()


def _output_code() -> int:
    """Exit code for stdout that could not be written: 7, or UNKNOWN for a monitoring command."""
    return int(MonitoringStatus.UNKNOWN if _monitoring else ExitCode.OUTPUT)


def finish(code: int) -> int:
    """Flush stdout at the end of a run: a failure is one line and exit 7, not an exit-time traceback."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except OutputError as e:
        silence_stdout()
        report(e)
        return _output_code()
    return code


def _usage(e: Any) -> None:
    """A usage error of the command-line parser: the house's one line plus a hint, not click's four lines."""
    ctx = getattr(e, "ctx", None)
    path = ctx.command_path if ctx is not None else PROG
    report(UsageError(e.format_message(), hint=f"see '{path} --help'"))


def _family(e: Any, argv: Sequence[str]) -> Any:
    """The :class:`.families.Family` of the subcommand a parser error is about (None: not monitoring)."""
    ctx = getattr(e, "ctx", None)
    if ctx is None or ctx.parent is None:  # the root's own options, or no such command
        return None
    from .families import from_argv

    name = ctx.command.name or ""
    words = list(argv)
    return from_argv(name, words[words.index(name) + 1 :] if name in words else words)


class ParserErrors(NamedTuple):
    """The command-line parser's exception classes (from click itself, or typer's vendored copy)."""

    usage: type[Exception]
    other: type[Exception]
    abort: type[BaseException]


def run_standalone(invoke: Callable[[], Any], errors: ParserErrors, argv: Sequence[str] = ()) -> int:
    """Run the CLI (click in non-standalone mode) and map what escapes to one line and an exit code.

    ``argv`` (the words after the program name) tells a monitoring check whose command line the
    parser refused (:func:`.families.from_argv`): UNKNOWN, not click's exit 2.
    """
    try:
        rv = invoke()
        code = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0
    except errors.usage as e:
        code = e.exit_code  # type: ignore[attr-defined]
        if type(e).__name__ == "NoArgsIsHelpError":  # bare `kafka-offsets`: the help, as click shows it
            e.show()  # type: ignore[attr-defined]
        else:
            family = _family(e, argv)
            if family is not None:
                if family.nagios_service is not None:
                    _unknown_line(family.nagios_service, e.format_message())  # type: ignore[attr-defined]
                code = int(MonitoringStatus.UNKNOWN)
            _usage(e)
    except errors.other as e:
        report(UsageError(e.format_message()))  # type: ignore[attr-defined]
        code = e.exit_code  # type: ignore[attr-defined]
    except errors.abort:
        sys.stderr.write(f"\n{PROG}: interrupted\n")
        code = int(ExitCode.INTERRUPTED)
    except OutputError as e:  # click's own output (--help, completion) to a stdout that fails
        silence_stdout()
        report(e)
        code = _output_code()
    return finish(code)
