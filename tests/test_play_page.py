"""The play, spectator and replay pages of the game server, end to end in real headless Chromium (Debian's
`chromium`, driven by Playwright with the system browser), and the endpoints they use (/meta, /replays).

The browser tests start the real server process. One sets up a 3-player game with two nobles on the set-up
page and plays the human seat by clicking through a whole Player Turn of its own (with a card window on the
way), checking at every decision that the options are the engine's legal actions and that the hand panel is
exactly the seat's hand and shows no card of another seat (the true hands come from the same game played
again in Python); it reloads mid-game and goes on. Others play a whole short game through the page at
1400x1000 and at 390x844 (plain words in every question and option, focus, title, keys, Tab/Enter, no
sideways scrolling on the phone, the log in view and its filters, six quick clicks sending one move, every
move carrying its question's step, a game changed in the address), and check that a fatal choice asks first
(only a confirm sends it). Screenshots of every decision kind met and of the race, the phone, the
confirmation, the spectator and the replay are saved, and their key elements checked in the DOM. Set
FANDONIA_SCREENSHOTS=DIR to keep them (docs/screenshots is made that way)."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.data.components import CARD_TYPE_OF, CARD_TYPES  # noqa: E402
from fandonia_env.engine.face.game import make_config  # noqa: E402
from fandonia_env.engine.face.hidden import InfoSet  # noqa: E402
from fandonia_env.serve.client import Client, ServerProcess, auth, saved_game  # noqa: E402
from fandonia_env.serve.workers import make_agents  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# 3 players (human, noble-rule-v1, noble-rule-v2), short-game preset, max 6 turns: with the choices below the
# human seat meets a card window at its 2nd decision and ends its first Player Turn after 9 decisions (turn 1).
SEED = 32
SEATS = ["human", "noble-rule-v1", "noble-rule-v2"]
RULES = {"preset": "short-game", "max_turns": 6}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("play") / "games.sqlite3"
    with ServerProcess(str(db), "--workers", "2") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed "
                                                                  "(pip install -e '.[test]')")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where the screenshots go: FANDONIA_SCREENSHOTS=DIR (docs/screenshots is made that way), else a
    temporary artifacts directory of the test session."""
    d = os.environ.get("FANDONIA_SCREENSHOTS") or str(tmp_path_factory.mktemp("screenshots"))
    os.makedirs(d, exist_ok=True)
    t0 = time.time()
    yield d
    if os.environ.get("FANDONIA_SCREENSHOTS"):
        shrink_pngs(d, t0)


def shrink_pngs(d: str, since: float) -> None:
    """The screenshots written since `since` in 256 colours (a third of the bytes, the same page to the eye),
    where Pillow is installed."""
    try:
        from PIL import Image
    except ImportError:
        return
    for name in os.listdir(d):
        path = os.path.join(d, name)
        if name.endswith(".png") and os.path.getmtime(path) >= since:
            with Image.open(path) as im:
                q = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            q.save(path, optimize=True)


def choose(step: int, kind: str, ids: list[int]) -> int:
    """The human seat's choice: reproducible from what the page shows (as client.random_policy)."""
    return random.Random(f"0:{step}:{kind}").choice(ids)


class Shadow:
    """The same game played again in Python: the true state (every hand) at each of seat 0's decisions."""

    def __init__(self) -> None:
        self.game = Game(**make_config(players=3, seed=SEED, **RULES))
        self.bots = make_agents(SEATS, SEED, self.game.state.steps)

    def to_human(self) -> None:
        g = self.game
        while not g.over and g.current_player() != 0:
            p = g.current_player()
            g.apply(self.bots[p].act(g.view(p, log=False), g.legal_actions(), InfoSet(g.state, p)))


def wait_over(c: Client, gid: str, timeout: float = 120) -> None:
    t0 = time.monotonic()
    while c.summary(gid)["status"] == "playing":
        assert time.monotonic() - t0 < timeout, "the nobles' game did not end"
        time.sleep(0.1)


# ---------------------------------------------------------------------------
# The endpoints the pages use
# ---------------------------------------------------------------------------
def test_meta_lists_agents_presets_and_names(server):
    m = httpx.get(server.url + "/meta").json()
    assert "noble-rule-v1" in m["agents"] and "short-game" in m["presets"]
    assert [lv["id"] for lv in m["levels"]] == [f"noble-level-{k}" for k in range(1, 7)]
    assert m["characters"]["george"]["name"] == "King George" and len(m["characters"]) == 47
    assert m["cards"]["dwtk"] == "DOWN WITH THE KING" and m["succession"][0] == "george"
    assert m["counsel_tables"]["court_ball"]["counsels"][0].startswith("Gambling Advice")


def test_pages_are_served_from_the_package(server):
    r = httpx.get(server.url + "/", follow_redirects=False)
    assert r.status_code in (302, 307) and r.headers["location"] == "/ui/"
    for page in ("index.html", "play.html", "watch.html", "replay.html", "app.js", "style.css"):
        assert httpx.get(f"{server.url}/ui/{page}").status_code == 200, page


def test_replay_of_a_finished_server_game_steps_through_every_action(server):
    c = Client(server.url)
    g = c.create(["noble-rule-v1", "random-v1", "noble-rule-v2"], rules={"preset": "short-game", "max_turns": 2},
                 seed=5)
    wait_over(c, g["game_id"])
    rp = c.replay(g["game_id"])
    info = httpx.post(server.url + "/replays", json={"doc": rp}).json()
    assert info["n_frames"] == len(rp["actions"]) + 1 and info["result"] == rp["result"]
    rid = info["replay_id"]
    last = httpx.get(f"{server.url}/replays/{rid}/frames/{info['n_frames'] - 1}").json()
    assert last["next_action"] is None and last["view"]["over"]
    assert [e["text"] for e in last["view"]["log"]] == [e["text"] for e in rp["log"]]
    fin = saved_game(rp["final"]).state
    assert [h["hand"] for h in last["hidden"]] == [sorted(CARD_TYPE_OF[x] for x in p.hand) for p in fin.players]
    mid = len(rp["actions"]) // 2
    f = httpx.get(f"{server.url}/replays/{rid}/frames/{mid}").json()
    assert f["next_action"]["action"] == rp["actions"][mid]["action"]
    assert f["decision"]["player"] == rp["actions"][mid]["seat"]
    assert rp["actions"][mid]["action"] in [o["id"] for o in f["decision"]["options"]]
    assert httpx.get(f"{server.url}/replays/{rid}/frames/{info['n_frames']}").json()["error"] == "no_such_frame"
    # a record whose actions were changed is refused, naming the action
    bad = dict(rp, actions=[dict(a) for a in rp["actions"]])
    bad["actions"][3]["seat"] = (bad["actions"][3]["seat"] + 1) % 3
    r = httpx.post(server.url + "/replays", json={"doc": bad})
    assert r.status_code == 422 and r.json()["error"] == "bad_replay" and "action 3" in r.json()["detail"]


def test_replay_of_a_saved_position_and_refusals(server):
    g = Game(players=3, seed=2, preset="short-game")
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    info = httpx.post(server.url + "/replays", json={"doc": g.to_json()}).json()
    assert info["source"] == "saved_game" and info["n_frames"] == 1
    f = httpx.get(f"{server.url}/replays/{info['replay_id']}/frames/0").json()
    assert len(f["view"]["log"]) == len(g.state.log)
    r = httpx.post(server.url + "/replays", json={"doc": {"hello": 1}})
    assert r.status_code == 422 and "expected a game record" in r.json()["detail"]
    r = httpx.post(server.url + "/replays", json={"doc": {"config": {"players": 9}, "actions": []}})
    assert r.status_code == 422 and r.json()["error"] == "bad_replay"
    assert httpx.get(server.url + "/replays/nope/frames/0").json()["error"] == "no_such_replay"


def test_replay_of_a_tournament_game_plays_it_again(server, tmp_path):
    from fandonia_env.arena.tournament import run_tournament

    res = run_tournament(lineup=["noble-rule-v1", "random-v1", "random-v1"], games=2, seed=4, max_turns=2,
                         jobs=1, progress=False, plot=False, bootstrap=10)
    doc = res.to_json()
    listing = httpx.post(server.url + "/replays", json={"doc": doc}).json()
    assert listing["replay_id"] is None and [g["index"] for g in listing["games"]] == list(range(len(doc["games"])))
    info = httpx.post(server.url + "/replays", json={"doc": doc, "game": 1}).json()
    rec = doc["games"][1]
    assert info["source"] == "tournament" and info["n_frames"] == rec["decisions"] + 1
    assert (info["result"], info["winner"]) == (rec["result"], rec["winner"])
    assert [s["agent"] for s in info["seats"]] == rec["seats"]
    r = httpx.post(server.url + "/replays", json={"doc": doc, "game": 7})
    assert r.status_code == 404 and f"0..{len(doc['games']) - 1}" in r.json()["detail"]


# ---------------------------------------------------------------------------
# The pages in Chromium
# ---------------------------------------------------------------------------
NEW_DECISION = """([last, started]) => {
  const s = document.querySelector('#decision[data-step]');
  if (s && parseInt(s.dataset.step, 10) > last) return true;
  if (document.body.dataset.status && document.body.dataset.status !== 'playing') return true;
  return started && document.body.dataset.active !== '0' && document.body.dataset.active !== undefined;
}"""
WIDE = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
# words a player should never read in a prompt or an option: engine keys (snake_case), relative seats, a bare §
RAW = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\brel:|§")
SAVED_KINDS: set[str] = set()
PAGE_ERRORS: dict[int, list[str]] = {}


def panel_cards(page) -> list[str]:
    return page.locator("#hand ul.hand-cards > li").evaluate_all(
        "ls => ls.map(l => l.querySelector('summary, .card-name').textContent)")


def open_page(browser, viewport: dict, **kw):
    """A new page and the list of its script errors (and console errors other than a missing resource)."""
    page = browser.new_page(viewport=viewport, **kw)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append("console: " + m.text)
            if m.type == "error" and "Failed to load resource" not in m.text else None)
    PAGE_ERRORS[id(page)] = errors
    return page, errors


def explained(page, wait, *args, **kw):
    """A wait on the page; when it times out, the page's errors and the shown decision are in the message."""
    try:
        return wait(*args, **kw)
    except Exception as e:
        state = page.evaluate("() => { const s = document.querySelector('#decision'); return [s.className, "
                              "s.dataset.step, s.dataset.kind, s.dataset.ready, document.body.dataset.status, "
                              "document.querySelector('#decision-body').innerText.slice(0, 300)]; }")
        raise AssertionError(f"{e}\npage errors: {PAGE_ERRORS.get(id(page))}\ndecision: {state}") from e


def wait_decision(page, last: int, started: bool = False, timeout: int = 90_000) -> None:
    """A new prompt after step `last` (or the end of the game, or of the seat's turn when `started`)."""
    explained(page, page.wait_for_function, NEW_DECISION, arg=[last, started], timeout=timeout)


def wait_ready(page, step: int) -> None:
    """The prompt of this step is shown and armed (a new prompt ignores clicks and keys for a moment)."""
    explained(page, page.wait_for_selector, f"#decision[data-step='{step}'][data-ready]", timeout=30_000)


FATAL = ("free_usurp", "free_suicide")


def option_ids(page, confirm: bool | None = None, names_out: tuple[str, ...] = ()) -> list[int]:
    """The ids of the options shown (only those the server marks as risky, or only the others; without the
    actions named in names_out)."""
    sel = "#decision .options button" + {None: "", True: "[data-confirm]", False: ":not([data-confirm])"}[confirm]
    return [int(x) for x, name in page.locator(sel).evaluate_all("bs => bs.map(b => [b.dataset.actionId, "
                                                                  "b.dataset.name])") if name not in names_out]


def confirm_dialog(page) -> None:
    """Answer the confirmation of a risky option: Yes (armed a moment after it opens)."""
    explained(page, page.wait_for_selector, "dialog#confirm[open] #confirm-ok:not([disabled])", timeout=10_000)
    page.click("#confirm-ok")


def check_wording(page, kind: str) -> None:
    """The prompt and every option in plain words: no engine key, no relative seat, no bare rule number; the
    page's title and the live region announce the move."""
    prompt = page.inner_text("#decision #prompt")
    assert prompt.strip() and not RAW.search(prompt), (kind, prompt)
    text = page.inner_text("#decision")
    assert not RAW.search(text), (kind, RAW.search(text).group(0), text)
    assert page.title().startswith("Your move: ") and prompt.strip() in page.title()
    assert page.inner_text("#announce").startswith("Your move: ")


def shoot_kind(page, shots: str, kind: str) -> None:
    """decision-<kind>.png, once per kind: the top of the page at this decision (the race, the question and its
    options, what just happened)."""
    if kind in SAVED_KINDS:
        return
    SAVED_KINDS.add(kind)
    bottom = page.evaluate("Math.max(...['#decision', '#recent-sec'].map(s => "
                           "document.querySelector(s).getBoundingClientRect().bottom)) + window.scrollY + 8")
    page.screenshot(path=os.path.join(shots, f"decision-{kind}.png"), full_page=True,
                    clip={"x": 0, "y": 0, "width": page.viewport_size["width"], "height": min(bottom, 1400)})


def act_posts(page) -> list[dict]:
    """Every move the page sends (POST .../act), with the body it carries."""
    posts: list[dict] = []
    page.on("request", lambda r: posts.append(json.loads(r.post_data)) if r.method == "POST" and "/act" in r.url
            else None)
    return posts


def test_setup_difficulty_sets_every_computer_seat_to_a_level_with_its_sentence(server, browser):
    """The set-up page offers the six levels (from /meta) as one "Difficulty" choice: picking one puts that
    level in every computer seat (a human seat stays human, a seat added later gets it too), shows the
    level's sentence, and the game is created with those nobles."""
    levels = httpx.get(server.url + "/meta").json()["levels"]
    page, errors = open_page(browser, WIDE)
    page.goto(server.url + "/ui/")
    page.wait_for_selector("#difficulty option[value='noble-level-6']", state="attached")
    labels = page.locator("#difficulty option").all_inner_texts()
    assert labels[0] == "seat by seat" and labels[1] == "level 1 (beginner)" and labels[-1] == "level 6 (strongest)"
    page.select_option("#players", "3")
    page.select_option("#difficulty", "noble-level-2")
    assert [page.input_value(f"#seat-{i}") for i in range(3)] == ["human", "noble-level-2", "noble-level-2"]
    about = page.inner_text("#difficulty-about")
    assert about.startswith("Level 2: ") and levels[1]["sentence"] in about
    page.select_option("#players", "4")
    assert page.input_value("#seat-3") == "noble-level-2"
    page.select_option("#seat-3", "noble-rule-v1")  # one seat changed by hand after the choice
    page.select_option("#preset", "short-game")
    page.fill("#max_turns", "1")
    page.click("#create")
    page.wait_for_url("**/play.html#game=*")
    gid = dict(x.split("=", 1) for x in page.url.split("#", 1)[1].split("&"))["game"]
    summary = httpx.get(f"{server.url}/games/{gid}").json()
    assert [s["agent"] or "human" for s in summary["seats"]] == ["human", "noble-level-2", "noble-level-2",
                                                                  "noble-rule-v1"]
    assert not errors, errors
    page.close()


def test_play_page_whole_turn_with_card_window_reload_and_no_other_hand(server, browser, shots):
    page, errors = open_page(browser, WIDE)
    page.goto(server.url + "/ui/")
    # set up: 3 players, seat 0 human, two nobles, short-game preset
    page.select_option("#players", "3")
    page.select_option("#seat-1", "noble-rule-v1")
    page.select_option("#seat-2", "noble-rule-v2")
    page.select_option("#preset", "short-game")
    page.fill("#max_turns", "6")
    page.fill("#seed", str(SEED))
    page.check("#public_seed")  # the shadow game below replays this very deal
    page.click("#create")
    page.wait_for_url("**/play.html#game=*")
    params = dict(x.split("=", 1) for x in page.url.split("#", 1)[1].split("&"))
    gid, token = params["game"], params["token"]
    assert params["seat"] == "0"
    summary = httpx.get(f"{server.url}/games/{gid}").json()
    assert [s["agent"] or "human" for s in summary["seats"]] == SEATS

    shadow = Shadow()
    last, started, clicks, special, reloaded, other_cards_seen, turns = -1, False, 0, [], False, 0, 0
    while True:
        wait_decision(page, last, started)
        if page.get_attribute("body", "data-status") != "playing":
            break
        active = page.get_attribute("body", "data-active")
        if started and active != "0":  # a whole Player Turn of the human seat is over
            turns += 1
            if special or turns == 3:
                break
            started = False  # no card window or modifier yet (the engine changed?): play its next turn too
            continue
        sec = page.locator("#decision")
        step, kind = int(sec.get_attribute("data-step")), sec.get_attribute("data-kind")
        assert step == last + 1
        wait_ready(page, step)
        check_wording(page, kind)
        ids = option_ids(page)
        # the page offers exactly the engine's legal choices at the same point of the same game
        shadow.to_human()
        assert ids == shadow.game.legal_actions()
        # the hand panel is the seat's own hand, and no card only another seat holds is in it
        own = httpx.get(f"{server.url}/games/{gid}/seats/0", headers=auth(token)).json()["view"]["hand"]
        assert sorted(panel_cards(page)) == sorted(CARD_TYPES[k].name for k in own)
        st = shadow.game.state
        assert sorted(own) == sorted(CARD_TYPE_OF[c] for c in st.players[0].hand)
        others = {CARD_TYPES[CARD_TYPE_OF[c]].name for p in st.players[1:] for c in p.hand} - \
            {CARD_TYPES[k].name for k in own}
        other_cards_seen += len(others)
        assert not others & set(panel_cards(page))
        for pl in page.locator("#players tbody tr").all():
            seat = int(pl.get_attribute("data-seat"))
            assert pl.locator("td.hand-size").inner_text() == str(len(st.players[seat].hand))
        if kind in ("card_window", "declare_modifier"):
            special.append(kind)
            assert page.locator("#decision .options button[data-name='pass']").count() == 1
            page.screenshot(path=os.path.join(shots, "play.png"), full_page=False)
            check_play_screenshot_elements(page, kind)
        shoot_kind(page, shots, kind)
        a = choose(step, kind, ids)
        if active == "0":
            started = True
        button = f"#decision .options button[data-action-id='{a}']"
        risky_choice = page.get_attribute(button, "data-confirm") is not None
        if clicks % 3 == 2:  # keyboard shortcut: the option's key
            page.keyboard.press(page.get_attribute(button, "data-key"))
        else:
            page.click(button)
        if risky_choice:  # a risky option: confirmed
            confirm_dialog(page)
        shadow.game.apply(a)
        clicks += 1
        last = step
        if clicks == 3 and not reloaded:  # reload mid-game: the page comes back at the same point
            wait_decision(page, last, True)
            page.reload()
            page.wait_for_selector("#decision .options button, #decision.idle p", timeout=30_000)
            reloaded = True
    assert special, "the human seat met no card window or modifier sign decision"
    assert reloaded and clicks >= 4 and other_cards_seen > 0
    assert page.get_attribute("body", "data-status") == "playing", (clicks, turns, special,
                                                                    page.inner_text("#log")[-3000:])
    log = page.inner_text("#log")
    assert "--- Player 0's turn ---" in log and "You drew" in log  # the seat's own private lines
    assert not errors, errors

    # the spectator page: public information only
    watch = browser.new_page(viewport=WIDE)
    watch.on("pageerror", lambda e: errors.append(str(e)))
    watch.goto(f"{server.url}/ui/watch.html#game={gid}")
    try:
        watch.wait_for_selector("#court tbody tr")
    finally:
        assert not errors, errors
    assert watch.locator("#hand").count() == 0
    assert watch.locator("#players tbody tr").count() == 3
    assert watch.locator("#court tbody tr").count() == 47
    assert watch.locator("#race tbody tr").count() == 3
    assert "You drew" not in watch.inner_text("#log") and "--- Player 0's turn ---" in watch.inner_text("#log")
    assert "noble-rule-v2" in watch.inner_text("#players")
    watch.screenshot(path=os.path.join(shots, "spectator.png"))
    watch.close()
    page.close()


def check_play_screenshot_elements(page, kind: str) -> None:
    """The key elements of the play page, read from the DOM when the screenshot is taken."""
    assert page.locator("#decision .options button kbd").first.inner_text() == "1"
    assert page.locator("#players tbody tr").count() == 3
    assert page.locator("#players tr.me").inner_text().startswith("Player 0 (you)")
    assert page.locator("#race tbody tr").count() == 3 and page.inner_text("#race .goal").startswith("Goal:")
    assert page.locator("#court tbody tr").count() == 47
    assert page.locator("#court thead").inner_text().split() == ["Character", "Status", "Office", "Title",
                                                                 "Faction", "Situation"]
    assert page.locator("ol.succession li").count() == 9
    status = page.inner_text("#status")
    assert "Monarch's Support" in status and "Political problems" in status
    assert page.inner_text("#hand").startswith("Event cards in your hand")
    assert page.locator("#faction tbody tr").count() >= 1
    assert page.locator("#log div").count() > 10


# a whole game (3 players, two nobles, short-game preset, 2 or 3 turns) played through the page at each size;
# with the choices below (never a risky option) seat 0 meets 14 kinds of decision at the wide size, 11 on the phone
FULL_GAMES = {"wide": (WIDE, 2, 3), "phone": (PHONE, 26, 2)}


@pytest.mark.parametrize("size", list(FULL_GAMES))
def test_full_game_through_the_page(server, browser, shots, size):
    viewport, seed, max_turns = FULL_GAMES[size]
    phone = size == "phone"
    c = Client(server.url)
    g = c.create(SEATS, rules={"preset": "short-game", "max_turns": max_turns}, seed=seed, public_seed=True)
    gid, token = g["game_id"], g["seats"][0]["token"]
    page, errors = open_page(browser, viewport, is_mobile=phone, has_touch=phone)
    posts = act_posts(page)
    page.goto(f"{server.url}/ui/play.html#game={gid}&seat=0&token={token}")
    assert page.locator("meta[name=viewport]").count() == 1
    assert page.evaluate("innerWidth") == viewport["width"]  # the phone honours the viewport meta tag
    last, kinds, n, rapid_checked, confirm_checked, keyed, tabbed = -1, [], 0, False, False, 0, 0
    rapid_just_now, confirmed = False, 0
    while True:
        wait_decision(page, last, False)
        if page.get_attribute("body", "data-status") != "playing":
            break
        sec = page.locator("#decision")
        step, kind = int(sec.get_attribute("data-step")), sec.get_attribute("data-kind")
        assert step == last + 1, "a move was sent for a prompt the page did not show"
        wait_ready(page, step)
        check_wording(page, kind)
        kinds.append(kind)
        ids = option_ids(page)
        # focus stays on the decision: the first option has it after every move (but where the quick clicks of
        # the last move landed, if they fell on this prompt)
        if not rapid_just_now:
            assert page.evaluate("document.activeElement.dataset.actionId") == str(ids[0]), (kind, step)
        rapid_just_now = False
        if phone:
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), kind
            assert page.locator("#decision .options button").evaluate_all(
                "bs => bs.every(b => b.getBoundingClientRect().right <= innerWidth)")
            if n == 0:
                page.screenshot(path=os.path.join(shots, "phone.png"))
            shoot_kind(page, shots, kind)  # a kind only the phone's game met (at the phone's size)
        else:
            shoot_kind(page, shots, kind)
            if n == 0:  # the log is in view, and stays there when the page scrolls
                assert page.evaluate("document.querySelector('#log').getBoundingClientRect().top < innerHeight - 100")
                page.evaluate("window.scrollTo(0, 1500)")
                assert page.evaluate("(r => r.top >= 0 && r.top < innerHeight - 100)"
                                     "(document.querySelector('#log').getBoundingClientRect())")
                page.evaluate("window.scrollTo(0, 0)")
        if not confirm_checked and option_ids(page, confirm=True):
            # a fatal choice (a usurpation here) asks first, with its odds and what is lost; a cancel sends nothing
            risky = option_ids(page, confirm=True)[0]
            before = len(posts)
            page.click(f"#decision .options button[data-action-id='{risky}']")
            dlg = page.locator("dialog#confirm")
            dlg.wait_for(state="visible")
            assert "Chance of success" in dlg.inner_text() and "What you risk" in dlg.inner_text()
            assert not RAW.search(dlg.inner_text())
            page.keyboard.press("Escape")
            dlg.wait_for(state="hidden")
            page.wait_for_timeout(300)
            assert len(posts) == before and int(sec.get_attribute("data-step")) == step
            confirm_checked = True
        # never a usurpation or a suicide (a game that goes on meets more kinds of decision); the choices do not
        # depend on which options the server marks as risky: a chosen risky option is confirmed
        a = choose(step, kind, option_ids(page, names_out=FATAL) or ids)
        button = f"#decision .options button[data-action-id='{a}']"
        risky_choice = page.locator(button).get_attribute("data-confirm") is not None
        before = len(posts)
        if not rapid_checked and n >= 1 and not risky_choice:
            # six quick clicks on the same spot: one move, for the prompt that was seen
            page.locator(button).scroll_into_view_if_needed()
            box = page.locator(button).bounding_box()
            for _ in range(6):
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_timeout(600)
            assert len(posts) == before + 1, posts[before:]
            rapid_checked = rapid_just_now = True
        elif n % 4 == 2 and ids.index(a) < 8:  # Tab from the first option, then Enter
            page.locator("#decision .options button").first.focus()
            for _ in range(ids.index(a)):
                page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.dataset.actionId") == str(a)
            page.keyboard.press("Enter")
            tabbed += 1
        elif n % 4 == 3:  # the option's key (1-9, 0, then letters)
            page.keyboard.press(page.get_attribute(button, "data-key"))
            keyed += 1
        else:
            page.click(button)
        if risky_choice:
            confirm_dialog(page)
            confirmed += 1
        n += 1
        last = step
        assert n < 200, "the short game does not end"
    # every move carried the step of the prompt it answered, one move per prompt
    assert [p["step"] for p in posts] == list(range(n)), posts
    assert rapid_checked and confirm_checked and keyed and tabbed
    assert len(set(kinds)) >= 8, kinds
    assert "turn_main" in kinds and c.summary(gid)["status"] == "over"
    assert page.inner_text("#banner").startswith("The game is over")
    st = httpx.get(f"{server.url}/games/{gid}/seats/0", headers=auth(token)).json()
    assert st["step"] == n
    if phone:
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    else:
        page.locator("#race").screenshot(path=os.path.join(shots, "race.png"))
        check_log_filters(page)
        # another game's link pasted in the address: the page loads that game
        g2 = c.create(["human", "noble-rule-v1"], rules={"preset": "short-game", "max_turns": 1}, seed=3, public_seed=True)
        page.evaluate("h => { location.hash = h; }", f"game={g2['game_id']}&seat=0&token={g2['seats'][0]['token']}")
        page.wait_for_selector(f"#whoami:has-text('Game {g2['game_id']}')", timeout=30_000)
        page.wait_for_selector("#race tbody tr >> nth=1")
        assert page.locator("#race tbody tr").count() == 2
    assert not errors, errors
    page.close()


def check_log_filters(page) -> None:
    """The log shows everyone's lines, only the seat's own, only the others', or the lines with a text."""
    visible = "() => [...document.querySelectorAll('#log div')].filter(d => d.offsetParent !== null).map(d => d.textContent)"
    everyone = page.evaluate(visible)
    page.select_option("#log-filter", "mine")
    mine = page.evaluate(visible)
    assert mine and len(mine) < len(everyone)
    private = set(page.locator("#log div[data-private]").all_inner_texts())
    names = page.locator("#faction tbody td b").all_inner_texts()
    assert all(t in private or re.search(r"\b[Pp]layer 0\b|^You ", t) or any(x in t for x in names) for t in mine)
    page.select_option("#log-filter", "others")
    others = page.evaluate(visible)
    assert others and len(mine) + len(others) == len(everyone)
    page.select_option("#log-filter", "all")
    page.fill("#log-search", "draws")
    found = page.evaluate(visible)
    assert found and all("draws" in t.lower() for t in found)
    assert page.inner_text("#log-count").endswith(f"of {len(everyone)} lines")
    page.fill("#log-search", "")
    assert page.evaluate(visible) == everyone


def test_fatal_choice_asks_for_confirmation_and_only_a_confirm_sends_it(server, browser, shots):
    """A usurpation (offered at every main decision of a Player Turn) may kill the player's PC: its button
    opens a dialog with the odds and what is lost; Cancel sends nothing; Confirm sends exactly that move."""
    c = Client(server.url)
    g = c.create(["human", "noble-rule-v1"], rules={"preset": "short-game", "max_turns": 2}, seed=4, public_seed=True)
    gid, token = g["game_id"], g["seats"][0]["token"]
    page, errors = open_page(browser, WIDE)
    posts = act_posts(page)
    page.goto(f"{server.url}/ui/play.html#game={gid}&seat=0&token={token}")
    last = -1
    for _ in range(100):
        wait_decision(page, last, False)
        assert page.get_attribute("body", "data-status") == "playing"
        step = int(page.get_attribute("#decision", "data-step"))
        wait_ready(page, step)
        if page.locator("#decision .options button[data-confirm]").count():
            break
        ids = option_ids(page, confirm=False)  # nothing risky yet
        page.click(f"#decision .options button[data-action-id='{choose(step, 'x', ids)}']")
        last = step
    else:
        pytest.fail("no risky option met")
    risky = page.locator("#decision .options button[data-confirm]").first
    aid = int(risky.get_attribute("data-action-id"))
    assert "risky" in risky.inner_text()
    before = len(posts)
    risky.click()
    dlg = page.locator("dialog#confirm")
    dlg.wait_for(state="visible")
    text = dlg.inner_text()
    assert "Chance of success" in text and "What you risk" in text and not RAW.search(text)
    assert page.evaluate("document.activeElement.id") == "confirm-cancel"  # the safe answer has the focus
    page.wait_for_timeout(450)
    page.screenshot(path=os.path.join(shots, "confirm.png"))
    page.click("#confirm-cancel")
    dlg.wait_for(state="hidden")
    page.wait_for_timeout(300)
    assert len(posts) == before and int(page.get_attribute("#decision", "data-step")) == step
    risky.click()
    dlg.wait_for(state="visible")
    page.wait_for_selector("#confirm-ok:not([disabled])")
    page.click("#confirm-ok")
    wait_decision(page, step, False)
    assert posts[before:] == [{"action": aid, "step": step}]
    assert not errors, errors
    page.close()


def test_replay_page_steps_forward_and_back_and_opens_a_tournament(server, browser, shots, tmp_path):
    c = Client(server.url)
    g = c.create(["noble-rule-v1", "noble-rule-v2", "random-v1"], rules={"preset": "short-game", "max_turns": 2},
                 seed=11)
    wait_over(c, g["game_id"])
    rp = c.replay(g["game_id"])
    n = len(rp["actions"])
    page, errors = open_page(browser, WIDE)
    page.goto(f"{server.url}/ui/replay.html#game={g['game_id']}")
    page.wait_for_selector(f"#position:has-text('position 0 / {n}')")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#position:has-text('position 1 / ')")
    page.click("#next")
    page.wait_for_selector("#position:has-text('position 2 / ')")
    page.click("#next")
    page.wait_for_selector("#position:has-text('position 3 / ')")
    page.click("#prev")
    page.wait_for_selector("#position:has-text('position 2 / ')")
    assert page.inner_text("#next-action").startswith(f"Next: Player {rp['actions'][2]['seat']} — ")
    assert page.locator("#hidden-hands tr").count() == 4  # a header and every player's hand
    page.click("#last")
    page.wait_for_selector(f"#position:has-text('position {n} / {n}')")
    assert page.inner_text("#next-action") == "End of the record."
    assert page.locator("#court tbody tr").count() == 47
    page.click("#first")
    page.wait_for_selector(f"#position:has-text('position 0 / {n}')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#position:has-text('position 2 / ')")
    page.screenshot(path=os.path.join(shots, "replay.png"))
    # a tournament's results.json opened from a file: its games are listed, one is played again and shown
    from fandonia_env.arena.tournament import run_tournament

    out = tmp_path / "t"
    run_tournament(lineup=["noble-rule-v1", "random-v1"], games=2, seed=3, max_turns=2, jobs=1, progress=False,
                   plot=False, bootstrap=10, out=str(out))
    page.set_input_files("#file", str(out / "results.json"))
    page.wait_for_selector("#tournament button[data-game='1']")
    page.click("#tournament button[data-game='1']")
    page.wait_for_selector("#note:has-text('tournament game 1')")
    page.wait_for_selector("#position:has-text('position 0 / ')")
    assert not errors, errors
    page.close()


def test_game_created_without_a_seed_is_played_to_the_end_and_replayed_in_the_page(server, browser):
    """No seed filled in: the server draws a 63-bit one (beyond a JavaScript number's 2**53), keeps it secret
    during play and publishes it as a string in the replay, so the page's "Replay it" link opens the game (a
    rounded seed made the server refuse the record with 422)."""
    page, errors = open_page(browser, WIDE)
    page.goto(server.url + "/ui/")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "noble-rule-v1")
    page.select_option("#preset", "short-game")
    page.fill("#max_turns", "1")
    assert page.input_value("#seed") == ""
    page.click("#create")
    page.wait_for_url("**/play.html#game=*")
    params = dict(x.split("=", 1) for x in page.url.split("#", 1)[1].split("&"))
    gid, token = params["game"], params["token"]
    assert "seed" not in httpx.get(f"{server.url}/games/{gid}").json()["config"]
    last, clicks = -1, 0
    while True:
        wait_decision(page, last, False)
        if page.get_attribute("body", "data-status") != "playing":
            break
        sec = page.locator("#decision")
        step, kind = int(sec.get_attribute("data-step")), sec.get_attribute("data-kind")
        wait_ready(page, step)
        check_wording(page, kind)
        a = choose(step, kind, option_ids(page))
        button = f"#decision .options button[data-action-id='{a}']"
        risky_choice = page.get_attribute(button, "data-confirm") is not None
        page.click(button)
        if risky_choice:
            confirm_dialog(page)
        clicks += 1
        last = step
        assert clicks < 400, "the 1-turn game does not end"
    assert clicks > 0
    # the log the page put together from one read and the pushes' new lines is the seat's whole log,
    # its private lines marked
    st = httpx.get(f"{server.url}/games/{gid}/seats/0", headers=auth(token)).json()
    page.wait_for_function("n => document.querySelectorAll('#log div').length === n", arg=len(st["view"]["log"]),
                           timeout=30_000)
    assert page.locator("#log div").all_inner_texts() == st["view"]["log"]
    marked = page.locator("#log div").evaluate_all("ds => ds.flatMap((d, i) => d.dataset.private ? [i] : [])")
    assert marked == st["log_private"]
    assert marked or not any(t.startswith("You ") for t in st["view"]["log"])  # (a seat whose PC died draws nothing)
    rp = httpx.get(f"{server.url}/games/{gid}/replay").json()
    assert isinstance(rp["config"]["seed"], str) and int(rp["config"]["seed"]) < 2**63
    n = len(rp["actions"])
    page.click("#banner a:has-text('Replay it')")
    page.wait_for_url("**/replay.html#game=*")
    page.wait_for_selector(f"#position:has-text('position 0 / {n}')", timeout=30_000)
    assert page.inner_text("#open-error") == ""
    page.click("#last")
    page.wait_for_selector(f"#position:has-text('position {n} / {n}')")
    assert page.inner_text("#next-action") == "End of the record."
    assert not errors, errors
    page.close()


def test_an_answer_to_a_question_that_changed_is_refused(server, browser):
    """Two tabs of the same seat; the second gets no pushes (its WebSocket is held back), so it still shows the
    question the first one answered. A click there carries the old step: the server refuses it (409
    stale_step), the game does not move, and the tab shows the current question with a note."""
    c = Client(server.url)
    g = c.create(["human", "noble-rule-v1"], rules={"preset": "short-game", "max_turns": 1}, seed=3, public_seed=True)
    url = f"{server.url}/ui/play.html#game={g['game_id']}&seat=0&token={g['seats'][0]['token']}"
    a, errors_a = open_page(browser, WIDE)
    a.goto(url)
    wait_decision(a, -1)
    step = int(a.get_attribute("#decision", "data-step"))
    wait_ready(a, step)
    b, errors_b = open_page(browser, WIDE)
    b.route_web_socket("**/ws", lambda ws: None)  # no pushes: the tab keeps the question it loaded
    posts_b = act_posts(b)
    refused: list[int] = []
    b.on("response", lambda r: refused.append(r.status) if r.request.method == "POST" else None)
    b.goto(url)
    wait_ready(b, step)
    ids = option_ids(a, confirm=False)
    a.click(f"#decision .options button[data-action-id='{ids[0]}']")
    wait_decision(a, step)
    answered = httpx.get(f"{server.url}/games/{g['game_id']}/seats/0", headers=auth(g["seats"][0]["token"])).json()
    assert answered["step"] == step + 1
    assert int(b.get_attribute("#decision", "data-step")) == step  # the old question, still shown
    old = option_ids(b, confirm=False)[-1]
    b.click(f"#decision .options button[data-action-id='{old}']")
    b.wait_for_selector("#decision .notice", timeout=30_000)
    assert "already changed" in b.inner_text("#decision .notice")
    assert posts_b == [{"action": old, "step": step}] and refused == [409]
    after = httpx.get(f"{server.url}/games/{g['game_id']}/seats/0", headers=auth(g["seats"][0]["token"])).json()
    assert after["step"] == step + 1  # the click on the old question moved nothing
    assert not errors_a and not errors_b, errors_a + errors_b
    a.close()
    b.close()
