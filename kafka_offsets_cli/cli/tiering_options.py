"""The options of ``kafka-offsets tiering`` (its thresholds) and its --help examples."""

from __future__ import annotations

from typing import Annotated

from .liveness_options import CHECK
from .options import valued

EXAMPLES = """Examples:


  kafka-offsets tiering -b localhost:9092 -t orders --warn-age 2h --crit-age 8d


  kafka-offsets tiering --cluster prod --warn-records 500000 --crit-records 5000000 -o nagios


  kafka-offsets tiering --cluster prod --warn-age 2h --crit-age 8d \\
      --prometheus-file /var/lib/node_exporter/textfile/kafka_tiering.prom

Per partition, from ListOffsets earliest, earliest-local (-4), latest-tiered (-5),
earliest-pending-upload (-6) and latest: LOCAL, the offsets still on the leader's disk
(earliest-local..latest-1); REMOTE, the offsets in remote storage (earliest..latest-tiered);
BACKLOG, the records not yet copied to remote storage (latest - latest-tiered - 1; with
nothing tiered yet, from earliest-pending-upload); BACKLOG-AGE, how old the oldest of them
is (now - the newest timestamp up to the first not-yet-tiered offset, as lag's time lag).
The active segment is uploaded only once it rolls: thresholds must leave room for one
segment (segment.bytes, segment.ms). There are none by default.

States: ok, warning (backlog above --warn-records or older than --warn-age), critical
(above --crit-records or older than --crit-age), not-tiered (remote.storage.enable is not
true: OK), error (UNKNOWN). A topic takes its worst partition's status. A table ends with
a line per topic and one for the run on stderr.

Exit status (monitoring-plugin convention): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (cluster
unreachable, authorization or partition errors, and usage errors, found before any connection;
with -o nagios an UNKNOWN status line).

--prometheus-file FILE writes the metrics atomically whatever --output prints (up 0 and
status 3 if the cluster cannot be reached); -o prometheus prints them. Every series carries
cluster (the --cluster profile's name, or the bootstrap servers) and each --label NAME=VALUE.
"""

WarnRecordsOpt = Annotated[
    int | None,
    valued("--warn-records", "N", "WARNING above N records not yet tiered.", panel=CHECK, min=0),
]
CritRecordsOpt = Annotated[
    int | None,
    valued("--crit-records", "N", "CRITICAL above N records not yet tiered.", panel=CHECK, min=0),
]
WarnAgeOpt = Annotated[
    str | None,
    valued("--warn-age", "DURATION", "WARNING when the oldest record not yet tiered is older.", panel=CHECK),
]
CritAgeOpt = Annotated[
    str | None,
    valued("--crit-age", "DURATION", "CRITICAL when the oldest record not yet tiered is older.", panel=CHECK),
]
