"""Copy-on-write characters (``GameState.clone`` shares characters, ``GameState.wchar`` writes).

A clone shares every character with its original; a write goes through ``state.wchar(cid)``,
which copies the character for that state first.  A write that bypassed ``wchar`` would change
every state sharing the character: the replays below would see the state left behind change, and
``test_observation_memo`` checks that every character change of random games is in the write log
``wchar`` keeps.  Checked here: the golden games replay byte-identically with a clone at every decision
(so every write the engine makes in them meets a shared character), random games in every preset
(and in explicit chance mode) where a clone and its original go separate ways without touching
each other, equality, pickling and copying."""

from __future__ import annotations

import copy
import hashlib
import json
import pathlib
import pickle
import random

import pytest
from helpers import play_randomly

from fandonia_env.engine import Game
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.core.state import Character, GameState
from fandonia_env.engine.face.game import player_view
from fandonia_env.engine.face.search import sample_chance

GOLDEN = sorted((pathlib.Path(__file__).parent / "golden").glob("playthrough_*.jsonl"))


def _view_digest(view: dict) -> str:
    """As the golden files record a view (``playthrough.py``): its digest without ``"rules"``."""
    doc = json.dumps({k: v for k, v in view.items() if k != "rules"}, sort_keys=True)
    return hashlib.sha256(doc.encode()).hexdigest()[:16]


def _dump(state: GameState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _mid_game(players: int = 4, seed: int = 7, steps: int = 150, **rules) -> Game:
    return play_randomly(Game(players=players, seed=seed, max_turns=30, **rules), random.Random(seed), steps)


def _replay_with_clones(path: pathlib.Path) -> None:
    """Replay a golden game; before every decision clone the game, continue on the clone at even
    steps and on the original at odd steps, and keep two abandoned states in ten to check at the
    end that nothing written afterwards reached it."""
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    actions = [rec.get("action") for rec in lines[1:]]
    g = Game(**lines[0]["config"])
    n = g.n_players
    left: list[tuple[GameState, str]] = []
    seen = 0
    for i, want in enumerate(lines[1:]):
        c = g.clone()
        if i % 10 < 2:
            left.append((c.state if i % 2 else g.state, _dump(g.state)))
        if i % 2 == 0:
            g = c
        log = g.state.log
        new = [e["t"] if e["to"] is None else f"(to player {e['to']}) {e['t']}" for e in log[seen:]]
        seen = len(log)
        views = [_view_digest(player_view(g.state, p)) for p in range(n)]
        assert views == want["views"] and new == want["log"], f"{path.name} line {i + 2} differs"
        if g.over:
            assert want.get("end") == g.result and want.get("winner") == g.winner
            break
        d = g.decision()
        assert (d["player"], d["kind"], d["options"]) == (want["player"], want["kind"], want["options"])
        g.apply(actions[i])
    assert g.over or actions[-1] is None
    for st, before in left:
        assert _dump(st) == before, "a state left behind changed after its clone went on"


@pytest.mark.parametrize("path", GOLDEN, ids=[f.stem for f in GOLDEN])
def test_golden_games_replay_identically_with_a_clone_at_every_decision(path):
    _replay_with_clones(path)


def _play(g: Game, rng: random.Random, k: int) -> list:
    """Up to ``k`` random moves (chance nodes resolved by ``rng`` too); returns what was taken."""
    taken = []
    for _ in range(k):
        if g.over:
            break
        if g.is_chance_node():
            o = sample_chance(g, rng)
            g.apply_chance(o)
            taken.append(("chance", o))
        else:
            a = rng.choice(g.legal_actions())
            g.apply(a)
            taken.append(("act", a))
    return taken


def _redo(cfg: dict, moves: list) -> Game:
    g = Game(**cfg)
    for kind, x in moves:
        if kind == "chance":
            g.apply_chance(x)
        else:
            g.apply(x)
    return g


CASES = [(p, n, seed, {}) for seed, (p, n) in enumerate(
    [(pr, n) for pr in preset_names() for n in (2, 4, 6)])] + [
    ("1981", 4, 101, {"chance": "explicit"}), ("errata-all-optional", 3, 102, {"chance": "explicit"})]


@pytest.mark.parametrize("preset,players,seed,extra", CASES,
                         ids=[f"{c[0]}-{c[1]}p{'-explicit' if c[3] else ''}" for c in CASES])
def test_clone_and_original_go_separate_ways_without_touching_each_other(preset, players, seed, extra):
    """Random play; at random points clone, play the clone on with other moves (the original's
    JSON must not change), then the original (the clone's must not change).  The original's
    moves, replayed from the start without any clone, give the same game."""
    rng = random.Random(seed)
    cfg = {"players": players, "seed": seed, "max_turns": 20, "preset": preset, **extra}
    g = Game(**cfg)
    moves: list = []
    while not g.over and len(moves) < 1500:
        moves += _play(g, rng, rng.randint(1, 40))
        if g.over:
            break
        c = g.clone()
        assert c.state == g.state
        before = _dump(g.state)
        deep = copy.deepcopy(g.state)
        _play(c, random.Random(rng.random()), rng.randint(1, 30))
        assert _dump(g.state) == before and g.state == deep
        after_c = _dump(c.state)
        moves += _play(g, rng, rng.randint(1, 10))
        assert _dump(c.state) == after_c
    assert _dump(_redo(cfg, moves).state) == _dump(g.state)


def test_wchar_copies_a_shared_character_once_and_the_other_state_keeps_its_own():
    g = _mid_game()
    c = g.clone()
    cid = g.state.players[0].pc
    assert g.state.chars[cid] is c.state.chars[cid]  # shared after the clone
    was = g.state.chars[cid].titles
    w = c.state.wchar(cid)
    assert type(w) is Character and c.state.wchar(cid) is w  # copied once, then private
    w.titles += 3
    assert g.state.chars[cid].titles == was and c.state.chars[cid].titles == was + 3
    g.state.wchar(cid).titles += 1
    assert g.state.chars[cid].titles == was + 1 and c.state.chars[cid].titles == was + 3
    assert g.state.chars["george"] is c.state.chars["george"]  # never written: still shared
    # a second clone shares again what the first write had made private
    d = c.clone()
    assert d.state.chars[cid] is c.state.chars[cid]
    c.state.wchar(cid).titles += 1
    assert d.state.chars[cid].titles == was + 3 and c.state.chars[cid].titles == was + 4


def test_a_fresh_or_loaded_state_owns_its_characters():
    g = _mid_game()
    cid = g.state.players[0].pc
    made = (lambda: g.state, lambda: GameState.from_json(g.state.to_json()),
            lambda: pickle.loads(pickle.dumps(g.clone().state)), lambda: copy.deepcopy(g.state))
    for make in made:  # in this order: g.state before anything clones it
        st = make()
        c = st.chars[cid]
        assert st.wchar(cid) is c  # nothing to copy: no clone shares it
    mine = g.state.chars[cid]
    assert g.state.cow and g.state.wchar(cid) is not mine  # g was cloned above: its first write copies


def test_equality_repr_and_json_ignore_sharing():
    g = _mid_game()
    plain = GameState.from_json(g.state.to_json())
    c = g.clone()
    assert g.state == c.state == plain and plain == g.state
    assert c.state.chars["11"] == plain.chars["11"] and plain.chars["11"] == c.state.chars["11"]
    assert repr(c.state.chars["11"]) == repr(plain.chars["11"])
    assert _dump(c.state) == _dump(plain)
    c.state.wchar("11").titles += 1
    assert c.state != g.state and c.state.chars["11"] != g.state.chars["11"]


def test_pickling_and_copying_give_plain_private_characters():
    g = _mid_game()
    c = g.clone()
    a, b = pickle.loads(pickle.dumps([g.state, c.state]))
    assert a == g.state and b == c.state
    for st in (a, b, copy.deepcopy(c.state), pickle.loads(pickle.dumps(c.state))):
        assert all(type(x) is Character for x in st.chars.values())
    a.wchar("11").titles += 1  # plain characters, owned by one state each
    assert b.chars["11"].titles == g.state.chars["11"].titles
    one = pickle.loads(pickle.dumps(c.state.chars["george"]))
    assert type(one) is Character and one == g.state.chars["george"]
    assert type(copy.copy(c.state.chars["george"])) is Character
    g2 = pickle.loads(pickle.dumps(c))
    g2.apply(g2.legal_actions()[0])
    assert c.state == g.state


def test_the_log_is_shared_by_a_clone_until_the_first_append_and_never_after() -> None:
    """``GameState.clone`` shares the log (lines are never changed once written); ``machine.log``,
    its one writer, copies it before the first append of either state."""
    g = play_randomly(Game(players=4, seed=11, max_turns=30), random.Random(11), moves=150)
    c = g.clone()
    assert c.state.log is g.state.log and c.state.log_shared and g.state.log_shared
    n = len(g.state.log)
    rng = random.Random(2)
    while len(c.state.log) == n:
        c.apply(rng.choice(c.legal_actions()))
    assert len(g.state.log) == n and c.state.log is not g.state.log and c.state.log[:n] == g.state.log
    mine = list(c.state.log)
    while len(g.state.log) == n:
        g.apply(rng.choice(g.legal_actions()))
    assert c.state.log == mine  # the original's appends never reach the clone
    assert g.state.log[:n] == c.state.log[:n]
    # pickled together, two states that share a log come back with a log each
    d = g.clone()
    a, b = pickle.loads(pickle.dumps([g.state, d.state]))
    assert a.log == b.log and a.log is not b.log and not a.log_shared and not b.log_shared
    assert copy.deepcopy(d.state).log is not d.state.log


def test_character_constructor_and_copy_follow_the_fields_in_order():
    """``Character.__init__`` and ``copy`` are written out (compiled): each field has its parameter,
    in the fields' order and with the field's default, and a copy carries every value."""
    from dataclasses import fields

    from fandonia_env.engine.core.character import CHAR_FIELDS, char_values

    assert char_values(Character()) == tuple("" if f.name == "cid" else f.default for f in fields(Character))
    # a distinct value per field, of the field's kind: every parameter lands in its own field
    distinct = []
    for i, f in enumerate(fields(Character)):
        kind = str(f.type)  # the annotation's text (``from __future__ import annotations``)
        distinct.append(not f.default if kind == "bool" else 100 + i if kind.startswith("int") else f"v{i}")
    c = Character(*distinct)
    assert char_values(c) == tuple(distinct)
    assert char_values(Character(**dict(zip(CHAR_FIELDS, distinct, strict=True)))) == tuple(distinct)
    k = c.copy()
    assert k is not c and char_values(k) == tuple(distinct) and k == c
