"""The options of ``kafka-offsets serve`` that no other command has (where, what, how often); its epilog."""

from __future__ import annotations

from typing import Annotated

from .options import switch, valued

__all__ = ["EXAMPLES", "LagOnOpt", "ListenOpt", "LivenessOnOpt", "MinIntervalOpt", "SpecOpt", "TieringOnOpt"]

SERVE = "Serve"

EXAMPLES = """Examples:


  kafka-offsets serve -b localhost:9092


  kafka-offsets serve --cluster prod --listen 0.0.0.0:9308 --time-lag --liveness -t 'orders.*'


  kafka-offsets serve --cluster prod --no-lag --tiering --warn-age 2h --crit-age 8d


  kafka-offsets serve --spec checks.yaml --listen 0.0.0.0:9308

An HTTP endpoint for Prometheus: GET /metrics reads the cluster on scrape and answers with the
series lag, liveness and tiering write with -o prometheus (the same rules and renderers, the
same names: kafka_offsets_lag_*, kafka_offsets_liveness_*, kafka_offsets_tiering_*; each
with cluster and --label), then the exporter's own: kafka_offsets_up (0 when the cluster
cannot be reached: the measures' up 0 series, HTTP 200 all the same),
kafka_offsets_collection_duration_seconds, kafka_offsets_collection_age_seconds,
kafka_offsets_collections_total, and per measure kafka_offsets_collection_failed and
kafka_offsets_collection_errors_total. GET / is a page linking /metrics.

One collection at a time and at most one per --min-interval: a scrape that finds a result
younger than that is served it, one that arrives while a collection runs waits for it and
shares its result; several Prometheus servers never multiply the load on the brokers. Keep
--timeout below the scrape timeout (Prometheus' default is 10s).

Lag is served by default (--no-lag turns it off), liveness (--liveness, thresholds --warn and
--crit, and its other options as in liveness) and tiering (--tiering, thresholds --warn-records,
--crit-records, --warn-age, --crit-age) when asked. --include-internal is liveness's and
tiering's, --exclude-internal-topics lag's; --isolation applies to every measure.

It listens on 127.0.0.1:9308 unless --listen names another address (0.0.0.0:PORT for every
interface; PORT 0 takes a free one; the address is printed on stderr). SIGTERM or Ctrl-C
stops it: the responses in flight are finished, one line on stderr, exit 0. No TLS, no
authentication: put it behind a reverse proxy (docs/reference.md).
"""

ListenOpt = Annotated[
    str,
    valued(
        "--listen",
        "HOST:PORT",
        "Address to listen on (PORT alone: loopback; 0.0.0.0:PORT for every interface).",
        panel=SERVE,
        show_default=True,
    ),
]
MinIntervalOpt = Annotated[
    str,
    valued(
        "--min-interval",
        "DURATION",
        "Read the cluster at most once per DURATION; scrapes in between are served the last result.",
        panel=SERVE,
        show_default=True,
    ),
]
LagOnOpt = Annotated[
    bool,
    switch("--lag/--no-lag", "Serve the consumer groups' lag (lag's series).", panel=SERVE),
]
LivenessOnOpt = Annotated[
    bool,
    switch("--liveness/--no-liveness", "Serve the partitions' liveness (liveness's series).", panel=SERVE),
]
TieringOnOpt = Annotated[
    bool,
    switch("--tiering/--no-tiering", "Serve tiered storage's backlog (tiering's series).", panel=SERVE),
]
StalenessFileOpt = Annotated[
    bool,
    switch(
        "--staleness-file",
        "Keep --staleness's sights in lag's state file too (shared with lag runs, kept over a "
        "restart), not only in memory.",
        panel=SERVE,
    ),
]

SpecOpt = Annotated[
    str | None,
    valued(
        "--spec",
        "FILE",
        "Serve the lag, liveness and tiering checks of a check spec file, every cluster it names "
        "at once (labels cluster and check); not with the connection, selection or threshold options.",
        panel=SERVE,
    ),
]
