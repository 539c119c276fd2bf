"""The advisor (issue 43): its suggestion is the move noble-ppo-v2 plays, over every decision of whole games in both
editions at 2, 3, 4 and 6 players; it reads the seat's view only (redealing what the seat cannot see changes
nothing); its words are the options' own labels; the server's route refuses bad tokens, seats and games, rated
games and seats without a decision with a clear error and changes nothing; the replay's advice is the same for
every seat after the game; the terminal game's ``advise``; and, in headless Chromium, the play page's switch
shows a suggestion that is one of the offered options."""

from __future__ import annotations

import io
import random
import shutil
import time
import warnings

import pytest
from helpers import random_moves, seat_decision

from fandonia_env.agents import make_agent
from fandonia_env.agents.advisor import TOP, AdvisorError, advise, advisor_noble, win_chance
from fandonia_env.engine import Game
from fandonia_env.engine.face.game import make_config, player_view
from fandonia_env.engine.face.hidden import resample
from fandonia_env.engine.face.seat import SeatView
from fandonia_env.words import decision_words
from fandonia_env.words.advice import advice_words

# (players, edition, seed): whole games to the rules' end
GAMES = [(2, "1981", 21), (3, "errata", 22), (4, "errata", 23), (6, "1981", 24)]


def _seats(n: int) -> list[str]:
    """noble-ppo-v2 at the even seats, noble-rule-v1 at the odd ones: positions the advisor's noble meets and
    positions it would not reach by itself."""
    return ["noble-ppo-v2" if i % 2 == 0 else "noble-rule-v1" for i in range(n)]


@pytest.mark.parametrize(("n", "edition", "seed"), GAMES)
def test_suggestion_is_what_the_noble_plays_at_every_decision_of_a_whole_game(n, edition, seed):
    g = Game(**make_config(players=n, seed=seed, edition=edition))
    bots = [make_agent(a, seed=seed * 10 + i) for i, a in enumerate(_seats(n))]
    judge = make_agent("noble-ppo-v2", seed=12345)  # another noble-ppo-v2: its move at the odd seats' decisions
    bot = advisor_noble()
    checked = 0
    while not g.over:
        p = g.current_player()
        v, legal = g.view(p, log=False), g.legal_actions()
        a = advise(v, bot=bot)
        move = bots[p].act(v, legal)
        assert a["suggestion"] == (move if bots[p].id == "noble-ppo-v2" else judge.act(v, legal))
        assert a["suggestion"] == advise(SeatView.of(g.state, p))["suggestion"]  # the live view: the same
        ids = [w["id"] for w in a["weighs"]]
        assert ids[0] == a["suggestion"] and len(ids) == min(TOP, len(legal)) and set(ids) <= set(legal)
        probs = [w["prob"] for w in a["weighs"]]
        assert probs == sorted(probs, reverse=True) and 0 <= sum(probs) <= 1 + 1e-6
        assert 0.0 <= a["win_chance"] <= 1.0 and a["n_options"] == len(legal)
        checked += len(legal) > 1
        g.apply(move)
    assert g.result is not None and checked > 100


def test_advice_reads_the_seats_view_only_resampling_hidden_cards_changes_nothing():
    """Other hands, drawn counters, pile order and future dice redrawn consistently with the seat's view
    (``engine.face.hidden.resample``): the advice from the live view of each redealt state is the same."""
    rng = random.Random(5)
    for n, seed in ((3, 31), (5, 32)):
        g = Game(players=n, seed=seed, max_turns=8)
        seen = changed = 0
        for _ in random_moves(g, rng, 250):
            p = g.current_player()
            if p is None or len(g.legal_actions()) < 2 or rng.random() > 0.3:
                continue
            want = advise(SeatView.of(g.state, p))
            for _ in range(3):
                r = resample(g.state, p, rng)
                changed += any(a.hand != b.hand for a, b in zip(r.players, g.state.players))
                assert advise(SeatView.of(r, p)) == want
                assert advise(player_view(r, p, log=False)) == want
            seen += 1
        assert seen > 10 and changed > seen  # the redeals did move hidden cards


def test_words_are_the_options_own_labels_and_the_sentence_names_the_suggestion():
    g = Game(players=4, seed=8, max_turns=4)
    for _ in random_moves(g, random.Random(8), 60):
        p = g.current_player()
        if p is None:
            continue
        v = g.view(p, log=False)
        labels = {o["id"]: o["label"] for o in decision_words(v)["options"]}
        a = advice_words(v)
        assert a["suggestion"]["label"] == labels[a["suggestion"]["id"]]
        assert all(w["label"] == labels[w["id"]] for w in a["weighs"])
        assert a["suggestion"]["label"] in a["text"] and f"{round(100 * a['win_chance'])}%" in a["text"]


def test_win_chance_reads_the_zero_sum_value_and_refusals():
    assert win_chance(1.0, 4) == 1.0 and win_chance(-1 / 3, 4) == 0.0 and win_chance(0.0, 2) == 0.5
    assert win_chance(0.0, 4) == 0.25 and win_chance(5.0, 3) == 1.0 and win_chance(-3.0, 3) == 0.0
    with pytest.raises(AdvisorError, match="only a policy noble"):
        advisor_noble("noble-rule-v1")
    g = Game(players=3, seed=1)
    p = g.current_player()
    other = (p + 1) % 3
    with pytest.raises(AdvisorError, match="no decision"):
        advise(g.view(other, log=False))


# ---------------------------------------------------------------------------
# the server
# ---------------------------------------------------------------------------

fastapi = pytest.importorskip("fastapi")
with warnings.catch_warnings():  # starlette asks for httpx2 in TestClient; httpx works
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fandonia_env.serve import Limits, create_app  # noqa: E402
from fandonia_env.serve.client import auth  # noqa: E402


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "g.sqlite3"), Limits(workers=1))) as c:
        yield c



def create(c: TestClient, **body) -> dict:
    r = c.post("/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()




def test_route_advises_the_seat_as_the_noble_would_and_changes_nothing(client):
    g = create(client, seats=["human", "noble-ppo-v2", "noble-rule-v1"], seed=7, public_seed=True)
    gid, tok = g["game_id"], g["seats"][0]["token"]
    for _ in range(3):
        st = seat_decision(client, gid, 0, tok)
        before = client.get(f"/games/{gid}/seats/0", headers=auth(tok)).json()
        r = client.get(f"/games/{gid}/seats/0/advice", headers=auth(tok))
        assert r.status_code == 200, r.text
        a = r.json()
        ids = [o["id"] for o in st["decision"]["options"]]
        assert a["seat"] == 0 and a["step"] == st["step"] and a["suggestion"]["id"] in ids
        assert a["suggestion"]["id"] == make_agent("noble-ppo-v2").act(st["view"], ids)
        assert a["noble"] == "noble-ppo-v2" and len(a["weighs"]) == min(3, len(ids)) and a["ms"] < 1000
        assert client.get(f"/games/{gid}/seats/0", headers=auth(tok)).json() == before
        client.post(f"/games/{gid}/seats/0/act", headers=auth(tok), json={"action": ids[-1], "step": st["step"]})


def test_route_refuses_bad_tokens_seats_games_and_seats_without_a_decision(client):
    g = create(client, seats=["human", "human"], seed=3, public_seed=True)
    gid, toks = g["game_id"], [s["token"] for s in g["seats"]]
    st = [client.get(f"/games/{gid}/seats/{i}", headers=auth(toks[i])).json() for i in (0, 1)]
    p = 0 if st[0]["decision"] else 1
    q = 1 - p
    cases = [
        (f"/games/{gid}/seats/{p}/advice", {}, 401, "missing_token"),
        (f"/games/{gid}/seats/{p}/advice", auth("nope"), 401, "bad_token"),
        (f"/games/{gid}/seats/{p}/advice", auth(toks[q]), 403, "wrong_seat"),
        (f"/games/{gid}/seats/7/advice", auth(toks[p]), 404, "no_such_seat"),
        (f"/games/nosuchgame/seats/{p}/advice", auth(toks[p]), 404, "no_such_game"),
        (f"/games/{gid}/seats/{q}/advice", auth(toks[q]), 409, "not_your_decision"),
        (f"/games/{gid}/seats/x/advice", auth(toks[p]), 422, None),
    ]
    for path, headers, status, code in cases:
        r = client.get(path, headers=headers)
        assert r.status_code == status, (path, r.text)
        body = r.json()
        assert body["detail"] and (code is None or body["error"] == code), body
    after = [client.get(f"/games/{gid}/seats/{i}", headers=auth(toks[i])).json() for i in (0, 1)]
    assert after == st


def test_rated_games_refuse_the_advisor_unless_allowed_and_say_so(client, tmp_path):
    rated = create(client, seats=["human", "noble-rule-v1"], rated=True)
    s = client.get(f"/games/{rated['game_id']}").json()
    assert s["rated"] is True and s["advisor"] is False
    tok = rated["seats"][0]["token"]
    seat_decision(client, rated["game_id"], 0, tok)
    r = client.get(f"/games/{rated['game_id']}/seats/0/advice", headers=auth(tok))
    assert r.status_code == 403 and r.json()["error"] == "advisor_off" and "rated" in r.json()["detail"]
    off = create(client, seats=["human", "noble-rule-v1"], advisor=False)
    r = client.get(f"/games/{off['game_id']}/seats/0/advice", headers=auth(off["seats"][0]["token"]))
    assert r.status_code == 403 and "advisor: false" in r.json()["detail"]
    on = create(client, seats=["human", "noble-rule-v1"], rated=True, advisor=True)
    assert client.get(f"/games/{on['game_id']}").json()["advisor"] is True
    st = seat_decision(client, on["game_id"], 0, on["seats"][0]["token"])
    r = client.get(f"/games/{on['game_id']}/seats/0/advice", headers=auth(on["seats"][0]["token"]))
    assert r.status_code == 200 and r.json()["step"] == st["step"]
    plain = create(client, seats=["human", "noble-rule-v1"])
    assert client.get(f"/games/{plain['game_id']}").json()["rated"] is False
    listed = {x["game_id"]: (x["rated"], x["advisor"]) for x in client.get("/games").json()["games"]}
    assert listed[rated["game_id"]] == (True, False) and listed[off["game_id"]] == (False, False)
    assert listed[on["game_id"]] == (True, True) and listed[plain["game_id"]] == (False, True)
    assert client.post("/games", json={"seats": ["human", "human"], "rated": "yes"}).status_code == 422


def test_options_survive_a_restart(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    with TestClient(create_app(db, Limits(workers=1))) as c:
        gid = create(c, seats=["human", "human"], rated=True)["game_id"]
    with TestClient(create_app(db, Limits(workers=1))) as c:
        s = c.get(f"/games/{gid}").json()
        assert s["rated"] is True and s["advisor"] is False


def test_replay_advice_for_every_seat_after_the_game(client):
    g = Game(**make_config(players=3, seed=9, edition="errata", max_turns=2))
    bots = [make_agent(a, seed=i) for i, a in enumerate(["noble-ppo-v2", "noble-rule-v1", "random-v1"])]
    start = g.to_json()
    record = []
    while not g.over:
        p = g.current_player()
        a = bots[p].act(g.view(p, log=False), g.legal_actions())
        record.append((p, a, advise(g.view(p, log=False))["suggestion"]))
        g.apply(a)
    doc = {"config": start["config"], "seats": ["noble-ppo-v2", "noble-rule-v1", "random-v1"], "start": start,
           "actions": [{"seat": p, "action": a} for p, a, _ in record]}
    r = client.post("/replays", json={"doc": doc})
    assert r.status_code == 200, r.text
    rid = r.json()["replay_id"]
    for i in sorted({0, 1, 5, len(record) // 2, len(record) - 1}):
        a = client.get(f"/replays/{rid}/frames/{i}/advice").json()
        p, played, want = record[i]
        assert (a["seat"], a["played"], a["suggestion"]["id"], a["index"]) == (p, played, want, i)
        if p == 0:
            assert played == want  # the noble played what it advises
    end = client.get(f"/replays/{rid}/frames/{len(record)}/advice")
    assert end.status_code == 409 and end.json()["error"] == "no_decision"
    assert client.get(f"/replays/{rid}/frames/{len(record) + 1}/advice").status_code == 404
    assert client.get("/replays/nope/frames/0/advice").status_code == 404


def test_terminal_advise_command_names_the_option_the_noble_would_choose():
    from fandonia_env.apps.play import Session, play

    config = make_config(players=3, seed=4)
    out = io.StringIO()
    s = Session(config, ["human", "noble-rule-v1", "noble-rule-v1"], out=out)
    s.advisor = True
    play(s, io.StringIO("advise\nquit\n"))
    text = out.getvalue()
    assert text.count("advisor (noble-ppo-v2): choose ") == 2  # --advisor at the decision, and the command
    g = s.game
    v = g.view(s.seat, log=False)
    best = make_agent("noble-ppo-v2").act(v, g.legal_actions())
    n = g.legal_actions().index(best) + 1
    assert f"choose {n}) " in text and "chance to win from here" in text


# ---------------------------------------------------------------------------
# the pages, in headless Chromium (flags and fixtures as tests/test_play_page.py)
# ---------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("uvicorn")
    from fandonia_env.serve.client import ServerProcess

    with ServerProcess(str(tmp_path_factory.mktemp("advisor") / "games.sqlite3"), "--workers", "2") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _page(browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page, errors


def test_play_page_advisor_switch_shows_a_suggestion_among_the_options(server, browser):
    from fandonia_env.serve.client import Client

    c = Client(server.url)
    g = c.create(["human", "noble-rule-v1"], rules={"preset": "short-game", "max_turns": 3}, seed=4, public_seed=True)
    gid, tok = g["game_id"], g["seats"][0]["token"]
    page, errors = _page(browser)
    page.goto(f"{server.url}/ui/play.html#game={gid}&seat=0&token={tok}")
    page.wait_for_selector("#decision[data-step][data-ready]", timeout=60_000)
    page.wait_for_selector("#advisor-switch:not([disabled])")
    assert not page.is_checked("#advisor-switch") and page.locator("#advisor-body[data-suggestion]").count() == 0
    for _ in range(3):  # switched on, then at the next decisions too (it stays on)
        step = page.get_attribute("#decision", "data-step")
        if not page.is_checked("#advisor-switch"):
            page.check("#advisor-switch")
        page.wait_for_selector(f"#advisor-body[data-step='{step}'][data-suggestion]", timeout=30_000)
        ids = [int(x) for x in page.locator("#decision .options button").evaluate_all(
            "bs => bs.map(b => b.dataset.actionId)")]
        sug = int(page.get_attribute("#advisor-body", "data-suggestion"))
        assert sug in ids
        text = page.inner_text("#advisor-body")
        label = page.inner_text(f"#decision .options button[data-action-id='{sug}']")
        assert "would choose" in text and "chance to win from here" in text and "It weighs" in text
        assert page.locator("#advisor-body .advice-weighs li").count() == min(3, len(ids))
        assert page.inner_text("#advisor-body .advice-suggestion b") in label
        page.wait_for_timeout(450)  # a new prompt is armed after a moment
        page.click(f"#decision .options button[data-action-id='{ids[-1]}']:not([data-confirm])"
                   if page.locator(f"#decision .options button[data-action-id='{ids[-1]}']:not([data-confirm])").count()
                   else f"#decision .options button[data-action-id='{ids[0]}']")
        if page.locator("dialog#confirm[open]").count():
            page.wait_for_selector("#confirm-ok:not([disabled])")
            page.click("#confirm-ok")
        page.wait_for_function("s => { const d = document.querySelector('#decision');"
                               " return d.dataset.step !== s || document.body.dataset.status !== 'playing'; }",
                               arg=step, timeout=60_000)
        if page.get_attribute("body", "data-status") != "playing":
            break
        page.wait_for_selector("#decision[data-step][data-ready]", timeout=60_000)
    page.reload()  # remembered: on after a reload
    page.wait_for_selector("#advisor-switch:checked", timeout=30_000)
    assert not errors, errors
    page.close()


def test_rated_game_page_shows_the_advisor_off_and_the_replay_page_advises_every_seat(server, browser):
    from fandonia_env.serve.client import Client

    c = Client(server.url)
    page, errors = _page(browser)
    page.goto(server.url + "/ui/")  # the set-up page's "Rated game" box
    page.wait_for_selector("#seat-1 option[value='noble-rule-v1']", state="attached")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "noble-rule-v1")
    page.check("#rated")
    page.click("#create")
    page.wait_for_url("**/play.html#game=*")
    gid = dict(x.split("=", 1) for x in page.url.split("#", 1)[1].split("&"))["game"]
    assert c.summary(gid)["rated"] is True and c.summary(gid)["advisor"] is False
    page.wait_for_selector("#advisor-switch[disabled]", timeout=30_000)
    assert "off in this game" in page.inner_text("#advisor-body")
    g = c.create(["noble-ppo-v2", "noble-rule-v1", "random-v1"], rules={"preset": "short-game", "max_turns": 2},
                 seed=11, public_seed=True)
    t0 = time.monotonic()
    while c.summary(g["game_id"])["status"] == "playing":
        assert time.monotonic() - t0 < 120
        time.sleep(0.1)
    page.goto(f"{server.url}/ui/replay.html#game={g['game_id']}")
    page.wait_for_selector("#position:has-text('position 0 / ')")
    page.check("#advisor-switch")
    seen = set()
    for _ in range(80):  # until two seats' advice was shown
        if len(seen) >= 2:
            break
        pos = page.inner_text("#position").split()[1]
        page.wait_for_selector(f"#advisor-body[data-step='{pos}'][data-suggestion]", timeout=30_000)
        text = page.inner_text("#advisor-body")
        seen.add(text.split("'s advisor")[0])
        assert "would choose" in text and "Played:" in text
        if text.startswith("Player 0"):  # the noble itself: it played what it advises
            assert "Played: the same." in text
        page.click("#next")
        page.wait_for_selector(f"#position:not(:has-text('position {pos} / '))")
    assert len(seen) >= 2, seen  # more than one seat's advice
    assert not errors, errors
    page.close()


def test_the_python_client_creates_rated_games_and_asks_the_advisor(server):
    """``serve.client.Client`` speaks the advisor's options and route: a rated game refuses advice (403
    ``advisor_off``), an unrated one answers with one of the offered options."""
    import httpx

    from fandonia_env.serve.client import Client

    c = Client(server.url)
    try:
        rated = c.create(["human", "noble-rule-v1"], rated=True)
        with pytest.raises(httpx.HTTPStatusError) as e:
            c.advice(rated["game_id"], 0, rated["seats"][0]["token"])
        assert e.value.response.status_code == 403 and e.value.response.json()["error"] == "advisor_off"
        g = c.create(["human", "noble-rule-v1"], seed=11, public_seed=True)
        gid, tok = g["game_id"], g["seats"][0]["token"]
        st = seat_decision(c.http, gid, 0, tok)
        adv = c.advice(gid, 0, tok)
        assert adv["suggestion"]["id"] in {o["id"] for o in st["decision"]["options"]}
    finally:
        c.close()
