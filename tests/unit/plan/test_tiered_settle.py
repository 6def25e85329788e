"""max-timestamp when every record is in remote storage: none for ``list``, PENDING elsewhere."""

from __future__ import annotations

from kafka_offsets_cli.models.offsets import OffsetSpec, SpecKind
from kafka_offsets_cli.plan.settle import PENDING, settle
from tests.unit.plan.test_settle import E, L, Log, M, res

LOCAL = OffsetSpec(SpecKind.EARLIEST_LOCAL)


def remote_log(local_start: int) -> Log:
    """Records 0..199; the leader keeps ``local_start``.. on disk; max-timestamp sees local segments only."""
    return Log(
        lambda s, _r: res(s, {E: 0, L: 200, LOCAL: local_start}[s]) if s in (E, L, LOCAL) else res(s, None)
    )


def test_all_records_remote_is_kafkas_none_for_list() -> None:
    log = remote_log(200)
    (out,) = settle(log, [res(M, None)], sleep=lambda _s: None, as_kafka=True)  # type: ignore[arg-type]
    assert out == res(M, None)  # GetOffsetShell prints nothing, exit 0
    assert log.rounds == 8  # the seven looks, then one for earliest-local (only because still open)


def test_records_still_local_stay_pending() -> None:
    log = remote_log(150)
    (out,) = settle(log, [res(M, None)], sleep=lambda _s: None, as_kafka=True)  # type: ignore[arg-type]
    assert out == res(M, None, error=PENDING)


def test_other_commands_keep_pending_and_never_ask_earliest_local() -> None:
    log = remote_log(200)
    (out,) = settle(log, [res(M, None)], sleep=lambda _s: None)  # type: ignore[arg-type]
    assert out == res(M, None, error=PENDING) and log.rounds == 7
