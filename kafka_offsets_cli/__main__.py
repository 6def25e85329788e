"""Entry point: ``kafka-offsets`` and ``python -m kafka_offsets_cli``."""

from __future__ import annotations


def main() -> None:
    """Run the command-line application.

    A Ctrl-C while the CLI framework is still being imported (the first tens of
    milliseconds) exits 130 like one during a command, not with an import traceback.
    """
    try:
        from .cli.app import app
    except KeyboardInterrupt:
        import sys

        sys.stderr.write("\nkafka-offsets: interrupted\n")
        raise SystemExit(130) from None
    app(prog_name="kafka-offsets")


if __name__ == "__main__":
    main()
