"""Reading a Java regular expression: position, ``\\Q..\\E`` quoting, ``(?x)`` spacing, escapes.

The grammar (:mod:`.jre_grammar`) and the character classes (:mod:`.jre_classes`) read
the pattern through one :class:`Cursor`. Written from the ``java.util.regex.Pattern``
documentation and checked against a JVM (tests/test_java_regex_oracle.py).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

#: Java's line terminators (without UNIX_LINES); ``\r\n`` counts as one where it matters.
LINE_TERMINATORS = "\n\r\x85\u2028\u2029"
#: What ``(?x)`` ignores between tokens.
X_SPACE = " \t\n\x0b\x0c\r"


class JavaInvalid(Exception):
    """Java's ``Pattern.compile`` rejects the pattern; the message says why."""


class Untranslatable(Exception):
    """The pattern may be valid Java but has no exact translation; the message names the construct."""


@dataclass(frozen=True, kw_only=True)
class Flags:
    """The inline flags in force: (?i) (?m) (?s) (?d) (?x) (?u)."""

    i: bool = False
    m: bool = False
    s: bool = False
    d: bool = False
    x: bool = False
    u: bool = False

    def with_letters(self, on: str, off: str) -> Flags:
        """These flags with the letters of ``on`` set and those of ``off`` cleared."""
        changes = {c: True for c in on} | {c: False for c in off}
        return replace(self, **changes)


def char_text(cp: int) -> str:
    """One code point as a ``regex`` pattern token that is literal both in and out of sets."""
    c = chr(cp)
    if c.isascii() and c.isalnum():
        return c
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def drop_empty_quotes(text: str) -> str:
    """``text`` without its empty ``\\Q\\E`` pairs.

    Java removes quoting before it parses anything, so an empty quote is invisible even in
    the middle of a token (``a*\\Q\\E+`` is ``a*+``, ``(\\Q\\E?:a)`` is ``(?:a)``).
    """
    out, i = [], 0
    while i < len(text):
        if text[i] != "\\":
            out.append(text[i])
            i += 1
        elif text.startswith("\\Q\\E", i):
            i += 4
        elif text.startswith("\\Q", i):  # a quote with content: copy it whole
            end = text.find("\\E", i + 2)
            end = len(text) if end < 0 else end + 2
            out.append(text[i:end])
            i = end
        else:
            out.append(text[i : i + 2])
            i += 2
    return "".join(out)


class Cursor:
    """A position in the pattern, and whether it is inside ``\\Q..\\E``."""

    def __init__(self, text: str) -> None:
        if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            raise Untranslatable("a lone surrogate")
        self.text = drop_empty_quotes(text)
        self.pos = 0
        self.quoting = False
        self.saw_x = False  # (?x) was on somewhere: Java skips spaces in more places than we do

    def peek(self, ahead: int = 0) -> str:
        """The character ``ahead`` places on, or ``""`` past the end."""
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def take(self) -> str:
        """The current character, consumed (``""`` at the end)."""
        c = self.peek()
        self.pos += len(c)
        return c

    def at_end(self) -> bool:
        """No characters left."""
        return self.pos >= len(self.text)

    def settle(self, flags: Flags, *, in_class: bool = False) -> None:
        """Step over quote marks, and over spaces and comments under ``(?x)``."""
        while True:
            if self.quoting:
                if self.text.startswith("\\E", self.pos):
                    self.pos += 2
                    self.quoting = False
                    continue
                return
            if self.text.startswith("\\Q", self.pos):
                self.pos += 2
                self.quoting = True
                if in_class and self.text.startswith("\\E", self.pos):
                    raise Untranslatable("an empty \\Q\\E inside a character class")
                continue
            c = self.peek()
            if flags.x and c and (c in X_SPACE or c == "#"):
                if in_class:
                    raise Untranslatable("white space or # inside a character class under (?x)")
                self.pos += 1
                if c == "#":
                    ends = "\n" if flags.d else "\n\r"
                    while self.peek() and self.peek() not in ends:
                        self.pos += 1
                continue
            return

    def number(self, what: str) -> int:
        """Decimal digits at the cursor (at least one)."""
        start = self.pos
        while self.peek().isascii() and self.peek().isdigit():
            self.pos += 1
        if start == self.pos:
            raise JavaInvalid(what)
        return int(self.text[start : self.pos])

    def hex_digits(self, count: int) -> int:
        """Exactly ``count`` hex digits."""
        digits = self.text[self.pos : self.pos + count]
        if len(digits) != count or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise JavaInvalid("illegal hexadecimal escape sequence")
        self.pos += count
        return int(digits, 16)

    def char_escape(self, letter: str) -> int | None:
        """The code point of a single-character escape after ``\\letter`` (consumed), or None."""
        simple = {"t": 9, "n": 10, "r": 13, "f": 12, "a": 7, "e": 27}
        if letter in simple:
            return simple[letter]
        if letter == "0":
            return self._octal()
        if letter == "c":
            c = self.take()
            if not c:
                raise JavaInvalid("illegal control escape sequence")
            if not c.isascii() or c == "\\" or (self.saw_x and (c in X_SPACE or c == "#")):
                raise Untranslatable(f"\\c followed by {c!r}")
            return ord(c) ^ 64
        if letter == "x":
            return self._hex_escape()
        if letter == "u":
            return self._unicode_escape()
        if letter == "N":
            return self._named_char()
        if not (letter.isascii() and letter.isalnum()):
            return ord(letter)  # a backslash before any other symbol quotes it
        return None

    def _octal(self) -> int:
        digits = ""
        while len(digits) < 3 and self.peek() in tuple("01234567"):
            if len(digits) == 2 and digits[0] > "3":
                break  # \0mnn needs m <= 3
            digits += self.take()
        if not digits:
            raise JavaInvalid("illegal octal escape sequence")
        if self.saw_x and self.peek() and (self.peek() in X_SPACE or self.peek() == "#"):
            raise Untranslatable("an octal escape followed by white space under (?x)")
        return int(digits, 8)

    def _hex_escape(self) -> int:
        if self.peek() != "{":
            return self.hex_digits(2)
        self.pos += 1
        end = self.text.find("}", self.pos)
        body = self.text[self.pos : end] if end >= 0 else ""
        if not body or any(c not in "0123456789abcdefABCDEF" for c in body):
            raise JavaInvalid("illegal hexadecimal escape sequence")
        self.pos = end + 1
        cp = int(body, 16)
        if cp > 0x10FFFF:
            raise JavaInvalid("hexadecimal code point is too big")
        if 0xD800 <= cp <= 0xDFFF:
            raise Untranslatable("a lone surrogate")
        return cp

    def _unicode_escape(self) -> int:
        cp = self.hex_digits(4)
        if 0xD800 <= cp <= 0xDBFF and self.text.startswith("\\u", self.pos):
            save = self.pos
            self.pos += 2
            low = self.hex_digits(4)
            if 0xDC00 <= low <= 0xDFFF:
                return 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
            self.pos = save
        if 0xD800 <= cp <= 0xDFFF:
            raise Untranslatable("a lone surrogate")
        return cp

    def _named_char(self) -> int:
        end = self.text.find("}", self.pos)
        if self.peek() != "{" or end < 0:
            raise JavaInvalid("\\N needs {name}")
        name = self.text[self.pos + 1 : end].strip().upper()
        self.pos = end + 1
        try:
            c = unicodedata.lookup(name)
        except KeyError:
            raise Untranslatable(f"\\N{{{name}}} (not a character name Python knows)") from None
        if unicodedata.name(c, "") != name:
            raise Untranslatable(f"\\N{{{name}}} (a name alias)")
        return ord(c)
