"""Core engine: setup (§3), first player (§5), Player Turn draws (§10-§12), hand limit
(§14.2.1), plain-data state (clone, JSON), determinism, errors, the rolls machinery."""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest
from helpers import random_moves

from fandonia_env.engine import ConfigError, Game, IllegalActionError, StateError
from fandonia_env.engine.core.actions import ID, NAME, NUM_ACTIONS, PASS, SIGN_MINUS, SIGN_PLUS
from fandonia_env.engine.core.machine import op, seq
from fandonia_env.engine.data.components import (
    CARD_TYPE_OF,
    NON_MONARCH_OFFICES,
    OPPORTUNITY_TYPE_OF,
    PC_DECK,
)
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules.rolls import modified_roll


def random_game(n: int, seed: int, max_turns: int = 8, disturb: bool = False) -> Game:
    g = Game(players=n, seed=seed, max_turns=max_turns)
    noise = random.Random(seed + 1)
    for _ in random_moves(g, random.Random(seed)):
        if disturb:
            random.seed(noise.random())
            np.random.seed(noise.randrange(2**31))
            random.random()
            np.random.random(3)
    return g


# ---------------------------------------------------------------------------
# §3 Prepare for play
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_3_setup_deals_pcs_offices_points_cards_support(n):
    pos = Position(players=n, seed=n)
    st = pos.state
    pcs = [pl.pc for pl in st.players]
    assert len(set(pcs)) == n and all(c in PC_DECK for c in pcs)  # §3.1
    holders = {c.office: cid for cid, c in st.chars.items() if c.office}
    assert set(holders) == set(NON_MONARCH_OFFICES) | {"monarch"}  # §3.3, §3.5
    assert holders["monarch"] == "george" and st.chars["george"].spouse == "catherine"
    for o, cid in holders.items():
        if o != "monarch":
            assert 11 <= int(cid) <= 44 and cid not in pcs
    for pl in st.players:
        assert (pl.ip, pl.pp) == (2, 10)  # §3.8
        assert len(pl.hand) == 10 and sum(CARD_TYPE_OF[c] == "dwtk" for c in pl.hand) == 1  # §3.9
        assert st.chars[pl.pc].loyalty_counter  # §3.11
    assert st.support % 10 == 0 and 20 <= st.support <= 120  # §3.10
    assert len(st.removed) == 6 - n  # unused DWTK cards
    check(st, decision=False)


def test_3_8_ambassadors_start_abroad_in_their_country():
    st = Position(players=3, seed=2).state
    for _cid, c in st.chars.items():
        if c.office and c.office.startswith("amb_"):
            assert c.location == c.office[4:]


# ---------------------------------------------------------------------------
# §5 First player
# ---------------------------------------------------------------------------


def test_5_first_player_highest_dice_count_and_player_order():
    pos = Position(players=3, seed=1)
    pos.dice(2, 3, 6, 1, 5, 5)  # counts 23, 61, 55
    g = pos.run("first_player")
    assert g.state.first_player == 1
    assert g.state.order == [1, 2, 0]


def test_5_first_player_ties_reroll_among_tied_players_a7():
    pos = Position(players=3, seed=1)
    pos.dice(6, 6, 6, 6, 1, 1,  # 66, 66, 11: players 0 and 1 tie
             2, 2, 3, 3)         # reroll: 22 vs 33
    g = pos.run("first_player")
    assert g.state.first_player == 1


# ---------------------------------------------------------------------------
# §10-§12 draws and Opportunity counters
# ---------------------------------------------------------------------------


def test_10_player_turn_draws_one_of_each():
    pos = Position(players=3, seed=3)
    pos.turn_state(0)
    hand = len(pos.state.players[0].hand)
    g = pos.run("turn_draws", p=0)
    pl = g.state.players[0]
    assert len(pl.loyalty_drawn) == 1 and len(pl.opportunity_drawn) == 1
    assert len(pl.hand) == hand + 1


def test_11_4_no_loyalty_counters_left_gains_one_ip():
    pos = Position(players=3, seed=3)
    pos.turn_state(0)
    st = pos.state
    st.players[1].loyalty_drawn.extend(st.loyalty_pool)
    st.loyalty_pool.clear()
    ip = st.players[0].ip
    from fandonia_env.engine.chapters.turn import do_draw

    do_draw(st, 0, "loyalty")
    assert st.players[0].ip == ip + 1


@pytest.mark.parametrize("kind,ip_delta,no_more", [
    ("gain_ip", 1, False), ("favor", 1, False), ("gout", -1, True), ("extra_activity", 0, False),
])
def test_12_3_opportunity_counter_effects(kind, ip_delta, no_more):
    pos = Position(players=3, seed=4)
    pos.turn_state(0)
    st = pos.state
    st.opportunity_pool.sort(key=lambda o: OPPORTUNITY_TYPE_OF[o] == kind)  # wanted kinds last
    # make the random draw deterministic: keep only counters of that kind in the pool
    others = [o for o in st.opportunity_pool if OPPORTUNITY_TYPE_OF[o] != kind]
    st.players[2].opportunity_drawn.extend(others)
    st.opportunity_pool[:] = [o for o in st.opportunity_pool if OPPORTUNITY_TYPE_OF[o] == kind]
    ip = st.players[0].ip
    from fandonia_env.engine.chapters.turn import activities_left, do_draw

    do_draw(st, 0, "opportunity")
    assert st.players[0].ip == ip + ip_delta
    assert st.pt["no_more"] is no_more
    if kind == "extra_activity":
        assert activities_left(st) == 3  # §12.3.2
    if no_more:
        assert activities_left(st) == 0  # §12.3.7


def test_13_1_restricted_pc_performs_one_activity():
    pos = Position(players=3, seed=4)
    pos.turn_state(0, restricted=True, extra=2)
    from fandonia_env.engine.chapters.turn import activities_left

    assert activities_left(pos.state) == 1  # §24.3/§29.2: never more


def test_14_2_1_hand_limit_discard_at_end_of_turn_never_dwtk():
    pos = Position(players=3, seed=5)
    pos.turn_state(0)
    pos.give(0, "henchman", "henchman", "henchman")  # 13 cards
    g = pos.run("end_player_turn", p=0)
    d = g.decision()
    assert d["kind"] == "hand_limit_discard"
    assert ID["discard_dwtk"] not in d["options"]
    g.apply(ID["discard_henchman"])
    assert len(g.state.players[0].hand) == 12
    assert g.decision()["kind"] == "halt"


# ---------------------------------------------------------------------------
# §2.3 / A11 / R10 modified rolls and card windows
# ---------------------------------------------------------------------------


@op("test_record_roll")
def _record(state, roll):
    state.tstate["roll"] = roll


def test_2_3_modifier_signs_declared_before_roll_and_cards_in_player_order():
    pos = Position(players=3, seed=6, first=1)
    pos.empty_hand(0).empty_hand(1).empty_hand(2)
    pos.give(2, "treachery").give(0, "informer")
    spec = {"label": "Test Table", "dice": "2d",
            "signs": [{"player": 1, "amount": 1, "why": "minister"}],
            "cards": [{"card": "treachery", "who": "any", "effect": -2, "max_total": 1},
                      {"card": "informer", "who": "any", "effect": "pm", "amount": 2, "max_total": 1}],
            "clamp": [2, 12], "then": "test_record_roll"}
    st = pos.state
    seq(st, modified_roll(spec), ("builder_halt", {}), ("end_of_turn", {}))
    pos.dice(3, 3)
    from fandonia_env.engine.core.machine import run

    run(st)
    g = Game.from_state(st, advance=False)
    d = g.decision()
    assert (d["player"], d["kind"]) == (1, "declare_modifier")  # first player, sign first
    g.apply(SIGN_PLUS)
    d = g.decision()
    assert (d["player"], d["kind"]) == (2, "card_window")  # player 1 holds no card: skipped (R10)
    g.apply(ID["play_treachery"])
    d = g.decision()  # treachery limit reached: player 2 has nothing left
    assert (d["player"], d["kind"]) == (0, "card_window")
    g.apply(ID["play_informer"])
    assert g.decision()["kind"] == "card_sign"
    g.apply(SIGN_MINUS)
    r = g.state.tstate["roll"]
    assert r["natural"] == 6 and r["mod"] == 1 - 2 - 2 and r["total"] == 3
    assert r["played"] == {"treachery": 1, "informer": 1}


def test_a6_modified_roll_clamped_to_table_ends():
    pos = Position(players=2, seed=6)
    pos.empty_hand(0).empty_hand(1)
    spec = {"label": "T", "dice": "2d", "base": -7, "clamp": [2, 12], "then": "test_record_roll"}
    pos.dice(2, 1)
    g = pos.run(*modified_roll(spec))
    assert g.state.tstate["roll"]["total"] == 2


def test_14_5_7_intrigue_card_may_be_played_as_treachery():
    pos = Position(players=2, seed=6)
    pos.empty_hand(0).empty_hand(1).give(1, "intrigue")
    spec = {"label": "T", "dice": "2d",
            "cards": [{"card": "treachery", "who": "any", "effect": -2, "max_total": 1}],
            "then": "test_record_roll"}
    pos.dice(4, 4)
    g = pos.run(*modified_roll(spec))
    d = g.decision()
    assert d["player"] == 1 and ID["play_intrigue_as_treachery"] in d["options"]
    g.apply(ID["play_intrigue_as_treachery"])
    assert g.state.tstate["roll"]["total"] == 6
    assert CARD_TYPE_OF[g.state.discard[-1]] == "intrigue"


def test_26_2_absent_card_penalty_applies_when_no_evidence_played():
    pos = Position(players=2, seed=6)
    pos.empty_hand(0).empty_hand(1)
    spec = {"label": "Hearing", "dice": "2d", "absent": {"card": "evidence", "amount": -1},
            "cards": [{"card": "evidence", "who": "any", "effect": 1}], "then": "test_record_roll"}
    pos.dice(3, 4)
    g = pos.run(*modified_roll(spec))
    assert g.state.tstate["roll"]["total"] == 6


# ---------------------------------------------------------------------------
# Plain data: clone, JSON, determinism, errors
# ---------------------------------------------------------------------------


def test_clone_is_independent_and_equal():
    g = random_game(4, 11, max_turns=2)
    g2 = Game(players=4, seed=12, max_turns=5)
    c = g2.clone()
    assert c.state == g2.state
    a = c.legal_actions()[0]
    c.apply(a)
    assert c.state != g2.state
    assert g.state == g.clone().state


def test_json_round_trip_exact_mid_game():
    g = Game(players=5, seed=3, max_turns=6)
    rng = random.Random(3)
    for _ in range(40):
        if g.over:
            break
        doc = json.loads(json.dumps(g.to_json()))
        h = Game.from_json(doc)
        assert h.state == g.state
        assert h.legal_actions() == g.legal_actions()
        a = rng.choice(g.legal_actions())
        g.apply(a)
        h.apply(a)
        assert h.state == g.state


def test_same_seed_same_game_despite_global_rng_use():
    a = random_game(4, 99, disturb=False)
    b = random_game(4, 99, disturb=True)
    assert a.log_lines() == b.log_lines()
    assert a.state == b.state


def test_malformed_saved_game_rejected_with_field_name():
    g = Game(players=3, seed=1)
    doc = g.to_json()
    bad = dict(doc)
    bad["support"] = 7
    with pytest.raises(StateError, match="support"):
        Game.from_json(bad)
    bad = dict(doc)
    del bad["players"]
    with pytest.raises(StateError, match="players"):
        Game.from_json(bad)
    bad = dict(doc)
    bad["schema"] = 99
    with pytest.raises(StateError, match="schema"):
        Game.from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["chars"]["11"]["bogus"] = 1
    with pytest.raises(StateError, match="bogus"):
        Game.from_json(bad)
    with pytest.raises(StateError, match="JSON"):
        Game.from_json("{not json")


@pytest.mark.parametrize("kw,field", [
    ({"players": 1}, "players"), ({"players": 7}, "players"), ({"seed": -1}, "seed"),
    ({"max_turns": 0}, "max_turns"), ({"edition": "1999"}, "edition"), ({"optional": ["x"]}, "optional"), ({"optional": ["marriage"]}, "marriage"), ({"preset": "nope"}, "preset"),
    ({"colour": "red"}, "colour"),
])
def test_invalid_config_names_the_field(kw, field):
    with pytest.raises(ConfigError, match=field):
        Game(**kw)


@pytest.mark.parametrize("arg", [4, "4", {"players": 4}])
def test_game_takes_its_config_as_keywords_only(arg):
    """A positional argument is a GameState to wrap (``from_state``, ``clone``, pickling); anything
    else is refused with the keywords allowed."""
    with pytest.raises(TypeError, match="keywords.*players"):
        Game(arg)


def test_game_pickles_copies_and_wraps_its_state():
    g = Game(players=3, seed=5)
    for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), copy.copy(g), Game.from_state(g.state)):
        assert type(h) is Game and h.to_json() == g.to_json()
    assert copy.copy(g).state is g.state and copy.deepcopy(g).state is not g.state


def test_illegal_action_raises_and_leaves_state_untouched():
    g = Game(players=3, seed=5)
    before = g.to_json()
    legal = g.legal_actions()
    bad = next(a for a in range(NUM_ACTIONS) if a not in legal)
    with pytest.raises(IllegalActionError) as e:
        g.apply(bad)
    assert str(g.current_player()) in str(e.value) and NAME[legal[0]] in str(e.value)
    assert e.value.legal == legal
    with pytest.raises(IllegalActionError):
        g.apply(-1)
    with pytest.raises(IllegalActionError):
        g.apply("pass")  # type: ignore[arg-type]
    assert g.to_json() == before


def test_r10_single_option_decisions_resolve_themselves():
    g = random_game(3, 21, max_turns=3)
    # every decision ever shown had at least two options: checked by replaying
    g = Game(players=3, seed=21, max_turns=3)
    for _ in random_moves(g, random.Random(21)):
        assert len(g.legal_actions()) >= 2


def test_pass_is_action_zero_and_catalogue_is_stable():
    assert PASS == 0 and NAME[0] == "pass"
    assert ID["act_acquire_title"] == 3  # append-only: ids never move
    assert SIGN_PLUS != SIGN_MINUS


def test_13_1_pc_restricted_during_his_own_turn_has_no_more_than_one_activity():
    from fandonia_env.engine.chapters.turn import activities_left

    pos = Position(players=3, seed=4)
    pos.turn_state(0, done=["travel"], extra=1)
    assert activities_left(pos.state) == 2
    pos.state.wchar(pos.state.players[0].pc).imprisoned = True  # sentenced during his turn
    assert activities_left(pos.state) == 0
    assert pos.state.pt["imprisoned"] and pos.state.tstate["restricted_0"]


def test_14_3_discards_reshuffled_into_a_new_event_pile_when_it_runs_out():
    from fandonia_env.engine.rules.queries import draw_event

    pos = Position(players=2, seed=8)
    st = pos.state
    st.discard.extend(st.deck[:-1])
    del st.deck[:-1]
    last = st.deck[0]
    assert draw_event(st) == last and st.deck == []
    n = len(st.discard)
    card = draw_event(st)
    assert card is not None and st.discard == [] and len(st.deck) == n - 1
    assert any("reshuffled" in e["t"] for e in st.log)
    st.players[0].hand.extend([last, card])
    check(st, decision=False)


def test_33_2_1_crisis_cap_is_half_the_ip_held_at_the_start_of_the_turn():
    from fandonia_env.engine.rules.queries import gain_ip, ip_spendable, spend_ip

    pos = Position(players=2, seed=3)
    st = pos.state
    st.players[0].ip = 9
    st.tstate = {"ip_start": {"0": 9, "1": 1}}
    st.support = 0
    assert ip_spendable(st, 0) == 4
    spend_ip(st, 0, 3, "test")
    gain_ip(st, 0, 10)  # gains during the turn do not raise the cap
    assert ip_spendable(st, 0) == 1
    st.players[1].ip = 1
    assert ip_spendable(st, 1) == 1  # a player with only One IP may use it (§33.2.1)


def test_18_10_a18_farc_married_to_a_fac_has_at_least_the_spouses_status_8():
    from fandonia_env.engine.rules.queries import status

    pos = Position(players=2, seed=3)
    pos.char("alfred", owner=0, spouse="56").char("56", owner=0, spouse="alfred")
    st = pos.state
    assert status(st, "56") == 8 and status(st, "alfred") == 8
    st.wchar("alfred").owner = None  # no longer a FARC: §18.9, the higher of the two
    assert status(st, "56") == 5 and status(st, "alfred") == 5


def test_14_2_1_hand_limit_still_applies_when_mourning_cuts_the_turn_short():
    pos = Position(players=3, seed=5)
    pos.give(1, "henchman", "henchman", "henchman")  # 13 cards
    g = pos.run("end_of_turn")
    d = g.decision()
    assert (d["player"], d["kind"]) == (1, "hand_limit_discard")


def test_operations_get_their_frame_arguments_by_position_or_by_name_alike(monkeypatch):
    """``machine._call`` passes a frame's arguments by position when they name the operation's first
    parameters (a compiled operation then parses no keywords) and by name otherwise: either way the
    operation gets the same values, and arguments it does not take fail as a keyword call does."""
    from fandonia_env.engine.core import machine

    got: list[tuple] = []

    def plain(state, a, b=2, c=3):
        got.append((a, b, c))

    def choice_op(state, choice, p, q=0):
        got.append((choice, p, q))

    def loose(state, **kw):
        got.append(tuple(sorted(kw.items())))

    st = Position(players=3, seed=1).state
    for args, want in [({}, None), ({"a": 1}, (1, 2, 3)), ({"a": 1, "b": 5}, (1, 5, 3)),
                       ({"b": 5, "a": 1}, (1, 5, 3)), ({"a": 1, "c": 9}, (1, 2, 9)),
                       ({"a": 1, "b": 5, "c": 9}, (1, 5, 9)), ({"b": 5}, None), ({"a": 1, "z": 0}, None)]:
        got.clear()
        if want is None:
            with pytest.raises(TypeError):
                machine._call(st, plain, dict(args))
        else:
            machine._call(st, plain, dict(args))
            assert got == [want], args
    for args, want in [({"p": 4}, (7, 4, 0)), ({"q": 2, "p": 4}, (7, 4, 2)), ({"q": 2}, None)]:
        got.clear()
        if want is None:
            with pytest.raises(TypeError):
                machine._call_choice(st, choice_op, 7, dict(args))
        else:
            machine._call_choice(st, choice_op, 7, dict(args))
            assert got == [want], args
    got.clear()
    machine._call(st, loose, {"x": 1, "y": 2})
    machine._call_choice(st, loose, 3, {"x": 1})
    assert got == [(("x", 1), ("y", 2)), (("choice", 3), ("x", 1))]
