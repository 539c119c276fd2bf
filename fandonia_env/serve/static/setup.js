// The set-up page: choose players, seats (human or a noble of the server's list) and rules; list games.
"use strict";
(async function () {
  const { h } = F;
  const meta = await F.meta();
  const preset = document.getElementById("preset");
  preset.replaceChildren(h("option", { value: "" }, "1981 rules (default)"), ...meta.presets.map((p) => h("option", { value: p }, p)));
  const seatsEl = document.getElementById("seats");
  const players = document.getElementById("players");
  let defaultAgent = meta.agents.includes("noble-rule-v1") ? "noble-rule-v1" : meta.agents[0];
  // Difficulty: one choice sets every computer seat to that level (each seat can still be changed)
  const levels = meta.levels || [];
  const difficulty = document.getElementById("difficulty");
  const about = document.getElementById("difficulty-about");
  const pct = (x) => Math.round(100 * x) + " %";
  function describe(lv) {
    if (!lv) return "Choose each computer seat's noble below, or a difficulty for all of them.";
    let s = "Level " + lv.level + ": " + lv.sentence;
    if (lv.vs_below_2p !== null && lv.level > 1) s += " Wins " + pct(lv.vs_below_2p) + " of 2-player games against level " + (lv.level - 1) + ".";
    if (lv.vs_rule_v1_2p !== null && lv.level < 5) s += " Wins " + pct(lv.vs_rule_v1_2p) + " against noble-rule-v1.";
    return s;
  }
  difficulty.replaceChildren(h("option", { value: "" }, "seat by seat"),
    ...levels.map((lv) => h("option", { value: lv.id }, "level " + lv.level + (lv.level === 1 ? " (beginner)" : lv.level === levels.length ? " (strongest)" : ""))));
  about.textContent = describe(null);
  difficulty.addEventListener("change", () => {
    const lv = levels.find((x) => x.id === difficulty.value);
    about.textContent = describe(lv);
    if (!lv) return;
    defaultAgent = lv.id;
    seatsEl.querySelectorAll("select").forEach((s) => { if (s.value !== "human") s.value = lv.id; });
  });
  function drawSeats() {
    const n = parseInt(players.value, 10);
    const old = [...seatsEl.querySelectorAll("select")].map((s) => s.value);
    seatsEl.replaceChildren(...Array.from({ length: n }, (_, i) => {
      const sel = h("select", { id: "seat-" + i, name: "seat-" + i },
        h("option", { value: "human" }, "human (you)"), ...meta.agents.map((a) => h("option", { value: a }, "noble: " + a)));
      sel.value = old[i] || (i === 0 ? "human" : defaultAgent);
      return h("div", { class: "seat" }, h("label", { for: "seat-" + i }, "Seat / Player " + i), " ", sel);
    }));
  }
  players.addEventListener("change", drawSeats);
  drawSeats();

  document.getElementById("setup").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = document.getElementById("setup-error");
    err.textContent = "";
    const seats = [...seatsEl.querySelectorAll("select")].map((s) => s.value);
    const rules = {};
    if (preset.value) rules.preset = preset.value;
    const mt = document.getElementById("max_turns").value;
    if (mt) rules.max_turns = parseInt(mt, 10);
    const body = { seats, rules };
    const seed = document.getElementById("seed").value;
    if (seed.trim() !== "") body.seed = seed.trim();  // a string: a 63-bit seed is not rounded (the server checks it)
    if (document.getElementById("public_seed").checked) body.public_seed = true;
    if (document.getElementById("rated").checked) body.rated = true;  // the advisor off (advisor.js)
    let g;
    try { g = await F.api("POST", "/games", body); } catch (e) { err.textContent = e.message; return; }
    const humans = g.seats.filter((s) => s.kind === "human");
    const link = (s) => "play.html#game=" + encodeURIComponent(g.game_id) + "&seat=" + s.seat + "&token=" + encodeURIComponent(s.token);
    if (humans.length === 1) { location.href = link(humans[0]); return; }
    document.getElementById("created").replaceChildren(h("p", {}, "Game " + g.game_id + " created. Each human seat has its own secret link:"),
      h("ul", {}, humans.map((s) => h("li", {}, h("a", { href: link(s), target: "_blank" }, "Play seat " + s.seat)))),
      h("p", {}, h("a", { href: "watch.html#game=" + g.game_id }, "Watch as a spectator")));
  });

  try {
    const list = await F.api("GET", "/games?limit=50");
    const rows = list.games.slice().reverse().map((g) => h("tr", {},
      h("td", { text: g.game_id }), h("td", { text: g.status }),
      h("td", { text: g.seats.map((s) => s.kind === "agent" ? s.agent : "human").join(", ") }),
      h("td", { text: g.result ? g.result + (g.winner !== null ? " (Player " + g.winner + ")" : "") : "" }),
      h("td", {}, h("a", { href: "watch.html#game=" + g.game_id }, "watch"), " ",
        g.status !== "playing" ? h("a", { href: "replay.html#game=" + g.game_id }, "replay") : "")));
    document.getElementById("games").replaceChildren(rows.length ? h("table", { class: "grid" },
      h("tr", {}, ["game", "status", "seats", "result", ""].map((t) => h("th", { text: t }))), rows) : h("p", {}, "No games yet."));
  } catch (e) {
    document.getElementById("games").textContent = "could not list games: " + e.message;
  }
})();
