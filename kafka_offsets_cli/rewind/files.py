"""The files ``rewind`` reads and writes: the plan (``--export``, ``--from-file``), its ``.seen``
record (with the cluster it was made on), and the undo plan every ``--execute`` leaves
(``--undo-file``, default in the XDG state dir)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path

from ..errors import Refused, UsageError
from ..models.topics import TopicPartition
from .identity import ClusterIdentity, read_identity, same_cluster
from .io import RewindIO
from .plan import Plan
from .planfile import (
    SEEN_SUFFIX,
    FileOffsets,
    export_csv,
    parse_plan_file,
    parse_seen,
    seen_csv,
    undo_csv,
)

#: Directory under the XDG state home (``~/.local/state`` when ``XDG_STATE_HOME`` is unset).
STATE_DIR = "kafka-offsets"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
Seen = dict[str, dict[TopicPartition, int | None]]


def _read(path: str) -> str:
    from ..connection.files import read_regular_file

    try:
        return read_regular_file(path, limit=64 << 20).decode("utf-8")
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None


def read_plan(path: str, single_group: str | None) -> tuple[FileOffsets, Seen | None, ClusterIdentity | None]:
    """The plan file's offsets, its ``.seen`` record (``None`` when there is none) and the cluster
    that record names (``None`` when it names none).

    A one-group (three-column) plan needs its group: the one ``-g``, else the one group its
    ``.seen`` record names (``--export`` writes it), so an exported plan applies as it is.
    """
    seen_path = path + SEEN_SUFFIX
    record = _read(seen_path) if os.path.exists(seen_path) else None
    seen = parse_seen(record, seen_path) if record is not None else None
    if single_group is None and seen is not None and len(seen) == 1:
        single_group = next(iter(seen))
    made_on = read_identity(record) if record is not None else None
    return parse_plan_file(_read(path), path, single_group), seen, made_on


def check_cluster(
    path: str,
    made_on: ClusterIdentity | None,
    here: ClusterIdentity,
    io: RewindIO,
    *,
    execute: bool,
    allowed: bool,
) -> None:
    """A plan (or undo) file applies to the cluster it was made on: another one is refused with
    ``--execute`` (:class:`Refused`, exit 6, nothing changed) unless ``allowed``
    (``--allow-other-cluster``); a record that cannot tell is said on stderr."""
    if not os.path.exists(path + SEEN_SUFFIX):
        return  # no record at all: said once, with the offsets it cannot check (run._drift)
    if made_on is None:
        io.warn(
            f"{path}{SEEN_SUFFIX} does not name the cluster the plan was made on: "
            f"cannot check that it is this {here.describe()}"
        )
        return
    same = same_cluster(made_on, here)
    if same is None:
        io.warn(
            f"cannot check that {path}, made on {made_on.describe()}, is for this {here.describe()}: "
            "a cluster id is unknown"
        )
        return
    if same:
        return
    what = f"{path} was made on {made_on.describe()}, not on this {here.describe()}"
    if allowed:
        io.warn(f"{what}: applied all the same (--allow-other-cluster)")
    elif execute:
        raise Refused(
            f"{what}: refused for safety, nothing changed",
            hint="to apply it to this cluster all the same, add --allow-other-cluster",
        )
    else:
        io.warn(f"{what}: --execute would be refused (--allow-other-cluster applies it here)")


def _stamp(now_ms: int) -> str:
    return datetime.fromtimestamp(now_ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def export(
    path: str, plans: Sequence[Plan], io: RewindIO, *, single: bool, now_ms: int, cluster: ClusterIdentity
) -> None:
    """Write the plan (Kafka's CSV) and, beside a file, its ``.seen`` record naming ``cluster``; say where."""
    io.write(path, export_csv(plans, with_group=not single))
    if path == "-":
        return
    io.write(path + SEEN_SUFFIX, seen_csv(plans, planned_at=_stamp(now_ms), cluster=cluster))
    io.say(f"Plan written to {path} (the committed offsets seen now: {path}{SEEN_SUFFIX}).")


def default_undo_path(groups: Sequence[str], now_ms: int, env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/kafka-offsets/rewind-undo-<UTC time>-<group>.csv`` (created 0700)."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_STATE_HOME")
    base = (
        Path(xdg)
        if xdg and Path(xdg).is_absolute()
        else Path(env.get("HOME") or Path.home()) / ".local" / "state"
    )
    name = _UNSAFE.sub("_", groups[0])[:60] if len(groups) == 1 else f"{len(groups)}-groups"
    stamp = datetime.fromtimestamp(now_ms // 1000, tz=timezone.utc).strftime("%Y%m%dT%H%M%S")
    return base / STATE_DIR / f"rewind-undo-{stamp}.{now_ms % 1000:03d}Z-{name}.csv"


def write_undo(
    plans: Sequence[Plan], path: str | None, now_ms: int, cluster: ClusterIdentity, io: RewindIO
) -> str | None:
    """Write the groups' offsets before the reset as a plan (and its ``.seen``: the offsets about
    to be committed, on ``cluster``); returns the path, ``None`` when no partition had an offset to
    go back to.

    Raises :class:`Refused` (nothing changed) when it cannot be written: a reset without its
    undo is not started.
    """
    text, without = undo_csv(plans)
    if without:
        io.warn(
            "no committed offset to go back to (an undo plan cannot remove offsets; "
            f"kafka-offsets rewind --delete-offsets can): {', '.join(without[:10])}"
            + (f" and {len(without) - 10} more" if len(without) > 10 else "")
        )
    if not text:
        return None
    target = Path(path) if path else default_undo_path([p.group for p in plans], now_ms)
    try:
        if not path:
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        io.write(str(target), text)
        io.write(
            f"{target}{SEEN_SUFFIX}",
            seen_csv(plans, planned_at=_stamp(now_ms), offsets="target", cluster=cluster),
        )
    except (UsageError, OSError) as e:
        raise Refused(
            f"cannot write the undo plan {target}: {getattr(e, 'message', e)}; nothing changed",
            hint="choose where with --undo-file FILE",
        ) from None
    return str(target)
