"""Load and validate the spec file of ``kafka-offsets check`` (YAML or JSON).

The whole file is checked before anything else happens (no cluster is
contacted, no Spark session starts), and every problem is reported, each as
``path: message (line N)``, e.g. ``checks[3].crit_lag: expected an integer
(line 12)``. A file with problems raises :class:`~kafka_offsets_cli.errors.SpecFileError`
(exit 2).

The format (see ``examples/check-spec.example.yaml`` and
``schemas/check-spec.schema.json``)::

    version: 1                       # optional; 1 is the only version
    defaults:                        # optional
      timeout: 30s                   # per-cluster request budget
      task_size: 25000               # most partitions per Spark task (one Kafka client each)
      chunk_size: 500                # partitions per ListOffsets call within a task
      exclude_internal: true         # leave out Kafka's system topics (__consumer_offsets...)
      history: {window: 10, allowed_lag: 0, min_samples: 3}
    clusters:
      NAME:
        bootstrap_servers: "host:9092"       # or a list of host:port
        command_config: client.properties    # Java client properties (relative to this file)
        properties: {security.protocol: SASL_SSL, sasl.mechanism: PLAIN, sasl.username: svc}
        sasl_password_env: KAFKA_PASSWORD     # secrets come from the environment ...
        secrets_env: {ssl.key.password: KEY_PASSWORD}   # ... never inline
        timeout: 30s
        isolation: read_uncommitted | read_committed
    checks:
      - {name: orders-alive, type: liveness, cluster: NAME, topics: ['orders\\..*'],
         warn: 5m, crit: 15m, min_alive: 2, future_tolerance: 1m}
      - {name: billing-lag, type: lag, clusters: [NAME, DR], groups: ['billing.*'], topics: [orders],
         warn_lag: 1000, crit_lag: 10000, warn_time_lag: 1m, crit_time_lag: 5m,
         history: {window: 10, allowed_lag: 100}}
      - {name: orders-tiering, type: tiering, cluster: NAME, topics: [orders],   # served by serve --spec;
         warn_records: 100000, crit_records: 1000000, warn_age: 2h, crit_age: 8d}  # check refuses it

Topic and group patterns are regular expressions matching the whole name (as
``--topic``). Durations are strings such as ``30s``, ``5m``, ``1h30m`` (a bare
number means seconds). Secrets are never accepted inline: a property whose
name looks like a secret (password, jaas, token, key...) is refused with a
pointer to ``*_env`` and ``command_config``.

This module and the rest of :mod:`kafka_offsets_cli.check` are pure (file reading aside): they import
neither confluent-kafka nor pyspark.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from ..connection.files import FileTooLarge, NotARegularFile, read_regular_file
from ..errors import SpecFileError, UsageError
from .build import build_spec
from .document import compose
from .problems import Problems
from .spec import CheckSpec

__all__ = ["MAX_SPEC_BYTES", "load_spec", "parse_spec_text"]

#: A spec file larger than this is refused before parsing (YAML parsing is slow; real specs are KBs).
MAX_SPEC_BYTES = 1024 * 1024


def _too_large() -> str:
    return f"(top level): the file is too large (a spec file may have at most {MAX_SPEC_BYTES // 1024} KiB)"


def load_spec(
    path: str | Path, *, environ: Mapping[str, str] | None = None, secrets_required: bool = True
) -> CheckSpec:
    """Read and validate a spec file (``.json`` is JSON, anything else YAML, which also reads JSON).

    Raises :class:`SpecFileError` listing every problem, or :class:`UsageError`
    when the file cannot be read. Without ``secrets_required`` (``--validate``) a secret's unset
    environment variable is one of the spec's ``notes`` instead of a problem.
    """
    p = Path(path)
    try:
        text = read_regular_file(p, limit=MAX_SPEC_BYTES).decode("utf-8")  # bounded: never read whole
    except FileTooLarge:
        raise SpecFileError(str(p), [_too_large()]) from None
    except NotARegularFile as e:  # a FIFO would block for ever, /dev/zero never end
        raise UsageError(f"{p}: is {e.kind}, expected a spec file") from None
    except FileNotFoundError:
        raise UsageError(f"{p}: no such spec file") from None
    except IsADirectoryError:
        raise UsageError(f"{p}: is a directory, expected a spec file") from None
    except OSError as e:
        raise UsageError(f"{p}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise SpecFileError(str(p), ["(top level): not a UTF-8 text file"]) from None
    return parse_spec_text(
        text,
        str(p),
        base_dir=p.parent,
        environ=environ,
        is_json=p.suffix.lower() == ".json",
        secrets_required=secrets_required,
    )


def parse_spec_text(
    text: str,
    source: str = "<spec>",
    *,
    base_dir: str | Path = ".",
    environ: Mapping[str, str] | None = None,
    is_json: bool = False,
    secrets_required: bool = True,
) -> CheckSpec:
    """Validate spec text; ``source`` names it in messages, ``base_dir`` anchors relative paths.

    ``environ`` (default ``os.environ``) resolves ``*_env`` secret references.
    Raises :class:`SpecFileError` with every problem found.
    """
    env = os.environ if environ is None else environ
    if len(text) > MAX_SPEC_BYTES:
        raise SpecFileError(source, [_too_large()])
    problems = Problems(secrets_required=secrets_required)
    root = compose(text, problems, is_json=is_json)
    spec: CheckSpec | None = None
    if root is not None:
        spec = build_spec(root, problems, source=source, base_dir=Path(base_dir), environ=env)
    if problems or spec is None:
        raise SpecFileError(source, problems.sorted() or ["(top level): invalid spec"])
    return replace(spec, notes=tuple(problems.sorted_notes())) if problems.notes else spec
