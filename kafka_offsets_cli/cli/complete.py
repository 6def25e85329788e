"""Live shell completion of topic, group and cluster-profile names.

``kafka-offsets completion bash|zsh|fish`` (:mod:`.completion_cmd`) prints the script that calls them
(:func:`completion_script`, the very text of the files in ``completions/``).

Typer calls these while the shell completes a word: they read the connection
options already typed (``-b``/``--bootstrap-server``/``--broker-list``,
``--cluster``, ``--command-config``, ``-X``, as click parsed them into the
context; otherwise the environment and the default profile), ask the cluster
with a short timeout, and return matching names. Typer passes no words
(``args`` is always empty), so the context is the one source. Any failure
(no cluster, bad options, timeout) gives no candidates and prints nothing: a
completion must never disturb the command line.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr
from typing import Any

import typer

from ..connection.profiles import load_file

#: How long a completion may wait for the cluster.
COMPLETION_TIMEOUT = "2s"


def _quietly(fetch: Callable[[Any], list[str]], ctx: Any) -> list[str]:
    """Run ``fetch(client)`` against the cluster typed so far; [] on any failure, nothing printed."""
    log = logging.getLogger("kafka_offsets")
    quiet = logging.NullHandler()
    saved = log.propagate
    log.addHandler(quiet)
    log.propagate = False
    try:
        # confluent_kafka and the resolver load only when a completion needs the cluster (every
        # command imports this module, through the options' completion callbacks)
        from ..kafka import KafkaClient
        from .connection import connection_options, settings_from

        with redirect_stderr(io.StringIO()):
            settings = settings_from(connection_options(ctx, timeout=COMPLETION_TIMEOUT))
            with KafkaClient(settings) as client:
                return fetch(client)
    except Exception:  # a completion is silent on every failure
        return []
    finally:
        log.removeHandler(quiet)
        log.propagate = saved


def _matching(names: Sequence[str], incomplete: str) -> list[str]:
    """Names starting with ``incomplete``; internal (``_``) names only when asked for."""
    hide_internal = not incomplete.startswith("_")
    return [n for n in names if n.startswith(incomplete) and not (hide_internal and n.startswith("_"))]


def topic_names(ctx: Any) -> list[str]:
    """All topic names of the cluster named in the context (sorted; [] on any failure)."""
    return _quietly(lambda c: c.metadata().topic_names(), ctx)


def group_names(ctx: Any) -> list[str]:
    """All consumer group ids of the cluster named in the context (sorted; [] on any failure)."""
    return _quietly(lambda c: c.group_ids(), ctx)


def complete_topics(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """Completion of ``--topic``: topic names of the configured cluster."""
    return _matching(topic_names(ctx), incomplete)


def complete_topic_partitions(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """Completion of ``--topic-partitions``: the topic of the last comma-separated pattern."""
    head, sep, last = incomplete.rpartition(",")
    if ":" in last:
        return []
    return [f"{head}{sep}{name}" for name in _matching(topic_names(ctx), last)]


def complete_groups(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """Completion of ``--group``: consumer group ids of the configured cluster."""
    return _matching(group_names(ctx), incomplete)


def complete_clusters(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """Completion of ``--cluster``: profile names from the config file."""
    try:
        return [n for n in load_file().names() if n.startswith(incomplete)]
    except Exception:  # a completion is silent on every failure
        return []


# --------------------------------------------------------------------------- the scripts

PROG = "kafka-offsets"

#: The variable the scripts set when they call ``kafka-offsets`` back for candidates.
COMPLETE_VAR = "_KAFKA_OFFSETS_COMPLETE"

_ZSH_REGISTER = re.compile(r"^compdef (\S+) (\S+)$", re.M)


#: Typer's own script maker, once :func:`use_our_scripts` has put :func:`completion_script` in its place
_TYPERS_SCRIPT: list[Callable[..., str]] = []

#: The shells :func:`completion_script` writes for (Typer's others, e.g. PowerShell, stay Typer's).
OUR_SHELLS = ("bash", "zsh", "fish")


def use_our_scripts() -> None:
    """Typer's ``--install-completion`` and ``--show-completion`` write and print
    :func:`completion_script`'s scripts, not Typer's (whose bash one keeps ``complete -o default``: file
    names wherever nothing completes). Both call the module attribute ``get_completion_script`` of
    ``typer._completion_shared`` (and ``typer.completion``, which imported the name); this puts a
    function of the same signature there, once (tests/test_completion_shells.py installs and checks)."""
    from typer import _completion_shared as shared
    from typer import completion

    if _TYPERS_SCRIPT:
        return
    _TYPERS_SCRIPT.append(shared.get_completion_script)

    def ours(*, prog_name: str, complete_var: str, shell: str) -> str:
        if shell in OUR_SHELLS:
            return completion_script(shell)
        return _TYPERS_SCRIPT[0](prog_name=prog_name, complete_var=complete_var, shell=shell)

    shared.get_completion_script = ours
    setattr(completion, "get_completion_script", ours)  # noqa: B010 - the name show_callback imported


def completion_script(shell: str) -> str:
    """The completion script for ``shell``: Typer's, made to work when autoloaded (zsh), and for bash
    :mod:`.complete_shells`' (file names only where a value is a path)."""
    from typer._completion_shared import get_completion_script

    typers = _TYPERS_SCRIPT[0] if _TYPERS_SCRIPT else get_completion_script
    script = typers(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell)
    if shell == "bash":  # Typer's falls back to file names (-o default) when nothing completes
        from .complete_shells import bash_script

        defined = re.search(r"^(\w+)\(\)", script, re.M)
        if defined is None:  # pragma: no cover - a typer upgrade; tests/test_docs.py notices
            raise RuntimeError("Typer's bash completion script changed; update completion_script()")
        script = bash_script(defined.group(1), COMPLETE_VAR, PROG)
    if shell == "zsh":
        # Typer's script registers itself with compdef, which completes nothing on the first
        # Tab when the file is autoloaded from $fpath (site-functions); complete right away then.
        m = _ZSH_REGISTER.search(script)
        if m is None:  # pragma: no cover - a typer upgrade; tests/test_docs.py notices
            raise RuntimeError("Typer's zsh completion script changed; update completion_script()")
        func, prog = m.group(1), m.group(2)
        script = (
            script[: m.start()] + f'if [[ "${{zsh_eval_context[-1]}}" == loadautofunc ]]; then\n'
            f'  {func} "$@"\n'
            f"else\n"
            f"  compdef {func} {prog}\n"
            f"fi" + script[m.end() :]
        )
    return script.rstrip("\n") + "\n"
