"""Write ``tests/durations.json`` (seconds per test module) from a pytest ``--junitxml`` report.

``make test`` orders its pytest-xdist work units longest first by these numbers (tests/lanes.py); a
module missing from the file counts as 30 s, so the file only needs refreshing when modules get much
slower or faster.  Usage: ``python -m dev.durations REPORT.xml`` (after, e.g., ``CI=true
PYTEST_ADDOPTS=--junitxml=REPORT.xml make test``).
"""

from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.lanes import DURATIONS


def module_seconds(report: Path) -> dict[str, float]:
    """``{tests/…/test_x.py: seconds}``: each module's test cases' times (setup, call and teardown)."""
    seconds: dict[str, float] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        classname = case.get("classname", "")
        parts = classname.split(".")
        # "tests.unit.lag.test_x" or "tests.test_x.TestClass": the module is the last test_* part
        module_parts = next(
            (parts[: n + 1] for n in range(len(parts) - 1, -1, -1) if parts[n].startswith("test_")), None
        )
        if module_parts is None:
            continue
        module = "/".join(module_parts) + ".py"
        seconds[module] = seconds.get(module, 0.0) + float(case.get("time", "0") or 0)
    return seconds


def main() -> None:
    """Read the report named on the command line and write tests/durations.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="a pytest --junitxml report of a whole run")
    args = parser.parse_args()
    seconds = module_seconds(args.report)
    DURATIONS.write_text(
        json.dumps({k: round(v, 1) for k, v in sorted(seconds.items())}, indent=1) + "\n", encoding="utf-8"
    )
    print(f"{DURATIONS}: {len(seconds)} modules, {sum(seconds.values()):.0f} s in all")


if __name__ == "__main__":
    main()
