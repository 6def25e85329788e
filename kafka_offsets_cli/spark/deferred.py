"""pandas on the ``check`` driver: imported only if something there uses it.

pyspark checks pandas' version on every ``mapInArrow`` / ``applyInArrow`` (``pandas_udf``
calls ``require_minimum_pandas_version``) and on its first py4j call with an argument (its
numpy converter imports ``pyspark.testing.utils``, which checks it too): each check imports
pandas, 35-40 MB of the driver's memory (a fifth of its peak at 50,000 partitions) for a
driver that never makes or reads a pandas object (the records come back as Arrow and are
read with pyarrow only). Deferred (:func:`~kafka_offsets_cli.lazyimport.defer_import`), the
module answers ``__version__`` from its installed metadata and loads on any other use,
so code that does use pandas (pyarrow converting Python values, ``toPandas``) gets the real
module. The executors' Python workers are other processes: unaffected.
"""

from __future__ import annotations

import functools
import importlib.util

from ..lazyimport import defer_import, is_deferred

__all__ = ["defer_pandas", "pandas_loaded"]


def defer_pandas() -> bool:
    """Defer ``import pandas`` in this process (False: already imported, or not installed)."""
    return defer_import("pandas", answers={"__version__": _pandas_version})


def pandas_loaded() -> bool:
    """True when pandas' code has run in this process."""
    import sys

    return "pandas" in sys.modules and not is_deferred("pandas")


@functools.cache
def _pandas_version() -> str | None:
    """The installed pandas' version, without importing it; None when unknown (pandas then loads to tell).

    Read from the name of its ``pandas-VERSION.dist-info`` directory beside the package (the
    metadata pip and uv install): ``importlib.metadata`` would cost 2 MB of imports to say the same.
    """
    from pathlib import Path

    spec = importlib.util.find_spec("pandas")  # the deferred module's own spec: nothing loads
    if spec is None or spec.origin is None:
        return None
    found = [d.name for d in Path(spec.origin).parent.parent.glob("pandas-*.dist-info")]
    if len(found) != 1:
        return None  # none, or stale copies: no one answer
    version = found[0].removeprefix("pandas-").removesuffix(".dist-info")
    return version or None
