// The replay page: a finished server game (#game=ID: GET /games/{id}/replay), or a file opened here, is sent
// to POST /replays; frames come from GET /replays/{rid}/frames/{i}. Arrow keys step back and forward.
"use strict";
(async function () {
  const { h } = F;
  await F.meta();
  const err = document.getElementById("open-error");
  let info = null, index = 0, loading = 0;

  // a game record is rebuilt from config, start and actions: the final state and log need not travel
  function slim(doc) {
    if (!doc || !Array.isArray(doc.actions) || !doc.config) return doc;
    const fin = doc.final || doc.game;
    const out = { config: doc.config, seats: doc.seats, start: doc.start || null, actions: doc.actions.map((a) => ({ seat: a.seat, action: a.action })) };
    if (fin && fin.steps !== undefined) out.final = { steps: fin.steps };
    return out;
  }

  async function open(doc, game) {
    err.textContent = "";
    let r;
    try { r = await F.api("POST", "/replays", game === undefined ? { doc } : { doc, game }); }
    catch (e) { err.textContent = e.message; return; }
    if (r.source === "tournament" && r.replay_id === null) {
      const t = document.getElementById("tournament");
      t.replaceChildren(h("p", {}, "A tournament of " + r.games.length + " games: choose one (it is played again with the same agents and seeds)."),
        h("table", { class: "grid" }, h("tr", {}, ["game", "seats", "seed", "result", "turns", ""].map((x) => h("th", { text: x }))),
          r.games.map((g) => h("tr", {}, h("td", { text: g.index }), h("td", { text: (g.seats || []).join(", ") }), h("td", { text: g.seed }),
            h("td", { text: (g.result || "") + (g.winner !== null && g.winner !== undefined ? " (Player " + g.winner + ")" : "") }),
            h("td", { text: g.turns }), h("td", {}, h("button", { type: "button", "data-game": g.index, onclick: () => open(doc, g.index) }, "open"))))));
      return;
    }
    info = r;
    document.getElementById("player").hidden = false;
    document.getElementById("frame").hidden = false;
    const s = document.getElementById("slider");
    s.max = String(info.n_frames - 1);
    document.getElementById("note").textContent = [info.note, "seats: " + info.seats.map((x, i) => "Player " + i + " " + (x.agent || "human")).join(", "),
      "result: " + (info.result || "unfinished") + (info.winner !== null && info.winner !== undefined ? " (Player " + info.winner + ")" : "")].filter(Boolean).join(" · ");
    await go(0);
  }

  async function go(i) {
    if (!info) return;
    i = Math.max(0, Math.min(info.n_frames - 1, i));
    index = i;  // at once, so that quick key presses add up
    const ticket = ++loading;
    let f;
    try { f = await F.api("GET", "/replays/" + info.replay_id + "/frames/" + i); }
    catch (e) { err.textContent = e.message; return; }
    if (ticket !== loading) return;
    document.getElementById("slider").value = String(i);
    document.getElementById("position").textContent = "position " + i + " / " + (info.n_frames - 1);
    const v = f.view;
    const na = f.next_action;
    const d = f.decision;
    let text = "End of the record.";
    if (na) {
      const o = (d && d.options.find((x) => x.id === na.action)) || { name: na.name, label: na.label };
      text = "Next: Player " + na.seat + " — " + (d ? F.decisionTitle(d, v, na.seat) + ": " : "") + F.optionInfo(o, v, d || { ctx: {} }, na.seat).label;
    }
    document.getElementById("next-action").textContent = text;
    F.renderStatus(document.getElementById("status"), v);
    F.renderPlayers(document.getElementById("players"), v, info.seats, null);
    F.renderThrone(document.getElementById("throne"), v);
    F.renderCourt(document.getElementById("court"), v, info.config);
    const hh = document.getElementById("hidden-hands");
    hh.replaceChildren(h("table", { class: "grid" }, h("tr", {}, ["Player", "Hand", "Loyalty drawn", "Opportunity drawn"].map((x) => h("th", { text: x }))),
      f.hidden.map((p) => h("tr", {}, h("td", { text: "Player " + p.seat }), h("td", { text: p.hand.map(F.cardName).join(", ") }),
        h("td", { text: p.loyalty_drawn.map(F.charName).join(", ") }), h("td", { text: p.opportunity_drawn.map(F.oppName).join(", ") })))));
    const log = document.getElementById("log");
    delete log.dataset.seen;
    F.renderLog(log, v.log);
    document.dispatchEvent(new CustomEvent("fandonia:replay-frame", { detail: f }));  // advisor.js
  }

  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(index - 1);
  document.getElementById("next").onclick = () => go(index + 1);
  document.getElementById("last").onclick = () => go(info ? info.n_frames - 1 : 0);
  document.getElementById("slider").oninput = (e) => go(parseInt(e.target.value, 10));
  document.addEventListener("keydown", (ev) => {
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName) && ev.target.type !== "range") return;
    if (ev.key === "ArrowRight") { ev.preventDefault(); go(index + 1); }
    else if (ev.key === "ArrowLeft") { ev.preventDefault(); go(index - 1); }
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End" && info) go(info.n_frames - 1);
  });
  document.getElementById("file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    let doc;
    try { doc = F.parse(await file.text()); } catch (e) { err.textContent = "not a JSON file: " + e.message; return; }
    doc = slim(doc);
    document.getElementById("tournament").replaceChildren();
    open(doc);
  });

  const gid = F.params().game;
  if (gid) {
    document.getElementById("whoami").textContent = "Replay · game " + gid;
    try {
      const rp = await F.api("GET", "/games/" + encodeURIComponent(gid) + "/replay");
      await open(slim(rp));
    } catch (e) { err.textContent = e.message; }
  }
})();
