"""Security of the game server (real process): tokens, seats, spectators, stale steps and replayed
requests, and hidden information (a seat's responses do not change when what it cannot see is
resampled)."""

from __future__ import annotations

import base64
import json
import random
import sqlite3

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from helpers import random_moves  # noqa: E402

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.hidden import resample  # noqa: E402
from fandonia_env.serve.client import Client, ServerProcess, auth, play_humans  # noqa: E402

PRIVATE = ("hand", "loyalty_drawn", "opportunity_drawn", "decision", "turn_state", "me")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("serve") / "games.sqlite3"
    with ServerProcess(str(db), "--burst", "1000", "--actions-per-s", "1000") as srv:
        yield srv


def new_game(c: Client, seats=("human", "human", "noble-rule-v1"), seed=11):
    g = c.create(list(seats), rules={"max_turns": 2}, seed=seed)
    return g["game_id"], {s["seat"]: s["token"] for s in g["seats"] if s["token"]}


def snapshot(c: Client, gid: str, toks: dict[int, str]) -> list[bytes]:
    out = [c.http.get(f"/games/{gid}/public").content]
    out += [c.http.get(f"/games/{gid}/seats/{s}", headers=auth(t)).content for s, t in sorted(toks.items())]
    return out


def deciding_seat(c: Client, gid: str, toks: dict[int, str]) -> tuple[int, dict]:
    for _ in range(500):
        for s, t in toks.items():
            st = c.seat(gid, s, t)
            if st["decision"] is not None:
                return s, st
    raise AssertionError("no human seat ever decides")


def test_tokens_are_secret_128_bit_and_stored_hashed(server):
    c = Client(server.url)
    gid, toks = new_game(c)
    assert len(set(toks.values())) == 2
    for t in toks.values():
        assert len(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) * 8 >= 128
    con = sqlite3.connect(server.db)
    dump = "\n".join(con.iterdump())
    con.close()
    assert gid in dump and not any(t in dump for t in toks.values())


def test_no_token_other_seats_token_and_spectator_cannot_see_a_hand_or_act(server):
    c = Client(server.url)
    gid, toks = new_game(c)
    p, st = deciding_seat(c, gid, toks)
    q = next(s for s in toks if s != p)
    body = {"action": st["decision"]["options"][0]["id"], "step": st["step"]}
    before = snapshot(c, gid, toks)
    cases = [
        (c.http.get(f"/games/{gid}/seats/{p}"), 401, "missing_token"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body), 401, "missing_token"),
        (c.http.get(f"/games/{gid}/seats/{p}", headers=auth(toks[q])), 403, "wrong_seat"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body, headers=auth(toks[q])), 403, "wrong_seat"),
        (c.http.get(f"/games/{gid}/seats/{p}", headers=auth("A" * 32)), 401, "bad_token"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body, headers=auth("A" * 32)), 401, "bad_token"),
        (c.http.get(f"/games/{gid}/seats/2", headers=auth(toks[p])), 403, "wrong_seat"),  # a noble's seat
        (c.http.get(f"/games/{gid}/seats/2", headers=auth("A" * 32)), 401, "bad_token"),
        (c.http.post(f"/games/{gid}/seats/2/act", json=body, headers=auth(toks[p])), 403, "wrong_seat"),
        (c.http.get(f"/games/{gid}/seats/7", headers=auth(toks[p])), 404, "no_such_seat"),
        (c.http.get(f"/games/{gid}/replay"), 409, "game_not_over"),
        (c.http.get("/games/nosuchgame/seats/0", headers=auth(toks[p])), 404, "no_such_game"),
        (c.http.post(f"/games/{gid}/seats/{p}/act", json=body, headers={"Authorization": toks[p]}), 401,
         "missing_token"),
    ]
    for r, status, code in cases:
        assert r.status_code == status and r.json()["error"] == code, (r.request.url, r.text)
        assert "hand" not in r.text and toks[p] not in r.text
    assert snapshot(c, gid, toks) == before
    # another seat's token from another game does not open this one either
    gid2, toks2 = new_game(c, seed=12)
    r = c.http.get(f"/games/{gid}/seats/0", headers=auth(toks2[0]))
    assert r.status_code == 401 and r.json()["error"] == "bad_token"
    # the spectator's state and the summary hold no private item
    pub = c.public(gid)
    assert not set(PRIVATE) & set(pub["view"])
    summ = c.http.get(f"/games/{gid}").json()
    assert "view" not in summ and "token" not in json.dumps(summ)
    for s, t in toks.items():
        assert c.seat(gid, s, t)["view"]["hand"]  # a seat sees its own hand


def test_stale_steps_and_replayed_requests_are_refused_and_change_nothing(server):
    c = Client(server.url)
    gid, toks = new_game(c, seats=("human", "human"), seed=21)
    p, st = deciding_seat(c, gid, toks)
    a = st["decision"]["options"][0]["id"]
    step = st["step"]
    summary = c.summary(gid)
    ok = c.http.post(f"/games/{gid}/seats/{p}/act", json={"action": a, "step": step}, headers=auth(toks[p]))
    assert ok.status_code == 200 and ok.json()["step"] == step + 1
    # the public summary does not tell when the last action was taken (a secret pass would show)
    assert c.summary(gid) == summary and summary["updated"] == summary["created"]
    before = snapshot(c, gid, toks)
    # the very same request again (a replay) and older steps
    for s in (step, step - 1, step + 5, -1):
        r = c.http.post(f"/games/{gid}/seats/{p}/act", json={"action": a, "step": s}, headers=auth(toks[p]))
        assert r.status_code == 409, r.text
        assert r.json()["error"] in ("stale_step", "not_your_decision")
    # an illegal id at the right step, and a seat that has no decision now
    p, st = deciding_seat(c, gid, toks)
    legal = [o["id"] for o in st["decision"]["options"]]
    bad = next(x for x in range(200) if x not in legal)
    before = snapshot(c, gid, toks)
    r = c.http.post(f"/games/{gid}/seats/{p}/act", json={"action": bad, "step": st["step"]}, headers=auth(toks[p]))
    assert r.status_code == 422 and r.json()["error"] == "illegal_action" and r.json()["legal"] == legal
    q = 1 - p
    sq = c.seat(gid, q, toks[q])
    r = c.http.post(f"/games/{gid}/seats/{q}/act", json={"action": legal[0], "step": sq["step"]},
                    headers=auth(toks[q]))
    assert r.status_code == 409 and r.json()["error"] == "not_your_decision"
    assert snapshot(c, gid, toks) == before
    # after the end: nothing is accepted, everything is published
    play_humans(c, [(gid, toks)])
    r = c.http.post(f"/games/{gid}/seats/0/act", json={"action": 0, "step": 0}, headers=auth(toks[0]))
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    assert c.replay(gid)["log"]


def _positions(n: int, seed: int, k: int):
    """Saved positions of a random game with n players, every k decisions."""
    g = Game(players=n, seed=seed, max_turns=3)
    for i in random_moves(g, random.Random(seed)):
        if i % k == k - 1:
            yield g


@pytest.mark.parametrize("n", [3, 5])
def test_seat_responses_byte_identical_when_hidden_cards_are_resampled(server, n):
    """A game started from a position and one from the same position with every card and counter
    seat p cannot see resampled: p's HTTP and WebSocket states, and the spectator's, are the same bytes."""
    c = Client(server.url)
    rng = random.Random(n)
    checked = 0
    for g in _positions(n, 300 + n, 5):
        # the deciding seat: resampling others' cards while another seat decides may change that
        # seat's pending options, which the engine rightly refuses to load as a saved game
        p = g.current_player()
        other = resample(g.state, p, rng)
        assert json.dumps(other.to_json(), sort_keys=True) != g.dumps()  # something hidden did change
        a = c.create(["human"] * n, start=g.to_json())
        b = c.create(["human"] * n, start=other.to_json())
        ta, tb = a["seats"][p]["token"], b["seats"][p]["token"]
        ra = c.http.get(f"/games/{a['game_id']}/seats/{p}", headers=auth(ta))
        rb = c.http.get(f"/games/{b['game_id']}/seats/{p}", headers=auth(tb))
        assert ra.status_code == rb.status_code == 200
        assert ra.content == rb.content
        assert c.http.get(f"/games/{a['game_id']}/public").content == \
            c.http.get(f"/games/{b['game_id']}/public").content
        st = ra.json()
        if st["decision"] is not None:  # the same choice is accepted in both, with the same reply
            act = {"action": st["decision"]["options"][-1]["id"], "step": st["step"]}
            xa = c.http.post(f"/games/{a['game_id']}/seats/{p}/act", json=act, headers=auth(ta))
            xb = c.http.post(f"/games/{b['game_id']}/seats/{p}/act", json=act, headers=auth(tb))
            assert xa.status_code == xb.status_code == 200
            checked += 1
        checked += 1
        if checked >= 12:
            break
    assert checked >= 6
