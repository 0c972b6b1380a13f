// grognard play page: draws the seat's view over the server-drawn map, sends commands.
// Plain JavaScript, no build step. Everything shown comes from /api/play/<token>/... answers,
// each built by the server from this seat's view only. Orders are shown in the rules' words
// (each legal command comes with words {text, short} and places {target, to, path, units},
// from the rule system's describe/places hooks): this script knows no system and no
// argument name; it composes multi-part orders by merging or trimming legal ones.
"use strict";
(function () {
  const G = window.GROGNARD;
  const API = "/api/play/" + G.token;
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  // one colour per nationality (counters, ledger); the rest from a palette by name
  const NATION = {
    german: "#9fb1c1", germany: "#9fb1c1", italian: "#b9d48f", italy: "#b9d48f",
    soviet: "#e2937a", russian: "#e2937a", ussr: "#e2937a", british: "#e3c98a", uk: "#e3c98a",
    french: "#8fb4ec", france: "#8fb4ec", polish: "#e7a8d3", poland: "#e7a8d3",
    american: "#a9c06a", us: "#a9c06a", usa: "#a9c06a", hungarian: "#c8b0e0", hungary: "#c8b0e0",
    romanian: "#f0d36a", romania: "#f0d36a", finnish: "#f4f4f4", finland: "#f4f4f4",
    axis: "#9fb1c1", allies: "#e3c98a",
  };
  const PREFIX = {de: "german", ger: "german", su: "soviet", sov: "soviet", it: "italian", ita: "italian",
                  fr: "french", fra: "french", uk: "british", gb: "british", brit: "british",
                  pl: "polish", pol: "polish", us: "american", ro: "romanian", hu: "hungarian", fi: "finnish"};
  const PALETTE = ["#d6c9a6", "#a6d6cf", "#d6a6b8", "#b8a6d6", "#a6b8d6", "#d6b8a6", "#c6d6a6", "#c0c0c0"];
  const SIDE_COLOURS = ["#9fb1c1", "#e2937a", "#e3c98a", "#b9d48f", "#c8b0e0", "#8fb4ec"];
  let S = null;            // the seat's current state payload
  let H = null;            // history (log entries and ledger series)
  let KEY = null;          // result key and the turn's phases
  let selected = null;     // selected unit id
  let unitOrders = [];     // the selected unit's legal orders
  let mapOrders = [];      // every order highlighted on the map now (by its destination)
  let replay = null;       // position number shown by the VCR (null: now)
  let offMapPick = null;   // the unit off the map's counters (an air unit) whose orders show
  let replayView = null;
  let wasMine = null;
  let asPlayer = G.hotseat ? sessionStorage.getItem("grognard-as-" + G.token) : null;
  let handoverTo = null;

  function hashColour(s) { let h = 0; for (const ch of String(s)) h = (h * 31 + ch.charCodeAt(0)) >>> 0; return PALETTE[h % PALETTE.length]; }
  function nationOf(uid, u) {
    if (u && u.nationality) return String(u.nationality);
    const p = String(uid).split("-")[0];
    return PREFIX[p] || null;
  }
  function unitColour(uid, u) {
    const n = nationOf(uid, u);
    if (n) return NATION[n] || hashColour(n);
    const i = G.sides.indexOf(u.side);
    return SIDE_COLOURS[(i < 0 ? G.sides.length : i) % SIDE_COLOURS.length];
  }
  function nameColour(key) {
    const w = String(key).split(/\s+/)[0].toLowerCase();
    return NATION[w] || hashColour(w);
  }
  function q(path) {
    return API + path + (asPlayer ? (path.includes("?") ? "&" : "?") + "as=" + encodeURIComponent(asPlayer) : "");
  }
  function say(text, cls) { const m = $("message"); m.textContent = text || ""; m.className = cls || ""; }
  function words(c) { return c && c.words ? c.words : {text: c ? String(c.kind).replace(/_/g, " ") : "", short: ""}; }
  function P(c) { return (c && c.places) || {target: null, to: null, path: [], units: []}; }

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
    selected = null; unitOrders = [];
    renderBanner();
    renderCounters(currentView());
    renderActions();
    firstView();
    await loadHistory();
    loadChat();
  }

  function handOver(next) {
    handoverTo = next;
    S = null;
    clear($("counters")); clear($("highlights")); clear($("paths")); clear($("log"));
    $("stackpanel").hidden = true;
    $("handto").textContent = next; $("handto2").textContent = next;
    $("handover").hidden = false;
  }
  $("handok").onclick = async () => { setAs(handoverTo); $("handover").hidden = true; await load(); };

  async function loadHistory() {
    H = await getJSON(q("/history"));
    renderLog();
    renderLedger();
  }

  // --- banner and the your-turn signal ---------------------------------------------------------
  function phaseWords(name, player) { return String(name).replace(/_/g, " ") + " phase (" + player + ")"; }
  function renderBanner() {
    const s = S.status;
    $("replaytag").hidden = true;
    $("turn").textContent = s.date ? s.date : "Turn " + s.turn;
    $("phase").textContent = phaseWords(s.phase, s.phase_player);
    const mine = s.active.includes(S.player) && !s.over;
    const whose = $("whose");
    if (s.over) { whose.textContent = "Game over" + (s.result && (s.result.summary || s.result.winner) ? ": " + (s.result.summary || s.result.winner + " wins") : ""); whose.className = ""; }
    else if (mine) { whose.textContent = (G.hotseat ? S.player + ": " : "") + "your move"; whose.className = "mine"; }
    else { whose.textContent = "waiting for " + s.active.join(", "); whose.className = "wait"; }
    $("prompt").textContent = s.prompt;
    signal(mine);
  }
  function favicon(colour) {
    const c = document.createElement("canvas"); c.width = c.height = 32;
    const x = c.getContext("2d");
    x.fillStyle = "#3b3a36"; x.fillRect(0, 0, 32, 32);
    x.fillStyle = colour; x.beginPath(); x.arc(16, 16, 11, 0, 2 * Math.PI); x.fill();
    let link = document.querySelector("link[rel=icon]");
    if (!link) { link = document.createElement("link"); link.rel = "icon"; document.head.appendChild(link); }
    link.href = c.toDataURL();
  }
  function signal(mine) {
    document.title = (mine ? "▶ Your turn — " : "") + "grognard: " + S.scenario.title;
    favicon(mine ? "#e0262b" : "#888");
    if (mine && wasMine === false && document.hidden && window.Notification && Notification.permission === "granted") {
      new Notification("grognard: your turn", {body: S.scenario.title + " — " + S.status.prompt});
    }
    wasMine = mine;
  }
  $("browsernotify").onclick = async () => {
    if (!window.Notification) { say("this browser has no notifications", "err"); return; }
    const p = await Notification.requestPermission();
    say(p === "granted" ? "this browser will tell you when it is your turn" : "notifications not allowed", p === "granted" ? "ok" : "err");
  };

  // --- counters ------------------------------------------------------------------------------
  function currentView() { return replay === null ? S.view : replayView; }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
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
  function kindOf(u) { return String(u.type || u.kind || u.hq && "hq" || ""); }
  // a block (steps and firepower): its strength face up, steps·firepower·movement
  function isBlock(u) { return u.steps !== undefined && u.steps !== null && u.fp !== undefined && u.fp !== null; }
  function factors(u) {
    if (isBlock(u)) return u.steps + "·" + u.fp + "·" + (u.mp ?? u.movement ?? "");
    if (u.attack !== undefined && u.attack !== null) {
      const a = u.attack, d = u.defense, m = u.movement;
      if (d === undefined || d === null || d === a) return [a, m].filter((v) => v !== undefined && v !== null).join("-");
      return [a, d, m].filter((v) => v !== undefined && v !== null).join("-");
    }
    if (u.steps !== undefined && u.steps !== null) return u.steps + "·" + (u.fp ?? "") + "·" + (u.mp ?? "");
    return "";
  }
  function describeUnit(uid, u) {
    const parts = [];
    const n = nationOf(uid, u);
    const k = kindOf(u);
    const what = (n ? n[0].toUpperCase() + n.slice(1) + " " : "") + k.replace(/_/g, " ");
    if (u.name) parts.push(u.name);
    if (what.trim()) parts.push(what.trim() + (u.name || uid.startsWith("hidden-") ? "" : " (" + uid + ")"));
    else if (!u.name && !uid.startsWith("hidden-")) parts.push(uid);
    if (!isBlock(u) && u.attack !== undefined && u.attack !== null) parts.push("attack " + u.attack + (u.defense !== undefined && u.defense !== null ? ", defense " + u.defense : "") + (u.movement !== undefined && u.movement !== null ? ", movement " + u.movement : ""));
    if (isBlock(u)) parts.push("strength " + u.steps + (u.max ? " of " + u.max : "") + " steps, firepower " + u.fp + ", movement " + u.mp);
    if (isBlock(u) && u.hidden && S && u.side === S.player) parts.push("face down to the enemy");
    if (uid.startsWith("hidden-") || (u.hidden && !factors(u))) parts.push("face down");
    if (u.supply && u.supply !== "in" && u.supply !== "supplied") parts.push("supply: " + u.supply);
    return parts.join(" — ") + " (" + u.side + ")";
  }
  // NATO symbol in the box (x, y, w, h) for a unit kind
  function nato(g, kind, x, y, w, h) {
    const k = kind.toLowerCase();
    g.appendChild(el("rect", {class: "sym", x: x, y: y, width: w, height: h}));
    const line = (x1, y1, x2, y2) => g.appendChild(el("line", {class: "sym", x1: x1, y1: y1, x2: x2, y2: y2}));
    const cross = () => { line(x, y, x + w, y + h); line(x, y + h, x + w, y); };
    const oval = () => g.appendChild(el("ellipse", {class: "sym", cx: x + w / 2, cy: y + h / 2, rx: w / 2 - 2, ry: h / 2 - 1.5}));
    if (/cav/.test(k)) { line(x, y + h, x + w, y); if (/arm|mech|mot/.test(k)) oval(); return; }
    if (/arm|panzer|tank/.test(k)) { oval(); return; }
    if (/mech/.test(k)) { cross(); oval(); return; }
    if (/mot/.test(k)) { cross(); line(x + w / 2, y, x + w / 2, y + h); return; }
    if (/art/.test(k)) { g.appendChild(el("circle", {class: "symfill", cx: x + w / 2, cy: y + h / 2, r: 1.8})); return; }
    if (/para|airborne/.test(k)) { cross(); g.appendChild(el("path", {class: "sym", d: `M${x + w / 2 - 4},${y + h - 1} q2,-3 4,0 q2,-3 4,0`})); return; }
    if (/mount/.test(k)) { cross(); g.appendChild(el("path", {class: "symfill", d: `M${x + w / 2 - 2.5},${y + h} l2.5,-3 l2.5,3 z`})); return; }
    if (/hq/.test(k)) { g.appendChild(el("text", {class: "symtext", x: x + w / 2, y: y + h - 1.8}, "HQ")); return; }
    if (/air|bomb|inter|fight/.test(k)) { g.appendChild(el("path", {class: "sym", d: `M${x + 2},${y + h / 2} q${w / 4},-4 ${w / 2 - 2},0 q${w / 4},4 ${w / 2 - 2},0`})); return; }
    if (/nav|fleet|ship/.test(k)) { g.appendChild(el("path", {class: "symfill", d: `M${x + 2},${y + h / 2} h${w - 4} l-2,3 h${-(w - 8)} z`})); return; }
    if (/sub/.test(k)) { g.appendChild(el("path", {class: "symfill", d: `M${x + 3},${y + h / 2 + 1} h${w - 6} l-1,2 h${-(w - 8)} z`})); return; }
    if (/repl/.test(k)) { g.appendChild(el("text", {class: "symtext", x: x + w / 2, y: y + h - 1.8}, "R")); return; }
    if (/inf|rifle|guard|corps|army/.test(k) || k) { cross(); }
  }
  function renderCounters(view) {
    const g = $("counters"); clear(g);
    const by = stacks(view);
    const dests = new Set(unitOrders.map((c) => P(c).to).filter(Boolean));
    for (const [hex, units] of Object.entries(by)) {
      const c = G.centres[hex]; if (!c) continue;
      units.sort((a, b) => (a[1].side === (S && S.player)) - (b[1].side === (S && S.player)));
      if (selected) units.sort((a, b) => (a[0] === selected) - (b[0] === selected));
      units.forEach(([uid, u], k) => {
        const off = Math.min(k, 3) * 2.5;
        const x = c[0] - 13 + off, y = c[1] - 12 - off;
        const grp = el("g", {class: "counter" + (uid === selected ? " selected" : "") + (dests.has(hex) ? " indest" : ""),
                             "data-unit": uid, "data-hex": hex, "data-side": u.side});
        grp.appendChild(el("rect", {class: "body", x: x, y: y, width: 26, height: 24, rx: 2, fill: unitColour(uid, u)}));
        const f = factors(u);
        if (!f && (u.hidden || uid.startsWith("hidden-"))) {
          grp.appendChild(el("text", {x: x + 13, y: y + 15, class: "vals"}, "?"));
        } else {
          nato(grp, kindOf(u), x + 5, y + 3, 16, 10);
          grp.appendChild(el("text", {x: x + 13, y: y + 21.5, class: "vals"}, f));
          if (isBlock(u) && u.max) {  // the block's steps as pips down its left edge
            for (let i = 0; i < Number(u.max); i++) {
              grp.appendChild(el("circle", {class: "pip" + (i < Number(u.steps) ? " on" : ""), cx: x + 2.4, cy: y + 3 + i * 3.6, r: 1.2}));
            }
          }
          if (isBlock(u) && u.hidden && S && u.side === S.player) grp.classList.add("secret");
        }
        grp.appendChild(el("title", {}, describeUnit(uid, u) + " in " + hex));
        if (k === units.length - 1 && units.length > 1) {
          grp.appendChild(el("circle", {class: "badge", cx: x + 26, cy: y, r: 5}));
          grp.appendChild(el("text", {class: "badge-n", x: x + 26, y: y + 2.5}, String(units.length)));
        }
        grp.addEventListener("click", (ev) => { ev.stopPropagation(); clickHex(hex, uid); });
        g.appendChild(grp);
      });
    }
  }
  function showStack(hex) {
    const view = currentView();
    const here = Object.entries(view.units || {}).filter(([, u]) => u.hex === hex && (!u.status || u.status === "active"));
    const ul = $("stack"); clear(ul);
    $("stackhex").textContent = hex;
    $("stackpanel").hidden = here.length < 2;
    for (const [uid, u] of here) {
      const li = document.createElement("li");
      const chip = document.createElement("span"); chip.className = "chip"; chip.style.background = unitColour(uid, u);
      chip.textContent = factors(u) || "?";
      li.appendChild(chip);
      li.appendChild(document.createTextNode(" " + describeUnit(uid, u)));
      if (S && u.side === S.player && replay === null) { li.className = "own"; li.onclick = () => selectUnit(uid); }
      ul.appendChild(li);
    }
  }

  // --- legal actions -------------------------------------------------------------------------
  function legal() { return (S && S.legal) || []; }
  function isEnd(c) { return c.kind === "end_phase"; }
  // orders aimed at a hex with units ticked (attacks, air missions on a hex): one form each
  function isTargetForm(c) { const p = P(c); return !!p.target && !p.to && p.units.length > 0; }
  function targetGroups() {
    const out = {};
    for (const c of legal()) if (isTargetForm(c)) (out[c.kind + "@" + P(c).target] = out[c.kind + "@" + P(c).target] || []).push(c);
    return out;
  }
  function button(text, fn, title) {
    const b = document.createElement("button"); b.type = "button"; b.textContent = text; b.onclick = fn; if (title) b.title = title; return b;
  }
  function div(cls, text) { const d = document.createElement("div"); if (cls) d.className = cls; if (text !== undefined) d.textContent = text; return d; }
  // single-entry object arguments that differ between the legal commands of one kind: a
  // multi-part form (one choice per entry key, merged into one order)
  function mergeable(cmds) {
    if (cmds.length < 2) return null;
    const byArg = {};
    for (const c of cmds) for (const [k, v] of Object.entries(c.args || {})) {
      if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1) {
        (byArg[k] = byArg[k] || new Set()).add(Object.keys(v)[0]);
      }
    }
    for (const [arg, keys] of Object.entries(byArg)) if (keys.size >= 2) return arg;
    return null;
  }
  function deepMerge(a, b) {
    const out = Object.assign({}, a);
    for (const [k, v] of Object.entries(b)) {
      out[k] = (v && typeof v === "object" && !Array.isArray(v) && out[k] && typeof out[k] === "object") ? deepMerge(out[k], v) : v;
    }
    return out;
  }
  function withoutKey(args, arg) { const o = Object.assign({}, args); delete o[arg]; return JSON.stringify(o); }

  function mergeForm(box, cmds, arg) {
    // one form per value of the other arguments (e.g. per power), one select per entry key
    const groups = {};
    const presets = [];
    for (const c of cmds) {
      const v = c.args[arg];
      if (!(v && typeof v === "object" && Object.keys(v).length === 1)) { presets.push(c); continue; }
      const g = withoutKey(c.args, arg);
      (groups[g] = groups[g] || []).push(c);
    }
    for (const [, list] of Object.entries(groups)) {
      const form = div("mergeform");
      const parts = {};
      for (const c of list) { const key = Object.keys(c.args[arg])[0]; (parts[key] = parts[key] || []).push(c); }
      const selects = [];
      const who = words(list[0]).text.split(":")[0];
      if (who && who.length < 40) form.appendChild(div("formhead", who));
      for (const [key, opts] of Object.entries(parts)) {
        const lab = document.createElement("label"); lab.className = "part";
        lab.appendChild(document.createTextNode(key.replace(/_/g, " ") + " "));
        const sel = document.createElement("select");
        const none = document.createElement("option"); none.value = ""; none.textContent = "— (nothing)"; sel.appendChild(none);
        opts.forEach((c, i) => { const o = document.createElement("option"); o.value = String(i); o.textContent = words(c).text; sel.appendChild(o); });
        sel.dataset.key = key;
        lab.appendChild(sel);
        form.appendChild(lab);
        selects.push([sel, opts]);
      }
      const out = div("composed");
      const go = button("Confirm", null); go.className = "confirm"; go.disabled = true;
      let composed = null;
      async function recompute() {
        const chosen = selects.filter(([s]) => s.value !== "").map(([s, opts]) => opts[Number(s.value)]);
        if (!chosen.length) { out.textContent = "choose at least one"; go.disabled = true; return; }
        let args = {};
        for (const c of chosen) args = deepMerge(args, c.args);
        composed = {kind: chosen[0].kind, args: args};
        try {
          const r = await post("/describe", composed);
          out.textContent = (r.words ? r.words.text : "") + (r.legal ? "" : " — refused: " + r.why);
          out.className = "composed " + (r.legal ? "ok" : "err");
          go.disabled = !r.legal;
        } catch (e) { out.textContent = e.message; go.disabled = true; }
      }
      for (const [s] of selects) s.onchange = recompute;
      go.onclick = () => composed && send(composed);
      form.appendChild(out); form.appendChild(go);
      box.appendChild(form);
      recompute();
    }
    for (const c of presets) box.appendChild(button(words(c).text, () => send(c)));
  }
  function choiceForm(box, cmds) {
    const sel = document.createElement("select"); sel.className = "choice";
    cmds.forEach((c, i) => { const o = document.createElement("option"); o.value = String(i); o.textContent = words(c).text; sel.appendChild(o); });
    box.appendChild(sel);
    const go = button("Confirm", () => send(cmds[Number(sel.value)])); go.className = "confirm";
    box.appendChild(go);
  }
  // orders chosen on the map: their destination hexes highlighted, the path drawn on hover
  function mapChoice(box, cmds) {
    box.appendChild(div("note", "Choose on the map (highlighted), or here:"));
    for (const c of cmds) {
      const p = P(c);
      hexMark(p.to, "dest", () => pickAt(p.to, cmds), c);
      box.appendChild(button(words(c).short || words(c).text, () => send(c), words(c).text));
    }
  }
  // orders for units with no counter on the map (air units at their bases): the unit picked
  // from a list, then its orders' hexes highlighted on the map and listed
  function offMapChoice(box, cmds, units) {
    if (!units.includes(offMapPick)) offMapPick = units[0];
    const air = S.view.air_units || {};
    const named = (u) => { const a = air[u] || {}; return (a.wing ? a.wing + " " : "") + u + (a.base ? " at " + a.base : ""); };
    box.appendChild(div("note", words(cmds[0]).text.split(" ")[0] + ": choose the unit, then a highlighted hex"));
    const sel = document.createElement("select"); sel.className = "choice";
    for (const u of units) { const o = document.createElement("option"); o.value = u; o.textContent = named(u); sel.appendChild(o); }
    sel.value = offMapPick;
    sel.onchange = () => { offMapPick = sel.value; renderActions(); };
    box.appendChild(sel);
    mapChoice(box, cmds.filter((c) => P(c).units[0] === offMapPick));
  }
  function pickAt(hex, cmds) {
    const here = cmds.filter((c) => P(c).to === hex);
    if (here.length === 1) { send(here[0]); return; }
    const box = $("selection"); clear(box);
    box.appendChild(div("", "Orders to " + hex + ":"));
    for (const c of here) box.appendChild(button(words(c).text, () => send(c)));
  }
  function renderCommands(box, cmds) {
    const arg = mergeable(cmds);
    const onMap = cmds.length && cmds.every((c) => P(c).to && !P(c).target);
    const perUnit = onMap && cmds.every((c) => P(c).units.length === 1);
    if (arg) { mergeForm(box, cmds, arg); return; }
    if (perUnit) {
      const units = [...new Set(cmds.map((c) => P(c).units[0]))];
      if (units.length > 1 && !units.every((u) => S.view.units[u])) { offMapChoice(box, cmds, units); return; }
      if (units.length > 1) {
        box.appendChild(div("note", words(cmds[0]).text.split(":")[0] + ": click one of these units on the map, then a highlighted hex"));
        for (const u of units.slice(0, 30)) {
          const v = S.view.units[u] || {};
          box.appendChild(button((v.name || describeUnit(u, v).split(" — ").slice(0, 2).join(" ")) + (v.hex ? " in " + v.hex : ""), () => selectUnit(u)));
        }
        if (units.length > 30) box.appendChild(document.createTextNode(" … " + (units.length - 30) + " more: click them on the map"));
        return;
      }
    }
    if (onMap) { mapChoice(box, cmds); return; }
    if (cmds.length <= 6) { for (const c of cmds) box.appendChild(button(words(c).short || words(c).text, () => send(c), words(c).text)); return; }
    choiceForm(box, cmds);
  }

  function renderActions() {
    const live = replay === null && S && !S.status.over;
    const mine = live && S.status.active.includes(S.player);
    $("undo").disabled = !(live && S.status.can_undo);
    $("undo").title = S.status.undo_refusal || "take back your last command";
    $("endphase").disabled = !(mine && legal().some(isEnd));
    clear($("highlights")); clear($("paths")); mapOrders = [];
    clear($("selection"));
    $("attackpanel").hidden = true;
    const dec = $("decisions"); clear(dec);
    const used = new Set();
    if (live) for (const d of (S.status.decisions || [])) {
      const box = div("decision");
      box.appendChild(div("", d.prompt + (d.rule ? " (" + d.rule + ")" : "")));
      const cmds = legal().filter((c) => d.kinds.includes(c.kind) && !isEnd(c));
      cmds.forEach((c) => used.add(c));
      const tg = cmds.filter(isTargetForm);
      if (tg.length) { for (const t of [...new Set(tg.map((c) => c.kind + "@" + P(c).target))]) box.appendChild(button(words(tg.find((c) => c.kind + "@" + P(c).target === t)).short + "…", () => openTarget(t))); }
      renderCommands(box, cmds.filter((c) => !isTargetForm(c)));
      dec.appendChild(box);
    }
    const others = $("others"); clear(others);
    const groups = targetGroups();
    if (mine) for (const [key, cmds] of Object.entries(groups)) {
      if (cmds.some((c) => used.has(c))) continue;
      const t = P(cmds[0]).target;
      others.appendChild(button(words(cmds[0]).short.replace(/\s*\(.*$/, "") + "…", () => openTarget(key), words(cmds[0]).text));
      hexMark(t, "target", () => openTarget(key));
    }
    const rest = legal().filter((c) => !used.has(c) && !isEnd(c) && !isTargetForm(c) && c.kind !== "move");
    const byKind = {};
    for (const c of rest) (byKind[c.kind] = byKind[c.kind] || []).push(c);
    for (const cmds of Object.values(byKind)) { const box = div("kind"); renderCommands(box, cmds); others.appendChild(box); }
    const kinds = new Set([...(S.unenumerated || []), ...legal().map((c) => c.kind), ...(S.moves_per_unit ? ["move"] : [])]);
    const sel = $("advkind"); clear(sel);
    for (const k of [...kinds].sort()) { const o = document.createElement("option"); o.value = o.textContent = k; sel.appendChild(o); }
    $("advanced").hidden = !mine;
  }
  function hexMark(hex, cls, fn, cmd) {
    const c = G.centres[hex]; if (!c) return;
    const poly = document.querySelector('.hex[data-hex="' + hex + '"]');
    if (!poly) return;
    const m = el("polygon", {points: poly.getAttribute("points"), class: cls, "data-hex": hex});
    if (cmd) { m.appendChild(el("title", {}, words(cmd).text)); if (cls === "dest") mapOrders.push(cmd); }
    if (fn) m.addEventListener("click", (ev) => { ev.stopPropagation(); fn(); });
    if (cmd) {
      m.addEventListener("mouseenter", () => drawPath(cmd));
      m.addEventListener("mouseleave", () => clear($("paths")));
    }
    $("highlights").appendChild(m);
  }
  function drawPath(c) {
    const g = $("paths"); clear(g);
    const p = P(c);
    const start = p.units.length && S.view.units[p.units[0]] ? S.view.units[p.units[0]].hex : null;
    const hexes = [start, ...p.path].filter((h) => h && G.centres[h]);
    if (hexes.length < 2) return;
    g.appendChild(el("polyline", {class: "path", points: hexes.map((h) => G.centres[h].join(",")).join(" ")}));
    const end = G.centres[hexes[hexes.length - 1]];
    g.appendChild(el("circle", {class: "pathend", cx: end[0], cy: end[1], r: 4}));
  }

  function clickHex(hex, uid) {
    if (!S || replay !== null) { showStack(hex); return; }
    // a destination of the selected unit: go there (a click on a counter in it included)
    if (mapOrders.some((c) => P(c).to === hex)) { pickAt(hex, mapOrders); return; }
    const here = Object.entries(S.view.units).filter(([, u]) => u.hex === hex && (!u.status || u.status === "active"));
    showStack(hex);
    const own = here.filter(([, u]) => u.side === S.player);
    const targets = Object.keys(targetGroups()).filter((k) => k.endsWith("@" + hex));
    if (targets.length && !own.length) { openTarget(targets[0]); return; }
    if (!own.length) return;
    let pick = uid && own.some(([id]) => id === uid) ? uid : own[0][0];
    if (selected && own.length > 1 && pick === selected) {
      const i = own.findIndex(([id]) => id === selected);
      pick = own[(i + 1) % own.length][0];
    }
    selectUnit(pick);
  }
  async function selectUnit(uid) {
    selected = uid; unitOrders = [];
    const u = S.view.units[uid];
    renderActions();
    renderCounters(S.view);
    const box = $("selection"); clear(box);
    const head = div("unithead");
    const b = document.createElement("b"); b.textContent = describeUnit(uid, u);
    head.appendChild(b); head.appendChild(document.createTextNode(" in " + u.hex));
    box.appendChild(head);
    let orders = legal().filter((c) => P(c).units.includes(uid) && P(c).to && !isTargetForm(c));
    let why = null;
    const mine = S.status.active.includes(S.player);
    if (mine && (S.moves_per_unit || (S.unenumerated || []).includes("move"))) {
      const r = await getJSON(q("/moves/" + encodeURIComponent(uid)));
      if (selected !== uid) return;
      orders = r.moves.concat(orders);
      why = r.why || null;
    }
    unitOrders = orders;
    renderCounters(S.view);
    hexMark(u.hex, "selected-hex");
    for (const c of orders) hexMark(P(c).to, "dest", () => pickAt(P(c).to, unitOrders), c);
    if (orders.length) box.appendChild(div("", orders.length + " legal orders: click a highlighted hex (or a counter in it)"));
    else box.appendChild(div("why", "No legal order for this unit now" + (why ? ": " + why : mine ? "" : " (not your turn)")));
  }

  // --- an order aimed at a hex: its units ticked, its odds as you tick ---------------------------
  function trimmed(args, drop) {
    const out = {};
    for (const [k, v] of Object.entries(args)) {
      if (Array.isArray(v)) out[k] = v.filter((x) => !(typeof x === "string" && drop.has(x)));
      else if (typeof v === "string" && drop.has(v)) continue;
      else out[k] = v;
    }
    return out;
  }
  async function openTarget(key) {
    const cmds = targetGroups()[key]; if (!cmds || !cmds.length) return;
    // the order naming the most units is the base; unticking a unit takes it out of the order
    const base = cmds.slice().sort((a, b) => P(b).units.length - P(a).units.length)[0];
    const fewest = cmds.slice().sort((a, b) => P(a).units.length - P(b).units.length)[0];
    const all = [...new Set(cmds.flatMap((c) => P(c).units))].filter((u) => P(base).units.includes(u));
    const hex = P(base).target;
    const panel = $("attackpanel"); panel.hidden = false; clear(panel);
    const h = document.createElement("b"); const head = words(base).short.replace(/\s*\(.*$/, ""); h.textContent = head.includes(hex) ? head : head + " — " + hex; panel.appendChild(h);
    const list = div("tick");
    for (const a of all) {
      const lab = document.createElement("label");
      const cb = document.createElement("input"); cb.type = "checkbox"; cb.value = a; cb.className = "attacker";
      const u = S.view.units[a] || {};
      cb.checked = P(fewest).units.includes(a) || !/air|nav|fleet/.test(kindOf(u));
      cb.onchange = () => refresh();
      lab.appendChild(cb);
      lab.appendChild(document.createTextNode(" " + describeUnit(a, u).replace(/ \(\w+\)$/, "") + (u.hex ? " in " + u.hex : "")));
      list.appendChild(lab);
    }
    panel.appendChild(list);
    const order = div("composed"); panel.appendChild(order);
    const out = div(""); out.id = "odds"; panel.appendChild(out);
    const go = button("Roll the attack", () => send(chosen())); go.id = "rollattack"; go.className = "confirm";
    panel.appendChild(go);
    panel.appendChild(button("Cancel", () => { panel.hidden = true; }));
    function chosen() {
      const drop = new Set([...panel.querySelectorAll("input.attacker")].filter((x) => !x.checked).map((x) => x.value));
      return {kind: base.kind, args: trimmed(base.args, drop)};
    }
    async function refresh() {
      out.textContent = "computing…";
      const c = chosen();
      try {
        const d = await post("/describe", c);
        order.textContent = (d.words ? d.words.text : "") + (d.legal ? "" : " — refused: " + d.why);
        order.className = "composed " + (d.legal ? "ok" : "err");
        go.disabled = !d.legal;
        if (!d.legal) { out.textContent = ""; return; }
      } catch (e) { order.textContent = e.message; go.disabled = true; return; }
      try {
        const r = await post("/odds", c);
        clear(out);
        out.appendChild(oddsTable(r.odds));
      } catch (e) { out.textContent = e.status === 422 ? "" : e.message; }
    }
    await refresh();
  }
  function legendOf(code) {
    for (const t of (KEY && KEY.results) || []) if (t.codes[code]) return t.codes[code];
    return "";
  }
  function oddsTable(o) {
    // a hook's answer may itself be {system, odds: {...}}: the odds are inside
    while (o && o.odds && typeof o.odds === "object" && !Array.isArray(o.odds)) o = o.odds;
    const t = document.createElement("table");
    const cap = document.createElement("caption");
    const bits = [];
    if (o.odds !== undefined) bits.push(o.odds + (o.column !== undefined ? " (column " + o.column + (o.drm !== undefined ? ", DRM " + (o.drm >= 0 ? "+" : "") + o.drm : "") + ")" : ""));
    if (o.attack_strength !== undefined) bits.push("attack " + o.attack_strength + " vs defence " + o.defense_strength);
    if (o.expected_attacker_loss !== undefined) bits.push("expected losses: attacker " + o.expected_attacker_loss + ", defender " + o.expected_defender_loss + " " + (o.losses_in || "SPs"));
    if (o.p_hex_cleared !== undefined) {  // the defender's hex emptied: a retreat, or no unit kept
      const [n, d] = String(o.p_hex_cleared).split("/").map(Number);
      bits.push("the hex taken: " + (100 * (d ? n / d : n)).toFixed(1) + "%");
    }
    cap.textContent = bits.join("; ");
    t.appendChild(cap);
    const why = Array.isArray(o.why) ? o.why : (Array.isArray(o.modifiers) ? o.modifiers.map(String) : []);
    for (const line of why) {
      const tr = document.createElement("tr"); tr.className = "why";
      const td = document.createElement("td"); td.colSpan = 3; td.textContent = typeof line === "string" ? line : Object.values(line).join(" ");
      tr.appendChild(td); t.appendChild(tr);
    }
    const head = document.createElement("tr");
    for (const x of ["result", "probability", ""]) { const th = document.createElement("th"); th.textContent = x; head.appendChild(th); }
    t.appendChild(head);
    for (const [res, p] of Object.entries(o.probabilities || {})) {
      const [n, d] = String(p).split("/").map(Number);
      const v = d ? n / d : Number(n);
      if (!v) continue;
      const tr = document.createElement("tr");
      const a = document.createElement("td"); a.textContent = res; a.title = legendOf(res);
      const b = document.createElement("td"); b.textContent = p + " (" + (100 * v).toFixed(1) + "%)";
      const c = document.createElement("td"); const bar = document.createElement("span"); bar.className = "bar"; bar.style.width = Math.round(120 * v) + "px"; c.appendChild(bar);
      const m = legendOf(res); if (m) { const s = document.createElement("span"); s.className = "meaning"; s.textContent = " " + m; c.appendChild(s); }
      tr.appendChild(a); tr.appendChild(b); tr.appendChild(c);
      t.appendChild(tr);
    }
    return t;
  }

  async function send(c) {
    say("…");
    try {
      const st = await post("/command", {version: S.version, kind: c.kind, args: c.args, moves: "per_unit"});
      say("done: " + (words(c).text || c.kind.replace(/_/g, " ")), "ok");
      await show(st);
    } catch (e) {
      say((e.status === 409 ? "refused (stale): " : "refused: ") + e.message, "err");
      if (e.status === 409) await load();
    }
  }

  $("endphase").onclick = () => send({kind: "end_phase", args: {}, words: {text: "end of the phase", short: ""}});
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

  // --- hover tooltips ------------------------------------------------------------------------
  const tip = $("tip");
  $("map").addEventListener("mousemove", (ev) => {
    const t = ev.target.closest ? ev.target.closest("[data-hex]") : null;
    if (!t) { tip.hidden = true; return; }
    const hex = t.getAttribute("data-hex");
    const base = document.querySelector('.hex[data-hex="' + hex + '"] title');
    const lines = [base ? base.textContent : hex];
    const view = S ? currentView() : null;
    if (view) for (const [uid, u] of Object.entries(view.units || {})) if (u.hex === hex && (!u.status || u.status === "active")) lines.push("• " + describeUnit(uid, u));
    const dest = t.classList.contains("dest") || t.classList.contains("target") ? t.querySelector("title") : null;
    if (dest) lines.push("→ " + dest.textContent);
    tip.textContent = lines.join("\n");
    const r = $("mapwrap").getBoundingClientRect();
    tip.style.left = Math.min(ev.clientX - r.left + 14, r.width - 260) + "px";
    tip.style.top = (ev.clientY - r.top + 14) + "px";
    tip.hidden = false;
  });
  $("map").addEventListener("mouseleave", () => { tip.hidden = true; });

  // --- log and VCR ---------------------------------------------------------------------------
  function withHexes(parent, text) {
    const re = /\b([A-Z]{0,2}\d{2,4})\b/g;
    let last = 0, m;
    while ((m = re.exec(text))) {
      if (!G.centres[m[1]]) continue;
      parent.appendChild(document.createTextNode(text.slice(last, m.index)));
      const a = document.createElement("a"); a.className = "hexref"; a.textContent = m[1]; a.href = "#";
      const hx = m[1];
      a.onclick = (ev) => { ev.preventDefault(); ev.stopPropagation(); centreOn(hx); };
      parent.appendChild(a);
      last = m.index + m[1].length;
    }
    parent.appendChild(document.createTextNode(text.slice(last)));
  }
  function renderLog() {
    const ol = $("log"); clear(ol);
    for (const e of H.entries) {
      const li = document.createElement("li");
      li.dataset.n = e.n;
      withHexes(li, e.text);
      if (e.dice.length) { const d = document.createElement("span"); d.className = "dice"; d.textContent = " dice " + e.dice.join(" "); li.appendChild(d); }
      if (e.changes.length) {
        const ul = document.createElement("ul");
        for (const ch of e.changes) { const x = document.createElement("li"); withHexes(x, ch); ul.appendChild(x); }
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
    if (n === H.entries.length) { replay = null; replayView = null; $("replaybar").hidden = true; renderBanner(); renderCounters(S.view); renderActions(); renderLedger(); markLog(); return; }
    const p = await getJSON(q("/position/" + n));
    replay = n; replayView = p.view;
    $("replayn").textContent = n; $("replayof").textContent = p.of; $("replaybar").hidden = false;
    // the banner shows the replayed position's turn and phase
    $("replaytag").hidden = false;
    $("turn").textContent = "Turn " + p.view.turn;
    const ph = KEY && KEY.phases[Number(p.view.phase)];
    $("phase").textContent = ph ? phaseWords(ph.name, ph.player) : "";
    $("whose").textContent = ""; $("prompt").textContent = "after command " + n + " of " + p.of;
    renderCounters(replayView); renderActions(); renderLedger(); markLog();
  }
  $("vcrfirst").onclick = () => goTo(0);
  $("vcrprev").onclick = () => goTo((replay === null ? H.entries.length : replay) - 1);
  $("vcrnext").onclick = () => goTo((replay === null ? H.entries.length : replay) + 1);
  $("vcrlast").onclick = () => goTo(H.entries.length);
  $("replayexit").onclick = () => goTo(H.entries.length);

  // --- ledger ----------------------------------------------------------------------------------
  function num(v) { const [n, d] = String(v).split("/").map(Number); return d ? n / d : Number(n); }
  function renderLedger() {
    // the replayed position's accounts during a replay, else the current ones
    const now = replay === null || !H || !H.ledger[replay] ? (S.ledger || {}) : H.ledger[replay];
    const keys = Object.keys(now);
    $("ledgerpanel").hidden = !keys.length;
    if (!keys.length) return;
    const tbl = document.createElement("table");
    for (const k of keys) {
      const tr = document.createElement("tr");
      const a = document.createElement("td"); const chip = document.createElement("span"); chip.className = "chip"; chip.style.background = nameColour(k); chip.textContent = " "; a.appendChild(chip);
      const b = document.createElement("td"); b.textContent = k;
      const c = document.createElement("td"); c.textContent = now[k];
      tr.appendChild(a); tr.appendChild(b); tr.appendChild(c);
      tbl.appendChild(tr);
    }
    clear($("ledger")); $("ledger").appendChild(tbl);
    const chart = $("chart"); clear(chart);
    const series = H.ledger;
    let max = 1;
    for (const p of series) for (const k of keys) if (p[k] !== undefined) max = Math.max(max, num(p[k]));
    const w = 300, h = 120, n = Math.max(1, series.length - 1);
    keys.forEach((k) => {
      const pts = series.map((p, j) => (p[k] === undefined ? null : (j * w / n).toFixed(1) + "," + (h - 4 - num(p[k]) * (h - 8) / max).toFixed(1))).filter(Boolean);
      chart.appendChild(el("polyline", {points: pts.join(" "), fill: "none", stroke: nameColour(k), "stroke-width": 2, "vector-effect": "non-scaling-stroke"}));
    });
  }

  // --- the map key and the result key ------------------------------------------------------------
  function renderLegend() {
    const box = $("legend"); clear(box);
    const seen = {};
    for (const p of document.querySelectorAll("#world .terrain .hex")) {
      const cls = [...p.classList].find((c) => c.startsWith("t-"));
      if (cls && !seen[cls]) seen[cls] = p.getAttribute("fill");
    }
    const t = document.createElement("table"); t.className = "legend";
    const row = (sw, text) => { const tr = document.createElement("tr"); const a = document.createElement("td"); a.appendChild(sw); const b = document.createElement("td"); b.textContent = text; tr.appendChild(a); tr.appendChild(b); t.appendChild(tr); };
    const swatch = (fill) => { const s = document.createElement("span"); s.className = "swatch"; s.style.background = fill; return s; };
    for (const [cls, fill] of Object.entries(seen)) row(swatch(fill), cls.slice(2).replace(/_/g, " "));
    const lineSw = (cls) => { const s = document.createElement("span"); s.className = "lsw " + cls; return s; };
    row(lineSw("river"), "river (thicker: major river)"); row(lineSw("border"), "border");
    const sym = (kind, label) => {
      const svg = document.createElementNS(SVGNS, "svg"); svg.setAttribute("viewBox", "0 0 20 12"); svg.setAttribute("class", "symsw");
      nato(svg, kind, 2, 1, 16, 10); row(svg, label);
    };
    for (const [k, l] of [["infantry", "infantry"], ["armor", "armor"], ["mechanized", "mechanized"], ["motorized", "motorized"], ["cavalry", "cavalry"], ["airborne", "airborne"], ["mountain", "mountain"], ["artillery", "artillery"], ["hq", "headquarters"], ["air", "air unit"], ["naval", "fleet"]]) sym(k, l);
    const vals = document.createElement("span"); vals.textContent = "3-4";
    row(vals, "factors: attack-movement (attack-defense-movement when they differ); blocks: steps·firepower·movement, pips for the steps left of the most, a dashed edge for your block the enemy sees face down; ? face down");
    const nat = document.createElement("div"); nat.className = "nations";
    for (const n of ["german", "italian", "soviet", "british", "french", "polish", "american", "romanian", "hungarian", "finnish"]) {
      const s = document.createElement("span"); s.className = "chip"; s.style.background = NATION[n]; s.textContent = n; nat.appendChild(s);
    }
    box.appendChild(t); box.appendChild(nat);
    const rk = $("resultkey"); clear(rk);
    for (const tb of (KEY && KEY.results) || []) {
      const h = document.createElement("h4"); h.textContent = tb.title; rk.appendChild(h);
      const tt = document.createElement("table"); tt.className = "legend";
      for (const [code, meaning] of Object.entries(tb.codes)) {
        const tr = document.createElement("tr"); const a = document.createElement("td"); a.textContent = code || "(blank)"; a.className = "code"; const b = document.createElement("td"); b.textContent = meaning;
        tr.appendChild(a); tr.appendChild(b); tt.appendChild(tr);
      }
      rk.appendChild(tt);
    }
  }

  // --- chat and notices ----------------------------------------------------------------------------
  async function loadChat() {
    try {
      const r = await getJSON(q("/chat"));
      const ol = $("chat"); clear(ol);
      for (const m of r.messages) {
        const li = document.createElement("li");
        const who = document.createElement("b"); who.textContent = m.from + (m.to !== "all" ? " → " + m.to : "") + ": ";
        li.appendChild(who); li.appendChild(document.createTextNode(m.text));
        ol.appendChild(li);
      }
    } catch (e) { /* chat is optional */ }
  }
  $("chatform").onsubmit = async (ev) => {
    ev.preventDefault();
    const text = $("chattext").value;
    try { await post("/chat", {text: text, to: $("chatto").value}); $("chattext").value = ""; await loadChat(); }
    catch (e) { say("chat: " + e.message, "err"); }
  };
  $("notifyform").onsubmit = async (ev) => {
    ev.preventDefault();
    try { await post("/notify", {webhook: $("webhook").value, email: $("email").value}); say("notices saved", "ok"); }
    catch (e) { say("notices: " + e.message, "err"); }
  };
  async function loadNotify() {
    try { const r = await getJSON(q("/notify")); $("webhook").value = r.webhook; $("email").value = r.email; } catch (e) { /* optional */ }
  }

  // --- zoom and pan, remembered per game and seat -----------------------------------------------------
  const svg = $("map");
  const home = svg.dataset.viewbox.split(" ").map(Number);
  const VBKEY = "grognard-vb-" + G.game + "-" + G.seat;
  let vb = home.slice();
  let saveTimer = null;
  function setVB() {
    svg.setAttribute("viewBox", vb.map((v) => v.toFixed(1)).join(" "));
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => localStorage.setItem(VBKEY, JSON.stringify(vb)), 200);
  }
  function zoom(f, cx, cy) {
    const nw = vb[2] * f, nh = vb[3] * f;
    if (cx === undefined) { cx = vb[0] + vb[2] / 2; cy = vb[1] + vb[3] / 2; }
    vb = [cx - (cx - vb[0]) * f, cy - (cy - vb[1]) * f, nw, nh]; setVB();
  }
  function fitTo(hexes, minSize) {
    const pts = hexes.map((h) => G.centres[h]).filter(Boolean);
    if (!pts.length) return false;
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    let x0 = Math.min(...xs) - 60, x1 = Math.max(...xs) + 60, y0 = Math.min(...ys) - 60, y1 = Math.max(...ys) + 60;
    const m = minSize || 500;
    if (x1 - x0 < m) { const c = (x0 + x1) / 2; x0 = c - m / 2; x1 = c + m / 2; }
    if (y1 - y0 < m * 0.6) { const c = (y0 + y1) / 2; y0 = c - m * 0.3; y1 = c + m * 0.3; }
    vb = [x0, y0, x1 - x0, y1 - y0]; setVB();
    return true;
  }
  function mineHexes() {
    if (!S) return [];
    const own = Object.values(S.view.units || {}).filter((u) => u.side === S.player && u.hex && (!u.status || u.status === "active")).map((u) => u.hex);
    return own;
  }
  function fitMine() {
    // the acting player's units: the densest part of them (a third of the map at most)
    const hexes = mineHexes();
    if (!hexes.length) return;
    const pts = hexes.map((h) => G.centres[h]).filter(Boolean);
    const cx = pts.map((p) => p[0]).sort((a, b) => a - b)[Math.floor(pts.length / 2)];
    const cy = pts.map((p) => p[1]).sort((a, b) => a - b)[Math.floor(pts.length / 2)];
    // about 20 hexes across, centred on the middle of the player's units
    const r = svg.getBoundingClientRect();
    const w = 1000, h = w * (r.height || 700) / (r.width || 1000);
    vb = [cx - w / 2, cy - h / 2, w, h]; setVB();
  }
  let placed = false;
  function firstView() {
    if (placed) return;
    placed = true;
    const saved = localStorage.getItem(VBKEY);
    if (saved) { try { const v = JSON.parse(saved); if (v.length === 4 && v.every(Number.isFinite)) { vb = v; setVB(); return; } } catch (e) { /* ignore */ } }
    if (home[2] * home[3] > 1500 * 1000) fitMine();
  }
  function centreOn(hex) {
    const c = G.centres[hex]; if (!c) return;
    const w = Math.min(vb[2], 700), h = vb[3] * w / vb[2];
    vb = [c[0] - w / 2, c[1] - h / 2, w, h]; setVB();
    const poly = document.querySelector('.hex[data-hex="' + hex + '"]');
    if (poly) {
      const m = el("polygon", {points: poly.getAttribute("points"), class: "flash"});
      $("paths").appendChild(m); setTimeout(() => m.remove(), 1800);
    }
    showStack(hex);
  }
  $("zoomin").onclick = () => zoom(0.8);
  $("zoomout").onclick = () => zoom(1.25);
  $("zoomreset").onclick = () => { vb = home.slice(); setVB(); };
  $("zoommine").onclick = () => fitMine();
  $("gohex").addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    const h = $("gohex").value.trim().toUpperCase();
    if (G.centres[h]) centreOn(h); else say("no hex " + h + " on this map", "err");
  });
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
  let chatTick = 0;
  async function poll() {
    try {
      if (S && replay === null) {
        const v = await getJSON(API + "/version");
        if (v.version !== S.version) await load();
        else if (++chatTick % 4 === 0) await loadChat();
      } else if (!S && G.hotseat === false) {
        await load();
      }
    } catch (e) { /* server restarting: try again */ }
    setTimeout(poll, document.hidden ? 4000 : 1500);
  }

  // this browser's games, for the lobby
  try {
    const mine = JSON.parse(localStorage.getItem("grognard-games") || "[]").filter((g) => g.token !== G.token);
    mine.unshift({token: G.token, game: G.game, seat: G.seat, title: G.title, at: new Date().toISOString().slice(0, 16).replace("T", " ")});
    localStorage.setItem("grognard-games", JSON.stringify(mine.slice(0, 50)));
  } catch (e) { /* private mode */ }

  getJSON(API + "/key").then((k) => { KEY = k; renderLegend(); }).catch(() => renderLegend());
  loadNotify();
  load().then(() => setTimeout(poll, 1500)).catch((e) => say(e.message, "err"));
  window.grognardReload = load;
})();
