// What an option does to you before you choose it (issue 43): the server's `preview` of each option
// (fandonia_env/words/preview.py, computed by the engine from this seat's information only), shown under its
// label: a "free" badge for free actions, the cost, what certainly changes, the chances of the rest.
"use strict";
F.previewBadge = function (p) {
  if (!p || p.free === null || p.free === undefined) return null;
  return F.h("span", { class: p.free ? "pv-badge pv-free" : "pv-badge pv-activity",
    text: p.free ? "free" : "1 activity" });
};
F.renderPreview = function (p) {
  if (!p) return null;
  const { h } = F;
  const kids = [];
  const cost = p.cost && !(p.free && p.cost === "free (spends no activity)") ? p.cost.replace(/^free \(spends no activity\), /, "") : null;
  if (cost) kids.push(h("span", { class: "pv-cost", text: "Costs " + cost + "." }));
  for (const s of p.certain || []) kids.push(h("span", { class: "pv-certain", text: s }));
  if (p.then) kids.push(h("span", { class: "pv-then", text: p.then }));
  if (p.chances && p.chances.length) {
    kids.push(h("span", { class: "pv-odds", text: "Chances (" + (p.odds || "estimated") + "):" }));
    kids.push(h("span", { class: "pv-chances" }, p.chances.map((c) => h("span", { class: "pv-chance", text: c }))));
  }
  if (!kids.length) return null;
  return h("span", { class: "opreview", "data-preview": "1" }, kids);
};
