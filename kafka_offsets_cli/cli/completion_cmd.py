"""``kafka-offsets completion bash|zsh|fish``: print the shell completion script (as kubectl and rpk do)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from .app import command_help
from .complete import completion_script


class Shell(str, Enum):
    """The shells a completion script is printed for."""

    bash = "bash"
    zsh = "zsh"
    fish = "fish"


COMPLETION_EXAMPLES = """Examples:

  kafka-offsets completion bash > ~/.local/share/bash-completion/completions/kafka-offsets

  kafka-offsets completion zsh > ~/.zfunc/_kafka-offsets

  kafka-offsets completion fish > ~/.config/fish/completions/kafka-offsets.fish

zsh needs fpath+=~/.zfunc before compinit in ~/.zshrc. The scripts call kafka-offsets back for
every completion, so they stay right when the tool is upgraded.
"""


def completion_cmd(
    shell: Annotated[Shell, typer.Argument(metavar="SHELL", help="bash, zsh or fish.", show_default=False)],
) -> None:
    """Print the shell completion script for SHELL (the files installed in share/)."""
    from .output import write

    write(completion_script(shell.value))


def register(app: typer.Typer) -> None:
    """Add the ``completion`` command to ``app``."""
    app.command("completion", help=command_help("completion"), epilog=COMPLETION_EXAMPLES)(completion_cmd)
