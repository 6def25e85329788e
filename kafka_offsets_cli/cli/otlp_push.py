"""``--otlp-endpoint URL``: a monitoring run's metrics pushed once over OTLP/HTTP (protobuf).

For cron: each run of ``lag``, ``liveness`` or ``tiering`` sends what ``--prometheus-file`` would
write (:mod:`kafka_offsets_cli.render.otlp`) to an OpenTelemetry Collector or Prometheus' own OTLP
receiver, with no Pushgateway. The URL is used as given when it has a path, else ``/v1/metrics`` is
appended (as OpenTelemetry's ``OTEL_EXPORTER_OTLP_ENDPOINT`` is); ``--otlp-header KEY=VALUE``
adds headers (an ``Authorization`` token): their values are never printed. A URL, a header or a
missing ``otlp`` extra is a usage error before anything is contacted; a push that fails (no answer
within ``--timeout``, an HTTP error, data points the receiver rejected) is reported after the run's
output, UNKNOWN (exit 3), as a textfile that could not be written. A run whose cluster did not answer
pushes ``up 0``, as it writes it.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated

from ..errors import UsageError
from .options import OUT, valued
from .textfile import ResultNotWritten

__all__ = ["OtlpEndpointOpt", "OtlpHeaderOpt", "OtlpTarget", "otlp_target", "push"]

#: How to get what ``--otlp-endpoint`` needs (pyproject.toml's ``otlp`` extra).
OTLP_EXTRA_HINT = (
    "add the otlp extra: pipx inject kafka-offsets 'opentelemetry-proto>=1.20', or pip install '.[otlp]' "
    "from a checkout"
)
#: The path an endpoint without one gets (OTLP/HTTP's metrics path).
METRICS_PATH = "/v1/metrics"

OtlpEndpointOpt = Annotated[
    str | None,
    valued(
        "--otlp-endpoint",
        "URL",
        "Also push the metrics once over OTLP/HTTP to URL (an OpenTelemetry Collector, Prometheus' "
        "OTLP receiver; /v1/metrics is added to a URL without a path). Needs the otlp extra.",
        panel=OUT,
    ),
]
OtlpHeaderOpt = Annotated[
    list[str] | None,
    valued(
        "--otlp-header",
        "KEY=VALUE",
        "A header of the OTLP push, e.g. 'Authorization=Bearer TOKEN' (repeatable; never printed).",
        panel=OUT,
    ),
]


@dataclass(frozen=True)
class OtlpTarget:
    """Where a run pushes its metrics: the full URL and the headers (values are secrets)."""

    url: str
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)

    @property
    def shown(self) -> str:
        """The URL as messages name it: without user info, query or fragment."""
        parts = urllib.parse.urlsplit(self.url)
        host = parts.hostname or ""
        netloc = f"[{host}]" if ":" in host else host
        if parts.port is not None:
            netloc += f":{parts.port}"
        return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def otlp_target(endpoint: str | None, headers: Sequence[str] | None) -> OtlpTarget | None:
    """The push the options ask for (``None``: none), checked before anything is contacted."""
    if not endpoint:
        if headers:
            raise UsageError("--otlp-header needs --otlp-endpoint")
        return None
    from ..render.otlp import available

    parts = urllib.parse.urlsplit(endpoint.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--otlp-endpoint {endpoint!r}: expected an http:// or https:// URL with a host")
    if not available():
        raise UsageError(
            "--otlp-endpoint needs the otlp extra (opentelemetry-proto)",
            hint=OTLP_EXTRA_HINT,
        )
    path = parts.path if parts.path not in ("", "/") else METRICS_PATH
    url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
    out: dict[str, str] = {}
    for h in headers or ():
        key, sep, value = h.partition("=")
        if not sep or not key.strip():
            raise UsageError(
                f"--otlp-header: expected KEY=VALUE, got a value without '=' ({len(h)} characters)"
            )
        out[key.strip()] = value.strip()
    return OtlpTarget(url, out)


def push(target: OtlpTarget, body: bytes, timeout_s: float) -> ResultNotWritten | None:
    """POST the export request ``body``; a failure is returned (the caller raises it after the run's
    output), never a header's value in it."""
    import urllib.error  # with the push only: every command imports this module for its options
    import urllib.request

    from ..render.otlp import rejected

    request = urllib.request.Request(target.url, data=body, method="POST")
    request.add_header("Content-Type", "application/x-protobuf")
    for k, v in target.headers.items():
        request.add_header(k, v)
    where = f"OTLP push to {target.shown}"
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            answer = response.read()
            kind = response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        return ResultNotWritten(f"{where} failed: HTTP {e.code} {e.reason}")
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        reason = getattr(e, "reason", e)
        return ResultNotWritten(f"{where} failed: {reason}")
    if answer and "protobuf" in kind:
        try:
            count, message = rejected(answer)
        except Exception as e:  # a receiver's garbled answer: the push's fate is unknown, say so
            return ResultNotWritten(f"{where}: its answer is no OTLP response ({type(e).__name__})")
        if count:
            return ResultNotWritten(
                f"{where}: the receiver rejected {count} data point(s): {message or 'no reason'}"
            )
    return None
