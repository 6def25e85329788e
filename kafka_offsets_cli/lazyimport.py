"""Defer a module's import cost until it is used.

confluent-kafka's package ``__init__`` imports ``asyncio`` for its asyncio clients, whatever
the caller uses, for a module this tool never touches: imported at once, a one-partition
``list`` takes 1.15x the CPU and 6 MB (1.21x) more peak memory (``python -m bench.workarounds
--only asyncio``). :func:`defer_import` registers such a module in ``sys.modules`` as a placeholder
that ``import asyncio`` binds at once; the module's code runs on the first access to any of
its attributes (``asyncio.run``, ``from asyncio import …``, importing a submodule), so code
that does use it sees the complete module.

The standard library's ``importlib.util.LazyLoader`` cannot do this: its placeholder loads on
*any* attribute access, and an ``import`` statement for a module already in ``sys.modules``
reads the module's ``__spec__`` (to see whether it is still initialising), which loads it.
The placeholder here answers the import system's own metadata without loading (and, when
asked, chosen attributes: pandas' ``__version__``, which pyspark only checks).

``import pkg.sub`` as the first use of a deferred ``pkg`` loads ``pkg`` when the import system
reads ``pkg.__path__``: later than its own check for a submodule that the package's code
imported meanwhile. :class:`_AlreadyImported` answers that check, so such a submodule is not
run a second time (two copies of its classes).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
import types
from collections.abc import Callable, Mapping, Sequence
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


class _AlreadyImported(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The submodule a deferred package's code imported while the import system found its path.

    For ``import pkg.sub``, CPython checks ``sys.modules`` for ``pkg.sub`` before it reads
    ``pkg.__path__``; that read runs the deferred package, which may import ``pkg.sub`` itself.
    The import system then looks for ``pkg.sub`` again: this finder (first on ``sys.meta_path``)
    answers with the module the package imported, and its loader runs nothing. Only for
    submodules of deferred packages, and never for ``importlib.reload`` (which passes a target).
    """

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for the present module ``fullname`` under a deferred package, else ``None``."""
        top = fullname.partition(".")[0]
        present = sys.modules.get(fullname)
        if target is not None or top not in _ANSWERS or "." not in fullname or present is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, loader_state=present.__spec__)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        """The module already in ``sys.modules``."""
        return sys.modules[spec.name]

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: its code ran once; its own spec is put back."""
        module.__spec__ = module.__spec__.loader_state if module.__spec__ is not None else None


_FINDER = _AlreadyImported()


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
    with _LOCK:
        if _FINDER not in sys.meta_path:
            sys.meta_path.insert(0, _FINDER)
    return True


def is_deferred(name: str) -> bool:
    """True while ``name`` is registered but its code has not run."""
    return type(sys.modules.get(name)) is _Deferred
