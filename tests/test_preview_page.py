"""The play page shows what each option does before the click (issue 43), in real headless Chromium: every
option button carries the server's preview of it (a "free" badge on free actions, "1 activity" on the
activities, the cost and the certain effects under the label, the chances of a roll), in plain words.
Fixtures and helpers are those of ``tests/test_play_page.py``."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

import test_play_page as pp  # noqa: E402

from fandonia_env.serve.client import Client  # noqa: E402

RAW, WIDE, choose, open_page, option_ids = pp.RAW, pp.WIDE, pp.choose, pp.open_page, pp.option_ids
wait_decision, wait_ready = pp.wait_decision, pp.wait_ready
server, browser = pp.server, pp.browser  # the page tests' fixtures: the server process and headless Chromium

BUTTONS = """() => [...document.querySelectorAll('#decision .options button')].map(b => ({
  id: parseInt(b.dataset.actionId, 10), name: b.dataset.name, free: b.dataset.free ?? null,
  badge: (b.querySelector('.pv-badge') || {}).textContent || null,
  preview: [...b.querySelectorAll('.opreview > span:not(.pv-chances), .pv-chance')].map(s => s.textContent)}))"""


def test_play_page_option_buttons_carry_their_preview(server, browser):
    c = Client(server.url)
    g = c.create(["human", "noble-rule-v1"], rules={"preset": "short-game", "max_turns": 2}, seed=4, public_seed=True)
    gid, token = g["game_id"], g["seats"][0]["token"]
    page, errors = open_page(browser, WIDE)
    page.goto(f"{server.url}/ui/play.html#game={gid}&seat=0&token={token}")
    last, mains, with_text = -1, 0, 0
    for _ in range(12):
        wait_decision(page, last, False)
        if page.get_attribute("body", "data-status") != "playing":
            break
        step = int(page.get_attribute("#decision", "data-step"))
        wait_ready(page, step)
        st = httpx.get(f"{server.url}/games/{gid}/seats/0", headers={"Authorization": f"Bearer {token}"}).json()
        if st["step"] != step or st["decision"] is None:
            last = step - 1
            continue
        shown = {b["id"]: b for b in page.evaluate(BUTTONS)}
        for o in st["decision"]["options"]:
            b, pw = shown[o["id"]], o["preview"]
            want = ([f"Costs {pw['cost']}."] if pw["cost"] and not pw["cost"].startswith("free") else []) \
                + pw["certain"] + ([pw["then"]] if pw["then"] else []) \
                + ([f"Chances ({pw['odds']}):"] + pw["chances"] if pw["chances"] else [])
            assert [x for x in b["preview"] if not x.startswith("Costs ")] == [x for x in want if not x.startswith("Costs ")]
            assert all(not RAW.search(x) for x in b["preview"]), b
            with_text += bool(b["preview"])
            if st["decision"]["kind"] == "turn_main" and o["name"] != "pass":
                assert b["free"] == ("1" if pw["free"] else "0") and b["badge"] == ("free" if pw["free"] else "1 activity")
                if o["name"].startswith("free_"):
                    assert b["badge"] == "free", b
        mains += st["decision"]["kind"] == "turn_main"
        ids = option_ids(page, confirm=False)
        page.click(f"#decision .options button[data-action-id='{choose(step, 'x', ids)}']")
        last = step
    assert mains >= 1 and with_text >= 3
    assert not errors, errors
    page.close()
