"""Print tests/test_floors.py's DEBT as it stands now (for updating the list by hand after a
merge; the test fails on any arrow not listed and on any listed arrow that is gone)."""

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location(
    "test_floors", Path(__file__).resolve().parents[1] / "tests" / "test_floors.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
for entry in sorted(mod.found_debt(mod.Imports())):
    print(f"    {entry!r},")
