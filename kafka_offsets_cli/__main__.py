"""Entry point: ``kafka-offsets`` and ``python -m kafka_offsets_cli``."""

from __future__ import annotations

import sys


def no_core_dumps() -> None:
    """Switch core dumps off for this process: its memory holds SASL passwords and keys.

    A crash inside the C client (a non-UTF-8 group id once made librdkafka segfault)
    would otherwise leave a core file with the secrets in cleartext.
    """
    try:
        import resource  # here: POSIX only (the ImportError below)

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):  # not POSIX, or the limit cannot be lowered
        pass


def main() -> None:
    """Run the command-line application.

    A Ctrl-C while the CLI framework is still being imported (the first tens of
    milliseconds) exits 130 like one during a command, not with an import traceback.
    """
    no_core_dumps()
    from .cli.streams import guard_streams  # here: stdout/stderr guarded before anything prints

    guard_streams()
    try:
        from .cli.app import app  # here: a Ctrl-C during this import must exit 130 too
    except KeyboardInterrupt:
        sys.stderr.write("\nkafka-offsets: interrupted\n")
        raise SystemExit(130) from None
    from . import gcpause

    gcpause.command_ends_process()
    try:
        app(prog_name="kafka-offsets")
    except SystemExit as e:
        from .lingering import leave_if_calls_linger

        gcpause.no_final_pass()  # looked up at the end: bench.workarounds switches it off
        leave_if_calls_linger(e.code)  # a librdkafka call still running: no finalization beside it
        raise


if __name__ == "__main__":
    main()
