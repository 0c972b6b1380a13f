"""Issue 26: a whole game turn of each system played in the browser as a person plays it (clicks
on the map, buttons and forms; the JSON box never opened), on the real scenarios, with no raw
data on the page: no JSON, no ``undefined``, no ``[object Object]``.

3R (tr-1939-campaign): options on two fronts in one form, a declaration of war, a move, an attack
with air support ticked and its odds, the defender's loss and retreat chosen on the map.
Europa (europa-barbarossa): a surprise-turn move and attack with its odds, the defender's
retreat on the map, the surprise invasion started, to the next turn.
EuroFront (eurofront-1941): weather, chits, initiative, an HQ activated, a block moved into an
enemy hex, the battle and its losses.
"""

from __future__ import annotations

import re
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.game import Game

from .conftest import ThreadServer

TIMEOUT = 90_000
RAW = re.compile(r'\{"|":\s*[\[{"\d]|undefined|\[object Object\]|NaN')


class Player:
    """One seat's browser tab."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_selector(".counter")
        self.page.wait_for_selector("#vcrpos:not(:empty)")

    def clean(self) -> None:
        """Nothing raw on the page, and the JSON box folded."""
        text = self.page.inner_text("body")
        bad = RAW.findall(text)
        assert not bad, (bad, text[:3000])
        assert self.page.get_attribute("#advanced", "open") is None
        assert not self.errors, self.errors

    def mine(self) -> bool:
        return self.page.query_selector("#whose.mine") is not None

    def phase(self) -> str:
        return self.page.inner_text("#phase")

    def wait_change(self, before: str) -> None:
        self.page.wait_for_function(
            "b => document.getElementById('banner').innerText !== b", arg=before)

    def end_phase(self) -> None:
        """End the phase, or take the first choice of a decision owed first."""
        self.page.wait_for_selector("#whose.mine")  # the other seat's decision made
        before = self.page.inner_text("#banner")
        dec = self.page.query_selector("#decisions .decision button:not([disabled])")
        if dec is not None and self.page.query_selector("#endphase[disabled]") is not None:
            dec.click()
            self.page.wait_for_selector("#message.ok")
            return
        self.page.click("#endphase")
        self.wait_change(before)

    def end_until(self, phase: str) -> None:
        for _ in range(30):
            if phase in self.phase():
                return
            self.end_phase()
        raise AssertionError(f"never reached {phase}: {self.phase()}")

    def choose(self, label: str) -> None:
        """Pick ``label`` in whichever select of the actions lists it (a form's choice)."""
        found = self.page.evaluate("""l => {
            for (const s of document.querySelectorAll('#actions select')) {
              for (const o of s.options) if (o.textContent === l) {
                s.value = o.value; s.dispatchEvent(new Event('change')); return true; } }
            return false; }""", label)
        assert found, label

    def confirm_after(self, label: str) -> None:
        """Click the Confirm of the form whose select lists ``label``."""
        self.page.evaluate("""l => {
            for (const s of document.querySelectorAll('#actions select')) {
              if ([...s.options].some(o => o.textContent === l)) {
                let b = s.parentElement.querySelector('button.confirm') ||
                        s.parentElement.parentElement.querySelector('button.confirm');
                b.setAttribute('data-go', '1'); return; } } }""", label)
        self.page.click("button.confirm[data-go='1']:not([disabled])")
        self.page.wait_for_selector("#message.ok")

    def go_to(self, hex_: str) -> None:
        """Type the hex in the map's go-to box: the map centres on it."""
        self.page.fill("#gohex", hex_)
        self.page.press("#gohex", "Enter")
        self.page.wait_for_timeout(300)

    def top_counter(self, hex_: str) -> str:
        return self.page.eval_on_selector_all(
            f'.counter[data-hex="{hex_}"]', "els => els[els.length - 1].dataset.unit")

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


def _play_out_turn(srv: ThreadServer, gid: str, seats: list[Player], turn_text: str) -> None:
    """Whoever must act clicks its first decision or ends the phase, until the next turn."""
    for _ in range(120):
        first = seats[0]
        if first.page.inner_text("#turn") != turn_text:
            return
        seat = next((s for s in seats if s.mine()), None)
        if seat is None:
            seats[0].page.wait_for_timeout(300)
            continue
        before = seat.page.inner_text("#banner")
        dec = seat.page.query_selector("#decisions .decision button:not([disabled])")
        target = dec or seat.page.query_selector("#endphase:not([disabled])")
        if target is None:
            seat.page.wait_for_timeout(300)
            continue
        if seat.page.inner_text("#turn") != turn_text:
            # this seat's page polled the next turn since the check above: its button now
            # ends a phase of that turn (session 30's CI: the Axis's initial phase ended
            # here, and the test's end_until("initial") ran on to the Soviets')
            return
        target.click()
        seat.wait_change(before)
        seat.clean()
    raise AssertionError("the turn did not end")


def test_tr_whole_turn_by_clicking(browser: Any, thread_server: ThreadServer) -> None:
    srv = thread_server
    gid, tokens = srv.referee.create("tr-1939-campaign", seed=4)
    axis = Player(browser, f"{srv.url}/play/{tokens['axis']}")
    allies = Player(browser, f"{srv.url}/play/{tokens['allies']}")
    axis.clean()
    # TR-03: options on two fronts in one form, one confirm
    axis.choose("Germany: offensive in the East (10 BRPs)")
    axis.choose("Germany: attrition in the West (5 BRPs)")
    axis.page.wait_for_selector(".composed.ok")
    # the summary is written after the form's class turns ok: wait for its words too
    axis.page.wait_for_selector(
        '.mergeform:has-text("Germany: offensive in the East; attrition in the West (15 BRPs)")')
    assert "Germany: offensive in the East; attrition in the West (15 BRPs)" in \
        axis.page.inner_text(".mergeform")
    axis.confirm_after("Germany: offensive in the East (10 BRPs)")
    axis.clean()
    # TR-25: a declaration of war
    axis.choose("Germany declares war on Denmark (5 BRPs)")
    axis.confirm_after("Germany declares war on Denmark (5 BRPs)")
    # the log follows the answer (its request may finish after the banner's on a loaded machine)
    axis.page.wait_for_function(
        "document.querySelector('#log').innerText.includes('Denmark')", timeout=15000)
    assert "Denmark" in axis.page.inner_text("#log")
    # TR-27: a move, clicked on the map
    axis.end_until("movement")
    with srv.referee.hold(gid) as loaded:
        hex_ = loaded.game.state["units"]["ger-arm10"]["hex"]
    unit = axis.top_counter(hex_)
    axis.page.click(f'.counter[data-unit="{unit}"]')
    axis.page.wait_for_selector("#highlights .dest")
    dest = axis.page.get_attribute("#highlights .dest", "data-hex")
    axis.page.click(f'#highlights .dest[data-hex="{dest}"]')
    axis.page.wait_for_selector(f'.counter[data-unit="{unit}"][data-hex="{dest}"]')
    axis.clean()
    # TR-32/TR-35: the attack on L33 with its air support ticked, the odds updating
    axis.end_until("combat")
    axis.page.click(f'.counter[data-unit="{axis.top_counter("L33")}"]')  # the enemy stack
    axis.page.wait_for_selector("#odds table")
    without = axis.page.inner_text("#odds")
    for box in axis.page.query_selector_all("#attackpanel input.attacker:not(:checked)"):
        box.check()
    axis.page.wait_for_function(
        "b => document.getElementById('odds').innerText !== b && "
        "document.querySelector('#odds table')", arg=without)
    assert "support" in axis.page.inner_text("#attackpanel .composed")
    assert "%" in axis.page.inner_text("#odds")
    axis.clean()
    axis.page.click("#rollattack")
    axis.page.wait_for_selector("#log li .dice")
    # the defender's loss and retreat: the unit it loses named in words (TR-32, issue 23: the
    # side taking the loss chooses it), then the retreat hex chosen on its map
    allies.page.wait_for_selector("#decisions .decision", timeout=TIMEOUT)
    with srv.referee.hold(gid) as loaded:
        owes_loss = bool(loaded.game.legal("allies", "land_losses"))
    if owes_loss:
        box = allies.page.inner_text("#decisions")
        assert "to lose" in box and "TR-32" in box and "pol-inf" not in box, box
        allies.clean()
        if allies.page.query_selector("#decisions select.choice"):
            allies.page.click("#decisions button.confirm")
        else:
            allies.page.click("#decisions .decision button:not([disabled])")
        allies.page.wait_for_selector("#message.ok")
    allies.page.wait_for_selector("#highlights .dest")
    to = allies.page.get_attribute("#highlights .dest", "data-hex")
    allies.page.click(f'#highlights .dest[data-hex="{to}"]')
    allies.page.wait_for_selector("#message.ok")
    allies.clean()
    with srv.referee.hold(gid) as loaded:
        g = loaded.game
        assert any(c.kind == "retreat" and c.player == "allies" for c in g.commands)
        assert not owes_loss or any(c.kind == "land_losses" and c.player == "allies"
                                    for c in g.commands)
        assert any(c.kind == "attack" and c.args.get("air") for c in g.commands)
    _play_out_turn(srv, gid, [axis, allies], axis.page.inner_text("#turn"))
    log = allies.page.inner_text("#log")
    assert "Attack L33" in log and "D1R" in log
    axis.close()
    allies.close()


def _surprise_move(srv: ThreadServer) -> Command:
    g = Game(srv.referee.scenario("europa-barbarossa"), 52)
    m = g.scenario.map
    sov = {u["hex"] for u in g.state["units"].values() if u["side"] == "soviet" and u["hex"]}

    def near(h: str) -> bool:
        return any(m.label(int(j)) in sov for j in m.neighbor_indices(m.index_of_label(h)))

    return next(c for c in g.legal("axis", "move") if near(str(c.args["to"])))


def test_europa_whole_turn_by_clicking(browser: Any, thread_server: ThreadServer) -> None:
    srv = thread_server
    move = _surprise_move(srv)
    gid, tokens = srv.referee.create("europa-barbarossa", seed=52)
    axis = Player(browser, f"{srv.url}/play/{tokens['axis']}")
    soviet = Player(browser, f"{srv.url}/play/{tokens['soviet']}")
    axis.clean()
    unit, to = str(move.args["unit"]), str(move.args["to"])
    with srv.referee.hold(gid) as loaded:
        start = loaded.game.state["units"][unit]["hex"]
    axis.go_to(start)
    top = axis.top_counter(start)
    axis.page.click(f'.counter[data-unit="{top}"]')
    if top != unit:  # the stack viewer selects the unit under the top one
        axis.page.click(f'#stack li.own:has-text("{unit.split("-")[-1]}")', timeout=5000)
    axis.page.wait_for_selector(f'#highlights .dest[data-hex="{to}"]')
    axis.page.click(f'#highlights .dest[data-hex="{to}"]')
    axis.page.wait_for_selector(f'.counter[data-unit="{unit}"][data-hex="{to}"]')
    axis.clean()
    # EUR-44 surprise combat: the attack with its odds before the roll
    axis.end_until("surprise combat")
    target = axis.page.get_attribute("#highlights .target", "data-hex")
    axis.go_to(target)
    axis.page.click(f'.counter[data-unit="{axis.top_counter(target)}"]')
    axis.page.wait_for_selector("#odds table")
    odds = axis.page.inner_text("#odds")
    assert "expected losses" in odds and "%" in odds
    axis.clean()
    axis.page.click("#rollattack")
    axis.page.wait_for_selector("#log li .dice")
    # EUR-15: the defender's retreat, chosen on the map
    soviet.page.wait_for_selector("#decisions .decision")
    soviet.page.wait_for_selector("#highlights .dest")
    hx = soviet.page.get_attribute("#highlights .dest", "data-hex")
    soviet.go_to(hx)
    # a click on the counter standing in the destination hex goes there
    soviet.page.click(f'#highlights .dest[data-hex="{hx}"]', force=True)
    soviet.page.wait_for_selector("#message.ok")
    soviet.clean()
    # the rest of the turn; EUR-44: no second surprise on the front the FitE surprise turn
    # opened, so the invasion surprise waits for the next turn's initial phase
    _play_out_turn(srv, gid, [axis, soviet], axis.page.inner_text("#turn"))
    with srv.referee.hold(gid) as loaded:
        g = loaded.game
        kinds = [c.kind for c in g.commands]
        assert g.turn == 2 and "attack" in kinds and "retreat" in kinds
        assert "start_invasion_surprise" not in kinds
    axis.end_until("initial")
    # the initial phase's buttons follow the banner (a slower request on a loaded machine);
    # session 26: timed out once in a fresh-clone CI run and passed on the rerun - a timeout
    # now says what the page and the referee showed, to find the race next time
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        axis.page.wait_for_selector("#others button[title^='Surprise invasion']", timeout=60000)
    except PlaywrightTimeout as exc:
        with srv.referee.hold(gid) as loaded:
            g = loaded.game
            where = (g.turn, g.state.get("phase"), [c.kind for c in g.commands[-6:]])
        titles = axis.page.eval_on_selector_all(
            "#others button", "bs => bs.map(b => b.title || b.textContent)")
        banner = axis.page.inner_text("#banner")
        raise AssertionError(f"no Surprise invasion button: banner {banner!r}, buttons "
                             f"{titles}, referee (turn, phase, last commands) {where}") from exc
    axis.page.click("#others button[title^='Surprise invasion']")
    axis.page.wait_for_selector("#message.ok")
    axis.clean()
    with srv.referee.hold(gid) as loaded:
        assert loaded.game.commands[-1].kind == "start_invasion_surprise"
    axis.close()
    soviet.close()


def _click_first(seat: Player, selector: str) -> None:
    seat.page.wait_for_selector(selector)
    seat.page.click(selector)
    seat.page.wait_for_selector("#message.ok")


def test_eurofront_whole_turn_by_clicking(browser: Any, thread_server: ThreadServer) -> None:
    srv = thread_server
    gid, tokens = srv.referee.create("eurofront-1941", seed=3)
    axis = Player(browser, f"{srv.url}/play/{tokens['axis']}")
    allies = Player(browser, f"{srv.url}/play/{tokens['allies']}")
    # EF: the weather roll, both chits (the last, largest choice), the initiative roll
    _click_first(axis, "#actions button:not(#undo):not(#endphase):not([disabled])")
    for seat in (axis, allies):
        seat.page.wait_for_selector("#whose.mine")
        buttons = seat.page.query_selector_all("#decisions .decision button")
        assert len(buttons) >= 2
        buttons[-1].click()
        seat.page.wait_for_selector("#message.ok")
        seat.clean()
    with srv.referee.hold(gid) as loaded:
        first = loaded.game.active()[0]
    seat = axis if first == "axis" else allies
    _click_first(seat, "#actions button:not(#undo):not(#endphase):not([disabled])")  # initiative
    with srv.referee.hold(gid) as loaded:
        g = loaded.game
        kinds = [c.kind for c in g.commands]
        acting = g.active()[0]
    assert kinds.count("place_chit") == 2 and "roll_weather" in kinds
    # the weather and initiative rolls in the log, in words (the log's request may finish
    # after the banner's on a loaded machine)
    axis.page.wait_for_function(
        "document.querySelector('#log').innerText.includes('initiative rolled')", timeout=15000)
    log = axis.page.inner_text("#log")
    assert "weather rolled: rolled" in log and "initiative rolled: rolled" in log, log
    seat = axis if acting == "axis" else allies
    seat.page.wait_for_selector("#whose.mine")
    # an HQ activated by its button
    _click_first(seat, "#actions button:not(#undo):not(#endphase):not([disabled])")
    seat.clean()
    # EF-18: a block moved into an enemy hex by clicking it and the highlighted hex
    with srv.referee.hold(gid) as loaded:
        g = loaded.game
        enemy = {u["hex"] for u in g.state["units"].values() if u["side"] != acting}
        move = next(c for c in g.legal(acting) if g.places(c).to in enemy
                    and g.places(c).units)
        unit, to = g.places(move).units[0], g.places(move).to
        start = g.state["units"][unit]["hex"]
        name = g.state["units"][unit].get("name", unit)
    seat.go_to(start)
    # the own block is drawn face up: its steps, firepower and movement
    face = seat.page.text_content(f'.counter[data-unit="{unit}"] text.vals')
    assert face and "?" not in face, face
    seat.page.click(f'.counter[data-unit="{seat.top_counter(start)}"]')
    if seat.top_counter(start) != unit:
        seat.page.click(f'#stack li.own:has-text("{name}")')
    seat.page.wait_for_selector(f'#highlights .dest[data-hex="{to}"]')
    seat.page.click(f'#highlights .dest[data-hex="{to}"]', force=True)
    seat.page.wait_for_selector("#message.ok")
    seat.clean()
    with srv.referee.hold(gid) as loaded:
        assert loaded.game.state["units"][unit]["hex"] == to
    # the activation ended by its button: the battle is fought, its losses taken by clicking
    seat.page.click("#others button:has-text('End activation')")
    seat.page.wait_for_selector("#message.ok")
    for _ in range(40):
        with srv.referee.hold(gid) as loaded:
            g = loaded.game
            fighting = g.state.get("battle") is not None or g.state.get("operation") is not None
            owes = [p for p in g.active()]
        if not fighting:
            break
        s = axis if owes[0] == "axis" else allies
        s.page.wait_for_selector("#whose.mine")
        s.page.wait_for_selector("#decisions .decision button:not([disabled]), "
                                 "#highlights .dest")
        dec = s.page.query_selector("#decisions .decision button:not([disabled])")
        before = s.page.inner_text("#vcrpos")
        if dec is not None:
            dec.click()
        else:  # a retreat chosen on the map
            hx = s.page.get_attribute("#highlights .dest", "data-hex")
            s.page.click(f'#highlights .dest[data-hex="{hx}"]', force=True)
        s.page.wait_for_function(
            "b => document.getElementById('vcrpos').innerText !== b", arg=before)
        s.clean()
    else:
        raise AssertionError("the battle never ended")
    with srv.referee.hold(gid) as loaded:
        g = loaded.game
        kinds = [c.kind for c in g.commands]
        assert "end_operation" in kinds and "take_loss" in kinds
    # the battle's dice and hits in both seats' logs, nothing raw on either page
    for s in (axis, allies):
        s.page.wait_for_function(
            f"() => document.getElementById('log').innerText.includes('battle fire in {to}')")
        log = s.page.inner_text("#log")
        assert re.search(rf"battle fire in {to}, round 1, \w+ \((attacker|defender)\): "
                         r"rolled .*\d — \d+ hits?", log), log
        assert f"from {to} to {to}" not in log  # the move told from where it started
        s.clean()
    axis.close()
    allies.close()


def test_a_game_against_a_bot_from_the_lobby_to_its_end(browser: Any,
                                                       thread_server: ThreadServer) -> None:
    """Issue 26: the lobby gives the other seat to a bot; the player clicks to the end."""
    srv = thread_server
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(srv.url + "/")
    row = page.locator('tr[data-scenario="demo-europa"]')
    row.locator("select[name=human]").select_option("axis")
    row.locator("select[name=bot]").select_option("heuristic")
    row.locator("button.bot").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector(".counter")
    for _ in range(200):
        page.wait_for_function("document.querySelector('#whose.mine') || "
                               "document.getElementById('whose').textContent.startsWith('Game over')")
        if page.inner_text("#whose").startswith("Game over"):
            break
        before = page.inner_text("#banner") + page.inner_text("#vcrpos")
        dec = page.query_selector("#decisions .decision button:not([disabled])")
        (dec or page.query_selector("#endphase")).click()
        page.wait_for_function(
            "b => document.getElementById('banner').innerText + "
            "document.getElementById('vcrpos').innerText !== b", arg=before)
    assert page.inner_text("#whose").startswith("Game over")
    text = page.inner_text("body")
    assert not RAW.findall(text), RAW.findall(text)
    assert "Soviet —" in text or "Soviet:" in text  # the bot's orders in the log
    token = page.url.rsplit("/", 1)[1]
    gid, _ = srv.referee.seat(token)
    with srv.referee.hold(gid) as loaded:
        assert loaded.game.over
        assert any(c.player == "soviet" for c in loaded.game.commands)
    page.goto(srv.url + "/")
    assert "Your games" in page.inner_text("#yours")  # this browser's game is listed
    assert not errors, errors
    ctx.close()


def test_ef_log_rolls_in_words_with_hits() -> None:
    """Issue 26 item 2/4: the referee's rolls reach the log in words, named as the seat may
    see them: a battle round's dice per block with its hits, the weather and initiative rolls;
    a count of dice is no roll, and dice the entry already lists are not told twice."""
    from grognard.server.present import roll_lines

    events = [
        {"type": "weather_rolled", "data": {"phase": 1, "roll": 2, "weather": "clear"}},
        {"type": "battle_started", "data": {"air_dice": 3, "hex": "0703", "blocks": {
            "su-rifle2": {"name": "2. Rifle Corps", "steps": 3}}}},
        {"type": "battle_fire", "data": {"air_rolls": [], "hex": "0703", "hits": 1,
                                         "role": "defender", "rolls": {"su-rifle2": [4, 1, 4]},
                                         "round": 1, "side": "allies"}},
        {"type": "combat_resolved", "data": {"dice": [5], "result": "DR"}},
    ]
    assert roll_lines(events) == [
        "weather rolled: rolled 2 (weather clear)",
        "battle fire in 0703, round 1, allies (defender): rolled 2. Rifle Corps 4 1 4 — 1 hit",
    ]
    after = {"units": {"de-pz1": {"name": "1. Panzer"}}}
    fire = {"type": "battle_fire", "data": {"air_rolls": [1, 5], "hits": 2,
                                            "rolls": {"de-pz1": [6, 6]}}}
    assert roll_lines([fire], after) == ["battle fire: rolled air 1 5; 1. Panzer 6 6 — 2 hits"]


def _random_game_to_a_loss_choice(srv: ThreadServer, scenario: str, seed: int
                                  ) -> tuple[str, dict[str, str], str]:
    """A seated game of random legal commands (through the referee, as the seats send them)
    up to a loss allocation its side may choose in more than one way."""
    import random

    from grognard.engine.fuzz import choose

    gid, tokens = srv.referee.create(scenario, seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        with srv.referee.hold(gid) as loaded:
            g, version = loaded.game, loaded.version
            for p in g.active():
                if "allocate_losses" in g.allowed(p) and len(g.legal(p, "allocate_losses")) >= 2:
                    return gid, tokens, p
            cmd = choose(g, rng)
        srv.referee.command(tokens[cmd.player], version, cmd.kind, dict(cmd.args))
    raise AssertionError("no loss to allocate")


def test_europa_loss_allocation_chosen_by_clicking(browser: Any,
                                                   thread_server: ThreadServer) -> None:
    """EUR-12: the side taking a loss picks the unit in the rules' words from its decision
    (the JSON box never opened); the referee applies that very allocation."""
    srv = thread_server
    gid, tokens, side = _random_game_to_a_loss_choice(srv, "europa-surprise", 7)
    with srv.referee.hold(gid) as loaded:
        g = loaded.game
        choices = g.legal(side, "allocate_losses")
        said = [g.describe(c).text for c in choices]
        n = len(g.commands)
    seat = Player(browser, f"{srv.url}/play/{tokens[side]}")
    seat.page.wait_for_selector("#decisions .decision")
    box = seat.page.inner_text("#decisions")
    assert "EUR-12" in box, box
    seat.clean()
    # every choice offered in words: a button each, or one select and its Confirm
    if seat.page.query_selector("#decisions select.choice"):
        seat.choose(said[-1])
        seat.page.click("#decisions button.confirm")
    else:
        buttons = seat.page.query_selector_all("#decisions .decision button")
        titles = [b.get_attribute("title") or b.inner_text() for b in buttons]
        assert all(t in said for t in titles) and len(titles) == len(said), (titles, said)
        buttons[-1].click()
    seat.page.wait_for_selector("#message.ok")
    seat.clean()
    with srv.referee.hold(gid) as loaded:
        g = loaded.game
        done = g.commands[n]
        assert done.kind == "allocate_losses" and done.player == side
        assert dict(done.args) == dict(choices[-1].args)
    seat.close()
