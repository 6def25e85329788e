"""The one exception hierarchy of kafka-offsets and its exit codes.

Every failure the tool can explain is a :class:`KafkaOffsetsError`. The CLI maps
it in one place (``cli.errors_boundary``) to a single line on stderr and the
exit code documented here and in the man page.

Exit codes (``list``, ``lag``, ``rewind``, ``config``)::

    0  success
    1  partial: some partitions (or groups) answered with an error; the rest printed
    2  usage: a bad option, spec, time, selection, config file or spec file
    3  unreachable: the cluster did not answer within --timeout
    4  authentication or TLS failure
    5  not found: the selection matched no topic, partition or group
    6  refused: an action was refused for safety (e.g. rewind of an active group)
    7  output: standard output could not be written (closed, disk full)
  130  interrupted (Ctrl-C)

Monitoring checks (``liveness``, ``tiering``, ``check``, and ``lag`` with a threshold or a
monitoring output: ``cli/families.py``) use the Nagios convention instead: 0 OK, 1 WARNING,
2 CRITICAL, 3 UNKNOWN; usage errors are UNKNOWN too (2 would read as CRITICAL).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Documented process exit codes."""

    OK = 0
    PARTIAL = 1
    USAGE = 2
    UNREACHABLE = 3
    AUTH = 4
    NOT_FOUND = 5
    REFUSED = 6
    OUTPUT = 7
    INTERRUPTED = 130


class MonitoringStatus(IntEnum):
    """Nagios/monitoring-plugin statuses, also the exit codes of liveness/check."""

    OK = 0
    WARNING = 1
    CRITICAL = 2
    UNKNOWN = 3


class KafkaOffsetsError(Exception):
    """Base of every error the tool reports as one line and an exit code."""

    exit_code: ExitCode = ExitCode.PARTIAL

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message

    @property
    def name(self) -> str:
        """A stable error name for records (``ClusterUnreachable`` -> ``CLUSTER_UNREACHABLE``)."""
        return "".join("_" + c if c.isupper() and i else c for i, c in enumerate(type(self).__name__)).upper()


class UsageError(KafkaOffsetsError):
    """Bad input from the user: options, specs, times, selections, files."""

    exit_code = ExitCode.USAGE


class ConfigError(UsageError):
    """A client configuration (properties file, -X, profile) that cannot be used."""


class SpecFileError(UsageError):
    """A `check` spec file with one or more problems, each with its path and line."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        first = problems[0] if problems else "invalid"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{source}: {first}{more}")


class ClusterError(KafkaOffsetsError):
    """The cluster as a whole could not answer."""

    exit_code = ExitCode.UNREACHABLE


class ClusterUnreachable(ClusterError):
    """No broker answered within the timeout."""


class AuthenticationFailed(ClusterError):
    """SASL authentication or the TLS handshake failed."""

    exit_code = ExitCode.AUTH


class NotFound(KafkaOffsetsError):
    """The selection matched nothing (no topic, partition or group)."""

    exit_code = ExitCode.NOT_FOUND


class Refused(KafkaOffsetsError):
    """An action refused for safety; nothing was changed."""

    exit_code = ExitCode.REFUSED


class OutputError(KafkaOffsetsError):
    """Standard output could not be written (closed, a full disk, ``/dev/full``); not a closed pipe."""

    exit_code = ExitCode.OUTPUT


class PartialFailure(KafkaOffsetsError):
    """Results were printed, but some partitions or groups carried errors."""

    exit_code = ExitCode.PARTIAL


def interrupted(e: BaseException) -> bool:
    """True when ``e`` is a Ctrl-C or happened while one was being handled (a KeyboardInterrupt in its chain).

    A KeyboardInterrupt can surface wrapped: a signal handler that raises while a C
    extension calls back into Python leaves the extension returning with an
    exception set, which the interpreter reports as ``SystemError ... returned a
    result with an exception set`` caused by the KeyboardInterrupt (seen in
    confluent-kafka's ``describe_topics`` during ``--watch``); Ctrl-C while Spark's
    driver waits on py4j leaves that connection half-read and the next call fails
    with a ``Py4JNetworkError`` whose context is the KeyboardInterrupt. Either is
    the interrupt, not a failure of the tool.
    """
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False
