// The spectator page: public information only (GET /games/{id}/public with the log once, then the spectator
// WebSocket's pushes: the state without the log and the new public log lines).
"use strict";
(async function () {
  const { h } = F;
  const gid = F.params().game;
  // another game in the address (a pasted link, back/forward): load it
  const onNav = () => { if (F.params().game !== gid) location.reload(); };
  window.addEventListener("hashchange", onNav);
  window.addEventListener("popstate", onNav);
  if (!gid) { document.getElementById("whoami").textContent = "This page needs #game=ID"; return; }
  await Promise.all([F.meta(), F.help()]);
  F.renderBasics(document.getElementById("basics"));
  const summary = await F.api("GET", "/games/" + encodeURIComponent(gid));
  document.getElementById("whoami").textContent = "Spectator · game " + gid;
  const log = new F.Log(document.getElementById("log"));
  const path = "/games/" + encodeURIComponent(gid) + "/public";
  function show(state) {
    const v = state.view;
    F.renderRace(document.getElementById("race-body"), F.raceOf(state, summary.seats, null), null);
    F.renderStatus(document.getElementById("status"), v);
    F.renderPlayers(document.getElementById("players"), v, summary.seats, null);
    F.renderThrone(document.getElementById("throne"), v);
    F.renderCourt(document.getElementById("court"), v, summary.config);
    if (v.log) log.reset(v.log);
    const banner = document.getElementById("banner");
    if (state.status !== "playing") {
      banner.hidden = false;
      banner.replaceChildren("The game is " + state.status + ". ", h("a", { href: "replay.html#game=" + encodeURIComponent(gid) }, "Replay it"));
    }
  }
  show(await F.api("GET", path));
  const conn = document.getElementById("conn");
  let over = false;
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/games/" + gid + "/ws");
    ws.onopen = () => { ws.send(JSON.stringify({ spectator: true, log_from: log.lines.length })); conn.textContent = "live"; };
    ws.onmessage = async (m) => {
      const msg = F.parse(m.data);
      if (msg.type !== "state") return;
      over = msg.state.status !== "playing";
      if (msg.log && !log.add(msg.log_start, msg.log, msg.log_private)) show(await F.api("GET", path));
      show(msg.state);
    };
    ws.onclose = () => { if (!over) { conn.textContent = "reconnecting…"; setTimeout(connect, 1000); } else conn.textContent = ""; };
  }
  connect();
})();
