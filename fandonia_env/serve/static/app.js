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
// el.replaceChildren without the null/false/undefined kids (the DOM would write them as text)
F.fill = function (el, ...kids) {
  el.replaceChildren(...kids.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
};

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
  let r;
  try { r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }); }
  catch (e) {  // the browser's own words ("Failed to fetch") say nothing to a player
    const err = new Error("Cannot reach the server (it may be down or restarting). Nothing changed on this page; " +
      "try again in a moment.");
    err.status = 0; err.code = "unreachable";
    throw err;
  }
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
  if (d.kind === "card_window") return "Card window: you may play a card on the " + F.plain(ctx.roll || "roll") + " roll";
  if (d.kind === "declare_modifier") {
    return "Modifier sign: " + F.plain(ctx.why || "your modifier") + " on the " + F.plain(ctx.roll || "roll") +
      (ctx.amount ? " (" + ctx.amount + ")" : "");
  }
  return F.humanize(d.kind);
};

// a rule reference ("(§13.4.1)", ", §7.6", "(ES §13.4.20, errata)") taken out of a text: {text, rule}
F.RULE_RE = /\s*(?:\(((?:ES )?§[^)]*|T\d[^)]*)\)|,?\s+((?:ES )?§[0-9][0-9.]*))/;
F.splitRule = function (text) {
  const m = String(text).match(F.RULE_RE);
  if (!m) return { text: String(text), rule: null };
  return { text: (String(text).slice(0, m.index) + String(text).slice(m.index + m[0].length)).trim(), rule: (m[1] || m[2]).trim() };
};
// every rule reference taken out (for the "what just happened" box; the log keeps them)
F.stripRules = function (text) {
  let s = String(text);
  for (;;) { const r = F.splitRule(s); if (!r.rule) return s; s = r.text; }
};
// a server string made readable where the server gives no wording: ids, rule references and keys out
F.plain = function (v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") {
    if (META.characters[v]) return F.charName(v);
    if (META.offices[v]) return F.officeName(v);
    if (META.problems[v]) return F.problemName(v);
    if (META.countries[v]) return F.countryName(v);
    if (META.cards[v]) return F.cardName(v);
    if (META.counsel_tables[v]) return META.counsel_tables[v].name;
    const s = F.stripRules(v);
    return /^[a-z0-9]+(_[a-z0-9]+)+$/.test(s) ? F.humanize(s).toLowerCase() : s;
  }
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.map(F.plain).join(", ");
  return String(v);
};

// The prompt of a decision: the server's plain sentence (decision.prompt), else one made here.
const PROMPTS = {
  turn_main: (c) => "Your Player Turn: choose an activity" + (c.activities_left !== undefined ? " (" + c.activities_left + " left)" : "") +
    " or a free action, or pass to end your turn.",
  card_window: (c) => "You may play a card now on the " + F.plain(c.roll || "roll") + ", or pass.",
  card_sign: (c) => "Your " + F.plain(c.card || "card") + " changes the " + F.plain(c.roll || "roll") + " by " + (c.amount || "") + ": up or down?",
  declare_modifier: (c) => F.plain(c.why || "Your modifier") + " changes the " + F.plain(c.roll || "roll") + " by " + (c.amount || "") + ": up or down?",
  draw_choice: () => "Draw a Loyalty counter, an Opportunity counter or an Event card.",
  choose_draw: () => "Choose what to draw.",
  voluntary_discard: () => "You may discard an Event card you do not want, or pass.",
  death_discard: (c) => "Discard a card" + (c.left ? " (" + c.left + " still to discard)" : "") + ".",
  mourning_discard: (c) => "Mourning: discard a card" + (c.left ? " (" + c.left + " still to discard)" : "") + ".",
  hand_limit_discard: (c) => "Your hand is over its limit" + (c.over ? " by " + c.over : "") + ": discard a card.",
  counsel_table: () => "Choose the table on which to give counsel.",
  counsel_choice: (c) => "Choose your counsel" + (c.table ? " on " + F.plain(c.table) : "") + ".",
  prestige_table: () => "Choose a Prestige Table to consult.",
  travel_character: () => "Choose who travels.",
  travel_destination: (c) => "Where does " + (c.cid ? F.charName(c.cid) : "the traveller") + " go?",
  title_character: () => "Choose the character who acquires a title.",
  recruit_character: () => "Choose a character to recruit.",
  office_fill: (c) => "Choose who fills the office" + (c.office ? " of " + F.officeName(c.office) : "") + ".",
  usurp_farc: () => "Choose the Royal Character who tries to take the throne.",
  usurp_support: () => "Play Support cards for the usurpation, or pass when you are done.",
  royal_alignment: () => "Choose the Royal Alignment card to play.",
  assassination_target: () => "Choose the character to assassinate.",
  hide_char: () => "Choose the character who goes into hiding.",
  scandal_target: () => "Choose the character whose scandal you expose.",
  seduce_target: () => "Choose the character to seduce.",
  wedding_attend: (c) => "Do you attend the wedding" + (c.host !== undefined ? " given by Player " + c.host : "") + "?",
  funeral_attend: () => "Do you attend the funeral?",
  counselor_character: () => "Choose the character who becomes the Monarch's Counselor.",
  henchman_character: () => "Choose the character who becomes your henchman.",
  hide_from_hearing: (c) => "Does " + (c.target ? F.charName(c.target) : "your character") + " go into hiding to avoid the hearing?",
  hearing_hiding: (c) => "Does " + (c.target ? F.charName(c.target) : "your character") + " stay in hiding?",
  treachery_target: () => "Choose the character to win over by treachery.",
  counsel_target: () => "Choose the character your counsel is about.",
  counsel_counselor: () => "Choose who gives the counsel.",
  intrigue_victim: () => "Choose the player whose card you intrigue.",
  duel_card_target: () => "Choose the duellist your card is played on.",
  crown_intrigue: () => "Choose a card to give up to the Crown's intrigue.",
  office_select: () => "Choose an office.",
  problem_leave_unresolved: (c) => "Leave " + (c.problem ? F.problemName(c.problem) : "the problem") + " unresolved?",
  use_any_activity: (c) => "Use your any-activity allowance for " + F.plain(c.activity || "this activity") + "?",
  pp_limit_lose: (c) => "Your Prestige Points (" + c.pp + ") are below what your faction needs (" + c.required + "): choose a character to lose.",
  duel_fighter: () => "Choose who fights the duel, or pay to avoid it.",
  halt: () => "Continue?",
};
F.promptText = function (d, view, seat) {
  if (d.prompt) return d.prompt;
  const f = PROMPTS[d.kind];
  return f ? f(d.ctx || {}) : F.decisionTitle(d, view, seat) + ".";
};

// What an option shows: the server's words (label, detail, rule, confirm) when it gives them, else labels made here
F.optionInfo = function (o, view, d, seat) {
  if (o.rule !== undefined || o.detail !== undefined || o.confirm !== undefined) {
    return { label: o.label, detail: o.detail || null, rule: o.rule || null, confirm: o.confirm || null };
  }
  const r = F.splitRule(F.optionLabel(o, view, d, seat));
  let label = r.text, detail = null;
  if (/^counsel_\d+$/.test(o.name)) {
    const i = label.indexOf(": ", 10);
    if (i > 0 && label.indexOf(": ", i + 2) > 0) { detail = label.slice(label.indexOf(": ", i + 2) + 2); label = label.slice(0, label.indexOf(": ", i + 2)); }
  }
  return { label, detail, rule: r.rule, confirm: F.FALLBACK_CONFIRM[o.name] || null };
};
F.FALLBACK_CONFIRM = {
  free_usurp: { title: "Try to seize the throne?", odds: null,
    lose: "If the usurpation fails, your Player Character dies, your turn ends, and you lose the Support cards you played." },
  free_suicide: { title: "Have this character take their own life?", odds: null, lose: "The character dies." },
};

F.ctxText = function (ctx) {
  const out = [];
  for (const [k, v] of Object.entries(ctx || {})) {
    if (k === "rule" || /_rel$/.test(k) || v === null || v === undefined) continue;
    if (Array.isArray(v) && !v.length) continue;
    if (/^(host|victim|player|proposer_player)$/.test(k) && typeof v === "number") { out.push(F.humanize(k) + ": Player " + v); continue; }
    out.push(F.humanize(k) + ": " + (v !== null && typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : F.plain(v)));
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

F.ordinal = (n) => n + ((n % 100 >= 10 && n % 100 <= 20) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"));
// the order of succession numbered as the race numbers it: the living heirs only, the Monarch and the dead apart
F.renderThrone = function (el, view) {
  let place = 0;
  const items = META.succession.map((cid) => {
    const c = view.chars[cid] || {};
    const s = F.situation(c);
    const own = c.owner !== null && c.owner !== undefined ? " [Player " + c.owner + "]" : "";
    const where = cid === view.monarch ? "Monarch" : (c.dead ? "out of the line" : F.ordinal(++place) + " in line");
    return h("li", { class: c.dead ? "dead" : (cid === view.monarch ? "monarch" : "") },
      where + ": " + F.charName(cid) + own + (s ? " (" + s + ")" : ""));
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

// -- help texts (GET /help: plain explanations of cards, counters, offices, titles and terms) ------------------
let HELP = null;
F.help = async function () {
  if (HELP) return HELP;
  try { HELP = await F.api("GET", "/help"); } catch (e) { HELP = {}; }
  return HELP;
};
// the explanation of the first of these keys (an id or a printed name) that the section explains, or null
F.helpFor = function (section, ...keys) {
  const sec = HELP && HELP[section];
  if (!sec) return null;
  for (const k of keys) {
    const v = k === null || k === undefined ? undefined : sec[k];
    if (v === undefined || v === null) continue;
    if (typeof v === "string") return v;
    const t = v.text || v.help || v.detail || v.summary;
    if (t) return t;
  }
  return null;
};
// a term with its explanation as a tooltip (an <abbr>) when the server explains it
F.term = function (text, ...keys) {
  const t = F.helpFor("terms", ...(keys.length ? keys : [text])) || F.helpFor("titles", text);
  return t ? h("abbr", { title: t }, text) : text;
};

// how to win and the terms the race uses, as text (GET /help's basics): on every size of screen, not in titles
F.renderBasics = function (el) {
  const b = HELP && HELP.basics;
  if (!el || !b) return;
  F.fill(el, h("p", { class: "how" }, h("b", { text: "How to win: " }), b.how_to_win),
    h("dl", { class: "terms" }, b.terms.flatMap(([t, d]) => [h("dt", { text: t }), h("dd", { text: d })])));
};

// the chance shown in a confirmation: its number, else its chance in words, else that none is known
F.confirmOdds = function (c) {
  if (c.odds !== null && c.odds !== undefined) {
    const odds = Math.round(c.odds * 100);
    return "Chance of success: about " + odds + "% (" + (100 - odds) + "% that it fails).";
  }
  if (c.chance) return "Chance: " + c.chance;
  return "Chance of success: not known in advance (dice and cards decide).";
};

F.renderHand = function (el, hand, loyalty, opportunity) {
  const chip = (section, key, name, generic) => {
    const help = F.helpFor(section, key, name, generic);
    return h("li", { "data-key": key, class: "card" }, help ?
      h("details", {}, h("summary", { title: help }, name), h("p", { text: help })) :
      h("span", { class: "card-name", title: name }, name));
  };
  const list = (cls, items, section, nameOf, none, generic) => items.length ?
    h("ul", { class: "cards " + cls }, items.map((k) => chip(section, k, nameOf(k), generic))) : h("p", { class: "cards empty " + cls, text: none });
  F.fill(el,
    h("h3", { class: "sub", text: "Event cards in your hand (" + hand.length + ")" }),
    list("hand-cards", hand, "cards", F.cardName, "Your hand is empty."),
    h("h3", { class: "sub", text: "Loyalty counters drawn" }),
    list("loyalty", loyalty, "counters", F.charName, "none", "Loyalty counter"),
    h("h3", { class: "sub", text: "Opportunity counters drawn" }),
    list("opportunity", opportunity, "counters", F.oppName, "none", "Opportunity counter"),
    Object.keys((HELP && HELP.cards) || {}).length ? h("p", { class: "hint", text: "Open a card to read what it does." }) : null);
};

// -- the race to the throne: the server's (state.race) or one read from the view ---------------------
F.VICTORY_TURNS = 3;
F.raceOf = function (state, seats, me) {
  return state.race || (state.view && state.view.race) || F.raceFromView(state.view, seats, me);
};
F.raceFromView = function (v, seats, me) {
  const reign = v.reign && v.reign.player !== undefined ? v.reign : null;
  const players = v.players.map((p) => {
    const farcs = Object.keys(v.chars).filter((cid) => META.characters[cid] && META.characters[cid].royal &&
      v.chars[cid].owner === p.idx && !v.chars[cid].dead);
    let claim, countdown = null;
    if (reign && reign.player === p.idx) {
      countdown = Math.max(0, reign.since + F.VICTORY_TURNS - v.turn);
      claim = F.charName(reign.cid) + " reigns for this player: they win at the end of turn " + (reign.since + F.VICTORY_TURNS) + ".";
    } else if (farcs.length) {
      claim = "Royal Characters: " + farcs.map(F.charName).join(", ") + " (may try to seize the throne).";
    } else claim = "No Royal Character yet.";
    return { seat: p.idx, name: F.playerLabel(p.idx, seats, me), pp: p.pp, ip: p.ip, status: p.pc ? v.status[p.pc] : null,
      claim, countdown, odds: null };
  });
  let lead;
  if (reign) {
    const left = Math.max(0, reign.since + F.VICTORY_TURNS - v.turn);
    lead = F.playerLabel(reign.player, seats, me) + " holds the throne with " + F.charName(reign.cid) + ": " +
      (left === 0 ? "they win at the end of this turn" : "they win at the end of turn " + (reign.since + F.VICTORY_TURNS) +
        " (" + left + " more turn" + (left === 1 ? "" : "s") + ") unless someone unseats them") + ".";
  } else {
    const withFarc = players.filter((p) => p.claim.startsWith("Royal"));
    lead = "Nobody has seized the throne yet. " + (withFarc.length ? withFarc.map((p) => p.name).join(" and ") +
      (withFarc.length === 1 ? " has" : " have") + " a Royal Character ready to try." : "No player has a Royal Character yet.");
  }
  return { goal: "Seize the throne for one of your Royal Characters (by usurpation) and keep it for " + F.VICTORY_TURNS +
      " full turns.", leader: reign ? reign.player : null, lead_text: lead, players };
};
F.renderRace = function (el, race, me) {
  const pct = (x) => Math.round(x * 100) + "%";
  const has = (x) => x !== null && x !== undefined;
  const victory = (p) => {
    const out = [];
    if (has(p.countdown)) {
      out.push(h("span", { class: "countdown", text: p.countdown === 0 ? "wins at the end of this turn" :
        p.countdown + " more turn" + (p.countdown === 1 ? "" : "s") }));
    }
    if (has(p.odds)) out.push(h("span", { class: "odds", text: "usurpation now: " + pct(p.odds) }));
    return out.length ? out : ["—"];
  };
  const head = h("tr", {}, h("th", { text: "Player" }), h("th", { text: "Claim to the throne" }),
    h("th", { class: "num" }, F.term("PP", "PP")), h("th", { class: "num" }, F.term("IP", "IP")),
    h("th", { class: "num" }, F.term("Status", "Status")), h("th", {}, F.term("To victory", "Reign countdown")));
  const rows = race.players.map((p) => h("tr", { "data-seat": p.seat, class: (p.seat === me ? "me " : "") + (p.seat === race.leader ? "leader" : "") },
    h("td", { class: "pname", text: p.name }),
    h("td", { class: "claim", text: p.claim || "" }),
    h("td", { class: "num pp", "data-label": "PP", text: p.pp }), h("td", { class: "num ip", "data-label": "IP", text: p.ip }),
    h("td", { class: "num st", "data-label": "Status", text: has(p.status) ? p.status : "" }),
    h("td", { class: "victory" }, victory(p))));
  el.replaceChildren(h("p", { class: "goal" }, h("b", { text: "Goal: " }), race.goal),
    h("p", { class: "lead", id: "race-lead", text: race.lead_text }),
    h("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-label": "Race to the throne, by player" }, h("table", { class: "grid race" }, h("thead", {}, head), h("tbody", {}, rows))));
};

// -- your faction: the server's (state.faction) or read from the view ------------------------------
F.factionOf = function (state, me, config) {
  const v = state.view;
  const roleOf = (cid) => (v.chars[cid] || {}).is_pc ? "your Player Character (PC)" :
    (META.characters[cid] && META.characters[cid].royal ? "royal ally (FARC)" : "follower (FAC)");
  const f = state.faction || v.faction;
  if (f) return f;
  return Object.keys(v.chars).filter((cid) => v.chars[cid].owner === me).sort((a, b) => {
    const ca = v.chars[a], cb = v.chars[b];
    return (cb.is_pc - ca.is_pc) || (v.status[b] - v.status[a]);
  }).map((cid) => {
    const c = v.chars[cid];
    const role = roleOf(cid);
    return { cid, name: F.charName(cid), status: v.status[cid], office: c.office ? F.officeName(c.office) : null,
      titles: F.title(cid, c, config) || null, spouse: c.spouse ? F.charName(c.spouse) : null,
      situation: [role, F.situation(c)].filter(Boolean).join("; ") };
  });
};
F.renderFaction = function (el, list) {
  const situation = (c) => {
    const parts = c.situation ? [c.situation] : [];
    if (c.spouse && !parts.some((x) => x.includes(c.spouse))) parts.push("married to " + c.spouse);
    return parts.join("; ");
  };
  if (!list.length) { el.replaceChildren(h("p", { text: "You have no characters left." })); return; }
  const head = h("tr", {}, ["Character", "Status", "Office and title", "Situation"].map((t) => h("th", { text: t })));
  const rows = list.map((c) => h("tr", { "data-cid": c.cid, class: /dead/.test(c.situation || "") ? "dead" : "" },
    h("td", {}, h("b", { text: c.name })),
    h("td", { class: "num", text: c.status === null || c.status === undefined ? "" : c.status }),
    h("td", {}, c.office ? (F.helpFor("offices", c.office, F.plain(c.office)) ? h("abbr", { title: F.helpFor("offices", c.office, F.plain(c.office)) }, F.plain(c.office)) : F.plain(c.office)) : null,
      c.office && c.titles ? ", " : null, Array.isArray(c.titles) ? c.titles.join(", ") : (c.titles || null)),
    h("td", { text: situation(c) })));
  el.replaceChildren(h("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-label": "Your faction" }, h("table", { class: "grid faction" }, h("thead", {}, head), h("tbody", {}, rows))));
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

// The whole log; priv: the indices of the private lines (a Set), for a seat's log; decorate(div, i): marks a line
F.renderLog = function (el, lines, priv, decorate) {
  const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 30;
  el.replaceChildren(...lines.map((l, i) => {
    const d = F.logLine(l, priv && priv.has(i));
    if (decorate) decorate(d, i);
    return d;
  }));
  if (atBottom || !el.dataset.seen) { el.scrollTop = el.scrollHeight; el.dataset.seen = "1"; }
};

// Lines start.. of a log the element shows up to start (pushes carry only the new lines).
F.appendLog = function (el, start, lines, priv, decorate) {
  if (el.childElementCount !== start) return false;
  const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 30;
  el.append(...lines.map((l, i) => {
    const d = F.logLine(l, priv && priv.has(start + i));
    if (decorate) decorate(d, start + i);
    return d;
  }));
  if (atBottom) el.scrollTop = el.scrollHeight;
  return true;
};

// A seat's or the spectator's log, kept from one full read (GET with the log) and the pushes' new lines
// ({log_start, log, log_private}); the WebSocket's first message says how many lines it already has.
// decorate(div, i) is called on every line shown (the play page marks and filters lines with it).
F.Log = function (el, decorate) {
  this.el = el; this.lines = []; this.priv = new Set(); this.decorate = decorate || null;
};
F.Log.prototype.reset = function (lines, priv) {
  this.lines = lines.slice(); this.priv = new Set(priv || []);
  F.renderLog(this.el, this.lines, this.priv, this.decorate);
};
// a push's lines; false when they do not follow the lines held (then read the whole log again)
F.Log.prototype.add = function (start, lines, priv) {
  if (start > this.lines.length) return false;
  for (const i of priv || []) this.priv.add(i);
  if (start < this.lines.length) {  // lines already held (a reconnection): keep the log, take the new ones
    this.lines = this.lines.slice(0, start).concat(lines);
    F.renderLog(this.el, this.lines, this.priv, this.decorate);
    return true;
  }
  this.lines = this.lines.concat(lines);
  if (!F.appendLog(this.el, start, lines, this.priv, this.decorate)) F.renderLog(this.el, this.lines, this.priv, this.decorate);
  return true;
};

window.F = F;
