// Shared code of the play, spectator and replay pages of fandonia_env.serve.
// Plain browser JavaScript, no build step. Talks only to the server's documented API
// (docs/server.md, docs/play.md). Every server string goes into the page as text, never as HTML.
"use strict";

const F = {};
let META = null;

F.h = function (tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of kids.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
};
const h = F.h;

F.params = function () {
  const out = {};
  const raw = location.hash.replace(/^#/, "") || location.search.replace(/^\?/, "");
  for (const part of raw.split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    out[decodeURIComponent(i < 0 ? part : part.slice(0, i))] = i < 0 ? "" : decodeURIComponent(part.slice(i + 1));
  }
  return out;
};

// JSON.parse, except that an integer beyond 2**53 (which a JavaScript number would round) is kept as its
// decimal string, where the browser gives the source text (the server writes seeds as strings anyway).
F.parse = function (text) {
  return JSON.parse(text, function (k, v, ctx) {
    return typeof v === "number" && !Number.isSafeInteger(v) && Number.isInteger(v) && ctx && typeof ctx.source === "string" &&
      /^-?[0-9]+$/.test(ctx.source) ? ctx.source : v;
  });
};

F.api = async function (method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers["authorization"] = "Bearer " + token;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = F.parse(await r.text()); } catch (e) { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.detail) || r.statusText || "request failed");
    err.status = r.status; err.code = data && data.error; err.data = data;
    throw err;
  }
  return data;
};

F.meta = async function () {
  if (!META) META = await F.api("GET", "/meta");
  return META;
};

// -- names ---------------------------------------------------------------------------------
F.charName = (cid) => (META.characters[cid] || { name: cid }).name;
F.cardName = (k) => META.cards[k] || k;
F.oppName = (k) => META.opportunities[k] || k;
F.officeName = (k) => META.offices[k] || k;
F.countryName = (k) => META.countries[k] || k;
F.problemName = (k) => META.problems[k] || k;
F.humanize = (s) => String(s).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

F.playerLabel = function (p, seats, me) {
  let s = "Player " + p;
  if (me !== undefined && me !== null && p === me) s += " (you)";
  else if (seats && seats[p]) s += seats[p].kind === "agent" ? " (" + seats[p].agent + ")" : " (human)";
  return s;
};

F.title = function (cid, c, config) {
  const m = META.characters[cid];
  if (!m || m.royal) return "";
  const errata = config && config.edition === "errata";
  let printed = errata ? m.title_errata : m.title;
  if (errata && m.female && config.players === 2) printed = "countess";
  if (!printed) return "";
  const L = META.title_ladders;
  const ladder = m.female ? (errata ? L.female_errata : L.female) : L.male;
  const i = ladder.indexOf(printed);
  const t = i < 0 ? printed : ladder[Math.min(ladder.length - 1, i + (c.titles || 0))];
  return META.titles[t] || t;
};

F.faction = function (cid, c) {
  if (c.owner === null || c.owner === undefined) return META.characters[cid].royal ? "neutral RC" : "neutral";
  const parts = [];
  if (c.is_pc) parts.push("PC");
  else parts.push(META.characters[cid].royal ? "FARC" : "FAC");
  if (c.henchman) parts.push("henchman");
  if (c.counselor) parts.push("counselor");
  return "Player " + c.owner + " " + parts.join(", ");
};

F.situation = function (c) {
  const s = [];
  if (c.dead) s.push("dead");
  if (c.imprisoned) s.push("imprisoned");
  if (c.awaiting_execution) s.push("awaiting execution");
  if (c.banished) s.push("banished");
  if (c.hiding) s.push("in hiding");
  if (c.location && c.location !== "fandonia") s.push("abroad in " + F.countryName(c.location));
  if (c.wrongdoer) s.push("wrongdoer");
  if (c.banned) s.push("banned");
  if (c.pending_justice) s.push("justice pending");
  if (c.spouse) s.push("married to " + F.charName(c.spouse));
  if (c.engaged_to) s.push("engaged to " + F.charName(c.engaged_to));
  if (c.consort) s.push("consort");
  return s.join("; ");
};

// -- option labels: the catalogue's label, made concrete with the decision's context -------------
F.optionLabel = function (o, view, decision, seat) {
  const n = o.name;
  const ctx = (decision && decision.ctx) || {};
  if (n.startsWith("char_")) {
    const cid = n.slice(5);
    const c = view.chars[cid] || {};
    const bits = ["Status " + view.status[cid]];
    if (c.office) bits.push(F.officeName(c.office));
    if (c.owner !== null && c.owner !== undefined) bits.push(c.owner === seat ? "yours" : "Player " + c.owner + "'s");
    return F.charName(cid) + " (" + bits.join(", ") + ")";
  }
  if (n.startsWith("player_rel_")) {
    const k = parseInt(n.slice(11), 10);
    const t = (seat + k) % view.n_players;
    const pc = view.players[t] && view.players[t].pc;
    return "Player " + t + (pc ? " (" + F.charName(pc) + ")" : "");
  }
  if (n.startsWith("counsel_table_")) {
    const t = META.counsel_tables[n.slice(14)];
    return "Counsel on the " + (t ? t.name : n.slice(14)) + " table";
  }
  if (/^counsel_\d+$/.test(n) && ctx.table && META.counsel_tables[ctx.table]) {
    const i = parseInt(n.slice(8), 10);
    return "Counsel " + i + ": " + (META.counsel_tables[ctx.table].counsels[i - 1] || o.label);
  }
  if (n.startsWith("problem_")) return "Political problem: " + F.problemName(n.slice(8));
  if (n.startsWith("prestige_")) return "Consult the " + F.humanize(n.slice(9)) + " Prestige Table";
  if (n === "sign_plus" || n === "sign_minus") {
    const amt = ctx.amount ? " " + ctx.amount : "";
    return (n === "sign_plus" ? "Plus (+" : "Minus (-") + amt.trim() + ") on the roll";
  }
  if (n === "pass" && (decision.kind === "card_window" || decision.kind === "declare_modifier")) {
    return decision.kind === "card_window" ? "Pass (play no card)" : "Pass (declare no sign)";
  }
  return o.label;
};

F.decisionTitle = function (d, view, seat) {
  const ctx = d.ctx || {};
  if (d.kind === "card_window") return "Card window: you may play a card on the " + (ctx.roll || "roll") + " roll";
  if (d.kind === "declare_modifier") {
    return "Modifier sign: " + (ctx.why || "your modifier") + " on the " + (ctx.roll || "roll") +
      (ctx.amount ? " (" + ctx.amount + ")" : "");
  }
  return F.humanize(d.kind);
};

F.ctxText = function (ctx) {
  const out = [];
  for (const [k, v] of Object.entries(ctx || {})) {
    let s = v;
    if (typeof v === "string" && META.characters[v] && /cid|target|seducer|assassin|proposer|minister|usurper|char/.test(k)) s = F.charName(v);
    else if (k === "office") s = F.officeName(v);
    else if (k === "problem") s = F.problemName(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === "string" && META.characters[x])) s = v.map(F.charName).join(", ");
    else if (v !== null && typeof v === "object") s = JSON.stringify(v);
    out.push(F.humanize(k) + ": " + s);
  }
  return out.join(" · ");
};

// -- the table -------------------------------------------------------------------------------
F.renderStatus = function (el, view, extra) {
  const probs = Object.keys(view.problems || {});
  const rows = [
    ["Turn", view.turn + " (" + F.humanize(view.phase || "") + ")"],
    ["Active player", view.active === null || view.active === undefined ? "none (game phase)" : "Player " + view.active],
    ["First player / order", "Player " + view.first_player + " / " + (view.order || []).join(", ")],
    ["Monarch", view.monarch ? F.charName(view.monarch) : "none (throne vacant)"],
    ["Monarch's Support", String(view.support)],
    ["Political problems", probs.length ? probs.map(F.problemName).join(", ") : "none"],
    ["Wars", (view.wars || []).length ? view.wars.map(F.countryName).join(", ") : "none"],
    ["Crown event", view.crown ? F.humanize(view.crown) : "none"],
    ["Event deck / Loyalty pool", view.deck_size + " cards / " + view.loyalty_pool_size + " counters"],
  ];
  if (view.over) rows.push(["Result", view.result + (view.winner !== null ? ": Player " + view.winner + " wins" : "")]);
  for (const r of extra || []) rows.push(r);
  el.replaceChildren(h("table", { class: "kv" }, rows.map(([k, v]) => h("tr", {}, h("th", { text: k }), h("td", { text: v })))));
};

F.renderPlayers = function (el, view, seats, me) {
  const head = h("tr", {}, ["Player", "PC", "IP", "PP", "Hand", "Cards in front", "Counsels", "Lost turns"].map((t) => h("th", { text: t })));
  const rows = view.players.map((p) => h("tr", { class: (p.idx === me ? "me " : "") + (p.idx === view.active ? "active" : ""), "data-seat": p.idx },
    h("td", { text: F.playerLabel(p.idx, seats, me) }),
    h("td", { text: p.pc ? F.charName(p.pc) : "" }),
    h("td", { class: "num", text: p.ip }), h("td", { class: "num", text: p.pp }),
    h("td", { class: "num hand-size", text: p.hand_size }),
    h("td", { text: p.in_front.map(F.cardName).join(", ") }),
    h("td", { text: Object.entries(p.counsels || {}).map(([k, v]) => F.humanize(k) + " " + v.join(",")).join("; ") }),
    h("td", { class: "num", text: p.lost_turns })));
  el.replaceChildren(h("table", { class: "grid" }, h("thead", {}, head), h("tbody", {}, rows)));
};

F.renderThrone = function (el, view) {
  const items = META.succession.map((cid) => {
    const c = view.chars[cid] || {};
    const s = F.situation(c);
    const own = c.owner !== null && c.owner !== undefined ? " [Player " + c.owner + "]" : "";
    return h("li", { class: c.dead ? "dead" : (cid === view.monarch ? "monarch" : "") },
      F.charName(cid) + (cid === view.monarch ? " — Monarch" : "") + own + (s ? " (" + s + ")" : ""));
  });
  el.replaceChildren(h("p", {}, "Throne: ", h("b", { text: view.monarch ? F.charName(view.monarch) : "vacant" }),
    view.reign && view.reign.player !== undefined ? " · reign of Player " + view.reign.player : ""),
  h("p", { text: "Order of succession:" }), h("ol", { class: "succession" }, items));
};

F.renderCourt = function (el, view, config) {
  const ids = [...META.succession, ...Object.keys(META.characters).filter((c) => !META.succession.includes(c))];
  const head = h("tr", {}, ["Character", "Status", "Office", "Title", "Faction", "Situation"].map((t) => h("th", { text: t })));
  const rows = ids.filter((cid) => view.chars[cid]).map((cid) => {
    const c = view.chars[cid];
    return h("tr", { class: (c.dead ? "dead " : "") + (c.owner !== null && c.owner !== undefined ? "owned p" + c.owner : ""), "data-cid": cid },
      h("td", { text: F.charName(cid) }), h("td", { class: "num", text: view.status[cid] }),
      h("td", { text: c.office ? F.officeName(c.office) : "" }), h("td", { text: F.title(cid, c, config) }),
      h("td", { text: F.faction(cid, c) }), h("td", { text: F.situation(c) }));
  });
  el.replaceChildren(h("table", { class: "grid court" }, h("thead", {}, head), h("tbody", {}, rows)));
};

F.renderHand = function (el, hand, loyalty, opportunity) {
  el.replaceChildren(
    h("p", {}, h("b", { text: "Hand: " }), h("span", { class: "hand-cards", text: hand.length ? hand.map(F.cardName).join(", ") : "empty" })),
    h("p", {}, h("b", { text: "Loyalty counters drawn: " }), loyalty.length ? loyalty.map(F.charName).join(", ") : "none"),
    h("p", {}, h("b", { text: "Opportunity counters drawn: " }), opportunity.length ? opportunity.map(F.oppName).join(", ") : "none"));
};

// One log line: a string of a seat's or the public log (priv: private to the seat, from log_private), or
// {text, to, turn} of a replay (private lines are marked with their seat).
F.logLine = function (l, priv) {
  if (typeof l === "string") {
    return h("div", { class: priv ? "private" : (l.startsWith("---") ? "turnline" : ""), "data-private": priv ? "true" : null }, l);
  }
  const to = l.to !== null && l.to !== undefined;
  return h("div", { class: to ? "private" : "", "data-private": to ? "true" : null }, (to ? "[to Player " + l.to + "] " : "") + l.text);
};

// The whole log; priv: the indices of the private lines (a Set), for a seat's log.
F.renderLog = function (el, lines, priv) {
  const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 30;
  el.replaceChildren(...lines.map((l, i) => F.logLine(l, priv && priv.has(i))));
  if (atBottom || !el.dataset.seen) { el.scrollTop = el.scrollHeight; el.dataset.seen = "1"; }
};

// Lines start.. of a log the element shows up to start (pushes carry only the new lines).
F.appendLog = function (el, start, lines, priv) {
  if (el.childElementCount !== start) return false;
  const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 30;
  el.append(...lines.map((l, i) => F.logLine(l, priv && priv.has(start + i))));
  if (atBottom) el.scrollTop = el.scrollHeight;
  return true;
};

// A seat's or the spectator's log, kept from one full read (GET with the log) and the pushes' new lines
// ({log_start, log, log_private}); the WebSocket's first message says how many lines it already has.
F.Log = function (el) {
  this.el = el; this.lines = []; this.priv = new Set();
};
F.Log.prototype.reset = function (lines, priv) {
  this.lines = lines.slice(); this.priv = new Set(priv || []);
  F.renderLog(this.el, this.lines, this.priv);
};
// a push's lines; false when they do not follow the lines held (then read the whole log again)
F.Log.prototype.add = function (start, lines, priv) {
  if (start > this.lines.length) return false;
  for (const i of priv || []) this.priv.add(i);
  if (start < this.lines.length) {  // lines already held (a reconnection): keep the log, take the new ones
    this.lines = this.lines.slice(0, start).concat(lines);
    F.renderLog(this.el, this.lines, this.priv);
    return true;
  }
  this.lines = this.lines.concat(lines);
  if (!F.appendLog(this.el, start, lines, this.priv)) F.renderLog(this.el, this.lines, this.priv);
  return true;
};

window.F = F;
