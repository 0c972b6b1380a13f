"""The web UI in a real browser (Playwright driving Debian's chromium): two seats play a whole
turn by clicking (a move, undo, a combat with its odds and the decisions it leaves, end phase
to the next turn), the VCR log, a stale submission refused, the hotseat hand-over, and no
hidden value in the other seat's DOM or network traffic."""

from __future__ import annotations

from typing import Any

from grognard.engine.commands import Command
from grognard.engine.game import Game

from .conftest import ThreadServer, dest, secret_strings

TIMEOUT = 60_000  # ms: generous, the suite runs on every core at once (pytest -n auto)


class Seat:
    """One browser context on one seat's link, recording every answer it receives."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1300, "height": 850})
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT)
        self.bodies: list[str] = []
        self.errors: list[str] = []
        self.page.on("response", self._record)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_selector(".counter")

    def _record(self, response: Any) -> None:
        try:
            self.bodies.append(response.text())
        except Exception:
            self.bodies.append("")

    def everything(self) -> str:
        return "\n".join([*self.bodies, self.page.content()])

    def hex_of(self, unit: str) -> str | None:
        el = self.page.query_selector(f'.counter[data-unit="{unit}"]')
        return None if el is None else el.get_attribute("data-hex")

    def wait_unit(self, unit: str, hex_: str) -> None:
        self.page.wait_for_selector(f'.counter[data-unit="{unit}"][data-hex="{hex_}"]')

    def move(self, unit: str, to: str) -> None:
        self.page.click(f'.counter[data-unit="{unit}"]')
        self.page.click(f'#highlights .dest[data-hex="{to}"]')
        self.wait_unit(unit, to)

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


def _combat_seed(srv: ThreadServer, unit: str, to: str) -> tuple[int, str]:
    """A seed under which moving ``unit`` to ``to`` and attacking leaves the defender a loss or
    a retreat (so the turn has a decision for the defender to make)."""
    ref = srv.referee
    sc = ref.scenario("demo-europa")
    for seed in range(1, 300):
        g = Game(sc, seed)
        move = next(c for c in ref.legal(g, "axis")
                    if c.kind == "move" and c.args["unit"] == unit and dest(c.args) == to)
        g.apply(move)
        while g.phase.name != "combat":
            g.apply(Command("end_phase", "axis", {}))
        attack = next(c for c in ref.legal(g, "axis") if c.kind == "attack")
        ev = g.apply(attack)[0].data
        if any(r["side"] == "defender" for r in [*ev["requirements"], *ev["retreats"]]):
            return seed, str(attack.args["defender_hex"])
    raise AssertionError("no seed gives the defender a loss or retreat")


def _to_move(*seats: Seat) -> Seat:
    """The seat whose screen says it is its move (its polling brings the hand-over)."""
    for _ in range(100):
        for seat in seats:
            if seat.page.query_selector("#whose.mine") is not None:
                return seat
        seats[0].page.wait_for_timeout(150)
    raise AssertionError("no seat has the move")


def _pending(srv: ThreadServer, gid: str) -> Any:
    with srv.referee.hold(gid) as loaded:
        return loaded.game.state["combat"]["pending"]


def test_two_seats_play_a_turn_with_combat_undo_and_the_vcr(browser: Any,
                                                            thread_server: ThreadServer) -> None:
    srv = thread_server
    seed, target = _combat_seed(srv, "de-7pz", "0604")
    gid, seats = srv.referee.create("demo-europa", seed=seed)
    axis = Seat(browser, f"{srv.url}/play/{seats['axis']}")
    soviet = Seat(browser, f"{srv.url}/play/{seats['soviet']}")
    assert "your move" in axis.page.inner_text("#whose")
    assert "waiting for axis" in soviet.page.inner_text("#whose")
    # issue 26: the seat that must act sees it in its tab's title (and icon)
    assert axis.page.title().startswith("▶ Your turn")
    assert not soviet.page.title().startswith("▶")
    assert axis.hex_of("de-7pz") == "0404"
    # move by clicking; the other seat sees it (polling)
    axis.move("de-7pz", "0604")
    soviet.wait_unit("de-7pz", "0604")
    # undo puts it back, in both browsers
    axis.page.click("#undo")
    axis.wait_unit("de-7pz", "0404")
    soviet.wait_unit("de-7pz", "0404")
    axis.move("de-7pz", "0604")
    # end the phases up to combat
    while "combat" not in axis.page.inner_text("#phase"):
        before = axis.page.inner_text("#phase")
        axis.page.click("#endphase")
        axis.page.wait_for_function(
            "b => document.getElementById('phase').textContent !== b", arg=before)
    # choose the attack: the exact odds are shown before rolling
    axis.page.click(f'.counter[data-hex="{target}"]')  # the enemy stack: its attack
    axis.page.wait_for_selector("#odds table")
    odds = axis.page.inner_text("#odds")
    assert "expected losses" in odds and "%" in odds
    assert "the hex taken: " in odds  # EUR-15: the chance the defender's hex is emptied
    axis.page.click("#rollattack")
    axis.page.wait_for_selector("#log li .dice")
    assert _pending(srv, gid) is not None
    # the combat's decisions: whoever owes one gets a dialog (the defender's losses/retreat)
    decided_by: list[str] = []
    for _ in range(6):
        if _pending(srv, gid) is None:
            break
        for name, seat in (("soviet", soviet), ("axis", axis)):
            seat.page.wait_for_timeout(1600)  # let polling bring the new state
            buttons = seat.page.query_selector_all("#decisions .decision button")
            if not buttons:
                buttons = [b for b in seat.page.query_selector_all("#others button")
                           if b.inner_text().startswith(("retreat", "allocate losses"))]
            if buttons:
                buttons[0].click()
                seat.page.wait_for_selector("#message.ok")
                decided_by.append(name)
                break
    assert _pending(srv, gid) is None and decided_by
    with srv.referee.hold(gid) as loaded:
        owes_defender = loaded.game.system.decisions is not None
    if owes_defender:
        assert "soviet" in decided_by
    # the rest of the turn by clicking: end phase (or a decision) on the seat to move, to the
    # next turn's banner on both screens
    turn = axis.page.inner_text("#turn")
    for _ in range(12):
        if axis.page.inner_text("#turn") != turn:
            break
        seat = _to_move(axis, soviet)
        decision = seat.page.query_selector("#decisions .decision button")
        before = seat.page.inner_text("#banner")
        (decision or seat.page.query_selector("#endphase")).click()
        seat.page.wait_for_function(
            "b => document.getElementById('banner').innerText !== b", arg=before)
    assert axis.page.inner_text("#turn") != turn
    soviet.page.wait_for_function("t => document.getElementById('turn').textContent !== t",
                                  arg=turn)
    with srv.referee.hold(gid) as loaded:
        assert loaded.game.turn == 2
    # the log in plain words, and the VCR steps back to the start and forward to now
    soviet.page.wait_for_function("document.querySelectorAll('#log > li').length >= 4")
    log = soviet.page.inner_text("#log")
    assert "0404 -> 0604" in log and f"Axis — Attack {target}" in log, log
    axis.page.click("#vcrfirst")
    axis.page.wait_for_selector("#replaybar:not([hidden])")
    axis.wait_unit("de-7pz", "0404")
    # issue 26: the banner shows the replayed position's turn and phase, not the current one
    assert axis.page.is_visible("#replaytag")
    assert axis.page.inner_text("#turn") == "Turn 1"
    assert "movement phase (axis)" in axis.page.inner_text("#phase")
    axis.page.click("#vcrnext")
    axis.wait_unit("de-7pz", "0604")
    axis.page.click("#vcrlast")
    axis.page.wait_for_selector("#replaybar", state="hidden")
    axis.close()
    soviet.close()


def test_a_stale_submission_is_refused_in_the_browser(browser: Any,
                                                      thread_server: ThreadServer) -> None:
    srv = thread_server
    gid, seats = srv.referee.create("demo-europa", seed=5)
    stale = Seat(browser, f"{srv.url}/play/{seats['axis']}")
    stale.page.route("**/version", lambda route: route.abort())  # this tab stops polling
    # another tab of the same seat moves first
    st = srv.referee.state_for(seats["axis"])
    mv = next(c for c in st["legal"] if c["kind"] == "move" and c["args"]["unit"] == "de-20mot")
    srv.referee.command(seats["axis"], 0, "move", mv["args"])
    stale.page.click('.counter[data-unit="de-7pz"]')
    stale.page.click('#highlights .dest[data-hex="0504"]')
    stale.page.wait_for_selector("#message.err")
    assert "stale" in stale.page.inner_text("#message")
    with srv.referee.hold(gid) as loaded:
        assert len(loaded.game.commands) == 1
    stale.wait_unit("de-20mot", dest(mv["args"]))  # it reloaded the current state
    stale.close()


def test_hotseat_hands_over_between_sides(browser: Any, thread_server: ThreadServer) -> None:
    srv = thread_server
    _gid, seats = srv.referee.create("demo-europa", "hotseat", seed=3)
    seat = Seat(browser, f"{srv.url}/play/{seats['*']}")
    assert "axis: your move" in seat.page.inner_text("#whose")
    for _ in range(20):
        if seat.page.is_visible("#handover"):
            break
        seat.page.click("#endphase")
        seat.page.wait_for_timeout(150)
    assert seat.page.inner_text("#handto") == "soviet"
    assert seat.page.query_selector(".counter") is None  # nothing shown while handing over
    seat.page.click("#handok")
    seat.page.wait_for_selector(".counter")
    assert "soviet: your move" in seat.page.inner_text("#whose")
    seat.close()


def test_other_seats_dom_and_traffic_hold_no_hidden_value(browser: Any,
                                                          thread_server: ThreadServer) -> None:
    """tr-1939-invasion has a hidden German U-boat; europa-surprise gets a secret axis plan."""
    srv = thread_server
    ref = srv.referee
    gid, seats = ref.create("tr-1939-invasion", seed=2)
    ref.command(seats["axis"], 0, "end_phase", {})
    allies = Seat(browser, f"{srv.url}/play/{seats['allies']}")
    allies.page.wait_for_selector("#log li")  # the history loads after the counters
    allies.page.click("#vcrfirst")
    allies.page.wait_for_selector("#replaybar:not([hidden])")
    with ref.hold(gid) as loaded:
        hidden = secret_strings(loaded.game, "allies")
    assert "ge-sub" in hidden
    seen = allies.everything()
    assert not [s for s in hidden if s in seen]
    allies.close()

    gid, seats = ref.create("europa-surprise", seed=2)
    soviet = Seat(browser, f"{srv.url}/play/{seats['soviet']}")
    base = soviet.everything()
    ref.command(seats["axis"], 0, "designate_surprise",
                {"command": "AGC", "centre": "0504", "level": 5, "target_turn": 2})
    soviet.page.wait_for_function("document.querySelectorAll('#log > li').length >= 1")
    with ref.hold(gid) as loaded:
        hidden = {s for s in secret_strings(loaded.game, "soviet") if s not in base}
    assert "AGC" in hidden
    seen = soviet.everything()
    assert not [s for s in hidden if s in seen]
    soviet.close()


def test_position_editor_moves_a_unit_exports_and_plays_it(browser: Any,
                                                           thread_server: ThreadServer) -> None:
    srv = thread_server
    sc = srv.referee.scenario("tr-1939-two-fronts")
    placed = next(p for p in sc.placements if p.hex)
    taken = {p.hex for p in sc.placements}
    m = sc.map
    free = next(m.label(i) for i in range(m.n) if m.label(i) not in taken
                and str(m.terrain_of(m.hex(i)).value) == "clear")
    ctx = browser.new_context(viewport={"width": 1300, "height": 850})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{srv.url}/editor?scenario=tr-1939-two-fronts")
    page.click(f'.counter[data-unit="{placed.unit.id}"]')
    page.click(f'.hex[data-hex="{free}"]', force=True)
    page.wait_for_selector(f'.counter[data-unit="{placed.unit.id}"][data-hex="{free}"]')
    page.fill("#newid", "my-position")
    page.click("#export")
    page.wait_for_selector("#message.ok")
    toml = page.input_value("#toml")
    assert 'id = "my-position"' in toml and f'hex = "{free}"' in toml
    page.click("#playit")
    page.wait_for_url("**/play/**")
    page.wait_for_selector(f'.counter[data-unit="{placed.unit.id}"][data-hex="{free}"]')
    ctx.close()
