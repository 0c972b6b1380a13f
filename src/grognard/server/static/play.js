// grognard play page: draws the seat's view over the server-drawn map, sends commands.
// Plain JavaScript, no build step. Everything shown comes from /api/play/<token>/... answers,
// each built by the server from this seat's view only.
"use strict";
(function () {
  const G = window.GROGNARD;
  const API = "/api/play/" + G.token;
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const SIDE_COLOURS = ["#b7c4a0", "#e0a58e", "#a9c3e6", "#e6d38f", "#c9a9e6", "#9fd6cf"];
  let S = null;            // the seat's current state payload
  let H = null;            // history (log entries and ledger series)
  let selected = null;     // selected unit id
  let replay = null;       // position number shown by the VCR (null: now)
  let replayView = null;
  let asPlayer = G.hotseat ? sessionStorage.getItem("grognard-as-" + G.token) : null;
  let handoverTo = null;

  function sideColour(side) {
    const i = G.sides.indexOf(side);
    return SIDE_COLOURS[(i < 0 ? G.sides.length : i) % SIDE_COLOURS.length];
  }
  function q(path) {
    return API + path + (asPlayer ? (path.includes("?") ? "&" : "?") + "as=" + encodeURIComponent(asPlayer) : "");
  }
  function say(text, cls) { const m = $("message"); m.textContent = text || ""; m.className = cls || ""; }

  async function getJSON(url) {
    const r = await fetch(url, {cache: "no-store"});
    const body = await r.json();
    if (!r.ok) throw Object.assign(new Error(body.error || r.statusText), {status: r.status});
    return body;
  }
  async function post(path, body) {
    if (asPlayer) body.as = asPlayer;
    const r = await fetch(API + path, {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify(body)});
    const out = await r.json();
    if (!r.ok) throw Object.assign(new Error(out.error || r.statusText), {status: r.status});
    return out;
  }

  // --- loading -------------------------------------------------------------------------------
  async function load() {
    const st = await getJSON(q("/state?moves=per_unit"));
    if (G.hotseat && !asPlayer) setAs(st.player);
    await show(st);
  }
  function setAs(p) { asPlayer = p; sessionStorage.setItem("grognard-as-" + G.token, p); }

  async function show(st) {
    S = st;
    if (G.hotseat) {
      const active = st.status.active;
      if (active.length && !active.includes(st.player)) {
        handOver(active[0]);
        return;
      }
    }
    $("handover").hidden = true;
    selected = null;
    renderBanner();
    renderCounters(currentView());
    renderActions();
    await loadHistory();
  }

  function handOver(next) {
    handoverTo = next;
    S = null;
    clear($("counters")); clear($("highlights")); clear($("log"));
    $("handto").textContent = next; $("handto2").textContent = next;
    $("handover").hidden = false;
  }
  $("handok").onclick = async () => { setAs(handoverTo); $("handover").hidden = true; await load(); };

  async function loadHistory() {
    H = await getJSON(q("/history"));
    renderLog();
    renderLedger();
  }

  // --- banner --------------------------------------------------------------------------------
  function renderBanner() {
    const s = S.status;
    $("turn").textContent = s.date ? s.date : "Turn " + s.turn;
    $("phase").textContent = s.phase + " phase (" + s.phase_player + ")";
    const mine = s.active.includes(S.player);
    const whose = $("whose");
    if (s.over) { whose.textContent = "Game over"; whose.className = ""; }
    else if (mine) { whose.textContent = (G.hotseat ? S.player + ": " : "") + "your move"; whose.className = "mine"; }
    else { whose.textContent = "waiting for " + s.active.join(", "); whose.className = "wait"; }
    $("prompt").textContent = s.prompt;
    document.title = (mine ? "● " : "") + "grognard: " + S.scenario.title;
  }

  // --- counters ------------------------------------------------------------------------------
  function currentView() { return replay === null ? S.view : replayView; }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
  function el(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function stacks(view) {
    const by = {};
    for (const [uid, u] of Object.entries(view.units || {})) {
      if (!u.hex || (u.status && u.status !== "active")) continue;
      (by[u.hex] = by[u.hex] || []).push([uid, u]);
    }
    return by;
  }
  const TYPE_MARK = {armor: "▭⊘", infantry: "⊠", motorized: "⊠•", mechanized: "⊠⊘", cavalry: "⧄",
                     air: "✈", fleet: "⛴", submarine: "▾", artillery: "●", mountain: "▲", paratroop: "⌒"};
  function renderCounters(view) {
    const g = $("counters"); clear(g);
    const by = stacks(view);
    for (const [hex, units] of Object.entries(by)) {
      const c = G.centres[hex]; if (!c) continue;
      units.sort((a, b) => (a[1].side === S.player) - (b[1].side === S.player));
      units.forEach(([uid, u], k) => {
        const off = Math.min(k, 3) * 2.5;
        const x = c[0] - 13 + off, y = c[1] - 11 - off;
        const grp = el("g", {class: "counter" + (uid === selected ? " selected" : ""), "data-unit": uid,
                             "data-hex": hex, "data-side": u.side});
        grp.appendChild(el("rect", {class: "body", x: x, y: y, width: 26, height: 22, rx: 2, fill: sideColour(u.side)}));
        if (u.hidden && !("attack" in u)) {
          grp.appendChild(el("text", {x: x + 13, y: y + 14, class: "vals"}, "?"));
        } else {
          grp.appendChild(el("text", {x: x + 13, y: y + 9}, TYPE_MARK[u.type] || (u.type || "").slice(0, 4)));
          const vals = [u.attack, u.defense, u.movement].filter((v) => v !== undefined && v !== null).join("-");
          grp.appendChild(el("text", {x: x + 13, y: y + 19, class: "vals"}, vals));
        }
        const t = el("title", {}, (u.name || uid) + (u.type ? " (" + u.type + ")" : "") + " — " + u.side);
        grp.appendChild(t);
        if (k === units.length - 1 && units.length > 1) {
          grp.appendChild(el("circle", {class: "badge", cx: x + 26, cy: y, r: 5}));
          grp.appendChild(el("text", {class: "badge-n", x: x + 26, y: y + 2.5}, String(units.length)));
        }
        grp.addEventListener("click", (ev) => { ev.stopPropagation(); clickHex(hex, uid); });
        g.appendChild(grp);
      });
    }
  }

  // --- legal actions -------------------------------------------------------------------------
  function dest(c) { return c.args.to || (Array.isArray(c.args.path) ? c.args.path[c.args.path.length - 1] : null); }
  function targetHex(c) { return c.args.defender_hex || c.args.hex || c.args.target || null; }
  function movesOf(uid) { return (S.legal || []).filter((c) => c.kind === "move" && c.args.unit === uid); }
  function attacksAt(hex) { return (S.legal || []).filter((c) => c.kind === "attack" && targetHex(c) === hex); }
  function label(c) {
    const a = Object.entries(c.args || {}).map(([k, v]) => k + ": " + (typeof v === "object" ? JSON.stringify(v) : v)).join(", ");
    return c.kind.replace(/_/g, " ") + (a ? " — " + a : "");
  }

  function renderActions() {
    const live = replay === null && S && !S.status.over;
    const mine = live && S.status.active.includes(S.player);
    $("undo").disabled = !(live && S.status.can_undo);
    $("undo").title = S.status.undo_refusal || "take back your last command";
    const end = (S.legal || []).find((c) => c.kind === "end_phase");
    $("endphase").disabled = !(mine && end);
    clear($("highlights"));
    $("selection").textContent = "";
    $("attackpanel").hidden = true;
    // decisions owed by this seat: rendered from its legal commands of the decision's kinds
    const dec = $("decisions"); dec.textContent = "";
    const decided = new Set();
    for (const d of (S.status.decisions || [])) {
      const box = document.createElement("div"); box.className = "decision";
      const p = document.createElement("div"); p.textContent = d.prompt + (d.rule ? " (" + d.rule + ")" : "");
      box.appendChild(p);
      for (const c of (S.legal || []).filter((c) => d.kinds.includes(c.kind))) {
        box.appendChild(button(label(c), () => send(c)));
        decided.add(c);
      }
      dec.appendChild(box);
    }
    // other commands (not moves, attacks, end phase): one button each
    const others = $("others"); others.textContent = "";
    const rest = (S.legal || []).filter((c) => !decided.has(c) && !["move", "attack", "end_phase"].includes(c.kind));
    const attackHexes = [...new Set((S.legal || []).filter((c) => c.kind === "attack").map(targetHex))];
    for (const h of attackHexes) others.appendChild(button("attack " + h + "…", () => openAttack(h)));
    for (const c of rest.slice(0, 60)) others.appendChild(button(label(c), () => send(c)));
    if (rest.length > 60) others.appendChild(document.createTextNode(" … " + (rest.length - 60) + " more"));
    // attackable hexes outlined
    if (mine) for (const h of attackHexes) hexMark(h, "target", () => openAttack(h));
    const kinds = new Set([...(S.unenumerated || []), ...(S.legal || []).map((c) => c.kind), ...(S.moves_per_unit ? ["move"] : [])]);
    const sel = $("advkind"); clear(sel);
    for (const k of [...kinds].sort()) { const o = document.createElement("option"); o.value = o.textContent = k; sel.appendChild(o); }
    $("advanced").hidden = !mine;
  }
  function button(text, fn) {
    const b = document.createElement("button"); b.textContent = text; b.onclick = fn; return b;
  }
  function hexMark(hex, cls, fn) {
    const c = G.centres[hex]; if (!c) return;
    const poly = document.querySelector('.hex[data-hex="' + hex + '"]');
    const m = el("polygon", {points: poly.getAttribute("points"), class: cls, "data-hex": hex});
    if (fn) m.addEventListener("click", (ev) => { ev.stopPropagation(); fn(); });
    $("highlights").appendChild(m);
  }

  function clickHex(hex, uid) {
    if (!S || replay !== null) return;
    const here = Object.entries(S.view.units).filter(([, u]) => u.hex === hex && u.status !== "eliminated");
    const own = here.filter(([, u]) => u.side === S.player);
    if (attacksAt(hex).length && !own.length) { openAttack(hex); return; }
    if (!own.length) return;
    let pick = uid && own.some(([id]) => id === uid) ? uid : own[0][0];
    if (selected && own.length > 1 && own.some(([id]) => id === selected)) {
      const i = own.findIndex(([id]) => id === selected);
      pick = own[(i + 1) % own.length][0];
    }
    selectUnit(pick, own);
  }
  async function selectUnit(uid, own) {
    selected = uid;
    renderCounters(S.view);
    clear($("highlights"));
    const box = $("selection"); box.textContent = "";
    const u = S.view.units[uid];
    const head = document.createElement("div");
    head.innerHTML = "<b></b> in " + u.hex;
    head.firstChild.textContent = (u.name || uid) + " " + [u.attack, u.defense, u.movement].join("-");
    box.appendChild(head);
    if (own && own.length > 1) {
      for (const [id, v] of own) if (id !== uid) box.appendChild(button("select " + (v.name || id), () => selectUnit(id, own)));
    }
    let moves = movesOf(uid);
    // the answers leave the moves out (moves=per_unit): each unit's are asked for on a click
    if (!moves.length && (S.moves_per_unit || (S.unenumerated || []).includes("move"))) {
      moves = (await getJSON(q("/moves/" + encodeURIComponent(uid)))).moves;
      if (selected !== uid) return;
    }
    hexMark(u.hex, "selected-hex");
    for (const c of moves) hexMark(dest(c), "dest", () => send(c));
    const n = document.createElement("div");
    n.textContent = moves.length ? moves.length + " legal destinations: click one" : "no legal move for this unit now";
    box.appendChild(n);
  }

  async function openAttack(hex) {
    const cmds = attacksAt(hex); if (!cmds.length) return;
    const c = cmds[0];
    const panel = $("attackpanel"); panel.hidden = false; panel.textContent = "";
    const h = document.createElement("b"); h.textContent = "Attack " + hex; panel.appendChild(h);
    const list = document.createElement("div");
    const attackers = Array.isArray(c.args.attackers) ? c.args.attackers : [];
    for (const a of attackers) {
      const lab = document.createElement("label");
      const cb = document.createElement("input"); cb.type = "checkbox"; cb.checked = true; cb.value = a; cb.className = "attacker";
      cb.onchange = () => odds();
      lab.appendChild(cb);
      const u = S.view.units[a] || {};
      lab.appendChild(document.createTextNode(" " + (u.name || a) + " (" + u.attack + ") "));
      list.appendChild(lab);
    }
    panel.appendChild(list);
    const out = document.createElement("div"); out.id = "odds"; panel.appendChild(out);
    const go = button("Roll the attack", () => send(chosen()));
    go.id = "rollattack";
    panel.appendChild(go);
    panel.appendChild(button("Cancel", () => { panel.hidden = true; }));
    function chosen() {
      const picked = [...panel.querySelectorAll("input.attacker")].filter((x) => x.checked).map((x) => x.value);
      return {kind: "attack", args: Object.assign({}, c.args, attackers.length ? {attackers: picked} : {})};
    }
    async function odds() {
      out.textContent = "computing the odds…";
      try {
        const r = await post("/odds", chosen());
        out.textContent = "";
        out.appendChild(oddsTable(r.odds));
      } catch (e) { out.textContent = e.message; }
    }
    await odds();
  }
  function oddsTable(o) {
    const t = document.createElement("table");
    const head = document.createElement("tr");
    head.innerHTML = "<th>result</th><th>probability</th><th></th>";
    t.appendChild(head);
    const cap = document.createElement("caption");
    cap.textContent = o.odds + " (column " + o.column + ", DRM " + o.drm + "): attack " + o.attack_strength +
      " vs defence " + o.defense_strength + "; expected losses: attacker " + o.expected_attacker_loss +
      ", defender " + o.expected_defender_loss + " " + (o.losses_in || "SPs");
    t.appendChild(cap);
    for (const line of (o.why || [])) {  // the modifiers behind the odds, one per line
      const tr = document.createElement("tr"); tr.className = "why";
      tr.innerHTML = "<td colspan='3'></td>"; tr.children[0].textContent = line;
      t.appendChild(tr);
    }
    for (const [res, p] of Object.entries(o.probabilities)) {
      const [n, d] = String(p).split("/").map(Number);
      const v = d ? n / d : Number(n);
      if (!v) continue;
      const tr = document.createElement("tr");
      tr.innerHTML = "<td></td><td></td><td><span class='bar'></span></td>";
      tr.children[0].textContent = res;
      tr.children[1].textContent = p + " (" + (100 * v).toFixed(1) + "%)";
      tr.querySelector(".bar").style.width = Math.round(120 * v) + "px";
      t.appendChild(tr);
    }
    return t;
  }

  async function send(c) {
    say("…");
    try {
      const st = await post("/command", {version: S.version, kind: c.kind, args: c.args, moves: "per_unit"});
      say("done: " + label(c), "ok");
      await show(st);
    } catch (e) {
      say((e.status === 409 ? "refused (stale): " : "refused: ") + e.message, "err");
      if (e.status === 409) await load();
    }
  }

  $("endphase").onclick = () => send({kind: "end_phase", args: {}});
  $("undo").onclick = async () => {
    try { const st = await post("/undo", {version: S.version, moves: "per_unit"}); say("undone", "ok"); await show(st); }
    catch (e) { say("undo refused: " + e.message, "err"); if (e.status === 409) await load(); }
  };
  $("advsend").onclick = () => {
    let args;
    try { args = JSON.parse($("advargs").value || "{}"); } catch (e) { say("args: not JSON", "err"); return; }
    send({kind: $("advkind").value, args: args});
  };
  $("map").addEventListener("click", (ev) => {
    const hex = ev.target.getAttribute && ev.target.getAttribute("data-hex");
    if (hex && ev.target.classList.contains("hex")) clickHex(hex, null);
  });

  // --- log and VCR ---------------------------------------------------------------------------
  function renderLog() {
    const ol = $("log"); clear(ol);
    for (const e of H.entries) {
      const li = document.createElement("li");
      li.dataset.n = e.n;
      li.appendChild(document.createTextNode(e.text));
      if (e.dice.length) { const d = document.createElement("span"); d.className = "dice"; d.textContent = " dice " + e.dice.join(" "); li.appendChild(d); }
      if (e.changes.length) {
        const ul = document.createElement("ul");
        for (const ch of e.changes) { const x = document.createElement("li"); x.textContent = ch; ul.appendChild(x); }
        li.appendChild(ul);
      }
      li.onclick = () => goTo(e.n);
      ol.appendChild(li);
    }
    markLog();
  }
  function markLog() {
    const n = replay === null ? H.entries.length : replay;
    $("vcrpos").textContent = n + " / " + H.entries.length;
    for (const li of $("log").children) li.classList.toggle("current", Number(li.dataset.n) === n);
  }
  async function goTo(n) {
    if (!H) return;
    n = Math.max(0, Math.min(n, H.entries.length));
    if (n === H.entries.length) { replay = null; replayView = null; $("replaybar").hidden = true; renderCounters(S.view); renderActions(); markLog(); return; }
    const p = await getJSON(q("/position/" + n));
    replay = n; replayView = p.view;
    $("replayn").textContent = n; $("replayof").textContent = p.of; $("replaybar").hidden = false;
    renderCounters(replayView); renderActions(); markLog();
  }
  $("vcrfirst").onclick = () => goTo(0);
  $("vcrprev").onclick = () => goTo((replay === null ? H.entries.length : replay) - 1);
  $("vcrnext").onclick = () => goTo((replay === null ? H.entries.length : replay) + 1);
  $("vcrlast").onclick = () => goTo(H.entries.length);
  $("replayexit").onclick = () => goTo(H.entries.length);

  // --- ledger ----------------------------------------------------------------------------------
  function num(v) { const [n, d] = String(v).split("/").map(Number); return d ? n / d : Number(n); }
  function renderLedger() {
    const keys = Object.keys(S.ledger || {});
    $("ledgerpanel").hidden = !keys.length;
    if (!keys.length) return;
    const tbl = document.createElement("table");
    for (const k of keys) {
      const tr = document.createElement("tr");
      tr.innerHTML = "<td><span style='color:" + SIDE_COLOURS[keys.indexOf(k) % 6].replace("#", "#") + "'>■</span></td><td></td><td></td>";
      tr.children[1].textContent = k; tr.children[2].textContent = S.ledger[k];
      tbl.appendChild(tr);
    }
    clear($("ledger")); $("ledger").appendChild(tbl);
    const chart = $("chart"); clear(chart);
    const series = H.ledger;
    let max = 1;
    for (const p of series) for (const k of keys) if (p[k] !== undefined) max = Math.max(max, num(p[k]));
    const w = 300, h = 120, n = Math.max(1, series.length - 1);
    keys.forEach((k, i) => {
      const pts = series.map((p, j) => (p[k] === undefined ? null : (j * w / n).toFixed(1) + "," + (h - 4 - num(p[k]) * (h - 8) / max).toFixed(1))).filter(Boolean);
      chart.appendChild(el("polyline", {points: pts.join(" "), fill: "none", stroke: SIDE_COLOURS[i % 6], "stroke-width": 2, "vector-effect": "non-scaling-stroke"}));
    });
  }

  // --- zoom and pan ----------------------------------------------------------------------------
  const svg = $("map");
  const home = svg.dataset.viewbox.split(" ").map(Number);
  let vb = home.slice();
  function setVB() { svg.setAttribute("viewBox", vb.map((v) => v.toFixed(1)).join(" ")); }
  function zoom(f, cx, cy) {
    const nw = vb[2] * f, nh = vb[3] * f;
    if (cx === undefined) { cx = vb[0] + vb[2] / 2; cy = vb[1] + vb[3] / 2; }
    vb = [cx - (cx - vb[0]) * f, cy - (cy - vb[1]) * f, nw, nh]; setVB();
  }
  $("zoomin").onclick = () => zoom(0.8);
  $("zoomout").onclick = () => zoom(1.25);
  $("zoomreset").onclick = () => { vb = home.slice(); setVB(); };
  function toSvg(ev) {
    const r = svg.getBoundingClientRect();
    const s = Math.max(vb[2] / r.width, vb[3] / r.height);
    const ox = vb[0] + vb[2] / 2 - (r.width * s) / 2, oy = vb[1] + vb[3] / 2 - (r.height * s) / 2;
    return [ox + (ev.clientX - r.left) * s, oy + (ev.clientY - r.top) * s, s];
  }
  svg.addEventListener("wheel", (ev) => { ev.preventDefault(); const [x, y] = toSvg(ev); zoom(ev.deltaY < 0 ? 0.87 : 1.15, x, y); }, {passive: false});
  let drag = null;
  svg.addEventListener("pointerdown", (ev) => { drag = {x: ev.clientX, y: ev.clientY, vb: vb.slice(), moved: false}; });
  window.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    drag.moved = true;
    const s = toSvg(ev)[2];
    vb = [drag.vb[0] - dx * s, drag.vb[1] - dy * s, vb[2], vb[3]]; setVB();
  });
  let suppress = false;
  window.addEventListener("pointerup", () => {
    if (drag && drag.moved) { suppress = true; setTimeout(() => { suppress = false; }, 0); }
    drag = null;
  });
  svg.addEventListener("click", (e) => { if (suppress) { e.stopPropagation(); suppress = false; } }, {capture: true});

  // --- the other seat's moves arrive by polling the version -----------------------------------
  async function poll() {
    try {
      if (S && replay === null && !document.hidden) {
        const v = await getJSON(API + "/version");
        if (v.version !== S.version) await load();
      }
    } catch (e) { /* server restarting: try again */ }
    setTimeout(poll, 1500);
  }

  load().then(() => setTimeout(poll, 1500)).catch((e) => say(e.message, "err"));
  window.grognardReload = load;
})();
