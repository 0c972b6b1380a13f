"""scripts/make_maps.py reproduces the committed maps byte for byte (the ``maps`` dependency
group is part of ``dev``, so ``uv run pytest`` always runs it; it never skips)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_maps", ROOT / "scripts" / "make_maps.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_maps"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
@pytest.mark.parametrize("map_id", ["tr-europe", "europa-barbarossa"])
def test_generator_reproduces_the_committed_map(map_id: str) -> None:
    make_maps = _script()
    text = make_maps.render_toml(make_maps.build(map_id))
    committed = (ROOT / "src" / "grognard" / "data" / "maps" / f"{map_id}.toml").read_text("utf-8")
    assert text == committed


def test_committed_maps_say_how_they_were_made() -> None:
    for map_id in ("tr-europe", "europa-barbarossa"):
        head = (ROOT / "src" / "grognard" / "data" / "maps" / f"{map_id}.toml").read_text(
            "utf-8").splitlines()[:4]
        assert any("scripts/make_maps.py" in line for line in head)
