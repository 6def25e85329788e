"""Java regexes, checked against the real oracle: java.util.regex.Pattern in a JVM.

Hypothesis builds patterns from a grammar of Java constructs (literals, classes with
ranges, negation, nesting and ``&&``, ``\\p{..}``, quantifiers greedy/lazy/possessive,
groups, alternation, ``\\Q..\\E``, flags, anchors, back references) plus random
mutations (which make many of them invalid), each with subjects: a string the grammar
meant to match, variations of it, and a fixed pool of topic names, Unicode letters and
line terminators. One JVM (tests/java/RegexOracle.java, run as a single-file program)
answers every case of the run. For each pattern: either kafka-offsets refuses it with
one line, or Java and kafka-offsets agree on whether it is valid and, when it is, on
every subject (``String.matches``).
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dev import kafka as dev_kafka
from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.parse.java_regex import compile_java_regex
from tests.availability import unavailable

ORACLE = Path(__file__).parent / "java" / "RegexOracle.java"

pytestmark = pytest.mark.java

POOL = [
    "",
    "topic",
    "topic1",
    "topic2",
    "topic12",
    "Topic1",
    "TOPIC1",
    "a",
    "ab",
    "aB",
    "_",
    "-",
    ".",
    "&",
    "orders.v1",
    "\n",
    "topic1\n",
    "topic1\r\n",
    "topic1\r",
    "topic1\u2028",
    "topic1\u0085",
    "\r\n",
    "é",
    "ß",
    "\u0130",
    "\u212a",
    "Σ",
    "\u0663",
    "\u00a0",
    "\t",
]


class Oracle:
    """A running RegexOracle: ``ask(pattern, subjects)`` -> (Java's verdict, matches)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    def ask(self, pattern: str, subjects: list[str]) -> tuple[str, list[str]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        lines = ["P " + pattern.encode().hex()] + ["S " + s.encode().hex() for s in subjects]
        self.proc.stdin.write("\n".join(lines) + "\n")
        self.proc.stdin.flush()
        head = self.proc.stdout.readline().rstrip("\n")
        return head, [self.proc.stdout.readline().rstrip("\n") for _ in subjects]


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    try:
        java = dev_kafka.java_executable()
    except Exception as exc:
        unavailable(f"java is needed for the Java regex oracle: {exc}")
    proc = subprocess.Popen(
        [java, str(ORACLE)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    yield Oracle(proc)
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=30)


# -- the grammar: each strategy yields (java pattern, a subject it is meant to match) ------

LITERALS = st.sampled_from(
    [
        ("t", "t"),
        ("o", "o"),
        ("p", "p"),
        ("1", "1"),
        ("2", "2"),
        ("A", "A"),
        ("-", "-"),
        ("_", "_"),
        ("\\.", "."),
        ("\\-", "-"),
        ("\\&", "&"),
        ("é", "é"),
        ("\\t", "\t"),
        ("\\n", "\n"),
    ]
)
ESCAPES = st.sampled_from(
    [
        ("\\d", "7"),
        ("\\D", "x"),
        ("\\w", "w"),
        ("\\W", "-"),
        ("\\s", " "),
        ("\\S", "s"),
        ("\\h", " "),
        ("\\v", "\n"),
        ("\\V", "v"),
        ("\\R", "\r\n"),
        ("\\x{74}", "t"),
        ("\\u0070", "p"),
        ("\\0157", "o"),
        ("\\x31", "1"),
        ("\\cJ", "\n"),
        ("\\e", "\x1b"),
        ("\\N{LATIN SMALL LETTER T}", "t"),
        (".", "x"),
        ("\\p{Lower}", "t"),
        ("\\p{Upper}", "T"),
        ("\\p{Alpha}", "q"),
        ("\\p{Punct}", "."),
        ("\\pL", "é"),
        ("\\p{L}", "Σ"),
        ("\\p{Lu}", "T"),
        ("\\P{Lu}", "t"),
        ("\\p{IsLatin}", "é"),
        ("\\p{InGreek}", "Σ"),
        ("\\p{IsAlphabetic}", "ß"),
        ("\\p{javaLowerCase}", "ß"),
        ("\\p{IsLowercase}", "é"),
        ("\\p{Digit}", "3"),
        ("\\p{Alnum}", "3"),
        ("\\p{IsDigit}", "٣"),
        ("\\p{XDigit}", "f"),
        ("\\p{Space}", " "),
        ("\\p{IsWhite_Space}", "\xa0"),
        ("\\p{gc=Nd}", "1"),
        ("\\p{sc=Greek}", "Σ"),
        ("\\p{javaWhitespace}", "\t"),
        ("\\p{ASCII}", "a"),
        ("\\p{IsPunctuation}", "-"),
        ("\\p{Cntrl}", "\t"),
    ]
)
ANCHORS = st.sampled_from([("^", ""), ("$", ""), ("\\A", ""), ("\\z", ""), ("\\Z", ""), ("\\G", "")])
FLAGS = st.sampled_from(["(?i)", "(?s)", "(?m)", "(?d)", "(?-i)", "(?is)", "(?md)", "(?x)", "(?u)"])
MEMBERS = st.sampled_from(
    [
        ("a", "a"),
        ("t", "t"),
        ("1", "1"),
        ("-", "-"),
        ("&", "&"),
        ("^", "^"),
        ("]", "]"),
        ("é", "é"),
        ("a-z", "q"),
        ("0-9", "5"),
        ("A-Z", "Q"),
        ("o-t", "p"),
        ("1-4", "3"),
        ("\\d", "2"),
        ("\\w", "_"),
        ("\\s", "\t"),
        ("\\p{Lower}", "b"),
        ("\\p{L}", "Σ"),
        ("\\P{L}", "1"),
        ("\\-", "-"),
        ("\\[", "["),
        ("\\Q-]\\E", "]"),
        ("\\x41-\\x43", "B"),
        ("\\v", "\n"),
        ("\\h", " "),
        ("[:alpha:]", ":"),
    ]
)


@st.composite
def klass(draw: st.DrawFn, depth: int = 0) -> tuple[str, str]:
    """A character class: members, nested classes, ``&&``, negation."""
    parts = draw(st.lists(MEMBERS, min_size=1, max_size=3))
    if depth < 2 and draw(st.booleans()):
        parts.append(draw(klass(depth + 1)))
    text = "".join(p for p, _ in parts)
    if depth < 2 and draw(st.integers(0, 3)) == 0:
        right = draw(st.one_of(klass(depth + 1), MEMBERS))
        text += "&&" + right[0]
    neg = draw(st.integers(0, 4)) == 0
    return ("[" + ("^" if neg else "") + text + "]", draw(st.sampled_from([s for _, s in parts])))


QUANTIFIERS = st.sampled_from(["?", "*", "+", "{2}", "{0,2}", "{1,}", "{3,5}", "{0}"])


@st.composite
def quantified(draw: st.DrawFn, inner: st.SearchStrategy[tuple[str, str]]) -> tuple[str, str]:
    text, sample = draw(inner)
    q = draw(QUANTIFIERS)
    reps = {"?": 1, "*": 2, "+": 1, "{2}": 2, "{0,2}": 1, "{1,}": 3, "{3,5}": 4, "{0}": 0}[q]
    return text + q + draw(st.sampled_from(["", "", "?", "+"])), sample * reps


def _groups(inner: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[tuple[str, str]]:
    kinds = ["(", "(?:", "(?>", "(?<g>", "(?i:", "(?-i:", "(?s:", "(?=", "(?!"]

    @st.composite
    def group(draw: st.DrawFn) -> tuple[str, str]:
        kind = draw(st.sampled_from(kinds))
        text, sample = draw(inner)
        if kind == "(?=":
            return f"(?={text}){text}", sample
        if kind == "(?!":
            return f"(?!{text})", ""
        return f"{kind}{text})", sample

    return group()


@st.composite
def quoted(draw: st.DrawFn) -> tuple[str, str]:
    text = draw(st.text(alphabet="topic1.*+?[]()\\|{}^$-&é", max_size=5))
    end = draw(st.sampled_from(["\\E", "\\E", ""]))
    if "\\E" in text:
        text = text.replace("\\E", "")
    return "\\Q" + text + end, text


def _sequence(atom: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[tuple[str, str]]:
    piece = st.one_of(atom, quantified(atom), FLAGS.map(lambda f: (f, "")))
    return st.lists(piece, min_size=1, max_size=4).map(
        lambda ps: ("".join(p for p, _ in ps), "".join(s for _, s in ps))
    )


def _alternation(seq: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[tuple[str, str]]:
    return st.lists(seq, min_size=1, max_size=3).map(lambda alts: ("|".join(a for a, _ in alts), alts[0][1]))


BASE = st.one_of(LITERALS, LITERALS, ESCAPES, klass(), ANCHORS, quoted())
EXPR = st.recursive(
    BASE,
    lambda inner: _alternation(_sequence(st.one_of(inner, _groups(inner)))),
    max_leaves=8,
)
NOISE = [*list("()[]{}*+?|^$\\&-,:<>=!0123456789pPQEkxuNc #\n"), "\\b", "\\1", "\\k<g>", "(?<=a)", "&&"]


#: Raw strings over Java's syntax: mostly invalid, they check that both reject the same ones.
CHAOS = st.tuples(
    st.sampled_from(["", "", "(?x)", "(?i)", "(?m)", "(?d)"]),
    st.text(alphabet="ab1[]()^$.|*+?{}\\,-&:=!<>#ERQpPLkdwxu0 \n", max_size=12),
).map(lambda t: (t[0] + t[1], t[1]))


@st.composite
def case(draw: st.DrawFn) -> tuple[str, list[str]]:
    pattern, sample = draw(st.one_of(EXPR, EXPR, EXPR, CHAOS))
    if draw(st.integers(0, 3)) == 0:  # a mutation: many become invalid, some mean odd things
        at = draw(st.integers(0, len(pattern)))
        pattern = pattern[:at] + draw(st.sampled_from(NOISE)) + pattern[at:]
    if "(" in pattern and draw(st.booleans()):
        pattern += "\\k<g>" if "(?<g>" in pattern and draw(st.booleans()) else "\\1"
        sample += sample
    rnd = random.Random(draw(st.integers(0, 2**32)))
    variants = {sample, sample.upper(), sample.lower(), sample + "\n", sample[1:], sample * 2}
    for _ in range(4):
        chars = list(sample) or [""]
        chars[rnd.randrange(len(chars))] = rnd.choice(POOL[7:])
        variants.add("".join(chars))
    return pattern, sorted(variants | set(POOL))


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case())
def test_translation_agrees_with_java_or_refuses(oracle: Oracle, item: tuple[str, list[str]]) -> None:
    pattern, subjects = item
    java, expected = oracle.ask(pattern, subjects)
    try:
        compiled = compile_java_regex(pattern, "regex")
    except UsageError as exc:
        message = str(exc)
        assert "\n" not in message and repr(pattern) in message
        if java == "OK":  # refusing a valid pattern is allowed only as an explicit refusal
            assert "cannot match exactly as Java does" in message, (pattern, message)
        return
    assert java == "OK", f"Java rejects {pattern!r} ({java}); we translated it to {compiled.translated!r}"
    got = ["1" if compiled.matches(s) else "0" for s in subjects]
    wrong = [s for s, g, e in zip(subjects, got, expected, strict=True) if g != e]
    assert not wrong, f"{pattern!r} -> {compiled.translated!r} disagrees with Java on {wrong!r}"
