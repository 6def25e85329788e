"""Wide records are keyword-only: swapping two ``int | None`` arguments of a positional call passes mypy.

Read from the source (no imports: ``spark/`` needs the optional pyspark). The tuple models in
``models/`` are not dataclasses (their positional ``__new__`` is measured), so they are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "kafka_offsets_cli"
#: more init fields than this and a dataclass must be ``kw_only=True``
MAX_POSITIONAL_FIELDS = 5


def _init_fields(cls: ast.ClassDef) -> int:
    count = 0
    for stmt in cls.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        if "ClassVar" in ast.unparse(stmt.annotation):
            continue
        if stmt.value is not None and "init=False" in ast.unparse(stmt.value):
            continue
        count += 1
    return count


def _dataclass_decorator(cls: ast.ClassDef) -> ast.expr | None:
    for d in cls.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Name | ast.Attribute) and ast.unparse(target).endswith("dataclass"):
            return d
    return None


def _is_kw_only(decorator: ast.expr) -> bool:
    return isinstance(decorator, ast.Call) and any(
        k.arg == "kw_only" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in decorator.keywords
    )


def wide_positional_records(root: Path) -> list[str]:
    """``path:line Class (n fields)`` for each wide dataclass under ``root`` that is not keyword-only."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ClassDef):
                continue
            decorator = _dataclass_decorator(node)
            n = _init_fields(node)
            if decorator is not None and n > MAX_POSITIONAL_FIELDS and not _is_kw_only(decorator):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({n} fields)")
    return found


def test_the_package_has_no_wide_positional_record() -> None:
    assert wide_positional_records(PACKAGE) == []


@pytest.mark.parametrize(
    ("decorator", "fields", "flagged"),
    [
        ("@dataclass(frozen=True)", 6, True),
        ("@dataclass", 6, True),
        ("@dataclass(frozen=True, kw_only=True)", 6, False),
        ("@dataclass(frozen=True)", 5, False),
    ],
)
def test_the_rule_counts_init_fields_and_reads_kw_only(
    tmp_path: Path, decorator: str, fields: int, flagged: bool
) -> None:
    body = "".join(f"    f{i}: int\n" for i in range(fields))
    extra = "    hidden: int = field(init=False)\n    shared: ClassVar[int] = 0\n"
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(f"{decorator}\nclass Rec:\n{body}{extra}")
    assert bool(wide_positional_records(tmp_path / "pkg")) is flagged
