// The play page of one seat: its view (GET /games/{id}/seats/{seat}, the log read once), pushes over the
// WebSocket (the state without the log, and the new log lines), and the pending decision as buttons
// (POST .../act?log=false with the step of the prompt the button belongs to: the server refuses a stale one).
// Keys 1-9, 0, then letters choose options; p passes. A new prompt ignores clicks and keys for ARM_MS (a double
// click or a quick series of clicks never answers a prompt the player has not seen), and no second move is sent
// while one is in flight. An option the server marks with `confirm` (a fatal or risky choice) asks first.
"use strict";
(async function () {
  const { h } = F;
  const P = F.params();
  const gid = P.game, seat = parseInt(P.seat, 10);
  // another game in the address (a pasted link, back/forward): load it
  const here = [P.game, P.seat, P.token || ""].join("|");
  const onNav = () => {
    const q = F.params();
    if ([q.game, q.seat, q.token || ""].join("|") !== here) location.reload();
  };
  window.addEventListener("hashchange", onNav);
  window.addEventListener("popstate", onNav);

  const key = "fandonia:" + gid + ":" + seat;
  // the link's token, else the one saved here; saved only once the server accepts it (a wrong link never
  // overwrites the good token)
  let token = P.token || localStorage.getItem(key);
  const body = document.getElementById("decision-body");
  const sec = document.getElementById("decision");
  const heading = document.getElementById("decision-h");
  const announce = document.getElementById("announce");
  if (!gid || isNaN(seat) || !token) {
    body.replaceChildren(h("p", { class: "error" }, "This page needs #game=ID&seat=N&token=T (the link given when the game was created)."));
    return;
  }
  await Promise.all([F.meta(), F.help()]);
  F.renderBasics(document.getElementById("basics"));
  let summary;
  try { summary = await F.api("GET", "/games/" + encodeURIComponent(gid)); }
  catch (e) { body.replaceChildren(h("p", { class: "error" }, "Cannot load game " + gid + ": " + e.message)); return; }
  const seats = summary.seats, config = summary.config;
  document.getElementById("watch-link").href = "watch.html#game=" + encodeURIComponent(gid);
  const ARM_MS = 400;
  // a series of clicks on one spot (each less than SERIES_MS after the one before, within SERIES_PX of it)
  // answers one prompt only: the next prompt is armed SERIES_MS after the last click of the series
  const SERIES_MS = 800, SERIES_PX = 24;
  let lastClickAt = -Infinity, lastClickX = 0, lastClickY = 0;
  const KEYS = "1234567890abcdefghijklmnoqrstuvwxyz";  // p is "pass"
  let current = null, options = [], inFlight = false, shownSig = null, armedAt = 0, faction = [], notice = "";
  const seatPath = "/games/" + encodeURIComponent(gid) + "/seats/" + seat;

  // -- the log: filterable (everyone / mine / the others, and a text) ----------------------------------------
  const logEl = document.getElementById("log");
  const filterSel = document.getElementById("log-filter"), search = document.getElementById("log-search");
  const mineRe = new RegExp("\\b[Pp]layer " + seat + "\\b|^You ");
  function isMine(div, i) {
    if (log.priv.has(i)) return true;
    const t = div.textContent;
    return mineRe.test(t) || faction.some((c) => c.name && t.includes(c.name));
  }
  function filterLine(div) {
    const mode = filterSel.value, q = search.value.trim().toLowerCase();
    const mine = div.dataset.mine === "1";
    const hide = (mode === "mine" && !mine) || (mode === "others" && mine) || (q && !div.textContent.toLowerCase().includes(q));
    div.classList.toggle("filtered", !!hide);
  }
  function decorate(div, i) { if (isMine(div, i)) div.dataset.mine = "1"; filterLine(div); }
  const log = new F.Log(logEl, decorate);
  function applyFilter() {
    let shown = 0;
    for (const d of logEl.children) { filterLine(d); if (!d.classList.contains("filtered")) shown++; }
    const on = filterSel.value !== "all" || search.value.trim();
    document.getElementById("log-count").textContent = on ? shown + " of " + logEl.childElementCount + " lines" : "";
    if (on) logEl.scrollTop = logEl.scrollHeight;
  }
  filterSel.addEventListener("change", applyFilter);
  search.addEventListener("input", applyFilter);

  // -- what just happened: the server's `recent`, else the log lines since this seat's last move ---------------
  const markKey = key + ":mark";
  function drawRecent(state) {
    const el = document.getElementById("recent");
    let lines = state.recent || (state.view && state.view.recent);
    const folded = state.recent_more || [];
    if (lines && folded.length) {  // what matters to the seat above the fold; the lesser lines folded
      F.fill(el, h("ul", { class: "recent-top" }, lines.slice(0, -1).map((l) => h("li", { text: F.stripRules(l) }))),
        h("details", { class: "recent-more" }, h("summary", { text: lines[lines.length - 1] }),
          h("ul", {}, folded.map((l) => h("li", { text: F.stripRules(l) })))));
      return;
    }
    let more = 0;
    if (!lines) {
      const saved = parseInt(sessionStorage.getItem(markKey) || "", 10);
      const from = isNaN(saved) ? Math.max(0, log.lines.length - 8) : Math.min(saved, log.lines.length);
      lines = log.lines.slice(from).filter((l, i) => !log.priv.has(from + i));
      if (lines.length > 12) { more = lines.length - 12; lines = lines.slice(-12); }
    }
    F.fill(el, lines.length ? h("ul", { class: "recent-top" }, lines.map((l) => h("li", { text: F.stripRules(l) }))) :
      h("p", { class: "none", text: "Nothing new since your last move." }),
    more ? h("p", { class: "hint", text: "…and " + more + " earlier lines: see the log." }) : null);
  }

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
    const pc = v.players[seat] && v.players[seat].pc;
    document.getElementById("whoami").textContent = "Game " + gid + " · you are Player " + seat + (pc ? " (" + F.charName(pc) + ")" : "")
      + (config.public_seed ? " · public seed " + config.seed + ": anyone can replay this deal and see every hand" : "");
    faction = F.factionOf(state, seat, config);
    F.renderRace(document.getElementById("race-body"), F.raceOf(state, seats, seat), seat);
    F.renderFaction(document.getElementById("faction"), faction);
    F.renderStatus(document.getElementById("status"), v);
    F.renderPlayers(document.getElementById("players"), v, seats, seat);
    F.renderThrone(document.getElementById("throne"), v);
    F.renderCourt(document.getElementById("court"), v, config);
    F.renderHand(document.getElementById("hand"), v.hand, v.loyalty_drawn, v.opportunity_drawn);
    if (v.log) log.reset(v.log, state.log_private);
    drawRecent(state);
    const banner = document.getElementById("banner");
    if (state.status === "expired") {
      banner.hidden = false;
      banner.replaceChildren("This game has expired: no move was made for too long, so it can no longer be played. ",
        h("a", { href: "replay.html#game=" + encodeURIComponent(gid) }, "Replay it"), " or ", h("a", { href: "index.html" }, "start a new game"), ".");
    } else if (state.status !== "playing") {
      banner.hidden = false;
      banner.replaceChildren("The game is " + state.status + ": " + (v.result || "") +
        (v.winner !== null && v.winner !== undefined ? " — Player " + v.winner + (v.winner === seat ? " (you) win!" : " wins.") : "."),
      " ", h("a", { href: "replay.html#game=" + encodeURIComponent(gid) }, "Replay it"));
    }
    drawDecision(state);
    document.dispatchEvent(new CustomEvent("fandonia:seat-state", { detail: state }));  // advisor.js
  }

  // the prompt `sig` is ready (data-ready, clicks and keys taken) at armedAt, unless a click pushes it later
  function armLater(sig) {
    setTimeout(() => {
      if (shownSig !== sig) return;
      if (performance.now() < armedAt) { armLater(sig); return; }
      sec.classList.remove("arming");
      sec.setAttribute("data-ready", "1");
    }, Math.max(0, armedAt - performance.now()) + 5);
  }

  function focusInDecision() {
    const a = document.activeElement;
    return !a || a === document.body || sec.contains(a);
  }

  function drawDecision(state) {
    const d = state.status === "playing" ? state.decision : null, v = state.view;  // an ended game asks nothing
    const sig = d ? state.step + ":" + d.kind + ":" + d.options.map((o) => o.id).join(",") : "none:" + state.status + ":" + v.active;
    if (sig === shownSig) return;  // the same prompt (a push after the act's reply): keep its buttons, focus and arming
    const hadFocus = focusInDecision();
    shownSig = sig;
    if (!d) {
      sec.className = "idle"; sec.removeAttribute("data-kind"); sec.removeAttribute("data-step"); sec.removeAttribute("data-ready");
      options = [];
      heading.textContent = state.status === "playing" ? "Waiting" : (state.status === "expired" ? "Game expired" : "Game over");
      const who = v.active === null || v.active === undefined ? "the game" : (v.active === seat ? "you (waiting)" : F.playerLabel(v.active, seats, seat));
      F.fill(body, notice ? h("p", { class: "notice", text: notice }) : null,
        h("p", { id: "prompt", text: state.status === "playing" ? "Nothing to decide now: turn " + v.turn + ", " + F.humanize(v.phase).toLowerCase() +
          "; now playing: " + who + ". Other players' moves appear here as they happen." :
          (state.status === "expired" ? "The game has expired: no move can be made." : "The game is over.") }));
      notice = "";
      document.title = (state.status === "playing" ? "Waiting for " + who : (state.status === "expired" ? "Game expired" : "Game over")) + " — Down With The King";
      if (hadFocus) heading.focus({ preventScroll: true });
      return;
    }
    sec.className = "arming"; sec.setAttribute("data-kind", d.kind); sec.setAttribute("data-step", String(state.step));
    sec.removeAttribute("data-ready");
    options = d.options;
    heading.textContent = "Your move";
    const step = state.step;
    const prompt = F.promptText(d, v, seat);
    const kids = [];
    if (notice) kids.push(h("p", { class: "notice", role: "status", text: notice }));
    notice = "";
    if (v.active !== seat) {
      kids.push(h("div", { class: "outofturn" }, "Out of turn: " + (v.active === null || v.active === undefined ? "a game phase" :
        F.playerLabel(v.active, seats, seat) + "'s turn") + " — the game waits for you."));
    }
    kids.push(h("p", { class: "prompt dtitle", id: "prompt", text: prompt }));
    const ctx = d.prompt ? "" : F.ctxText(d.ctx);
    if (ctx) kids.push(h("div", { class: "ctx", text: ctx }));
    kids.push(h("div", { class: "options", role: "group", "aria-labelledby": "prompt" }, d.options.map((o, i) => {
      const info = F.optionInfo(o, v, d, seat);
      const k = KEYS[i] || "";
      return h("div", { class: "opt" },
        h("button", { type: "button", "data-action-id": o.id, "data-name": o.name, "data-key": k || null, "aria-keyshortcuts": k || null,
          class: info.confirm ? "risky" : null, "data-confirm": info.confirm ? "1" : null, onclick: (ev) => act(o.id, step, info, ev),
          "data-free": o.preview && o.preview.free !== null && o.preview.free !== undefined ? (o.preview.free ? "1" : "0") : null },
        h("kbd", { "aria-hidden": "true", text: k }), h("span", { class: "olabel", text: info.label }),
        F.previewBadge ? F.previewBadge(o.preview) : null,
        info.confirm ? h("span", { class: "risk", text: "risky: asks first" }) : null,
        info.detail ? h("span", { class: "odetail", text: info.detail }) : null,
        F.renderPreview ? F.renderPreview(o.preview) : null),
        info.rule ? h("abbr", { class: "rule", title: "Rulebook " + info.rule }, "rule") : null);
    })));
    kids.push(h("p", { class: "hint keys", text: "Keys: 1-9, 0, then letters choose an option" +
      (d.options.some((o) => o.name === "pass") ? "; p passes" : "") + "; Tab and Enter work too." }));
    kids.push(h("p", { id: "act-error", class: "error", role: "alert" }));
    body.replaceChildren(...kids);
    armedAt = Math.max(performance.now() + ARM_MS, lastClickAt + SERIES_MS);
    armLater(sig);
    document.title = "Your move: " + prompt + " — Down With The King";
    announce.textContent = "Your move: " + prompt;
    if (hadFocus) {
      const first = body.querySelector(".options button");
      if (first) {
        first.focus({ preventScroll: true });
        const r = first.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) first.scrollIntoView({ block: "nearest" });
      }
    }
  }

  // withLog: the whole log (the first load, or when pushes' lines do not follow the lines held)
  // true once shown; the token is saved here once the server accepts it
  async function refresh(withLog) {
    try {
      const st = await F.api("GET", seatPath + (withLog ? "" : "?log=false"), undefined, token);
      current = null; fromPush = false; shownSig = null;
      show(st);
      localStorage.setItem(key, token);
      return true;
    } catch (e) {
      const why = e.status === 401 || e.status === 403 ? "this link's token is not accepted for seat " + seat +
        (localStorage.getItem(key) && localStorage.getItem(key) !== token ? " (the token saved in this browser is kept: open #game=" +
          gid + "&seat=" + seat + " to use it)" : "") : e.message;
      body.replaceChildren(h("p", { class: "error" }, "Cannot load the seat: " + why));
      return false;
    }
  }

  const dlg = document.getElementById("confirm");
  function confirmThen(info, go) {
    const c = info.confirm;
    document.getElementById("confirm-title").textContent = c.title || ("Are you sure: " + info.label + "?");
    F.fill(document.getElementById("confirm-body"),
      h("p", {}, "You chose: ", h("b", { text: info.label })),
      h("p", { class: "odds", text: F.confirmOdds(c) }),
      c.lose ? h("p", { class: "lose" }, h("b", { text: "What you risk: " }), c.lose) : null);
    const ok = document.getElementById("confirm-ok");
    ok.disabled = true;  // armed like a new prompt: a quick series of clicks never confirms
    setTimeout(() => { ok.disabled = false; }, ARM_MS);
    dlg.returnValue = "";
    dlg.onclose = () => {
      lastClickAt = -Infinity;  // an answer in the dialog ends a series of clicks
      const yes = dlg.returnValue === "ok";
      dlg.onclose = null;
      if (yes) go();
      else {
        const b = body.querySelector(".options button[data-confirm]");
        if (b) b.focus();
      }
    };
    dlg.showModal();
    document.getElementById("confirm-cancel").focus();
  }

  function act(id, step, info, ev) {
    const now = performance.now();
    if (ev && ev.detail > 0) {  // a pointer click (a key press or Enter has detail 0)
      const series = now - lastClickAt < SERIES_MS && Math.abs(ev.clientX - lastClickX) <= SERIES_PX &&
        Math.abs(ev.clientY - lastClickY) <= SERIES_PX;
      lastClickAt = now; lastClickX = ev.clientX; lastClickY = ev.clientY;
      if (series || now < armedAt) {  // one more click of a series: this prompt waits until the clicking stops
        armedAt = Math.max(armedAt, now + SERIES_MS);
        if (sec.hasAttribute("data-ready")) { sec.removeAttribute("data-ready"); sec.classList.add("arming"); armLater(shownSig); }
        return;
      }
    }
    if (inFlight || !current || !current.decision || current.status !== "playing" || current.step !== step) return;
    if (now < armedAt) return;  // a prompt shown a moment ago: not seen yet
    if (info && info.confirm) { confirmThen(info, () => send(id, step)); return; }
    send(id, step);
  }

  async function send(id, step) {
    if (inFlight || !current || current.step !== step) return;
    inFlight = true;
    sessionStorage.setItem(markKey, String(log.lines.length));
    body.querySelectorAll(".options button").forEach((b) => { b.disabled = true; });
    sec.setAttribute("aria-busy", "true");
    let reenable = false;
    try {
      show(await F.api("POST", seatPath + "/act?log=false", { action: id, step }, token));
    } catch (e) {
      if (e.code === "stale_step" || e.code === "not_your_decision") {
        notice = "That choice answered a question that had already changed; here is the current one.";
        await refresh(false);
      } else {
        reenable = true;
        const el = document.getElementById("act-error");
        if (el) el.textContent = e.message;
      }
    } finally {
      inFlight = false;
      sec.removeAttribute("aria-busy");
      if (reenable) body.querySelectorAll(".options button").forEach((b) => { b.disabled = false; });
    }
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !options.length || dlg.open) return;
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    let i = -1;
    if (ev.key === "p") i = options.findIndex((o) => o.name === "pass");
    else if (ev.key.length === 1) i = KEYS.indexOf(ev.key.toLowerCase());
    if (i < 0 || i >= options.length) return;
    ev.preventDefault();
    const b = body.querySelector(".options button[data-action-id='" + options[i].id + "']");
    if (b && !b.disabled) b.click();
  });

  const conn = document.getElementById("conn");
  let refused = false, retries = 0;
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/games/" + gid + "/ws");
    // log_from: the lines this page has; pushes then carry only the lines after them
    ws.onopen = () => { ws.send(JSON.stringify({ seat, token, log_from: log.lines.length })); conn.textContent = "live"; retries = 0; };
    ws.onmessage = (m) => {
      const msg = F.parse(m.data);
      if (msg.type === "state") {
        if (msg.log && !log.add(msg.log_start, msg.log, msg.log_private)) refresh(true);
        show(msg.state, true);
        if (msg.log && msg.log.length) { drawRecent(current); if (filterSel.value !== "all" || search.value.trim()) applyFilter(); }
      } else if (msg.type === "error") {  // refused (a bad token, no such game): trying again would not help
        refused = msg.error !== "too_slow";
        conn.textContent = "live updates refused: " + msg.detail;
      }
    };
    ws.onclose = () => {
      if (refused) return;
      if (current && current.status !== "playing") { conn.textContent = ""; return; }
      conn.textContent = "reconnecting…";
      retries++;
      setTimeout(connect, Math.min(30000, 1000 * 2 ** Math.min(5, retries - 1)));  // 1 s, 2 s, 4 s ... 30 s
    };
  }
  if (await refresh(true)) connect();
})();
