"""Java regex topic selections on a real broker: `list -o plain` beside Kafka's GetOffsetShell.

Kafka's tool (from ``python -m dev.kafka classpath``) compiles ``--topic`` and the topic part
of ``--topic-partitions`` with java.util.regex; kafka-offsets translates them. The outputs
are compared byte for byte, for constructs Python's ``re`` got wrong or refused
(``\\Q..\\E``, ``\\p{..}``, possessive quantifiers, class intersection, ``(?i)``).
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterator

import pytest

from dev.kafka_data import create_topic, produce
from tests.cli_runner import subprocess_cli
from tests.kafka_helpers import get_offset_shell


@pytest.fixture(scope="module")
def prefix(bootstrap: str) -> Iterator[str]:
    """A letters-only prefix (so ``\\p{Lower}+`` spans it) of topic1..topic4, 2 partitions each."""
    p = "jrx" + "".join(random.choices(string.ascii_lowercase, k=8))
    for n in range(1, 5):
        name = f"{p}topic{n}"
        create_topic(bootstrap, name, partitions=2)
        produce(bootstrap, name, [(0, None, None, f"v{i}") for i in range(n)] + [(1, None, None, "w")])
    yield p


PATTERNS = [
    "{p}topic[1-4&&[^2]]",
    "\\Q{p}topic1\\E",
    "{p}\\p{{Lower}}+[0-9]",
    "{p}topic\\d++",
    "(?i){P}TOPIC[13]",
    "{p}topic\\p{{Digit}}|\\Q{p}topic2\\E",
    "{p}(?:topic)[^\\p{{Punct}}&&[2-3]]",
]


@pytest.mark.parametrize("template", PATTERNS)
def test_topic_regex_lists_what_getoffsetshell_lists(bootstrap: str, prefix: str, template: str) -> None:
    pattern = template.format(p=prefix, P=prefix.upper())
    ref = get_offset_shell(bootstrap, "--topic", pattern, "--time", "-1")
    ours = subprocess_cli(
        "list", "--bootstrap-server", bootstrap, "--topic", pattern, "--time", "-1", "-o", "plain"
    )
    assert ours.code == 0, ours.stderr
    assert ours.stdout == ref.stdout, pattern
    assert len(ref) >= 2  # the pattern selected some of the module's topics


@pytest.mark.parametrize("template", ["{p}topic[1-4&&[^2]]:1", "\\Q{p}topic3\\E:0-1,{p}\\p{{Lower}}+4:"])
def test_topic_partitions_regex_lists_what_getoffsetshell_lists(
    bootstrap: str, prefix: str, template: str
) -> None:
    rules = template.format(p=prefix)
    ref = get_offset_shell(bootstrap, "--topic-partitions", rules, "--time", "-1")
    ours = subprocess_cli("list", "-b", bootstrap, "--topic-partitions", rules, "--time", "-1", "-o", "plain")
    assert ours.code == 0, ours.stderr
    assert ours.stdout == ref.stdout, rules
    assert len(ref) >= 2


def test_untranslatable_construct_is_one_line_and_exit_2(bootstrap: str, prefix: str) -> None:
    run = subprocess_cli("list", "-b", bootstrap, "--topic", f"(?<=x){prefix}topic1")
    assert run.code == 2 and run.stdout == ""
    assert "uses lookbehind" in run.stderr and len(run.stderr.strip().splitlines()) == 1
