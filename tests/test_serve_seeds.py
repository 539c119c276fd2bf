"""Chosen seeds kept secret (issue 41): a seed the creator chooses is mixed with a secret drawn for that
game, so neither the creator (a second game with the same seed) nor a stranger (seeds tried against the
public set-up) learns any hand; ``public_seed`` asks for a public, reproducible deal instead; the replay
publishes the chosen seed, the secret and the seed played, and replaying reproduces the game."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from fandonia_env.engine import Game  # noqa: E402
from fandonia_env.engine.face.game import make_config  # noqa: E402
from fandonia_env.serve.client import Client, ServerProcess, record_config, saved_game  # noqa: E402
from fandonia_env.serve.seeds import MAX_SEED, derive_seed, game_seed  # noqa: E402
from fandonia_env.serve.store import Store  # noqa: E402
from fandonia_env.serve.workers import public_view  # noqa: E402

RULES = {"preset": "errata", "max_turns": 2}
#: candidate seeds a stranger tries against the public set-up (the issue's attack found 31,337); the
#: whole 0..100,000 of issue 41 runs with FANDONIA_SEED_ATTACK_TRIES=100001 (about 2 minutes)
TRIED = int(os.environ.get("FANDONIA_SEED_ATTACK_TRIES", "3000"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("serve") / "games.sqlite3"
    with ServerProcess(str(db), "--burst", "1000", "--actions-per-s", "1000") as srv:
        yield srv


def _secret_part(view: dict) -> list:
    """What a seat holds that no other seat sees: its hand and drawn counters."""
    return [view["hand"], view["loyalty_drawn"], view["opportunity_drawn"]]


def _hands(g: Game) -> list:
    return [_secret_part(g.view(p, log=False)) for p in range(g.n_players)]


def _public_setup(c: Client, gid: str) -> str:
    return json.dumps(c.public(gid)["view"], sort_keys=True)


def _crack(setup: str, players: int, candidates: list[int]) -> list[int]:
    """The seeds among ``candidates`` whose local game's public set-up is the server game's."""
    hits = []
    for k in candidates:
        g = Game(**make_config(players=players, seed=k, **RULES))
        if json.dumps(json.loads(json.dumps(public_view(g.state))), sort_keys=True) == setup:
            hits.append(k)
    return hits


def test_derive_seed_is_a_63_bit_hmac_that_depends_on_both_parts() -> None:
    a, b = derive_seed(31337, "00" * 16), derive_seed(31337, "01" + "00" * 15)
    assert a != b and 0 <= a <= MAX_SEED and 0 <= b <= MAX_SEED
    assert derive_seed(31338, "00" * 16) != a and derive_seed(31337, "00" * 16) == a
    s1, r1 = game_seed(5, public=False)
    s2, r2 = game_seed(5, public=False)
    assert r1["secret"] != r2["secret"] and s1 != s2 and s1 == derive_seed(5, r1["secret"])
    assert game_seed(5, public=True) == (5, {"public": True, "chosen": 5, "secret": None})


def test_a_chosen_seed_tells_neither_its_creator_nor_a_stranger_any_hand(server) -> None:
    c = Client(server.url)
    chosen = 2024  # inside the range the stranger tries
    a = c.create(["human"] * 4, rules=RULES, seed=chosen)
    b = c.create(["human"] * 4, rules=RULES, seed=chosen)
    ta = {s["seat"]: s["token"] for s in a["seats"]}
    tb = {s["seat"]: s["token"] for s in b["seats"]}
    # the creator's second game with the same seed deals other hands
    hands_a = [_secret_part(c.seat(a["game_id"], p, ta[p], log=False)["view"]) for p in range(4)]
    hands_b = [_secret_part(c.seat(b["game_id"], p, tb[p], log=False)["view"]) for p in range(4)]
    assert hands_a != hands_b
    # nor does a local game seeded with the chosen seed show the same set-up or hands
    local = Game(**make_config(players=4, seed=chosen, **RULES))
    assert json.loads(json.dumps(_hands(local))) != hands_a
    # a stranger trying seeds 0..TRIED (the chosen one among them) finds none that fits the public set-up
    setup = _public_setup(c, a["game_id"])
    assert _crack(setup, 4, list(range(TRIED)) + [chosen]) == []
    # while the game is played no summary shows the seed; it says the seed is not public
    s = c.summary(a["game_id"])
    assert "seed" not in s["config"] and s["config"]["public_seed"] is False
    listed = {g["game_id"]: g for g in c.http.get("/games", params={"limit": 500}).json()["games"]}
    assert "seed" not in listed[a["game_id"]]["config"]


def test_a_public_seed_is_played_as_given_shown_to_all_and_found_by_the_same_attack(server) -> None:
    """The control of the test above: the same attack finds a public seed, so the attack works."""
    c = Client(server.url)
    g = c.create(["human"] * 4, rules=RULES, seed=1234, public_seed=True)
    gid = g["game_id"]
    s = c.summary(gid)
    assert s["config"]["public_seed"] is True and s["config"]["seed"] == "1234"
    assert _crack(_public_setup(c, gid), 4, list(range(TRIED))) == [1234]
    # without a seed, a public game draws one and shows it
    d = c.summary(c.create(["human", "human"], rules=RULES, public_seed=True)["game_id"])
    assert d["config"]["public_seed"] is True and d["config"]["seed"].isdigit()


def test_the_replay_publishes_chosen_seed_secret_and_seed_played_and_reproduces_the_game(server) -> None:
    c = Client(server.url)
    g = c.create(["noble-rule-v1", "random-v1", "noble-rule-v1"], rules={"max_turns": 1}, seed=77)
    gid = g["game_id"]
    for _ in range(600):
        if c.summary(gid)["status"] != "playing":
            break
        import time

        time.sleep(0.05)
    rp = c.replay(gid)
    sd = rp["seeding"]
    assert sd["public_seed"] is False and sd["chosen_seed"] == "77" and len(sd["secret"]) == 32
    assert sd["seed"] == rp["config"]["seed"] == str(derive_seed(77, sd["secret"]))
    game = Game(**record_config(rp["config"]))
    for act in rp["actions"]:
        game.apply(act["action"])
    assert game.to_json() == saved_game(rp["final"]).to_json()


@pytest.mark.parametrize("body, code", [
    ({"seats": ["human", "human"], "public_seed": "yes"}, "invalid_request"),
    ({"seats": ["human", "human"], "public_seed": 1}, "invalid_request"),
])
def test_public_seed_must_be_a_boolean(server, body: dict, code: str) -> None:
    r = Client(server.url).http.post("/games", json=body)
    assert r.status_code == 422 and r.json()["error"] == code and "public_seed" in r.text


def test_a_start_position_takes_no_public_seed(server) -> None:
    c = Client(server.url)
    start = Game(players=2, seed=3).to_json()
    r = c.http.post("/games", json={"seats": ["human", "human"], "start": start, "public_seed": True})
    assert r.status_code == 422 and r.json()["error"] == "start_with_rules" and "public_seed" in r.text


def test_a_database_from_before_gets_the_seeding_column_and_its_games_load(tmp_path) -> None:
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL, config TEXT NOT NULL,
            seats TEXT NOT NULL, start TEXT, tokens TEXT NOT NULL, status TEXT NOT NULL, result TEXT,
            winner INTEGER, n_actions INTEGER NOT NULL DEFAULT 0);
        INSERT INTO games VALUES ('g1', 1.0, 1.0, '{"players": 2, "seed": 5}', '[]', NULL, '[]', 'over', NULL, NULL, 0);
    """)
    con.commit()
    con.close()
    st = Store(str(db))
    row = st.load_game("g1")
    assert row is not None and row["seeding"] is None and row["config"]["seed"] == 5
    total, rows = st.summaries(10, 0)
    assert total == 1 and rows[0]["seeding"] is None
    st.close()
