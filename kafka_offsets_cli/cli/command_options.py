"""The option groups every cluster command shares, declared once and handed over as one value.

sqlite-utils' shared option decorators: :func:`targeted` puts the connection and selection
options (:data:`HEAD`, where the command names its ``target`` parameter; :data:`TAIL`, last)
into the command's signature for typer, and calls the command with one :class:`Target` built
from them. The options and their order on the command line and in ``--help`` are what each
command declared by hand before.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..connection.resolver import ConnectionOptions
from ..models.offsets import Isolation
from .connection import connection_of
from .options import (
    BootstrapOpt,
    ClusterOpt,
    CommandConfigOpt,
    PartitionsOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    XOpt,
)


@dataclass(frozen=True, kw_only=True)
class Target:
    """The cluster a command talks to and the partitions it reads, as the options gave them."""

    bootstrap_server: str | None = None
    cluster: str | None = None
    topics: tuple[str, ...] = ()
    partitions: str | None = None
    topic_partitions: str | None = None
    command_config: str | None = None
    overrides: tuple[str, ...] = ()  # -X
    timeout: str = "30s"

    def connection(self, isolation: Isolation = Isolation.READ_UNCOMMITTED) -> ConnectionOptions:
        """The connection options: the one route of each (``--isolation`` too: the client's setting)."""
        given = (self.bootstrap_server, self.cluster, self.command_config, self.overrides, self.timeout)
        return connection_of(*given, isolation)

    def selection(self) -> dict[str, Any]:
        """The selection options, as the features' ``request_of`` take them."""
        return {
            "topics": self.topics,
            "partitions": self.partitions,
            "topic_partitions": self.topic_partitions,
        }


#: The default of a command's ``target`` parameter: :func:`targeted` always passes the options'.
FROM_OPTIONS = Target()


class Shared(NamedTuple):
    """One shared option: its parameter name, its typer annotation, its default."""

    name: str
    annotation: Any
    default: Any = None


#: Where the command names its ``target`` parameter: --bootstrap-server … --topic-partitions.
HEAD = (
    Shared("bootstrap_server", BootstrapOpt),
    Shared("cluster", ClusterOpt),
    Shared("topic", TopicOpt),
    Shared("partitions", PartitionsOpt),
    Shared("topic_partitions", TopicPartitionsOpt),
)
#: After the command's own options (before ``trailing`` ones): --command-config, -X, --timeout.
TAIL = (Shared("command_config", CommandConfigOpt), Shared("x", XOpt), Shared("timeout", TimeoutOpt, "30s"))


def _target(given: dict[str, Any]) -> Target:
    return Target(
        bootstrap_server=given["bootstrap_server"],
        cluster=given["cluster"],
        topics=tuple(given["topic"] or ()),
        partitions=given["partitions"],
        topic_partitions=given["topic_partitions"],
        command_config=given["command_config"],
        overrides=tuple(given["x"] or ()),
        timeout=given["timeout"],
    )


def targeted(*, trailing: Sequence[str] = ()) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A decorator: the command's ``target: Target`` parameter becomes the shared options.

    The :data:`HEAD` options stand where ``target`` stood, the :data:`TAIL` ones after the
    command's own (before those named in ``trailing``); typer sees them all in the signature, the
    command gets one :class:`Target`.
    """

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        own = list(inspect.signature(command, eval_str=True).parameters.values())

        def shared(group: Sequence[Shared]) -> list[inspect.Parameter]:
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
            return [
                inspect.Parameter(s.name, kind, default=s.default, annotation=s.annotation) for s in group
            ]

        at = [p.name for p in own].index("target")
        end = next((i for i, p in enumerate(own) if p.name in trailing), len(own))
        params = [*own[:at], *shared(HEAD), *own[at + 1 : end], *shared(TAIL), *own[end:]]
        names = [s.name for s in (*HEAD, *TAIL)]

        @functools.wraps(command)
        def with_target(*args: Any, **kwargs: Any) -> None:
            given = {name: kwargs.pop(name) for name in names}
            command(*args, target=_target(given), **kwargs)

        with_target.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        with_target.__annotations__ = {p.name: p.annotation for p in params}
        return with_target

    return decorate
