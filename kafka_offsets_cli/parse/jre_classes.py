"""Java character classes (``[...]``) and predefined sets as ``regex`` VERSION1 sets.

A class is a union of members — characters, ranges, predefined sets, properties and
nested classes — possibly intersected with ``&&``; a leading ``^`` complements the whole
class (Java 9+). ``(?i)`` folds ASCII letters only, member by member, before any
complement. Forms whose meaning Java's versions or its implementation make surprising
(an empty ``&&`` operand, ``&&&``, a nested class mixed with other members after ``&&``,
a ``-`` after a range or a set) are refused rather than guessed.
"""

from __future__ import annotations

import string

from .jre_cursor import Cursor, Flags, JavaInvalid, Untranslatable, char_text
from .jre_props import Leaf, predefined, property_leaf

_LETTERS = [ord(c) for c in string.ascii_letters]


def complement(text: str) -> str:
    """Every code point not in the bracketed set ``text``.

    Written as a difference, not ``[^...]``: regex 2026.11 gets a complemented property
    nested in a complemented union wrong (``[^[\\p{L}][^\\p{L}]]`` matches ``a``).
    """
    return "[[\\x00-\\U0010ffff]--" + text + "]"


def _swap(cp: int) -> int:
    return ord(chr(cp).swapcase())


def leaf_text(leaf: Leaf, flags: Flags) -> str:
    """The set of ``leaf`` under ``flags``: ASCII case folding first, then any complement."""
    text = leaf.text
    if flags.i:
        if leaf.ascii_test is None:
            raise Untranslatable("a Unicode property under (?i)")
        test = leaf.ascii_test
        extra = [cp for cp in _LETTERS if not test(cp) and test(_swap(cp))]
        if extra:
            text = "[" + text + "".join(char_text(cp) for cp in extra) + "]"
    return complement(text) if leaf.negated else text


def char_set_text(cp: int, flags: Flags) -> str:
    """One character as set members (both cases of an ASCII letter under ``(?i)``)."""
    if flags.i and cp < 128 and chr(cp).isalpha():
        return char_text(cp) + char_text(_swap(cp))
    return char_text(cp)


def _range_text(lo: int, hi: int, flags: Flags) -> str:
    text = f"{char_text(lo)}-{char_text(hi)}"
    if flags.i:
        text += "".join(char_text(cp) for cp in _LETTERS if not lo <= cp <= hi and lo <= _swap(cp) <= hi)
    return text


def class_escape(cur: Cursor, letter: str) -> Leaf | int:
    """After ``\\letter`` inside a class: a set (:class:`Leaf`) or one code point."""
    leaf = predefined(letter)
    if leaf is not None:
        return leaf
    if letter in ("p", "P"):
        return property_leaf(cur, letter == "P")
    if letter.isascii() and letter.isdigit() and letter != "0":
        raise JavaInvalid("a back reference inside a character class")
    cp = cur.char_escape(letter)
    if cp is not None:
        return cp
    if letter in "bBAzZGRXkEQ":
        raise Untranslatable(f"\\{letter} inside a character class")
    raise JavaInvalid(f"illegal/unsupported escape sequence \\{letter}")


def _member(cur: Cursor) -> Leaf | int:
    if cur.quoting:
        return ord(cur.take())
    c = cur.take()
    if c != "\\":
        return ord(c)
    letter = cur.take()
    if not letter:
        raise JavaInvalid("unclosed character class")
    return class_escape(cur, letter)


def _dash_follows(cur: Cursor, flags: Flags) -> bool:
    """A range ``-`` (unquoted, not the literal one before ``]``) comes next."""
    cur.settle(flags, in_class=True)
    return not cur.quoting and cur.peek() == "-" and cur.peek(1) != "]"


def parse_class(cur: Cursor, flags: Flags) -> str:
    """The class whose ``[`` was just read, as a bracketed ``regex`` VERSION1 set."""
    cur.settle(flags, in_class=True)
    negate = not cur.quoting and cur.peek() == "^"
    if negate:
        cur.take()
    operands: list[list[str]] = []
    members: list[str] = []
    nested = False
    first = True
    while True:
        cur.settle(flags, in_class=True)
        if cur.at_end():
            raise JavaInvalid("unclosed character class")
        c = cur.peek()
        if not cur.quoting:
            if c == "]" and not first:
                cur.take()
                break
            if c == "&" and cur.peek(1) == "&":
                cur.pos += 2
                if cur.peek() == "&":
                    raise Untranslatable("&&& inside a character class")
                operands.append(_close(members, nested, len(operands)))
                members, nested = [], False
                continue
            if c == "[":
                cur.take()
                members.append(parse_class(cur, flags))
                nested, first = True, False
                continue
        first = False
        item = _member(cur)
        if isinstance(item, Leaf):
            members.append(leaf_text(item, flags))
            if _dash_follows(cur, flags):
                raise Untranslatable("a - after a predefined class or property inside a character class")
            continue
        if not _dash_follows(cur, flags):
            members.append(char_set_text(item, flags))
            continue
        cur.take()
        cur.settle(flags, in_class=True)
        if cur.at_end():
            raise JavaInvalid("unclosed character class")
        if not cur.quoting and cur.peek() in "[&":
            raise Untranslatable("a - before [ or & inside a character class")
        hi = _member(cur)
        if isinstance(hi, Leaf) or hi < item:
            raise JavaInvalid("illegal character range")
        members.append(_range_text(item, hi, flags))
        if _dash_follows(cur, flags):
            raise Untranslatable("a - after a range inside a character class")
    operands.append(_close(members, nested, len(operands)))
    if len(operands) == 1:
        text = "[" + "".join(operands[0]) + "]"
    else:
        text = "[" + "&&".join("[" + "".join(o) + "]" for o in operands) + "]"
    return complement(text) if negate else text


def _close(members: list[str], nested: bool, index: int) -> list[str]:
    if not members:
        raise Untranslatable("an empty operand of && inside a character class")
    if index > 0 and nested and len(members) > 1:
        raise Untranslatable("a nested class mixed with other members after && inside a character class")
    return members
