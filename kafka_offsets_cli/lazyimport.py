"""Defer a module's import cost until it is used.

confluent-kafka's package ``__init__`` imports ``asyncio`` for its asyncio clients, whatever
the caller uses: ~25 ms of the start-up of every command, for a module this tool never
touches. :func:`defer_import` registers such a module in ``sys.modules`` as a placeholder
that ``import asyncio`` binds at once; the module's code runs on the first access to any of
its attributes (``asyncio.run``, ``from asyncio import …``, importing a submodule), so code
that does use it sees the complete module.

The standard library's ``importlib.util.LazyLoader`` cannot do this: its placeholder loads on
*any* attribute access, and an ``import`` statement for a module already in ``sys.modules``
reads the module's ``__spec__`` (to see whether it is still initialising), which loads it.
The placeholder here answers the import system's own metadata without loading (and, when
asked, chosen attributes: pandas' ``__version__``, which pyspark only checks).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types
from collections.abc import Callable, Mapping
from typing import Any

#: What the import system reads from a module already in ``sys.modules`` (answered without loading).
_METADATA = frozenset({"__spec__", "__name__", "__loader__", "__package__", "__class__", "__dict__"})

_LOCK = threading.RLock()

#: per deferred module, attributes answered without loading it (name -> function giving the value)
_ANSWERS: dict[str, Mapping[str, Callable[[], Any]]] = {}


class _Deferred(types.ModuleType):
    """A module whose code has not run yet; it runs on first use of anything but its metadata."""

    def __getattribute__(self, attr: str) -> Any:
        if attr in _METADATA:
            return super().__getattribute__(attr)
        answer = _ANSWERS.get(super().__getattribute__("__name__"), {}).get(attr)
        if answer is not None and (value := answer()) is not None:
            return value
        _load(self)
        return getattr(self, attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        _load(self)
        setattr(self, attr, value)

    def __delattr__(self, attr: str) -> None:
        _load(self)
        delattr(self, attr)

    def __dir__(self) -> list[str]:
        _load(self)
        return dir(self)


def _load(module: types.ModuleType) -> None:
    """Run the deferred module's code in its own module object (once, thread-safe)."""
    with _LOCK:
        if type(module) is not _Deferred:
            return  # another thread loaded it meanwhile
        object.__setattr__(module, "__class__", types.ModuleType)
        spec = module.__spec__
        assert spec is not None and spec.loader is not None
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(spec.name, None)  # as a failed eager import leaves it
            raise


def defer_import(name: str, answers: Mapping[str, Callable[[], Any]] | None = None) -> bool:
    """Register top-level module ``name`` to load on first use.

    ``answers``: attributes read without loading it, each from its function (e.g. a version
    that a library only checks; ``None`` from the function: load and read the module's own).
    Returns ``False`` (and changes nothing) when it is already imported, is a submodule, or
    cannot be found.
    """
    if name in sys.modules or "." in name:
        return False
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return False
    module = importlib.util.module_from_spec(spec)  # sets __spec__, __path__… without running code
    _ANSWERS[name] = dict(answers or {})
    object.__setattr__(module, "__class__", _Deferred)
    sys.modules[name] = module
    return True


def is_deferred(name: str) -> bool:
    """True while ``name`` is registered but its code has not run."""
    return type(sys.modules.get(name)) is _Deferred
