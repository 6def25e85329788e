"""Entry point: ``kafka-offsets`` and ``python -m kafka_offsets_cli``."""

from __future__ import annotations


def main() -> None:
    """Run the command-line application."""
    from .cli.app import app

    app(prog_name="kafka-offsets")


if __name__ == "__main__":
    main()
