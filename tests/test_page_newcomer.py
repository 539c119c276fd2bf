"""Issue 43: what a newcomer met on the pages, in real headless Chromium (the launch, the server and the helpers of
tests/test_play_page.py), at 1400x1000 and 390x844. Every test names in its docstring the defect it pins; each
was seen failing on the code before its fix. axe-core (a pinned copy under tests/vendor/axe-core, MPL-2.0) checks
the set-up, play, watch and replay pages: no critical and no serious finding."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from test_play_page import (  # noqa: E402
    FATAL,
    PHONE,
    SEATS,
    WIDE,
    act_posts,
    browser,  # noqa: F401  (a fixture)
    choose,
    confirm_dialog,
    open_page,
    option_ids,
    wait_decision,
    wait_over,
    wait_ready,
)

from fandonia_env.serve.client import Client, ServerProcess  # noqa: E402
from fandonia_env.words.seat import _rank  # noqa: E402

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
SIZES = {"wide": WIDE, "phone": PHONE}
CERTAIN_NO = re.compile(r"[Nn]obody could take the throne|every usurpation would fail|no usurpation can succeed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("newcomer") / "games.sqlite3"
    with ServerProcess(str(db), "--workers", "2") as srv:
        yield srv


def new_game(server, seats=SEATS, seed: int = 32, max_turns: int = 6) -> tuple[str, str, str]:
    """A game (short-game preset, public seed): its id, seat 0's token and seat 0's page address."""
    g = Client(server.url).create(seats, rules={"preset": "short-game", "max_turns": max_turns}, seed=seed,
                                  public_seed=True)
    gid, token = g["game_id"], g["seats"][0]["token"]
    return gid, token, f"{server.url}/ui/play.html#game={gid}&seat=0&token={token}"


def visible_text(page, sel: str) -> str:
    """The text of an element as shown (innerText: nothing hidden, no title attribute)."""
    return page.locator(sel).inner_text()


# ---------------------------------------------------------------------------
# How to win and the terms, on screen
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", list(SIZES))
def test_how_to_win_and_the_terms_are_on_screen_in_text(server, browser, size):  # noqa: F811
    """Defects: PP/IP/Status were explained only in hover titles (never on a phone), "Thomas (the Pretender)"
    appeared in every race row with no word on who he is, and nothing said how to win: the play and
    spectator pages show a short "how to win" and those terms as text, at both sizes."""
    phone = size == "phone"
    gid, _, url = new_game(server, max_turns=1)
    for address in (url, f"{server.url}/ui/watch.html#game={gid}"):
        page, errors = open_page(browser, SIZES[size], is_mobile=phone, has_touch=phone)
        page.goto(address)
        page.wait_for_selector("#basics dl dt >> nth=4", timeout=30_000)
        box = page.locator("#basics")
        assert box.is_visible()
        text = box.inner_text()
        assert "How to win" in text and "three full turns" in text
        for term in ("PP", "IP", "Status", "Faction", "Thomas (the Pretender)"):
            dt = page.locator("#basics dt", has_text=re.compile(rf"^{re.escape(term)}$"))
            assert dt.count() == 1 and dt.is_visible(), term
        assert "line of succession" in text
        if phone:
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert not errors, errors
        page.close()


def test_succession_numbers_match_the_race(server, browser):  # noqa: F811
    """Defect: the succession numbering differed between the race ("1st in line") and the list (which counted
    the Monarch and the dead): the list numbers the living heirs as the race does."""
    _, _, url = new_game(server, max_turns=1)
    page, errors = open_page(browser, WIDE)
    page.goto(url)
    page.wait_for_selector("ol.succession li >> nth=8", timeout=30_000)
    items = page.locator("ol.succession li").all_inner_texts()
    assert items[0].startswith("Monarch: King George")
    assert items[1].startswith("1st in line: Prince Alan") and items[2].startswith("2nd in line: Princess Anne")
    assert not errors, errors
    page.close()


# ---------------------------------------------------------------------------
# The race and "what just happened" through a whole game
# ---------------------------------------------------------------------------
def check_race_and_recent(page) -> int:
    """The race claims no certainty the seat lacks; "what just happened" folds only lesser lines. Returns how
    many lines were folded."""
    lead = visible_text(page, "#race-lead")
    hidden = [int(x) for x in page.locator("#players tbody tr:not(.me) td.hand-size").all_inner_texts()]
    if any(hidden):
        assert not CERTAIN_NO.search(lead), lead
        assert "cannot see" in visible_text(page, "#race-body"), lead
    folded = page.locator("#recent details.recent-more li").all_inner_texts()
    top = page.locator("#recent ul.recent-top > li").all_inner_texts()
    for t in folded:
        assert _rank(t) == 3, (t, top)
    return len(folded)


@pytest.mark.parametrize("size", list(SIZES))
def test_whole_game_race_is_honest_recent_is_ranked_and_the_end_is_shown(server, browser, size):  # noqa: F811
    """Defects: the race said "Nobody could take the throne now: every usurpation would fail" while other seats
    held cards it cannot see; "what just happened" filed deaths, successions and the seat's own losses among
    the "lesser events"; the game-over view was stale (the race still spoke of usurping). A whole short game
    through the page at both sizes: at every decision the race states no certainty while another seat holds
    cards, and only lesser lines are folded; at the end the race says the game is over."""
    phone = size == "phone"
    _, _, url = new_game(server, seed=2, max_turns=2)
    page, errors = open_page(browser, SIZES[size], is_mobile=phone, has_touch=phone)
    page.goto(url)
    last, n, shown, folded = -1, 0, 0, 0
    while True:
        wait_decision(page, last, False)
        if page.get_attribute("body", "data-status") != "playing":
            break
        step = int(page.get_attribute("#decision", "data-step"))
        wait_ready(page, step)
        folded += check_race_and_recent(page)
        shown += page.locator("#recent ul.recent-top > li").count()
        a = choose(step, "x", option_ids(page, names_out=FATAL) or option_ids(page))
        button = f"#decision .options button[data-action-id='{a}']"
        risky = page.get_attribute(button, "data-confirm") is not None
        page.click(button)
        if risky:
            confirm_dialog(page)
        last, n = step, n + 1
        assert n < 300
    assert shown > 0, "no line of what just happened was ever shown"
    assert folded > 0, "nothing was folded: the ranking was not put to the test"  # (48 with this deal)
    page.wait_for_function("() => document.querySelector('#race-lead').textContent.startsWith('The game is over')",
                           timeout=30_000)
    assert visible_text(page, "#decision-h") == "Game over"
    assert page.locator("#decision .options button").count() == 0
    assert not errors, errors
    page.close()


# ---------------------------------------------------------------------------
# Misuse
# ---------------------------------------------------------------------------
def test_a_wrong_token_link_does_not_overwrite_the_stored_good_token(server, browser):  # noqa: F811
    """Defect: a link with a wrong token overwrote the good token the page had stored, so the seat could no
    longer be opened from its short address (#game=ID&seat=0)."""
    gid, token, url = new_game(server, max_turns=1)
    ctx = browser.new_context(viewport=WIDE)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("#decision .options button, #decision.idle p", timeout=30_000)
    page.goto(f"{server.url}/ui/index.html")
    page.goto(f"{server.url}/ui/play.html#game={gid}&seat=0&token=not-the-token")
    page.wait_for_selector("#decision-body .error", timeout=30_000)
    assert "token" in page.inner_text("#decision-body .error").lower()
    page.goto(f"{server.url}/ui/index.html")
    page.goto(f"{server.url}/ui/play.html#game={gid}&seat=0")
    page.wait_for_selector("#decision .options button, #decision.idle p", timeout=30_000)
    assert page.evaluate(f"localStorage.getItem('fandonia:{gid}:0')") == token
    ctx.close()


def test_a_bad_token_does_not_retry_the_websocket_forever(server, browser):  # noqa: F811
    """Defect: a page with a bad token retried its WebSocket every second forever."""
    gid, _, _ = new_game(server, max_turns=1)
    page, _ = open_page(browser, WIDE)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{server.url}/ui/play.html#game={gid}&seat=0&token=bad")
    page.wait_for_selector("#decision-body .error", timeout=30_000)
    page.wait_for_timeout(4000)
    assert len(sockets) <= 1, sockets
    page.close()


def test_the_spectator_page_follows_a_change_of_game_in_the_address(server, browser):  # noqa: F811
    """Defect: the spectator page ignored a change of game in the address (a pasted link, back/forward)."""
    g1, _, _ = new_game(server, max_turns=1)
    g2, _, _ = new_game(server, seats=["human", "noble-rule-v1"], seed=3, max_turns=1)
    page, errors = open_page(browser, WIDE)
    page.goto(f"{server.url}/ui/watch.html#game={g1}")
    page.wait_for_selector(f"#whoami:has-text('{g1}')", timeout=30_000)
    page.evaluate("h => { location.hash = h; }", f"game={g2}")
    page.wait_for_selector(f"#whoami:has-text('{g2}')", timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('#players tbody tr').length === 2", timeout=30_000)
    assert not errors, errors
    page.close()


def test_five_clicks_half_a_second_apart_send_one_move(server, browser):  # noqa: F811
    """Defect: 5 clicks about 0.55 s apart on one spot made 3 moves (the third hid the player's PC without
    asking): a series of clicks answers one prompt only, the next prompt waits until the clicking stops."""
    _, _, url = new_game(server)
    page, errors = open_page(browser, WIDE)
    posts = act_posts(page)
    page.goto(url)
    wait_decision(page, -1)
    step = int(page.get_attribute("#decision", "data-step"))
    wait_ready(page, step)
    first = page.locator("#decision .options button").first
    first.scroll_into_view_if_needed()
    box = first.bounding_box()
    for _ in range(5):
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(550)
    page.wait_for_timeout(800)
    assert len(posts) == 1, posts
    assert not errors, errors
    page.close()


def test_a_click_while_the_server_is_down_says_so_in_words(server, browser):  # noqa: F811
    """Defect: while the server was down a click showed a raw "Failed to fetch"."""
    _, _, url = new_game(server)
    page, errors = open_page(browser, WIDE)
    page.goto(url)
    wait_decision(page, -1)
    step = int(page.get_attribute("#decision", "data-step"))
    wait_ready(page, step)
    page.route("**/act*", lambda route: route.abort("connectionrefused"))
    page.locator("#decision .options button:not([data-confirm])").first.click()
    page.wait_for_selector("#act-error:not(:empty)", timeout=10_000)
    msg = page.inner_text("#act-error")
    assert "Failed to fetch" not in msg and "cannot reach the server" in msg.lower(), msg
    assert page.locator("#decision .options button:not([disabled])").count() > 0  # it may be tried again
    page.close()


def test_the_duel_dialog_gives_the_chance_its_button_shows(server, browser):  # noqa: F811
    """Defect: the duel dialog said "Chance of success: not known in advance" while its buttons said 33% /
    83%: the dialog shows the confirmation's chance in words where it has no single number."""
    _, _, url = new_game(server, max_turns=1)
    page, errors = open_page(browser, WIDE)
    page.goto(url)
    page.wait_for_selector("#decision .options button, #decision.idle p", timeout=30_000)
    text = page.evaluate("F.confirmOdds({title: 'Send your PC to fight the duel?', odds: null, lose: 'x', "
                         "chance: \"33% that Sir Guy's own roll kills the opponent\"})")
    assert "33%" in text and "not known" not in text
    assert "70%" in page.evaluate("F.confirmOdds({odds: 0.7, lose: 'x'})")
    page.close()


@pytest.fixture(scope="module")
def quick_expiry(tmp_path_factory):
    db = tmp_path_factory.mktemp("expiry") / "games.sqlite3"
    with ServerProcess(str(db), "--workers", "2", "--idle-expiry", "8") as srv:
        yield srv


def test_an_expired_game_shows_no_move_to_make(quick_expiry, browser):  # noqa: F811
    """Defect: an expired game still showed "Your move" with live buttons."""
    _, _, url = new_game(quick_expiry, seats=["human", "noble-rule-v1"], seed=3, max_turns=2)
    page, errors = open_page(browser, WIDE)
    page.goto(url)
    wait_decision(page, -1)
    assert page.locator("#decision .options button").count() > 0
    page.wait_for_function("() => document.body.dataset.status === 'expired'", timeout=60_000)
    page.wait_for_timeout(300)
    assert page.locator("#decision .options button").count() == 0
    assert visible_text(page, "#decision-h") != "Your move" and not page.title().startswith("Your move")
    assert "expired" in visible_text(page, "#banner").lower()
    assert not errors, errors
    page.close()


# ---------------------------------------------------------------------------
# axe-core
# ---------------------------------------------------------------------------
def axe_findings(page) -> list[str]:
    """axe-core's critical and serious findings on the page (rule id, impact and the first nodes)."""
    page.add_script_tag(path=str(AXE))
    res = page.evaluate("async () => { const r = await axe.run(document); return r.violations.map(v => "
                        "[v.id, v.impact, v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')]); }")
    return [" ".join(x) for x in res if x[1] in ("critical", "serious")]


@pytest.mark.parametrize("size", list(SIZES))
def test_axe_finds_nothing_critical_or_serious_on_the_four_pages(server, browser, size):  # noqa: F811
    """Defects (axe-core 4.10.2): the replay page had 2 critical findings (its file input and slider had no
    label), the play page 1 serious (the scrollable court table could not be focused), the watch page grey
    text at 3.54:1. The set-up, play, watch and replay pages: no critical and no serious finding."""
    phone = size == "phone"
    c = Client(server.url)
    g = c.create(["noble-rule-v1", "noble-rule-v2", "random-v1"], rules={"preset": "short-game", "max_turns": 1},
                 seed=11)
    wait_over(c, g["game_id"])
    gid, _, url = new_game(server, max_turns=2)
    pages = {"setup": (f"{server.url}/ui/", "#seat-2"),
             "play": (url, "#decision .options button, #decision.idle p"),
             "watch": (f"{server.url}/ui/watch.html#game={g['game_id']}", "#court tbody tr"),
             "replay": (f"{server.url}/ui/replay.html#game={g['game_id']}", "#position:has-text('position 0')")}
    found = {}
    for name, (address, ready) in pages.items():
        page, _ = open_page(browser, SIZES[size], is_mobile=phone, has_touch=phone)
        page.goto(address)
        page.wait_for_selector(ready, timeout=30_000)
        time.sleep(0.3)
        found[name] = axe_findings(page)
        page.close()
    assert not any(found.values()), "\n".join(f"{k}: {v}" for k, v in found.items())
