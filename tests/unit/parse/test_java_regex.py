"""Java regular expressions translated for the regex package (pure; the JVM oracle is
tests/test_java_regex_oracle.py): what each construct becomes, what it matches, and the
one-line refusals."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafka_offsets_cli.errors import ExitCode, UsageError
from kafka_offsets_cli.parse.java import include_list_regex
from kafka_offsets_cli.parse.java_regex import compile_java_regex, translate_java_regex
from kafka_offsets_cli.parse.selection import parse_selection

# (Java pattern, names it matches as a whole, names it does not): each checked against Java 17
MATCHES = [
    ("topic[1-4&&[^2]]", ["topic1", "topic3", "topic4"], ["topic2", "topic5", "topic"]),
    ("\\Qtopic.1\\E", ["topic.1"], ["topicx1"]),
    ("\\Qa.b", ["a.b"], ["axb"]),  # no \E: quoted to the end
    ("[\\Qa-c\\E]", ["a", "-", "c"], ["b"]),  # quoting works inside a class too
    ("[\\Qa\\E-c]", ["b"], ["-"]),  # ...and a quoted character can still start a range
    ("a\\Q*\\E", ["a*"], ["aa"]),  # a quoted metacharacter is literal
    ("\\Qab\\E+", ["abb"], ["abab"]),  # a quantifier after \E repeats the last character
    ("a\\Q\\E*", ["aaa"], []),  # an empty quote is nothing
    ("\\\\Qx", ["\\Qx"], []),  # an escaped backslash does not start a quote
    ("\\p{Lower}+[0-9]", ["topic1"], ["Topic1", "é1"]),  # POSIX classes are ASCII
    ("\\p{IsLowercase}+", ["é", "ß"], ["E"]),  # ...but Is-properties are Unicode
    ("\\p{Upper}\\p{Alpha}*", ["Topic"], ["topic"]),
    ("\\p{Punct}", ["-", ".", "_"], ["a"]),
    ("topic\\d++", ["topic12"], ["topic", "topic\u0663"]),  # \d is ASCII
    ("\\w+", ["a_1"], ["é"]),
    ("a*+a", [], ["aaa"]),  # possessive: gives nothing back
    ("(?>a|ab)c", ["ac"], ["abc"]),  # atomic group
    ("(?:.2\\D+){2}+5", [], [".2x.2x5"]),  # a possessive repetition never backtracks into one
    ("[a-z&&[^aeiou]]+", ["xyz"], ["xaz"]),
    ("[^a[b]]", ["c"], ["a", "b"]),  # the negation covers the nested class (Java 9+)
    ("[]a]", ["]", "a"], ["b"]),  # a leading ] is a literal
    ("[^]a]", ["b"], ["]", "a"]),
    ("[a-c-]", ["-", "b"], ["d"]),
    ("(?i)[^\\p{Upper}a]", ["1"], ["a", "A", "b", "B"]),  # folded member by member, then negated
    ("[^\\p{L}\\P{L}]", [], ["a", "1"]),
    ("(?i)topic", ["TOPIC", "Topic"], ["t\u00d3pic"]),  # (?i) folds ASCII only
    ("(?i)[k]", ["k", "K"], ["\u212a"]),  # not the Kelvin sign
    ("(?i)[^a]", ["b"], ["a", "A"]),
    ("(?i)\\p{Lower}", ["A", "a"], ["1"]),  # Java's case-insensitive \p{Lower}
    ("a(?i)b|c", ["aB", "C"], ["A"]),  # a flag stays on to the end of its group, across |
    ("(?i:a)b", ["Ab"], ["AB"]),
    ("a.b", ["a-b"], ["a\nb", "a\rb", "a\u2028b", "a\u0085b"]),  # Java's line terminators
    ("(?s)a.b", ["a\nb"], []),
    ("(?d)a.b", ["a\rb"], ["a\nb"]),
    ("a$", ["a"], ["a\n"]),  # matches() still needs the whole name...
    ("a$\r\n", ["a\r\n"], []),  # ...but $ holds before a final line terminator
    ("a$\u2028", ["a\u2028"], []),
    ("a$\n\n", [], ["a\n\n"]),
    ("a\\z", ["a"], ["a\n"]),
    ("(?m)a$\\n^b", ["a\nb"], []),
    ("\\G\\w+", ["abc"], []),
    ("a\\Rb", ["a\r\nb", "a\u2028b"], ["ab"]),
    ("\\v", ["\n", "\u2029"], ["v", "\x0b\x0b"]),  # vertical white space, not a vertical tab
    ("\\h+", [" \t\u00a0"], ["\n"]),
    ("\\x{74}\\u006f\\0160\\x69c", ["topic"], []),
    ("\\N{LATIN SMALL LETTER A}", ["a"], []),
    ("\\cI", ["\t"], []),
    ("(?<n>a)\\k<n>", ["aa"], ["ab"]),
    ("(a)\\2", [], ["aa", "a"]),  # a group that never exists never matches
    ("\\p{IsLatin}+", ["abé"], ["Σ"]),
    ("\\p{InGreek}", ["Σ"], ["a"]),
    ("\\p{gc=Nd}\\p{javaLowerCase}", ["\u0663a"], []),
    ("(?x) t o p i c # a comment", ["topic"], ["t o p i c"]),
    ("(?:a|ab){2}+c", ["aac"], ["abac"]),  # possessive: no iteration is retried either
    ("(?m)^a$\\r\\n^b$", ["a\r\nb"], []),
    ("(?m)a$\\r^\\nb", [], ["a\r\nb"]),  # ^ and $ never fall between \r and \n
    ("a\\r$\\n", [], ["a\r\n"]),
    ("(?d)a$\\r", [], ["a\r"]),  # (?d): only \n ends a line
    ("(?x)a +b # comment\n c", ["aabc"], ["a b c"]),
    ("", [""], ["a"]),
]


@pytest.mark.parametrize(("pattern", "good", "bad"), MATCHES)
def test_translated_patterns_match_as_java_does(pattern: str, good: list[str], bad: list[str]) -> None:
    compiled = compile_java_regex(pattern, "topic regex")
    assert [s for s in good if not compiled.matches(s)] == []
    assert [s for s in bad if compiled.matches(s)] == []


def test_translation_table() -> None:
    assert translate_java_regex("topic[1-4&&[^2]]") == "topic[[1-4]&&[[[\\x00-\\U0010ffff]--[2]]]]"
    assert translate_java_regex("\\Qa.b\\E") == "a\\x2eb"
    assert translate_java_regex("a\\d++") == "a(?:(?>[\\x30-\\x39]))++"
    assert translate_java_regex("(?<name>a)\\k<name>") == "(a)(?:\\g<1>)"
    assert translate_java_regex("(?i)a1") == "[aA]1"
    assert translate_java_regex("\\p{Lu}") == "[\\p{gc=Lu}]"
    assert translate_java_regex("\\G") == "\\A"
    assert translate_java_regex(".") == "[^\\n\\r\\x85\\u2028\\u2029]"


# (pattern, the construct named in the refusal): valid Java without an exact translation
REFUSED = [
    ("(?iu)a", "(?iu)"),
    ("(?U)\\w", "(?U)"),
    ("(?c)a", "(?c)"),
    ("(?<=a)b", "lookbehind"),
    ("(?<!a)b", "lookbehind"),
    ("\\ba", "word boundary \\b"),
    ("a\\B", "word boundary \\B"),
    ("\\X", "\\X"),
    ("(?i)(a)\\1", "back reference under (?i)"),
    ("(?=(a))\\1a", "back reference to a group that is open, later, or repeated"),
    ("(a)*\\1", "back reference to a group that is open, later, or repeated"),
    ("\\1(a)", "back reference to a group that is open, later, or repeated"),
    ("\\R+", "quantifier on \\R"),
    ("^*", "quantifier on an anchor"),
    ("(?i)\\p{Lu}", "Unicode property under (?i)"),  # Java folds these beyond ASCII
    ("\\p{javaJavaIdentifierStart}", "javaJavaIdentifierStart"),
    ("\\p{LC}", "\\p{LC}"),
    ("\\N{LINE FEED (LF)}", "\\N{LINE FEED (LF)}"),  # Java's name for a control character
    ("[a&&[b]c]", "nested class mixed with other members after &&"),
    ("[a&&[b]&c]", "nested class mixed with other members after &&"),
    ("[ab&&]", "empty operand of &&"),
    ("[&&a]", "empty operand of &&"),
    ("[a&&&b]", "&&&"),
    ("[a-c-e]", "- after a range"),
    ("a{2}{3}", "{ after a quantifier"),
    ("(?x)[a b]", "white space or # inside a character class under (?x)"),
    ("(?x)a{1, 2}", "(?x) with a construct we cannot read"),
]


@pytest.mark.parametrize(("pattern", "construct"), REFUSED)
def test_untranslatable_constructs_are_refused_in_one_line(pattern: str, construct: str) -> None:
    with pytest.raises(UsageError) as info:
        compile_java_regex(pattern, "topic regex")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"topic regex {pattern!r} uses ")
    assert construct in message
    assert message.endswith("which kafka-offsets cannot match exactly as Java does")
    assert info.value.exit_code == ExitCode.USAGE


# (pattern, the problem our message names): Java rejects these, and so do we, in one line
INVALID = [
    ("(", "unclosed group"),
    ("a)", "unmatched closing ')'"),
    ("*a", "dangling meta character '*'"),
    ("a**", "dangling meta character '*'"),
    ("x{", "illegal repetition"),
    ("x{2,1}", "illegal repetition range"),
    ("a{2147483648}", "illegal repetition range"),
    ("[b-a]", "illegal character range"),
    ("[a", "unclosed character class"),
    ("\\y", "illegal/unsupported escape sequence \\y"),
    ("a\\", "unescaped trailing backslash"),
    ("\\k<x>", "named capturing group <x> does not exist"),
    ("(?<a>x)(?<a>y)", "named capturing group <a> is already defined"),
    ("[\\1]", "a back reference inside a character class"),
    ("\\x{110000}", "hexadecimal code point is too big"),
    ("\\08", "illegal octal escape sequence"),
    ("(?q)", "unknown inline modifier"),
    ("\\E", "\\E without \\Q"),
]


@pytest.mark.parametrize(("pattern", "reason"), INVALID)
def test_patterns_java_rejects_are_rejected_in_one_line(pattern: str, reason: str) -> None:
    with pytest.raises(UsageError) as info:
        compile_java_regex(pattern, "topic regex")
    assert str(info.value) == f"invalid topic regex {pattern!r}: {reason}"
    assert info.value.exit_code == ExitCode.USAGE


def test_unknown_properties_are_refused_in_one_line() -> None:
    # Java rejects \p{Nope}; we cannot tell an unknown name from one we do not translate
    with pytest.raises(UsageError, match=r"^topic regex '\\\\p\{Nope\}' uses the property \\p\{Nope\} "):
        compile_java_regex("\\p{Nope}", "topic regex")


def test_selection_and_group_options_use_java_regexes() -> None:
    sel = parse_selection(topics=["topic[1-4&&[^2]]"])
    assert [t for t in ("topic1", "topic2", "topic3") if sel.allows_topic(t)] == ["topic1", "topic3"]
    sel = parse_selection(topic_partitions="\\Qtopic1\\E:0")
    assert sel.allows("topic1", 0) and not sel.allows("topic1", 1)
    with pytest.raises(UsageError, match=r"^topic regex '\(\?<=a\)b' uses lookbehind"):
        parse_selection(topics=["(?<=a)b"])


def test_include_list_strips_quotes_before_a_final_line_terminator_as_java() -> None:
    assert include_list_regex("'topic'") == "topic"
    assert include_list_regex("topic'\u2028") == "topic\u2028"  # Java's $ matches before \u2028


def test_translating_imports_no_regex_package_until_a_pattern_is_compiled() -> None:
    probe = (
        "import sys\n"
        "from kafka_offsets_cli.parse.java_regex import translate_java_regex, compile_java_regex\n"
        "translate_java_regex('topic[1-4&&[^2]]')\n"
        "assert 'regex' not in sys.modules\n"
        "compile_java_regex('t')\n"
        "assert 'regex' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=60)
