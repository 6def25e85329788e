"""Java's predefined classes and ``\\p{..}`` properties as ``regex`` (VERSION1) sets.

Each :class:`Leaf` is a positive set; ``\\P``, ``\\D``, ``\\W``… are leaves with
``negated`` set, so that ``(?i)`` can widen the positive set before it is complemented
(as Java does: ``(?i)\\P{Lower}`` does not match ``A``). Only names whose meaning is
documented and the same in Python's ``regex`` are known; others are refused.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass

from .jre_cursor import Cursor, Untranslatable


@dataclass(frozen=True)
class Leaf:
    """A set: its ``regex`` text (one bracketed set), whether it is complemented, and — when
    known — a membership test for ASCII, which ``(?i)`` needs."""

    text: str
    negated: bool = False
    ascii_test: Callable[[int], bool] | None = None


def _ascii(chars: str) -> tuple[str, Callable[[int], bool]]:
    members = frozenset(map(ord, chars))
    runs: list[list[int]] = []
    for cp in sorted(members):
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    text = "".join(f"\\x{a:02x}" if a == b else f"\\x{a:02x}-\\x{b:02x}" for a, b in runs)
    return "[" + text + "]", members.__contains__


_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_CNTRL = "".join(map(chr, range(0x20))) + "\x7f"
#: The POSIX classes, which Java defines over US-ASCII only.
POSIX = {
    "Lower": string.ascii_lowercase,
    "Upper": string.ascii_uppercase,
    "ASCII": "".join(map(chr, range(0x80))),
    "Alpha": string.ascii_letters,
    "Digit": string.digits,
    "Alnum": string.ascii_letters + string.digits,
    "Punct": _PUNCT,
    "Graph": string.ascii_letters + string.digits + _PUNCT,
    "Print": string.ascii_letters + string.digits + _PUNCT + " ",
    "Blank": " \t",
    "Cntrl": _CNTRL,
    "XDigit": string.digits + "abcdefABCDEF",
    "Space": " \t\n\x0b\x0c\r",
}

#: \d \s \w (ASCII in Java by default) and \h \v, by letter; the upper-case letter negates.
PREDEFINED = {
    "d": POSIX["Digit"],
    "s": POSIX["Space"],
    "w": string.ascii_letters + string.digits + "_",
}
_WIDE = {  # (set, its ASCII members)
    "h": ("[\\x20\\x09\\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000]", " \t"),
    "v": ("[\\x0a-\\x0d\\x85\\u2028\\u2029]", "\n\x0b\x0c\r"),
}

_CATEGORIES = set("LMNPSZC") | {
    *("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe"),
    *("Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cs", "Cn"),
}
_BINARY = {
    "Alphabetic": "\\p{Alphabetic}",
    "Ideographic": "\\p{Ideographic}",
    "Letter": "\\p{gc=L}",
    "Lowercase": "\\p{Lowercase}",
    "Uppercase": "\\p{Uppercase}",
    "Titlecase": "\\p{gc=Lt}",
    "Punctuation": "\\p{gc=P}",
    "Control": "\\p{gc=Cc}",
    "White_Space": "\\p{White_Space}",
    "WhiteSpace": "\\p{White_Space}",
    "Digit": "\\p{gc=Nd}",
    "Join_Control": "\\p{Join_Control}",
    "JoinControl": "\\p{Join_Control}",
    "Noncharacter_Code_Point": "\\p{Noncharacter_Code_Point}",
    "NoncharacterCodePoint": "\\p{Noncharacter_Code_Point}",
    "Assigned": "\\P{gc=Cn}",
}
_JAVA = {
    "javaLowerCase": "\\p{Lowercase}",
    "javaUpperCase": "\\p{Uppercase}",
    "javaTitleCase": "\\p{gc=Lt}",
    "javaDigit": "\\p{gc=Nd}",
    "javaLetter": "\\p{gc=L}",
    "javaLetterOrDigit": "\\p{gc=L}\\p{gc=Nd}",
    "javaAlphabetic": "\\p{Alphabetic}",
    "javaIdeographic": "\\p{Ideographic}",
    "javaDefined": "\\P{gc=Cn}",
    "javaSpaceChar": "\\p{gc=Z}",
    "javaWhitespace": "\\x09-\\x0d\\x1c-\\x1f[\\p{gc=Z}--[\\xa0\\u2007\\u202f]]",
    "javaISOControl": "\\x00-\\x1f\\x7f-\\x9f",
    "javaMirrored": "\\p{Bidi_Mirrored}",
}
#: Scripts by their one-word names (Java's UnicodeScript.forName ignores case).
_SCRIPTS = {
    s.lower(): s
    for s in (
        *("Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana", "Devanagari"),
        *("Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala"),
        *("Thai", "Lao", "Tibetan", "Myanmar", "Georgian", "Hangul", "Ethiopic", "Cherokee", "Ogham"),
        *("Runic", "Khmer", "Mongolian", "Hiragana", "Katakana", "Bopomofo", "Han", "Yi", "Gothic"),
        *("Common", "Inherited", "Coptic", "Braille"),
    )
}
#: Blocks by their names without spaces, as regex knows them.
_BLOCKS = {
    "basiclatin": "Basic_Latin",
    "greek": "Greek_And_Coptic",
    "greekandcoptic": "Greek_And_Coptic",
    "cyrillic": "Cyrillic",
    "armenian": "Armenian",
    "hebrew": "Hebrew",
    "arabic": "Arabic",
    "thai": "Thai",
    "hiragana": "Hiragana",
    "katakana": "Katakana",
    "generalpunctuation": "General_Punctuation",
    "cjkunifiedideographs": "CJK_Unified_Ideographs",
}


def predefined(letter: str) -> Leaf | None:
    """The leaf of ``\\d \\D \\s \\S \\w \\W \\h \\H \\v \\V``, or None for other letters."""
    low = letter.lower()
    if low in PREDEFINED:
        text, test = _ascii(PREDEFINED[low])
        return Leaf(text, letter != low, test)
    if low in _WIDE:
        text, members = _WIDE[low]
        return Leaf(text, letter != low, lambda cp: chr(cp) in members)
    return None


def property_leaf(cur: Cursor, negated: bool) -> Leaf:
    """The leaf of ``\\p{name}``/``\\pX`` (``\\P`` when ``negated``), the cursor after ``p``."""
    if cur.peek() == "{":
        end = cur.text.find("}", cur.pos)
        if end < 0:
            raise Untranslatable("an unclosed \\p{")
        name = cur.text[cur.pos + 1 : end]
        cur.pos = end + 1
    else:
        name = cur.take()
        if name not in "LMNPSZC" or not name:
            raise Untranslatable(f"the property \\p{name}")
    if name in POSIX:
        text, test = _ascii(POSIX[name])
        return Leaf(text, negated, test)
    found = _unicode(name)
    if found is None:
        raise Untranslatable(f"the property \\p{{{name}}} (unknown, or without an exact translation)")
    return Leaf(found, negated, None)


def _unicode(name: str) -> str | None:
    key, _, value = name.partition("=")
    if value:
        if key in ("gc", "general_category") and value in _CATEGORIES:
            return f"[\\p{{gc={value}}}]"
        if key in ("sc", "script") and value.lower() in _SCRIPTS:
            return f"[\\p{{Script={_SCRIPTS[value.lower()]}}}]"
        if key in ("blk", "block") and value.lower() in _BLOCKS:
            return f"[\\p{{Block={_BLOCKS[value.lower()]}}}]"
        return None
    if name in _CATEGORIES:
        return f"[\\p{{gc={name}}}]"
    if name in _JAVA:
        return f"[{_JAVA[name]}]"
    if name.startswith("Is"):
        rest = name[2:]
        if rest in _CATEGORIES:
            return f"[\\p{{gc={rest}}}]"
        if rest in _BINARY:
            return f"[{_BINARY[rest]}]"
        if rest.lower() in _SCRIPTS:
            return f"[\\p{{Script={_SCRIPTS[rest.lower()]}}}]"
    if name.startswith("In") and name[2:].lower() in _BLOCKS:
        return f"[\\p{{Block={_BLOCKS[name[2:].lower()]}}}]"
    return None
