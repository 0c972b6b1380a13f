"""Screenshots of the web UI's main screens into docs/screenshots/ (headless Debian chromium).

    uv run python scripts/server_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.server.app import create_app


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    # a seed whose attack leaves the defender a decision
    sc = ref.scenario("demo-europa")
    seed = 1
    for seed in range(1, 300):
        g = Game(sc, seed)
        g.apply(next(c for c in g.legal("axis") if c.kind == "move"
                      and c.args.get("unit") == "de-7pz" and c.args.get("to") == "0604"))
        while g.phase.name != "combat":
            g.apply(Command("end_phase", "axis", {}))
        g.apply(next(c for c in ref.legal(g, "axis") if c.kind == "attack"))
        if any(d.player == "soviet" for d in g.decisions()):
            break
    _gid, seats = ref.create("demo-europa", seed=seed)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=a.chromium, args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1400, "height": 860})
        page.goto(url + "/")
        page.screenshot(path=str(out / "lobby.png"))
        page.goto(f"{url}/play/{seats['axis']}")
        page.wait_for_selector(".counter")
        page.click('.counter[data-unit="de-7pz"]')
        page.wait_for_selector("#highlights .dest")
        page.screenshot(path=str(out / "play-move.png"))
        page.click('#highlights .dest[data-hex="0604"]')
        page.wait_for_selector('.counter[data-unit="de-7pz"][data-hex="0604"]')
        while "combat" not in page.inner_text("#phase"):
            before = page.inner_text("#phase")
            page.click("#endphase")
            page.wait_for_function("b => document.getElementById('phase').textContent !== b",
                                   arg=before)
        page.click('.counter[data-hex="0704"]')
        page.wait_for_selector("#odds table")
        page.screenshot(path=str(out / "play-odds.png"))
        page.click("#rollattack")
        page.wait_for_selector("#log li .dice")
        soviet = b.new_page(viewport={"width": 1400, "height": 860})
        soviet.goto(f"{url}/play/{seats['soviet']}")
        soviet.wait_for_selector(".counter")
        soviet.wait_for_timeout(500)
        soviet.screenshot(path=str(out / "play-decision.png"))
        page.click("#vcrfirst")
        page.wait_for_selector("#replaybar:not([hidden])")
        page.screenshot(path=str(out / "play-vcr.png"))
        _g2, hot = ref.create("demo-europa", "hotseat", seed=4)
        page.goto(f"{url}/play/{hot['*']}")
        page.wait_for_selector(".counter")
        for _ in range(20):
            if page.is_visible("#handover"):
                break
            page.click("#endphase")
            page.wait_for_timeout(200)
        page.screenshot(path=str(out / "hotseat-handover.png"))
        _g3, big = ref.create("tr-1939-campaign", "hotseat", seed=5)
        page.goto(f"{url}/play/{big['*']}")
        page.wait_for_selector(".counter")
        page.screenshot(path=str(out / "map-campaign.png"))
        b.close()
    server.should_exit = True
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
