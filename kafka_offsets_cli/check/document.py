"""Spec text (YAML, or JSON) to a tree of values that know the line they start on.

The only module of :mod:`kafka_offsets_cli.check` that imports yaml: it is imported when a spec
file is read, never at start-up. Syntax errors, alias "bombs", duplicate and non-string keys
become problems (``path: message (line N)``), not exceptions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from .problems import Problems, child, describe

__all__ = ["MAX_SPEC_VALUES", "Node", "compose"]

#: At most this many values once YAML aliases are expanded (an alias "bomb" expands exponentially).
MAX_SPEC_VALUES = 200_000


@dataclass
class Node:
    """A parsed value with the (1-based) line it starts on."""

    kind: Literal["map", "seq", "scalar"]
    value: Any
    line: int
    key_lines: dict[str, int] = field(default_factory=dict)


def compose(text: str, problems: Problems, *, is_json: bool) -> Node | None:
    """Parse YAML/JSON text into a located tree; syntax errors become problems (then None)."""
    if is_json:
        if not _valid_json(text, problems):
            return None
        # JSON allows tabs between tokens where YAML does not; tabs cannot occur
        # unescaped inside JSON strings, so replacing them keeps every value and line.
        text = text.replace("\t", " ")
    root = _compose_yaml(text, problems, "JSON" if is_json else "YAML")
    if root is None:
        return None
    reason = _expansion_problem(root, MAX_SPEC_VALUES)
    if reason is not None:
        problems.add("", reason, root.start_mark.line + 1)
        return None
    constructor = yaml.SafeLoader("")
    try:
        return _convert(root, "", constructor, problems)
    except RecursionError:
        problems.add("", "nested too deeply", None)
        return None


def _valid_json(text: str, problems: Problems) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        problems.add("", f"invalid JSON: {e.msg}", e.lineno)
        return False
    except RecursionError:
        problems.add("", "nested too deeply", None)
        return False
    return True


def _compose_yaml(text: str, problems: Problems, syntax: str) -> yaml.Node | None:
    """The YAML node tree of ``text`` (``syntax`` names the format in problems), or None."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "syntax error"
        problems.add("", f"invalid {syntax}: {what}", mark.line + 1 if mark else None)
        return None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow: no mark, a position
        line = text.count("\n", 0, max(0, e.position)) + 1
        problems.add("", f"invalid {syntax}: {str(e).splitlines()[0]}", line)
        return None
    except yaml.YAMLError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        problems.add("", f"invalid {syntax}: {first}", None)
        return None
    except RecursionError:
        problems.add("", "nested too deeply", None)
        return None
    if root is None:
        problems.add("", "the file is empty: expected a mapping with 'clusters' and 'checks'", 1)
    return root


class _Unexpandable(Exception):
    """A document whose aliases expand past the limit, or refer to themselves."""


def _expansion_problem(root: yaml.Node, limit: int) -> str | None:
    """Why the document cannot be expanded (aliases repeat shared nodes), or None.

    Counts the values of the document as if every alias were copied out, once per
    shared node (memoised), without copying anything.
    """
    sizes: dict[int, int] = {}

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            if sizes[key] < 0:
                raise _Unexpandable("a YAML alias refers to the collection that contains it")
            return sizes[key]
        sizes[key] = -1  # on the current path
        total = 1
        if isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total += sum(size(v) for v in node.value)
        if total > limit:
            raise _Unexpandable(f"too many values once YAML aliases are expanded (more than {limit:,})")
        sizes[key] = total
        return total

    try:
        size(root)
    except _Unexpandable as e:
        return str(e)
    except RecursionError:
        return "nested too deeply"
    return None


def _first_line(e: yaml.YAMLError) -> str:
    """What a YAML error says: its ``problem``, else the first line of its text."""
    what: str = getattr(e, "problem", None) or (str(e).strip().splitlines() or [type(e).__name__])[0]
    return what


def _convert(node: yaml.Node, path: str, ctor: yaml.SafeLoader, problems: Problems) -> Node:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        return _convert_mapping(node, path, ctor, problems)
    if isinstance(node, yaml.SequenceNode):
        items = [_convert(v, child(path, i), ctor, problems) for i, v in enumerate(node.value)]
        return Node("seq", items, line)
    try:
        value = ctor.construct_object(node, deep=True)
    except yaml.YAMLError as e:
        problems.add(path, f"invalid value: {_first_line(e)}", line)
        value = None
    return Node("scalar", value, line)


def _convert_mapping(node: yaml.MappingNode, path: str, ctor: yaml.SafeLoader, problems: Problems) -> Node:
    line = node.start_mark.line + 1
    try:
        ctor.flatten_mapping(node)  # "<<: *defaults" merge keys
    except yaml.YAMLError as e:
        problems.add(path, f"invalid merge key: {_first_line(e)}", line)
        return Node("map", {}, line)
    out: dict[str, Node] = {}
    key_lines: dict[str, int] = {}
    for knode, vnode in node.value:
        kline = knode.start_mark.line + 1
        try:
            key: Any = None
            if isinstance(knode, yaml.ScalarNode):
                key = ctor.construct_object(knode, deep=True)
        except yaml.YAMLError as e:
            problems.add(path, f"invalid key: {_first_line(e)}", kline)
            continue
        if not isinstance(key, str):
            shown = describe(key) if isinstance(knode, yaml.ScalarNode) else "a collection"
            hint = " (quote it)" if isinstance(key, bool | int | float) or key is None else ""
            problems.add(path, f"keys must be strings, got {shown}{hint}", kline)
            continue
        if key in out:
            problems.add(child(path, key), f"duplicate key (first at line {key_lines[key]})", kline)
            continue
        key_lines[key] = kline
        out[key] = _convert(vnode, child(path, key), ctor, problems)
    return Node("map", out, line, key_lines)
