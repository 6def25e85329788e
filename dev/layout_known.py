"""Today's known breaches of the layout rules, allowed until the code moves (for :mod:`dev.layout`).

Each entry is exact: the rule, the modules the breach names (relative to the package) and the one
line that says which item of issue 28 moves it. A breach not listed here fails ``python -m
dev.layout``, and so does an entry that matches no breach any more: delete the entry in the
change that moves the code, so the list only shrinks. Do not add to it: move the code instead.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Known:
    """One allowed breach: the rule, the modules it names, and why it is still there.

    ``modules`` are named relative to the package, as the breach names them: an import edge is
    ``(importer, imported)``, a cycle is its modules from the smallest, a size breach the module.
    ``lines`` (``command`` only) is the module's size today, a ceiling: growing is a new breach.
    """

    rule: str
    modules: tuple[str, ...]
    reason: str
    lines: int = 0


# The items of issue 28 that move them (one place to name each item).
_COMMANDS = "moves in issue 28.1 (thin commands)"

KNOWN: tuple[Known, ...] = (
    # --- command: cli/*_cmd.py over 150 lines; `lines` is today's size, a ceiling
)
