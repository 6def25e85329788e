"""A recursive-descent reader of Java regular expressions that writes ``regex`` VERSION1 text.

``alternation := sequence ('|' sequence)*``; ``sequence := (atom quantifier?)*``. Every
atom is written so that it means the same under any ``regex`` flags: characters as
escapes, ``.``/``\\d``/``\\w`` as explicit sets, Java's anchors as lookarounds, case
folding (ASCII only, Java's default) spelled out, so the result is matched with no flags
but VERSION1. Flags follow Java's scoping: ``(?i)`` lasts to the end of its group.
"""

from __future__ import annotations

from .jre_classes import char_set_text, class_escape, leaf_text, parse_class
from .jre_cursor import LINE_TERMINATORS, Cursor, Flags, JavaInvalid, Untranslatable, char_text
from .jre_props import Leaf

_MAX_COUNT = 2**31 - 1  # Java's limit; larger counts are syntax errors
_OUR_MAX_COUNT = 100_000  # beyond this, regex's limits might differ from Java's: refuse


def _anchor(kind: str, flags: Flags) -> str:
    """Java's ``^``, ``$`` (and ``\\Z``, which is ``$`` without MULTILINE) under ``flags``."""
    if kind == "^":
        if not flags.m:
            return "\\A"
        if flags.d:
            return "(?!\\z)(?:\\A|(?<=\\n))"
        return "(?!\\z)(?:\\A|(?<=[\\n\\x85\\u2028\\u2029])|(?<=\\r)(?!\\n))"
    if flags.d:
        return "(?=\\n|\\z)" if flags.m else "(?=\\n?\\z)"
    if flags.m:
        return "(?=[\\n\\r\\x85\\u2028\\u2029]|\\z)(?<!\\r(?=\\n))"
    return "(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?\\z)(?!(?<=\\r)\\n)"


class Translator:
    """One pattern's translation; :meth:`run` returns the ``regex`` text."""

    def __init__(self, pattern: str) -> None:
        self.cur = Cursor(pattern)
        self.flags = Flags()
        self.opened = 0  # capturing groups opened so far (Java numbers them by their "(")
        self.closed: set[int] = set()
        self.names: dict[str, int] = {}
        self.backrefs: list[tuple[int, bool]] = []  # (group number, group closed when referenced)
        self.captures_in_loop = False  # a capturing group under a quantifier, lookahead or (?>)

    def run(self) -> str:
        """The whole pattern, translated; raises :class:`JavaInvalid` or :class:`Untranslatable`."""
        try:
            text = self.alternation()
            if not self.cur.at_end():
                raise JavaInvalid("unmatched closing ')'")
        except JavaInvalid as exc:
            if self.cur.saw_x:  # Java skips spaces in places we do not: cannot be sure it is invalid
                raise Untranslatable(f"(?x) with a construct we cannot read ({exc})") from None
            raise
        for number, closed in self.backrefs:
            if number <= self.opened and (not closed or self.captures_in_loop):
                raise Untranslatable("a back reference to a group that is open, later, or repeated")
        return text

    def alternation(self) -> str:
        """Branches up to an unmatched ``)`` or the end."""
        branches = [self.sequence()]
        while not self.cur.quoting and self.cur.peek() == "|":
            self.cur.take()
            branches.append(self.sequence())
        return "|".join(branches)

    def sequence(self) -> str:
        """Atoms, each with its quantifier, up to ``|``, ``)`` or the end."""
        out: list[str] = []
        while True:
            self.cur.settle(self.flags)
            if self.cur.at_end() or (not self.cur.quoting and self.cur.peek() in "|)"):
                return "".join(out)
            before = self.opened
            text, kind = self.atom()
            self.cur.settle(self.flags)
            if self.cur.quoting or self.cur.peek() not in ("*", "+", "?", "{"):
                out.append(text)
                continue
            if kind != "repeatable":
                raise Untranslatable(f"a quantifier on {kind}")
            if self.opened > before:
                self.captures_in_loop = True
            quantifier = self.quantifier()
            if quantifier.endswith("+") and len(quantifier) > 1:  # Java: no iteration is retried either
                text = "(?>" + text + ")"
            out.append("(?:" + text + ")" + quantifier)

    def quantifier(self) -> str:
        """``* + ? {n} {n,} {n,m}`` and an optional lazy ``?`` or possessive ``+``."""
        c = self.cur.take()
        if c == "{":
            if not (self.cur.peek().isascii() and self.cur.peek().isdigit()):
                raise JavaInvalid("illegal repetition")
            low = high = self.cur.number("illegal repetition")
            if self.cur.peek() == ",":
                self.cur.take()
                high = self.cur.number("") if self.cur.peek().isdigit() else -1
            if self.cur.take() != "}":
                raise JavaInvalid("unclosed counted closure")
            if max(low, high) > _MAX_COUNT or (high >= 0 and high < low):
                raise JavaInvalid("illegal repetition range")
            if max(low, high) > _OUR_MAX_COUNT:
                raise Untranslatable(f"a repetition count above {_OUR_MAX_COUNT}")
            c = f"{{{low}}}" if high == low else f"{{{low},}}" if high < 0 else f"{{{low},{high}}}"
        mode = self.cur.peek() if self.cur.peek() in ("?", "+") else ""
        self.cur.pos += len(mode)
        if self.cur.peek() == "{":
            raise Untranslatable("a { after a quantifier")
        return c + mode

    def atom(self) -> tuple[str, str]:
        """One atom and what a quantifier may do to it ("repeatable" or a reason not to)."""
        cur, flags = self.cur, self.flags
        if flags.i and flags.u:
            raise Untranslatable("(?iu) (Unicode case folding)")
        if cur.quoting:
            return self.char(ord(cur.take())), "repeatable"
        c = cur.take()
        if c == "(":
            return self.group()
        if c == "[":
            return parse_class(cur, flags), "repeatable"
        if c == ".":
            if flags.s:
                return "[\\x00-\\U0010ffff]", "repeatable"
            return ("[^\\n]" if flags.d else "[^\\n\\r\\x85\\u2028\\u2029]"), "repeatable"
        if c in "^$":
            return _anchor(c, flags), "an anchor"
        if c in "*+?":
            raise JavaInvalid(f"dangling meta character {c!r}")
        if c == "{":  # Java rejects a lone "{", yet accepts some after an empty \\Q\\E
            raise Untranslatable("a { that does not follow an atom")
        if c == "\\":
            return self.escape()
        return self.char(ord(c)), "repeatable"

    def char(self, cp: int) -> str:
        """One character, both ASCII cases under ``(?i)``."""
        text = char_set_text(cp, self.flags)
        return text if text == char_text(cp) else "[" + text + "]"

    def escape(self) -> tuple[str, str]:
        """After a backslash outside a class."""
        cur = self.cur
        letter = cur.take()
        if not letter:
            raise JavaInvalid("unescaped trailing backslash")
        anchors = {"A": "\\A", "z": "\\z", "G": "\\A", "Z": _anchor("$", Flags(d=self.flags.d))}
        if letter in anchors:  # \G: matches() always starts at 0, where the last match ended
            return anchors[letter], "an anchor"
        if letter in "bBX":
            raise Untranslatable({"b": "word boundary \\b", "B": "word boundary \\B"}.get(letter, "\\X"))
        if letter == "R":
            return "(?:\\r\\n|[\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029])", "\\R"
        if letter.isascii() and letter.isdigit() and letter != "0":
            return self.backref(int(letter)), "repeatable"
        if letter == "k":
            if cur.take() != "<":
                raise JavaInvalid("\\k is not followed by '<' for named capturing group")
            end = cur.text.find(">", cur.pos)
            name = cur.text[cur.pos : end] if end >= 0 else ""
            if name not in self.names:
                raise JavaInvalid(f"named capturing group <{name}> does not exist")
            cur.pos = end + 1
            return self.backref_to(self.names[name]), "repeatable"
        if letter == "E":
            raise JavaInvalid("\\E without \\Q")
        item = class_escape(cur, letter)
        if isinstance(item, Leaf):
            return leaf_text(item, self.flags), "repeatable"
        return self.char(item), "repeatable"

    def backref(self, number: int) -> str:
        """``\\n``: more digits belong to it while that many groups have been opened."""
        while self.cur.peek().isascii() and self.cur.peek().isdigit():
            longer = number * 10 + int(self.cur.peek())
            if longer > self.opened:
                break
            number = longer
            self.cur.take()
        if self.flags.x and self.cur.peek() in (" ", "\t", "\n", "\x0b", "\x0c", "\r", "#"):
            raise Untranslatable("a back reference followed by white space under (?x)")
        return self.backref_to(number)

    def backref_to(self, number: int) -> str:
        """A reference to group ``number`` (checked once the whole pattern is read)."""
        if self.flags.i:
            raise Untranslatable("a back reference under (?i)")
        self.backrefs.append((number, number in self.closed))
        # A group that never exists never matches; the others are checked in run()
        return f"(?:\\g<{number}>)" if number <= self.opened else "(?!)"

    def group(self) -> tuple[str, str]:
        """After ``(``: the group, its flags scoped to it."""
        cur, saved = self.cur, self.flags
        head, kind, number = "(?:", "repeatable", 0
        if cur.peek() == "?" and not cur.quoting:
            cur.take()
            c = cur.take()
            if c in (":", ">", "=", "!"):
                head = {":": "(?:", ">": "(?>", "=": "(?=", "!": "(?!"}[c]
                kind = "repeatable" if c in ":>" else "a lookahead"
            elif c == "<" and cur.peek() in ("=", "!"):
                raise Untranslatable("lookbehind")
            elif c == "<":
                number = self.named_group()
            else:
                cur.pos -= len(c)
                if self.inline_flags():  # (?flags) alone: on until the enclosing group ends
                    return "", "an inline flag"
        else:
            self.opened += 1
            number = self.opened
        if number:
            head = "("
        before = self.opened
        body = self.alternation()
        self.flags = saved
        if cur.take() != ")":
            raise JavaInvalid("unclosed group")
        if number:
            self.closed.add(number)
        if head in ("(?>", "(?=", "(?!") and self.opened > before:
            self.captures_in_loop = True
        return head + body + ")", kind

    def named_group(self) -> int:
        """``(?<name>``: Java's names are a Latin letter then Latin letters or digits."""
        end = self.cur.text.find(">", self.cur.pos)
        name = self.cur.text[self.cur.pos : end] if end >= 0 else ""
        if not (name[:1].isascii() and name[:1].isalpha() and name.isascii() and name.isalnum()):
            raise JavaInvalid("bad capturing group name")
        if name in self.names:
            raise JavaInvalid(f"named capturing group <{name}> is already defined")
        self.cur.pos = end + 1
        self.opened += 1
        self.names[name] = self.opened
        return self.opened

    def inline_flags(self) -> bool:
        """``(?idmsux-idmsux)`` (True) or ``(?idmsux-idmsux:`` (False), flags now set."""
        on, off, minus = "", "", False
        while True:
            c = self.cur.take()
            if c in ("U", "c"):
                raise Untranslatable(f"(?{c})")
            if c and c in "idmsux":
                if minus:
                    off += c
                else:
                    on += c
            elif c == "-" and not minus:
                minus = True
            elif c in (")", ":"):
                self.flags = self.flags.with_letters(on, off)
                if self.flags.x:
                    self.cur.saw_x = True
                return c == ")"
            else:
                raise JavaInvalid("unknown inline modifier")


def translate(pattern: str) -> str:
    """``pattern`` (Java) as ``regex`` VERSION1 text for a whole-string match."""
    return Translator(pattern).run()


__all__ = ["LINE_TERMINATORS", "JavaInvalid", "Untranslatable", "translate"]
