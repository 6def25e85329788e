"""Transaction markers: whether the record at an offset is a control record, found by fetching it.

ListOffsets cannot tell (it returns markers like records), so a consumer (READ
permission on the topic) is assigned at each offset without joining any group or
committing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException
from confluent_kafka import TopicPartition as CTopicPartition

from ..models.topics import TopicPartition
from .errors import error_name
from .session import Session
from .settings import marker_consumer_config

#: One answer per (partition, offset): True (a control record), False (data), or an error name.
MarkerAnswers = dict[tuple[TopicPartition, int], bool | str]


class MarkerProbe:
    """Reads single records with a short-lived consumer sharing a session's settings and deadline."""

    def __init__(self, session: Session) -> None:
        self._s = session

    def control_records(
        self, points: Sequence[tuple[TopicPartition, int]], *, max_wait: float = 10.0
    ) -> MarkerAnswers:
        """Whether the record at each (partition, offset) is a control record (transaction marker).

        The first data record delivered at the offset means "data" (False); data only
        after it, or reaching the end of the partition beyond it, means the offset
        holds a control record (True); an error name (str) when neither could be seen
        within ``max_wait`` seconds.
        """
        if not points:
            return {}
        conf = marker_consumer_config(self._s.settings, self._s.on_error)
        by_tp: dict[TopicPartition, list[int]] = {}
        for tp, off in points:
            by_tp.setdefault(tp, []).append(off)
        out: MarkerAnswers = {}
        # One consumer assignment per round: a partition can be read at one offset at a time.
        while by_tp:
            round_ = {tp: offs.pop() for tp, offs in by_tp.items()}
            by_tp = {tp: offs for tp, offs in by_tp.items() if offs}
            out.update(self._probe(conf, round_, self._s.deadline.request_timeout(max_wait)))
        return out

    def _probe(self, conf: dict[str, Any], wanted: dict[TopicPartition, int], wait: float) -> MarkerAnswers:
        try:
            consumer = Consumer(conf)
        except KafkaException as e:
            raise self._s.config_error(e) from None
        result: MarkerAnswers = {}
        try:
            consumer.assign([CTopicPartition(tp.topic, tp.partition, off) for tp, off in wanted.items()])
            deadline = time.monotonic() + wait
            pending = dict(wanted)
            while pending and time.monotonic() < deadline:
                msg = consumer.poll(min(0.5, max(0.01, deadline - time.monotonic())))
                if msg is None:
                    continue
                tp = TopicPartition(str(msg.topic()), int(msg.partition() or 0))
                off = pending.get(tp)
                err = msg.error()
                if err is not None and err.code() != KafkaError._PARTITION_EOF:
                    if msg.topic() is None:
                        continue  # a client-level event, not about a partition
                    if off is not None:
                        result[(tp, off)] = error_name(err)
                        del pending[tp]
                    continue
                if off is None:
                    continue
                seen = msg.offset()
                if seen is None:
                    continue
                if err is None and seen == off:
                    result[(tp, off)] = False
                    del pending[tp]
                elif seen > off:
                    result[(tp, off)] = True  # data after it, or the end past it: a control record
                    del pending[tp]
            for tp, off in pending.items():
                result[(tp, off)] = "REQUEST_TIMED_OUT"
        finally:
            consumer.close()
        return result
