"""What each shell is told while it completes a word, and the bash script that listens.

Typer's own answers make every shell fall back to file names whenever no candidate comes back:
its bash script is registered with ``complete -o default``, its zsh answer is ``_files``, its fish
answer lets fish's file completion in. So ``-t``, ``-s`` or ``--to`` offered the files of the
current directory whenever the cluster could not be asked. The classes here replace Typer's for
the length of one completion (:func:`register`, called by the root group) and offer file names
only where a value is a path (:func:`path_kind`); everywhere else an empty answer completes
nothing:

* bash: the program exits with :data:`PATH_STATUS` (``file``: readline's file names, ``dir``: its
  directory names) and :data:`BASH_SCRIPT` (registered without ``-o default``) turns that into
  ``compopt``; candidates come one a line with status 0, as Typer's script expects;
* zsh: ``_files`` (``_files -/`` for a directory) for a path, nothing for no candidates;
* fish: the ``is-args`` question is answered "no" (exit 1: fish completes file names) only for a
  path.

Typer's ``--install-completion`` and ``--show-completion`` write and print these scripts too
(:func:`~.complete.use_our_scripts`).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from typer import _completion_classes as typer_shells

#: A parameter's metavar -> the kind of path its value is (options; see :func:`path_kind`).
PATH_METAVARS = {"FILE": "file", "DIR": "dir"}

#: The exit status of a bash completion whose word is a path, by kind (0: the candidates printed).
PATH_STATUS = {"file": 80, "dir": 81}

#: The bash script (``%(func)s``, ``%(var)s``, ``%(prog)s``): the candidates, readline's file or
#: directory names for a path (:data:`PATH_STATUS`), nothing otherwise (no ``-o default``).
BASH_SCRIPT = """\
%(func)s() {
    local IFS=$'\\n'
    local reply
    reply=$(env COMP_WORDS="${COMP_WORDS[*]}" \\
                COMP_CWORD=$COMP_CWORD \\
                %(var)s=complete_bash "$1")
    case $? in
        0) COMPREPLY=(); [[ -n $reply ]] && mapfile -t COMPREPLY <<< "$reply" ;;  # no glob expansion
        %(file)d) COMPREPLY=(); compopt -o default ;;
        %(dir)d) COMPREPLY=(); compopt -o dirnames ;;
        *) COMPREPLY=() ;;
    esac
    return 0
}

complete -F %(func)s %(prog)s
"""


def bash_script(func: str, var: str, prog: str) -> str:
    """:data:`BASH_SCRIPT` for completion function ``func``, variable ``var`` and program ``prog``."""
    return BASH_SCRIPT % {"func": func, "var": var, "prog": prog, **PATH_STATUS}


def path_kind(param: Any) -> str | None:
    """``file`` or ``dir`` when the word being completed is a path value of ``param``, else ``None``.

    Options whose metavar is ``FILE`` or ``DIR`` (``--command-config``, ``--prometheus-file``,
    ``--export``, ``--history``…) and positional arguments without choices (``check SPEC``) take
    paths; a command (its option or subcommand names), a choice and every other option (topics,
    groups, offset specs, times) never do.
    """
    kind = getattr(param, "param_type_name", None)
    if kind == "option":
        return PATH_METAVARS.get(getattr(param, "metavar", None) or "")
    if kind == "argument":
        return None if getattr(param.type, "name", "") == "choice" else "file"
    return None


def _click_shells() -> Any:
    """The module of click's shell completion that Typer runs on: click's own (older Typers) or
    Typer's copy of it (``typer._click``)."""
    base = next(c for c in typer_shells.BashComplete.__mro__ if c.__name__ == "ShellComplete")
    return sys.modules[base.__module__]


def _resolve(comp: Any, args: list[str], incomplete: str) -> tuple[str | None, list[Any]]:
    """(the path kind of the word, its candidates): click's ``get_completions``, which finds the
    parameter being completed, also asked what that parameter takes."""
    click_shells = _click_shells()
    ctx = click_shells._resolve_context(comp.cli, comp.ctx_args, comp.prog_name, args)
    obj, incomplete = click_shells._resolve_incomplete(ctx, args, incomplete)
    kind = path_kind(obj)
    return kind, ([] if kind else list(obj.shell_complete(ctx, incomplete)))


class BashComplete(typer_shells.BashComplete):
    """Candidates one a line; a path: exit status :data:`PATH_STATUS` (:data:`BASH_SCRIPT`)."""

    def complete(self) -> str:
        """The candidates, or the exit that tells the script to complete a path."""
        kind, items = _resolve(self, *self.get_completion_args())
        if kind is not None:
            sys.exit(PATH_STATUS[kind])
        return "\n".join(self.format_completion(i) for i in items)


class ZshComplete(typer_shells.ZshComplete):
    """Typer's ``_arguments`` for candidates; ``_files`` only for a path; nothing otherwise."""

    def complete(self) -> str:
        """The code the zsh function evaluates."""
        kind, items = _resolve(self, *self.get_completion_args())
        if kind is not None:
            return "_files -/" if kind == "dir" else "_files"
        if not items:
            return ""
        lines = "\n".join(self.format_completion(i) for i in items)
        return f"_arguments '*: :(({lines}))'"


class FishComplete(typer_shells.FishComplete):
    """Typer's answers, except that fish completes file names only for a path."""

    def complete(self) -> str:
        """``get-args``: the candidates; ``is-args``: exit 0 (ours, maybe none) unless a path (1)."""
        kind, items = _resolve(self, *self.get_completion_args())
        if os.getenv("_TYPER_COMPLETE_FISH_ACTION", "") == "is-args":
            sys.exit(1 if kind is not None else 0)
        return "\n".join(self.format_completion(i) for i in items)


def register() -> None:
    """Answer this process's completions with the classes above (after Typer registered its own)."""
    for cls in (BashComplete, ZshComplete, FishComplete):
        _click_shells().add_completion_class(cls, cls.name)
