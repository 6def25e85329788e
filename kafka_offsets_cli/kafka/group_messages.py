"""Kafka's share-group and streams-group admin messages, as kafka-python message classes.

kafka-python (3.0, and 3.1 to come) knows the API keys of KIP-932 (share groups) and KIP-1071
(streams groups) but ships no message definitions for them. The classes are made here from Kafka's
own schemas, beside this module, taken verbatim (license header included) from Apache Kafka 4.3.1's
``kafka-clients`` jar (``common/message/*.json``, release commit ``26b251a451ce941d``, the broker
the project runs, :mod:`dev.kafka`):

* ShareGroupDescribe (API key 77, v1: v0 was 4.0's early access, removed in 4.1);
* DescribeShareGroupOffsets (90, v0-v1: v1 adds the share-partition lag, KIP-1226);
* StreamsGroupDescribe (89, v0);
* AlterShareGroupOffsets (91, v0) and DeleteShareGroupOffsets (92, v0), for resets to come.

A kafka-python that gains a class of the same name (looked up by name in its protocol packages
when this module is imported) is used as it is; only a missing one is made from the schema here.
"""

from __future__ import annotations

import importlib
import threading
import types
from collections.abc import Sequence
from typing import Any

from kafka.protocol.api_message import ApiMessage  # type: ignore[import-untyped]

#: where kafka-python keeps (or would keep) its admin and group message classes
KAFKA_PYTHON_HOMES = (
    "kafka.protocol.admin",
    "kafka.protocol.consumer",
    "kafka.protocol.share",
    "kafka.protocol.streams",
    "kafka.protocol",
)


def kafka_python_class(name: str, homes: Sequence[str] = KAFKA_PYTHON_HOMES) -> Any | None:
    """kafka-python's own message class called ``name`` (the first of ``homes`` that has one), or None."""
    for home in homes:
        try:
            module = importlib.import_module(home)
        except ImportError:
            continue
        found = getattr(module, name, None)
        if isinstance(found, type) and issubclass(found, ApiMessage):
            return found
    return None


def schema_class(name: str) -> Any:
    """A message class made from Kafka's schema ``name``.json beside this module."""
    return types.new_class(
        name,
        (ApiMessage,),
        {"load_json": __package__},
        lambda ns: ns.update({"__module__": __name__, "__doc__": f"Kafka's {name} (its 4.3.1 schema)."}),
    )


def message_class(name: str) -> Any:
    """kafka-python's class ``name`` when it has one, else the one made from Kafka's schema."""
    return kafka_python_class(name) or schema_class(name)


#: the messages made from a schema, each request with its response; made on first use (the module's
#: ``__getattr__``): ``lag`` and ``list`` never send one unless a share or streams group is read, and the
#: ten classes cost ~7 ms of CPU to build
SCHEMA_MESSAGES = (
    "ShareGroupDescribe",
    "DescribeShareGroupOffsets",
    "StreamsGroupDescribe",
    "AlterShareGroupOffsets",
    "DeleteShareGroupOffsets",
)
_MAKING = threading.Lock()  # two threads asking at once get the same classes


def __getattr__(name: str) -> Any:
    """``<message>Request`` or ``<message>Response`` of :data:`SCHEMA_MESSAGES`, made on first use."""
    message = name.removesuffix("Request").removesuffix("Response")
    if message == name or message not in SCHEMA_MESSAGES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _MAKING:
        made = globals()
        if name not in made:
            # module-level references also keep the response classes alive: kafka-python registers
            # them by API key through a weak proxy (so the response is made with its request)
            for kind in ("Request", "Response"):
                made[message + kind] = message_class(message + kind)
        return made[name]


def __dir__() -> list[str]:
    """The module's names, the messages not made yet among them (``dir`` lists what ``__getattr__`` makes)."""
    return sorted({*globals(), *(m + kind for m in SCHEMA_MESSAGES for kind in ("Request", "Response"))})


#: kafka-python's own (v0: ``rewind --delete-offsets``, :mod:`.share_resets`)
OffsetDeleteRequest: Any = kafka_python_class("OffsetDeleteRequest")  # kafka-python 3.0 has it
#: kafka-python's own (v0-v5: v5 lists every group type with its ``group_type``, :mod:`.list_groups`)
ListGroupsRequest = kafka_python_class("ListGroupsRequest")
