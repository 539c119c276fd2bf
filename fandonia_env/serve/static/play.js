// The play page of one seat: its view (GET /games/{id}/seats/{seat}, the log read once), pushes over the
// WebSocket (the state without the log, and the new log lines), and the pending decision as buttons
// (POST .../act?log=false with the seat's step). Keys 1-9 and 0 choose options.
"use strict";
(async function () {
  const { h } = F;
  const P = F.params();
  const gid = P.game, seat = parseInt(P.seat, 10);
  const key = "fandonia:" + gid + ":" + seat;
  let token = P.token || localStorage.getItem(key);
  const body = document.getElementById("decision-body");
  if (!gid || isNaN(seat) || !token) {
    body.replaceChildren(h("p", { class: "error" }, "This page needs #game=ID&seat=N&token=T (the link given when the game was created)."));
    return;
  }
  localStorage.setItem(key, token);
  await F.meta();
  const summary = await F.api("GET", "/games/" + encodeURIComponent(gid));
  const seats = summary.seats, config = summary.config;
  document.getElementById("whoami").textContent = "Game " + gid + " · you are Player " + seat;
  document.getElementById("watch-link").href = "watch.html#game=" + encodeURIComponent(gid);
  let current = null, busy = false, options = [];
  const log = new F.Log(document.getElementById("log"));
  const seatPath = "/games/" + encodeURIComponent(gid) + "/seats/" + seat;

  // The seat's view has no global counter (it would leak others' secret decisions), so order states this way:
  // its own step only grows; and a push with the step of an act's reply was made at or after that reply, which
  // may arrive after it: then the reply is older and is not shown.
  let fromPush = false;
  function show(state, push) {
    if (current && state.step < current.step) return;  // an older state than what is shown
    if (!push && fromPush && current && current.step >= state.step) return;
    current = state;
    fromPush = !!push;
    const v = state.view;
    document.body.dataset.active = v.active === null || v.active === undefined ? "" : String(v.active);
    document.body.dataset.status = state.status;
    F.renderStatus(document.getElementById("status"), v);
    F.renderPlayers(document.getElementById("players"), v, seats, seat);
    F.renderThrone(document.getElementById("throne"), v);
    F.renderCourt(document.getElementById("court"), v, config);
    F.renderHand(document.getElementById("hand"), v.hand, v.loyalty_drawn, v.opportunity_drawn);
    if (v.log) log.reset(v.log, state.log_private);
    const banner = document.getElementById("banner");
    if (state.status !== "playing") {
      banner.hidden = false;
      banner.replaceChildren("The game is " + state.status + ": " + (v.result || "") +
        (v.winner !== null && v.winner !== undefined ? " — Player " + v.winner + (v.winner === seat ? " (you) win!" : " wins.") : "."),
      " ", h("a", { href: "replay.html#game=" + encodeURIComponent(gid) }, "Replay it"));
    }
    drawDecision(state);
  }

  function drawDecision(state) {
    const sec = document.getElementById("decision");
    const d = state.decision, v = state.view;
    if (!d) {
      sec.className = "idle"; sec.removeAttribute("data-kind"); sec.removeAttribute("data-step");
      options = [];
      const who = v.active === null || v.active === undefined ? "the game" : (v.active === seat ? "you (waiting)" : F.playerLabel(v.active, seats, seat));
      body.replaceChildren(h("p", {}, state.status === "playing" ? "Nothing to decide now. Turn " + v.turn + ", " + F.humanize(v.phase) + "; active: " + who + "." : "The game is over."));
      return;
    }
    sec.className = ""; sec.setAttribute("data-kind", d.kind); sec.setAttribute("data-step", String(state.step));
    options = d.options;
    const outOfTurn = v.active !== seat;
    const kids = [h("h3", { class: "dtitle", text: F.decisionTitle(d, v, seat) })];
    if (outOfTurn) kids.push(h("div", { class: "outofturn" }, "Out of turn: " + (v.active === null || v.active === undefined ? "a game phase" : "Player " + v.active + "'s turn") + " — the game waits for you."));
    const ctx = F.ctxText(d.ctx);
    if (ctx) kids.push(h("div", { class: "ctx", text: ctx }));
    kids.push(h("div", { class: "options" }, d.options.map((o, i) => h("button", {
      type: "button", "data-action-id": o.id, "data-name": o.name, title: o.name + " (id " + o.id + ")",
      onclick: () => act(o.id),
    }, h("kbd", { text: i < 9 ? String(i + 1) : (i === 9 ? "0" : "") }), F.optionLabel(o, v, d, seat)))));
    kids.push(h("p", { class: "hint", text: "Keys: 1-9 and 0 choose an option" + (d.options.some((o) => o.name === "pass") ? "; p passes" : "") + "." }));
    kids.push(h("p", { id: "act-error", class: "error" }));
    body.replaceChildren(...kids);
  }

  // withLog: the whole log (the first load, or when pushes' lines do not follow the lines held)
  async function refresh(withLog) {
    try { current = null; fromPush = false; show(await F.api("GET", seatPath + (withLog ? "" : "?log=false"), undefined, token)); }
    catch (e) { body.replaceChildren(h("p", { class: "error" }, "Cannot load the seat: " + e.message)); }
  }

  async function act(id) {
    if (busy || !current || !current.decision) return;
    busy = true;
    document.querySelectorAll(".options button").forEach((b) => { b.disabled = true; });
    try {
      show(await F.api("POST", seatPath + "/act?log=false", { action: id, step: current.step }, token));
    } catch (e) {
      if (e.code === "stale_step" || e.code === "not_your_decision") await refresh(false);
      else {
        const el = document.getElementById("act-error");
        if (el) el.textContent = e.message;
        document.querySelectorAll(".options button").forEach((b) => { b.disabled = false; });
      }
    } finally { busy = false; }
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !options.length) return;
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    let i = -1;
    if (/^[1-9]$/.test(ev.key)) i = parseInt(ev.key, 10) - 1;
    else if (ev.key === "0") i = 9;
    else if (ev.key === "p") i = options.findIndex((o) => o.name === "pass");
    if (i >= 0 && i < options.length) { ev.preventDefault(); act(options[i].id); }
  });

  const conn = document.getElementById("conn");
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/games/" + gid + "/ws");
    // log_from: the lines this page has; pushes then carry only the lines after them
    ws.onopen = () => { ws.send(JSON.stringify({ seat, token, log_from: log.lines.length })); conn.textContent = "live"; };
    ws.onmessage = (m) => {
      const msg = F.parse(m.data);
      if (msg.type === "state") {
        if (msg.log && !log.add(msg.log_start, msg.log, msg.log_private)) refresh(true);
        show(msg.state, true);
      } else if (msg.type === "error") { conn.textContent = "push refused: " + msg.detail; }
    };
    ws.onclose = () => {
      conn.textContent = "reconnecting…";
      if (!current || current.status === "playing") setTimeout(connect, 1000);
      else conn.textContent = "";
    };
  }
  await refresh(true);
  connect();
})();
