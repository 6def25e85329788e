"""The one package that talks to Kafka (and the only one that imports confluent-kafka).

It executes planned requests and returns frozen models. :class:`KafkaClient` is a
small facade over one part per concern:

* ``session``: the admin client, the ``--timeout`` deadline (``deadline``), waiting
  on answers while serving librdkafka's callbacks;
* ``errors``: librdkafka's errors as Kafka names them, and as the tool's exceptions;
* ``settings``: the tool's client settings as librdkafka configuration, masked logs;
* ``list_offsets``: ListOffsets with its retries and librdkafka's fast path;
* ``admin``: metadata, described topics, topic configs;
* ``groups``: consumer groups (list, describe, committed offsets, commit);
* ``markers``: a consumer telling transaction markers from records.
"""

from ..lazyimport import defer_import

defer_import("asyncio")  # confluent_kafka imports it for its asyncio clients only (see lazyimport)

from .client import KafkaClient, library_versions

__all__ = ["KafkaClient", "library_versions"]
