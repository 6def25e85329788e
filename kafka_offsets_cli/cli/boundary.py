"""The one place where exceptions become a message on stderr and an exit code."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer

from ..errors import ExitCode, KafkaOffsetsError, MonitoringStatus, SpecFileError, UsageError, interrupted

PROG = "kafka-offsets"


def _quiet_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's flush is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def report(err: KafkaOffsetsError) -> None:
    """Print an error as one line (plus a hint, and every problem of a spec file)."""
    from rich.markup import escape

    from .output import err_console

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
def boundary(debug: bool = False, *, monitoring: bool = False) -> Iterator[None]:
    """Map the tool's exceptions to one line and an exit code; tracebacks only with ``--debug``.

    With ``monitoring`` (liveness, check), cluster failures exit 3 (UNKNOWN) per the
    monitoring-plugin convention; usage errors still exit 2.
    """
    try:
        yield
    except KafkaOffsetsError as e:
        if debug:
            traceback.print_exc()
        report(e)
        code = int(e.exit_code)
        if monitoring and not isinstance(e, UsageError):
            code = int(MonitoringStatus.UNKNOWN)
        raise typer.Exit(code) from None
    except KeyboardInterrupt:
        _interrupt(debug)
    except BrokenPipeError:
        _quiet_stdout()
        raise typer.Exit(0) from None
    except Exception as e:
        if not interrupted(e):  # a bug: Python's own traceback, exit 1
            raise
        _interrupt(debug)  # a Ctrl-C that surfaced wrapped (e.g. SystemError from a C extension)
