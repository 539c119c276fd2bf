// The advisor (issue 43): what the strongest noble would play in a decision, its own estimate of the seat's chance
// to win from there, and the two or three options it weighs, in plain words.
// * play page: a switch "Advisor" (off by default, remembered per game and seat in localStorage). When on, every
//   state with a decision of this seat asks GET /games/{id}/seats/{seat}/advice (the seat's token) and the panel
//   shows the answer if it still belongs to the decision shown (its step). A game that does not allow the advisor
//   (a rated game, or one created with advisor: false) shows the switch disabled and says why.
// * replay page (after the game: every seat): a switch shows GET /replays/{rid}/frames/{i}/advice for the seat
//   deciding at the frame, next to the move it played.
// Hooks: play.js dispatches "fandonia:seat-state" (detail: the seat state shown), replay.js "fandonia:replay-frame"
// (detail: the frame shown). Nothing else of those pages is touched.
"use strict";
(function () {
  const { h } = F;
  const pct = (x) => Math.round(100 * x) + "%";

  function panel(where, id) {
    const body = h("div", { id: "advisor-body", "aria-live": "polite" });
    const sw = h("input", { type: "checkbox", id: "advisor-switch" });
    const sec = h("section", { id, "aria-labelledby": "advisor-h" },
      h("h2", { id: "advisor-h" }, h("label", { for: "advisor-switch" }, sw, " Advisor")), body);
    where.after(sec);
    return { sec, sw, body };
  }

  function render(body, a, played) {
    const s = a.suggestion;
    body.dataset.suggestion = String(s.id);
    body.dataset.step = String(a.step);
    F.fill(body,
      h("p", { class: "advice-suggestion" }, (played === undefined ? "The noble (" + a.noble + ") would choose: " :
        "Player " + a.seat + "'s advisor (" + a.noble + ") would choose: "), h("b", { text: s.label }),
      " (" + pct(s.prob) + " of its weight)"),
      h("p", { class: "advice-chance", text: "Its estimate of " + (played === undefined ? "your" : "Player " + a.seat + "'s") +
        " chance to win from here: " + pct(a.win_chance) + " (the noble's own guess, from this seat's view only)." }),
      h("p", {}, "It weighs:"),
      h("ol", { class: "advice-weighs" }, a.weighs.map((w) => h("li", { "data-action-id": w.id }, w.label + " — " + pct(w.prob)))),
      played === undefined || played === null ? null :
        h("p", { class: played === s.id ? "hint" : "notice", text: played === s.id ? "Played: the same." : "Played: something else." }));
  }

  function showError(body, e) {
    delete body.dataset.suggestion;
    F.fill(body, h("p", { class: "error", text: "No advice: " + e.message }));
  }

  async function playPage() {
    const P = F.params(), gid = P.game, seat = parseInt(P.seat, 10);
    const anchor = document.getElementById("decision");
    if (!gid || isNaN(seat) || !anchor) return;
    const token = P.token || localStorage.getItem("fandonia:" + gid + ":" + seat);
    const key = "fandonia:advisor:" + gid + ":" + seat;
    const { sw, body } = panel(anchor, "advisor-sec");
    let state = null, asked = null, allowed = null;
    async function update() {
      if (allowed !== true) return;  // the summary is not in yet, or the game does not allow the advisor
      if (!sw.checked) { delete body.dataset.suggestion; F.fill(body, h("p", { class: "hint", text: "Switch on to see what the strongest noble would play." })); return; }
      if (!state || !state.decision) { delete body.dataset.suggestion; F.fill(body, h("p", { class: "hint", text: "Nothing to advise on now." })); return; }
      const step = state.step;
      if (asked === step) return;  // asked already (a push after the act's reply)
      asked = step;
      try {
        const a = await F.api("GET", "/games/" + encodeURIComponent(gid) + "/seats/" + seat + "/advice", undefined, token);
        if (state && state.step === a.step && sw.checked) render(body, a);
      } catch (e) { if (state && state.step === step) showError(body, e); asked = null; }
    }
    // listen at once: play.js may show its first state while the summary is loading
    document.addEventListener("fandonia:seat-state", (ev) => { state = ev.detail; update(); });
    try { allowed = (await F.api("GET", "/games/" + encodeURIComponent(gid))).advisor !== false; } catch (e) { allowed = true; }
    if (!allowed) {
      sw.disabled = true;
      F.fill(body, h("p", { class: "hint", text: "The advisor is off in this game (a rated game, or it was created without it)." }));
      return;
    }
    sw.checked = localStorage.getItem(key) === "on";
    sw.addEventListener("change", () => { localStorage.setItem(key, sw.checked ? "on" : "off"); asked = null; update(); });
    update();
  }

  function replayPage() {
    const anchor = document.getElementById("next-action");
    if (!anchor) return;
    const { sw, body } = panel(anchor, "advisor-sec");
    let frame = null;
    async function update() {
      if (!sw.checked) { delete body.dataset.suggestion; F.fill(body, h("p", { class: "hint", text: "Switch on to see, at each decision, what the strongest noble would have advised the seat deciding there." })); return; }
      if (!frame || !frame.next_action) { delete body.dataset.suggestion; F.fill(body, h("p", { class: "hint", text: "No decision at this position." })); return; }
      const f = frame;
      try {
        const a = await F.api("GET", "/replays/" + f.replay_id + "/frames/" + f.index + "/advice");
        if (frame === f && sw.checked) render(body, a, a.played);
      } catch (e) { if (frame === f) showError(body, e); }
    }
    sw.addEventListener("change", update);
    document.addEventListener("fandonia:replay-frame", (ev) => { frame = ev.detail; update(); });
    update();
  }

  if (document.body.classList.contains("play")) playPage();
  else replayPage();
})();
