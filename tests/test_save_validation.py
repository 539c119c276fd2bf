"""Validated saves (issue 9, item 2): ``Game.from_json`` checks the content of a saved game, not
only its shape, and a bad save raises ``StateError`` naming the first problem (the field, the
bad value, what was allowed) - never another exception, never a game that breaks later.

One test per bad-save row of the issue, a few type confusions, the pending decision
re-derived, real saves (golden playthroughs, every preset) still loading, and a mutation test
of 2,000 damaged real saves (``scripts/mutate_saves.py`` runs more)."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import pytest
from helpers import play_randomly, random_moves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fandonia_env.engine import Game, StateError
from fandonia_env.engine.core.actions import ID, NUM_ACTIONS
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.face.invariants import InvariantError, check
from fandonia_env.engine.face.playthrough import replay  # noqa: F401  (the golden files' format)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import mutate_saves  # noqa: E402


def _saved(players: int = 4, seed: int = 3, moves: int = 40, **kw) -> dict:
    """A real save: a seeded game after ``moves`` random legal moves, as parsed JSON."""
    g = Game(players=players, seed=seed, **kw)
    play_randomly(g, random.Random(seed), moves)
    assert not g.over
    return json.loads(g.dumps())


def _rejected(doc, *words: str) -> str:
    """Load ``doc``; assert StateError whose message names every one of ``words``."""
    with pytest.raises(StateError) as e:
        Game.from_json(doc)
    msg = str(e.value)
    for w in words:
        assert w in msg, f"{w!r} not in the message {msg!r}"
    return msg


@pytest.fixture(scope="module")
def doc() -> dict:
    return _saved()


@pytest.fixture
def bad(doc) -> dict:
    return copy.deepcopy(doc)


# ---------------------------------------------------------------------------
# The rows of the issue
# ---------------------------------------------------------------------------
def test_unknown_card_id_in_a_hand_rejected(bad):
    bad["players"][1]["hand"][0] = "c999"
    _rejected(bad, "players[1].hand[0]", "c999", "allowed", "c000..c119")


def test_unknown_monarch_rejected(bad):
    bad["monarch"] = "bob"
    _rejected(bad, "monarch", "'bob'", "allowed")


def test_owner_seat_9_rejected(bad):
    bad["chars"]["11"]["owner"] = 9
    _rejected(bad, "chars['11'].owner", "seat 9", "allowed: null or 0..3")


def test_deleted_character_rejected(bad):
    neutral = next(c for c, ch in bad["chars"].items() if ch["owner"] is None and ch["office"] is None)
    del bad["chars"][neutral]
    _rejected(bad, "chars", repr(neutral), "missing", "all 47 characters")


def test_duplicated_card_rejected(bad):
    card = bad["players"][0]["hand"][0]
    bad["players"][2]["hand"].append(card)
    _rejected(bad, card, "two places", "players[2].hand", "players[0].hand[0]")


def test_duplicated_card_in_the_same_pile_rejected(bad):
    bad["deck"].append(bad["deck"][0])
    _rejected(bad, "deck", "two places", bad["deck"][0])


def test_lost_card_rejected(bad):
    card = bad["deck"].pop()
    _rejected(bad, card, "in no place")


def test_ip_minus_50_rejected(bad):
    bad["players"][0]["ip"] = -50
    _rejected(bad, "players[0].ip", "-50", "allowed: 0 or more")


def test_negative_pp_rejected(bad):
    bad["players"][3]["pp"] = -1
    _rejected(bad, "players[3].pp", "-1")


def test_support_outside_its_track_rejected(bad):
    bad["support"] = 125
    _rejected(bad, "support", "125", "0..120")


def test_turn_minus_3_rejected(bad):
    bad["turn"] = -3
    _rejected(bad, "turn", "-3", "allowed")


def test_turn_beyond_max_turns_rejected():
    d = _saved(max_turns=5)
    d["turn"] = 6
    _rejected(d, "turn", "6", "1..5")


def test_decider_seat_7_rejected(bad):
    bad["stack"][-1]["args"]["player"] = 7
    _rejected(bad, "stack", "player", "7", "0..3")


def test_config_player_count_disagreeing_with_players_list_rejected(bad):
    bad["config"]["players"] = 5
    _rejected(bad, "config.players", "5", "4 entries of the players list")


def test_invalid_config_rejected_through_make_config(bad):
    bad["config"]["edition"] = "1999"
    _rejected(bad, "config", "edition", "1999")


def test_not_json_rejected():
    for text in ("{not json", "", "[1, 2", b"\xff\xfe"):
        _rejected(text, "not valid JSON")


@pytest.mark.parametrize("value", [[], [1, 2], 42, None, 3.5, True, "[1, 2]", "42", "null"])
def test_wrong_top_level_type_rejected(value):
    _rejected(value, "must be a JSON object")


# ---------------------------------------------------------------------------
# Type confusion: a value of the wrong JSON type is a StateError naming the field
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("where,value,words", [
    (("players", 0, "ip"), "5", ("players[0].ip", "expected an int", "str '5'")),
    (("players", 0, "ip"), True, ("players[0].ip", "expected an int")),
    (("players", 1, "hand"), {"0": "c001"}, ("players[1].hand", "expected a list")),
    (("chars",), [], ("chars", "JSON object")),
    (("chars", "11", "dead"), 0, ("chars['11'].dead", "bool")),
    (("turn",), "3", ("turn", "expected an int")),
    (("stack", -1, "args", "options"), {"a": 1}, ("stack[", "options", "list")),
    (("stack", -1, "args", "player"), "0", ("player", "int")),
    (("rng", "state"), "12x", ("rng.state", "decimal")),
    (("log", 0), ["turn", 0], ("log[0]",)),
    (("config",), [4], ("config", "JSON object")),
    (("pt",), None, ("pt", "JSON object")),
])
def test_wrong_type_rejected_with_the_field_named(bad, where, value, words):
    node = bad
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    _rejected(bad, *words)


def test_unknown_key_in_a_character_rejected(bad):
    bad["chars"]["11"]["bogus"] = 1
    _rejected(bad, "chars['11']", "bogus")


def test_float_where_an_int_belongs_rejected(bad):
    bad["players"][0]["ip"] = 3.0
    _rejected(bad, "players[0].ip", "float")


def test_nested_too_deeply_rejected(bad):
    deep: list = []
    for _ in range(20000):
        deep = [deep]
    bad["pt"]["bogus"] = deep
    _rejected(bad, "nested")


# ---------------------------------------------------------------------------
# The pending decision and the stack
# ---------------------------------------------------------------------------
def test_pending_activity_choice_re_derived_and_extra_option_rejected():
    g = Game(players=3, seed=11)
    for _ in random_moves(g, random.Random(2)):
        if g.decision()["kind"] == "turn_main":
            break
    d = json.loads(g.dumps())
    opts = d["stack"][-1]["args"]["options"]
    extra = next(a for a in (ID["act_usurp"] if "act_usurp" in ID else -1, ID["free_usurp"], ID["act_draw"],
                             ID["act_travel"], ID["act_assassinate"]) if a >= 0 and a not in opts)
    d["stack"][-1]["args"]["options"] = sorted(opts + [extra])
    _rejected(d, "options", "the engine offers", str(opts[:3])[:-1])


def test_option_outside_the_catalogue_rejected(bad):
    bad["stack"][-1]["args"]["options"].append(NUM_ACTIONS + 5)
    _rejected(bad, "options", str(NUM_ACTIONS - 1))


def test_unknown_operation_rejected(bad):
    bad["stack"][1]["op"] = "no_such_op"
    _rejected(bad, "stack[1]", "no_such_op")


def test_missing_operation_argument_rejected(bad):
    then_args = bad["stack"][-1]["args"]["then_args"]
    key = sorted(then_args)[0]
    del then_args[key]
    _rejected(bad, "stack[", "missing argument", repr(key))


def test_decision_not_on_top_rejected(bad):
    bad["stack"].insert(1, copy.deepcopy(bad["stack"][-1]))
    _rejected(bad, "stack", "one decision, on top")


def test_dropped_end_of_turn_frame_rejected(bad):
    assert bad["stack"][0]["op"] == "end_of_turn"
    del bad["stack"][0]
    _rejected(bad, "stack", "end_of_turn")


def test_option_that_cannot_be_taken_rejected():
    """An option the state cannot honour (a discard of a card no longer in the hand): the save is
    refused by taking each option on a copy, not left to crash the first move."""
    for seed in range(40):
        g = Game(players=4, seed=seed, max_turns=6)
        for _ in random_moves(g, random.Random(seed)):
            if g.decision()["kind"] in ("death_discard", "voluntary_discard"):
                break
        if g.over:
            continue
        d = json.loads(g.dumps())
        p = d["stack"][-1]["args"]["player"]
        hand = d["players"][p]["hand"]
        # hand every non-DWTK card to the pile: the offered discards no longer exist
        from fandonia_env.engine.data.components import CARD_TYPE_OF

        keep = [c for c in hand if CARD_TYPE_OF[c] == "dwtk"]
        d["deck"] += [c for c in hand if CARD_TYPE_OF[c] != "dwtk"]
        d["players"][p]["hand"] = keep
        _rejected(d, "stack[-1].args.options")
        return
    pytest.skip("no discard decision reached")  # pragma: no cover


# ---------------------------------------------------------------------------
# Real saves still load, unchanged, and the document is left untouched
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("preset", preset_names())
def test_saves_of_every_preset_load_equal_and_continue(preset):
    for n in (2, 6):
        g = Game(players=n, seed=40 + n, max_turns=8, preset=preset)
        for step in random_moves(g, random.Random(n)):
            if step % 9 == 0:
                h = Game.from_json(g.dumps())
                assert h.state == g.state
                assert h.legal_actions() == g.legal_actions()
        assert Game.from_json(g.to_json()).state == g.state  # a finished game loads too


def test_golden_playthrough_positions_load():
    """Positions of the golden playthroughs (tests/golden) load and equal the replayed game."""
    for path in sorted((ROOT / "tests" / "golden").glob("playthrough_*.jsonl")):
        lines = [json.loads(x) for x in path.read_text().splitlines()]
        g = Game(**lines[0]["config"])
        actions = [line["action"] for line in lines[1:] if "action" in line]
        assert actions, path.name
        for i, a in enumerate(actions):
            if i % 97 == 0:
                assert Game.from_json(g.dumps()).state == g.state, f"{path.name} step {i}"
            g.apply(a)
        assert Game.from_json(g.dumps()).state == g.state


def test_from_json_leaves_the_document_untouched(doc):
    before = json.dumps(doc, sort_keys=True)
    g = Game.from_json(doc)
    g.apply(g.legal_actions()[0])
    assert json.dumps(doc, sort_keys=True) == before


def test_loaded_save_passes_the_deep_invariants(doc):
    g = Game.from_json(doc)
    check(g.state, deep=True)


def test_invariant_error_is_an_assertion_error_naming_the_field(doc):
    g = Game.from_json(doc)
    g.state.players[0].ip = -1
    with pytest.raises(AssertionError, match=r"players\[0\]\.ip"):
        check(g.state)
    assert issubclass(InvariantError, AssertionError)


# ---------------------------------------------------------------------------
# Mutation test: 2,000 damaged real saves
# ---------------------------------------------------------------------------
MUTATED_SAVES = 2000


@pytest.fixture(scope="module")
def base_saves() -> list[str]:
    return mutate_saves.base_saves(games=25, seed=9, max_turns=6, per_game=4)


def test_mutated_saves_load_cleanly_or_are_rejected_with_state_error(base_saves):
    """Each example damages a real save (drop, duplicate, retype, perturb, swap, rename, add,
    move a card, a plausible change of one field) and loads it: either a StateError with a
    message, or a game whose invariants hold and that plays on (at most 60 moves) with the
    invariants after every step.  Never any other exception."""
    counts = {"loaded": 0, "rejected": 0, "examples": 0}

    @settings(max_examples=MUTATED_SAVES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(base_saves) - 1), st.integers(0, 2 ** 32 - 1))
    def one(i: int, seed: int) -> None:
        outcome, detail = mutate_saves.trial(base_saves[i], random.Random(seed), max_moves=60)
        assert outcome != "bare", detail
        counts[outcome] += 1
        counts["examples"] += 1

    one()
    assert counts["examples"] >= MUTATED_SAVES
    assert counts["loaded"] >= 100 and counts["rejected"] >= 1000, counts
