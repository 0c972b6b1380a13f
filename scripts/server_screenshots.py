"""Screenshots of the web UI's main screens into docs/screenshots/ (headless Debian chromium),
taken on the real scenarios (tr-1939-campaign, europa-barbarossa, eurofront-1941) by clicking
as a player does.

    uv run python scripts/server_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import sync_playwright

from grognard.engine.game import Game
from grognard.server.app import create_app


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _choose(page: Any, label: str) -> None:
    page.evaluate("""l => { for (const s of document.querySelectorAll('#actions select'))
        for (const o of s.options) if (o.textContent === l) {
          s.value = o.value; s.dispatchEvent(new Event('change')); return; } }""", label)


def _top(page: Any, hex_: str) -> str:
    return str(page.eval_on_selector_all(f'.counter[data-hex="{hex_}"]',
                                         "els => els[els.length - 1].dataset.unit"))


def _go(page: Any, hex_: str) -> None:
    page.fill("#gohex", hex_)
    page.press("#gohex", "Enter")
    page.wait_for_timeout(300)


def _end_until(page: Any, phase: str) -> None:
    for _ in range(30):
        if phase in page.inner_text("#phase"):
            return
        before = page.inner_text("#banner")
        page.click("#endphase")
        page.wait_for_function("b => document.getElementById('banner').innerText !== b",
                               arg=before)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="docs/screenshots")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp()) / "shots.sqlite"
    app = create_app(f"sqlite:///{db}")
    ref = app.state.referee
    port = _port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    shot = {"width": 1400, "height": 860}
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=a.chromium, args=["--no-sandbox"])
        # 3R: tr-1939-campaign, seed 4 (the attack on L33 with air ends D1R: a retreat)
        gid, seats = ref.create("tr-1939-campaign", seed=4)
        page = b.new_page(viewport=shot)
        page.goto(f"{url}/play/{seats['axis']}")
        page.wait_for_selector(".counter")
        _choose(page, "Germany: offensive in the East (10 BRPs)")
        _choose(page, "Germany: attrition in the West (5 BRPs)")
        page.wait_for_selector(".composed.ok")
        page.screenshot(path=str(out / "tr-options.png"))
        page.click(".mergeform button.confirm")
        page.wait_for_selector("#message.ok")
        _end_until(page, "movement")
        with ref.hold(gid) as loaded:
            hx = loaded.game.state["units"]["ger-arm10"]["hex"]
        page.click(f'.counter[data-unit="{_top(page, hx)}"]')
        page.wait_for_selector("#highlights .dest")
        page.hover("#highlights .dest >> nth=3")
        page.screenshot(path=str(out / "play-move.png"))
        dest = page.get_attribute("#highlights .dest >> nth=3", "data-hex")
        page.click(f'#highlights .dest[data-hex="{dest}"]', force=True)
        page.wait_for_selector("#message.ok")
        _end_until(page, "combat")
        page.click(f'.counter[data-unit="{_top(page, "L33")}"]')
        page.wait_for_selector("#odds table")
        for box in page.query_selector_all("#attackpanel input.attacker:not(:checked)"):
            box.check()
        page.wait_for_timeout(800)
        page.screenshot(path=str(out / "play-odds.png"))
        page.click("#rollattack")
        page.wait_for_selector("#log li .dice")
        allies = b.new_page(viewport=shot)
        allies.goto(f"{url}/play/{seats['allies']}")
        allies.wait_for_selector("#highlights .dest")
        allies.hover("#highlights .dest")
        allies.wait_for_timeout(300)
        allies.screenshot(path=str(out / "play-decision.png"))
        page.click("#legendpanel summary")
        page.eval_on_selector("#legendpanel", "e => e.scrollIntoView()")
        page.wait_for_timeout(200)
        page.screenshot(path=str(out / "play-legend.png"))
        page.click("#legendpanel summary")
        page.click("#vcrfirst")
        page.wait_for_selector("#replaybar:not([hidden])")
        page.screenshot(path=str(out / "play-vcr.png"))
        page.click("#vcrlast")
        page.click("#zoomreset")
        page.wait_for_timeout(300)
        page.screenshot(path=str(out / "map-campaign.png"))
        # Europa: europa-barbarossa, a unit held by EUR-44 says why, then the surprise attack
        g = Game(ref.scenario("europa-barbarossa"), 52)
        m = g.scenario.map
        sov = {u["hex"] for u in g.state["units"].values() if u["side"] == "soviet" and u["hex"]}
        move = next(c for c in g.legal("axis", "move")
                    if any(m.label(int(j)) in sov
                           for j in m.neighbor_indices(m.index_of_label(str(c.args["to"])))))
        movers = {c.args["unit"] for c in g.legal("axis", "move")}
        held = next(u for u, x in sorted(g.state["units"].items())
                    if x["side"] == "axis" and x["hex"] and u not in movers)
        _gid2, eu = ref.create("europa-barbarossa", seed=52)
        page = b.new_page(viewport=shot)
        page.goto(f"{url}/play/{eu['axis']}")
        page.wait_for_selector(".counter")
        hx = g.state["units"][held]["hex"]
        _go(page, hx)
        page.click(f'.counter[data-unit="{_top(page, hx)}"]')
        page.wait_for_selector("#selection .why, #highlights .dest")
        page.screenshot(path=str(out / "europa-why.png"))
        unit, to = str(move.args["unit"]), str(move.args["to"])
        hx = g.state["units"][unit]["hex"]
        _go(page, hx)
        page.click(f'.counter[data-unit="{_top(page, hx)}"]')
        if _top(page, hx) != unit:
            page.click(f'#stack li.own:has-text("{g.state["units"][unit]["name"]}")')
        page.wait_for_selector(f'#highlights .dest[data-hex="{to}"]')
        page.click(f'#highlights .dest[data-hex="{to}"]', force=True)
        page.wait_for_selector("#message.ok")
        _end_until(page, "surprise combat")
        target = page.get_attribute("#highlights .target", "data-hex")
        _go(page, str(target))
        page.click(f'.counter[data-unit="{_top(page, str(target))}"]')
        page.wait_for_selector("#odds table")
        page.screenshot(path=str(out / "europa-odds.png"))
        # EuroFront: your own blocks face up, the other side's face down
        _gid3, ef = ref.create("eurofront-1941", seed=3)
        page = b.new_page(viewport=shot)
        page.goto(f"{url}/play/{ef['axis']}")
        page.wait_for_selector(".counter")
        page.wait_for_timeout(500)
        page.screenshot(path=str(out / "eurofront.png"))
        # hotseat hand-over, the lobby (with this browser's games)
        _g4, hot = ref.create("demo-europa", "hotseat", seed=4)
        page.goto(f"{url}/play/{hot['*']}")
        page.wait_for_selector(".counter")
        for _ in range(20):
            if page.is_visible("#handover"):
                break
            page.click("#endphase")
            page.wait_for_timeout(200)
        page.screenshot(path=str(out / "hotseat-handover.png"))
        page.goto(url + "/")
        page.screenshot(path=str(out / "lobby.png"))
        b.close()
    server.should_exit = True
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
