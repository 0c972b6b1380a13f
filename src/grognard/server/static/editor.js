// grognard position editor: move, remove and copy a scenario's units; export it as TOML.
"use strict";
(function () {
  const E = window.EDITOR;
  const SVGNS = "http://www.w3.org/2000/svg";
  const COLOURS = ["#b7c4a0", "#e0a58e", "#a9c3e6", "#e6d38f", "#c9a9e6", "#9fd6cf"];
  const $ = (id) => document.getElementById(id);
  let units = E.units.map((u) => Object.assign({}, u));
  let selected = null;
  function el(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function render() {
    const g = $("counters"); while (g.firstChild) g.removeChild(g.firstChild);
    const by = {};
    for (const u of units) if (u.hex) (by[u.hex] = by[u.hex] || []).push(u);
    for (const [hex, us] of Object.entries(by)) {
      const c = E.centres[hex]; if (!c) continue;
      us.forEach((u, k) => {
        const x = c[0] - 13 + Math.min(k, 3) * 2.5, y = c[1] - 11 - Math.min(k, 3) * 2.5;
        const grp = el("g", {class: "counter" + (u.id === selected ? " selected" : ""), "data-unit": u.id, "data-hex": hex});
        const i = E.sides.indexOf(u.side);
        grp.appendChild(el("rect", {class: "body", x: x, y: y, width: 26, height: 22, rx: 2, fill: COLOURS[(i < 0 ? 5 : i) % 6]}));
        grp.appendChild(el("text", {x: x + 13, y: y + 9}, (u.type || "").slice(0, 4)));
        grp.appendChild(el("text", {x: x + 13, y: y + 19, class: "vals"}, [u.attack, u.defense, u.movement].join("-")));
        grp.appendChild(el("title", {}, (u.name || u.id) + " — " + u.side));
        grp.addEventListener("click", (ev) => { ev.stopPropagation(); select(u.id); });
        g.appendChild(grp);
      });
    }
    const ol = $("unitlist"); ol.textContent = "";
    for (const u of units) {
      const li = document.createElement("li");
      li.textContent = u.id + " (" + u.side + ") " + (u.hex || u.box || "");
      li.style.cursor = "pointer"; li.onclick = () => select(u.id);
      if (u.id === selected) li.style.fontWeight = "700";
      ol.appendChild(li);
    }
    $("remove").disabled = $("copy").disabled = !selected;
    const s = units.find((u) => u.id === selected);
    $("selection").textContent = s ? "Selected: " + s.id + " in " + (s.hex || s.box) : "";
  }
  function select(id) { selected = selected === id ? null : id; render(); }
  $("map").addEventListener("click", (ev) => {
    const hex = ev.target.getAttribute && ev.target.getAttribute("data-hex");
    const u = units.find((x) => x.id === selected);
    if (hex && u) { u.hex = hex; u.box = null; render(); }
  });
  $("remove").onclick = () => { units = units.filter((u) => u.id !== selected); selected = null; render(); };
  $("copy").onclick = () => {
    const u = units.find((x) => x.id === selected); if (!u) return;
    let n = 2; while (units.some((x) => x.id === u.id + "-" + n)) n++;
    const c = Object.assign({}, u, {id: u.id + "-" + n, copy_of: u.copy_of || u.id});
    units.push(c); selected = c.id; render();
  };
  function placements() { return units.map((u) => ({id: u.id, hex: u.hex, box: u.box, copy_of: u.copy_of})); }
  async function exportToml() {
    const r = await fetch("/api/editor/export", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({scenario: E.scenario, id: $("newid").value, placements: placements()})});
    const body = await r.json();
    if (!r.ok) { $("message").textContent = body.error; $("message").className = "err"; return null; }
    $("message").textContent = "valid scenario"; $("message").className = "ok";
    $("toml").value = body.text;
    const a = $("download");
    a.href = URL.createObjectURL(new Blob([body.text], {type: "application/toml"}));
    a.download = $("newid").value + ".toml"; a.hidden = false; a.textContent = "Download " + a.download;
    return body.text;
  }
  $("export").onclick = exportToml;
  $("playit").onclick = async () => {
    const text = await exportToml(); if (!text) return;
    const r = await fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({text: text, mode: "hotseat"})});
    const body = await r.json();
    if (!r.ok) { $("message").textContent = body.error; $("message").className = "err"; return; }
    location.href = "/play/" + body.seats["*"];
  };
  render();
})();
