"""§38 optional rules of the set-up group: Beginning PC Advantages, Shorter Game a, c, d, e
and Sweet Charity, each from a Position with scripted dice."""

from __future__ import annotations

import pytest
from helpers import halted

from fandonia_env.engine import Game
from fandonia_env.engine.chapters.crown import next_in_line
from fandonia_env.engine.chapters.turn import activities_left
from fandonia_env.engine.core.actions import ID, NO, PASS, YES
from fandonia_env.engine.data.components import CARD_TYPE_OF, FEMALES, ROYAL_ALIGNMENT_CARD
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check

REMOVED = ("alfred", "catherine", "almery", "phillip")


def _roll_order(st) -> list[int]:
    low = min(range(st.n), key=lambda p: int(st.players[p].pc))
    return [(low + i) % st.n for i in range(st.n)]


def _male_pc_position(n: int = 3) -> Position:
    for seed in range(40):
        pos = Position(players=n, seed=seed, optional=["pc_advantages"])
        if not any(pl.pc in FEMALES for pl in pos.state.players):
            return pos
    raise LookupError


# ---------------------------------------------------------------------------
# Beginning PC Advantages
# ---------------------------------------------------------------------------


def test_opt_pc_advantages_rolled_at_setup_from_lowest_pc_clockwise():
    pos = _male_pc_position()
    st = pos.state
    first, second, third = _roll_order(st)
    pos.dice(1, 2, 3, 3, 3, 4)  # 3: Literary and Court Ball +2; 6: Seven IP; 7: Twenty PP
    g = pos.run("pc_advantages")
    halted(g)
    assert st.players[first].prestige_mods == {"literary": 2} and st.players[first].ball_mod == 2
    assert (st.players[second].ip, st.players[second].pp) == (7, 10)
    assert (st.players[third].ip, st.players[third].pp) == (2, 20)
    rolls = [e["t"] for e in st.log if e["t"].startswith("PC Advantage Table")]
    assert [int(r.split("player ")[1].split()[0]) for r in rolls] == [first, second, third]


def test_opt_pc_advantages_5_plus_one_on_the_prestige_table_of_his_choice():
    pos = _male_pc_position()
    st = pos.state
    p = _roll_order(st)[0]
    pos.dice(2, 3)
    g = pos.run("pc_advantage_roll", p=p)
    d = g.decision()
    assert d["kind"] == "pc_advantage_table" and d["player"] == p and len(d["options"]) == 10
    g.apply(ID["prestige_gambling"])
    halted(g)
    assert st.players[p].prestige_mods == {"gambling": 1}


def test_opt_pc_advantages_8_12_office_of_his_choice_displaces_the_holder():
    pos = _male_pc_position()
    st = pos.state
    p = _roll_order(st)[0]
    pc = st.players[p].pc
    old = next(cid for cid, c in st.chars.items() if c.office == "amb_cronos")
    pos.dice(6, 6)
    g = pos.run("pc_advantage_roll", p=p)
    d = g.decision()
    assert d["kind"] == "pc_advantage_office" and PASS in d["options"] and len(d["options"]) == 13
    g.apply(ID["office_amb_cronos"])
    halted(g)
    assert st.chars[pc].office == "amb_cronos" and st.chars[pc].location == "cronos"  # §20.4
    assert st.chars[old].office is None and st.chars[old].location == "fandonia"


def test_opt_pc_advantages_female_pc_rolls_again_on_8_12():
    for seed in range(60):
        pos = Position(players=3, seed=seed, optional=["pc_advantages"])
        fem = [pl.idx for pl in pos.state.players if pl.pc in FEMALES]
        if fem:
            break
    st = pos.state
    p = fem[0]
    pos.dice(4, 4, 3, 3)  # 8: office -> roll again; 6: Seven IP
    g = pos.run("pc_advantage_roll", p=p)
    halted(g)
    assert st.players[p].ip == 7 and st.chars[st.players[p].pc].office is None
    assert any("rolls again" in e["t"] for e in st.log)


def test_opt_pc_advantages_6_and_7_add_to_the_shorter_game_a_start():
    for seed in range(40):
        pos = Position(players=3, seed=seed, optional=["pc_advantages", "shorter_a"])
        if not any(pl.pc in FEMALES for pl in pos.state.players):
            break
    st = pos.state
    first, second, third = _roll_order(st)
    pos.dice(3, 3, 3, 4, 2, 3)  # 6: +5 IP; 7: +10 PP; 5: +1 on a Prestige Table
    g = pos.run("pc_advantages")
    g.apply(ID["prestige_fashion"])
    halted(g)
    assert [(st.players[p].ip, st.players[p].pp) for p in (first, second, third)] == [(15, 25), (10, 35), (10, 25)]
    assert st.players[third].prestige_mods == {"fashion": 1}


def test_opt_pc_advantages_game_starts_with_the_rolls():
    g = Game(players=3, seed=5, optional=["pc_advantages"])
    rolls = [e["t"] for e in g.state.log if e["t"].startswith("PC Advantage Table")]
    assert len(rolls) >= 1
    g81 = Game(players=3, seed=5)
    assert not any(e["t"].startswith("PC Advantage Table") for e in g81.state.log)


# ---------------------------------------------------------------------------
# Shorter Game a, c, d, e
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_opt_shorter_a_ten_ip_and_twenty_five_pp(edition):
    st = Position(players=4, edition=edition, optional=["shorter_a"]).state
    assert all((pl.ip, pl.pp) == (10, 25) for pl in st.players)


def test_opt_shorter_c_twelve_cards_and_hand_limit_fifteen():
    pos = Position(players=4, optional=["shorter_c"])
    st = pos.state
    assert all(len(pl.hand) == 13 for pl in st.players)  # DOWN WITH THE KING + twelve
    pos.turn_state(0)
    pos.give(0, "henchman", "henchman")  # 15 cards: no discard
    g = pos.run("end_player_turn", p=0)
    halted(g)
    assert len(st.players[0].hand) == 15
    pos.turn_state(0)
    pos.give(0, "alibi")  # 16: one over the limit
    g = pos.run("end_player_turn", p=0)
    d = g.decision()
    assert d["kind"] == "hand_limit_discard" and d["ctx"]["over"] == 1
    g.apply(d["options"][0])
    halted(g)
    assert len(st.players[0].hand) == 15


def test_opt_shorter_d_three_activities_per_player_turn():
    pos = Position(players=4, optional=["shorter_d"]).turn_state(0)
    st = pos.state
    assert activities_left(st) == 3
    st.pt["done"] = ["recruit", "draw"]
    assert activities_left(st) == 1
    st.pt["restricted"] = True  # §13.1: a restricted PC still has one only
    st.pt["done"] = []
    assert activities_left(st) == 1
    assert activities_left(Position(players=4).turn_state(0).state) == 2


def test_opt_shorter_e_four_rcs_removed_at_the_beginning():
    pos = Position(players=4, optional=["shorter_e"])
    st = pos.state
    check(st, decision=False)
    for r in REMOVED:
        assert st.chars[r].dead
        card = next(c for c in st.removed if CARD_TYPE_OF[c] == ROYAL_ALIGNMENT_CARD[r])
        assert card not in st.deck and all(card not in pl.hand for pl in st.players)
    assert st.chars["george"].spouse is None
    # succession skips them (§9.2): after Edward, no RC is left to succeed
    for r in ("alan", "anne", "john"):
        st.wchar(r).dead = True
    assert next_in_line(st) == "edward"
    st.wchar("edward").dead = True
    assert next_in_line(st) is None
    st81 = Position(players=4).state
    st81.wchar("edward").dead = st81.wchar("john").dead = st81.wchar("anne").dead = st81.wchar("alan").dead = True
    assert next_in_line(st81) == "phillip"


def test_opt_shorter_e_royal_death_never_names_a_removed_rc():
    pos = Position(players=4, optional=["shorter_e"])
    st = pos.state
    pos.dice(1, 1, 1, 4, 4, 1)  # Royal Death; count 14 (Catherine, removed) -> reroll; 41 John
    from fandonia_env.engine.core.machine import OPS

    calls = []
    real_kill = OPS["kill"]
    try:
        OPS["kill"] = lambda state, cid, cause="": calls.append(cid)
        g = pos.run("crown_phase")
    finally:
        OPS["kill"] = real_kill
    assert calls == ["john"], [e["t"] for e in st.log[-5:]]
    assert g.decision() is not None


# ---------------------------------------------------------------------------
# Sweet Charity
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dice,ip,pp", [((1, 1), 0, 5), ((3, 3), 0, 10), ((4, 4), 1, 10), ((6, 5), 2, 10)])
def test_opt_sweet_charity_rows(dice, ip, pp):
    pos = Position(players=3, optional=["sweet_charity"])
    st = pos.state
    pos.player(0, ip=0, pp=10).turn_state(0)
    pos.dice(*dice)
    g = pos.run("turn_start_hooks", p=0)
    d = g.decision()
    assert d["kind"] == "sweet_charity" and d["options"] == [YES, NO]
    g.apply(YES)
    halted(g)
    assert (st.players[0].ip, st.players[0].pp) == (ip, pp)
    assert st.pt["done"] == []  # not an activity


def test_opt_sweet_charity_only_with_no_ip_and_may_be_declined():
    pos = Position(players=3, optional=["sweet_charity"])
    st = pos.state
    pos.player(0, ip=1).turn_state(0)
    halted(pos.run("turn_start_hooks", p=0))  # one IP: no offer
    pos.player(0, ip=0, pp=10).turn_state(0)
    g = pos.run("turn_start_hooks", p=0)
    g.apply(NO)
    halted(g)
    assert (st.players[0].ip, st.players[0].pp) == (0, 10)
    pos81 = Position(players=3).player(0, ip=0).turn_state(0)
    halted(pos81.run("turn_start_hooks", p=0))  # switch off: nothing
