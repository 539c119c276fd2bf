"""Rulings R12 (paying Three IP instead of a PC's duel, §19.4, §34.4), R13 (1981 counseling on
the Crown Events' political problem, §15.4, D49) and R14 (a forced set of discards is not a
decision, §9.4, §14.2.1, R10)."""

from __future__ import annotations

import pytest
from helpers import MC, counsel_position, empty_handed, home_position, logs, make_mc

from fandonia_env.engine.chapters.counsel import open_tables
from fandonia_env.engine.chapters.turn import do_draw
from fandonia_env.engine.core.actions import ID, PASS, SIGN_MINUS, char_action
from fandonia_env.engine.core.machine import OPS, run, seq
from fandonia_env.engine.data.components import CARD_TYPE_OF, OPPORTUNITY_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import Game
from fandonia_env.engine.face.invariants import check

# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


def duel_pos(edition: str = "1981", pcs: tuple[str, ...] = ("11", "12", "13"), ip: int = 5) -> Position:
    """Three players, everyone at home and out of office (but the Monarch), empty hands,
    the chosen PCs, player 0 with ``ip`` IP."""
    return home_position(pcs=pcs, edition=edition).player(0, ip=ip)


def assert_buyout_offered(g, player: int, pc: str) -> None:
    d = g.decision()
    assert (d["player"], d["kind"]) == (player, "duel_fighter")
    assert set(d["options"]) == {char_action(pc), PASS}
    assert d["ctx"]["avoid_cost_ip"] == 3 and d["ctx"]["required"] == pc


def assert_bought_out(g, player: int, ip_before: int, dice_left: list[int], opponent_rolled: bool = False) -> None:
    """PASS: Three IP paid, no duel, no opponent rolled (the scripted dice are still there)."""
    g.apply(PASS)
    assert g.decision()["kind"] == "halt"
    assert g.state.players[player].ip == ip_before - 3
    text = logs(g)
    assert f"No duel is fought (player {player} paid Three IP, §19.4, ruling R12)" in text
    assert ("opponent dice count" in text) == opponent_rolled and "Dueling roll" not in text
    assert g.state.rng.scripted == dice_left


# ---------------------------------------------------------------------------
# R12: the PC was named
# ---------------------------------------------------------------------------


def test_r12_pc_named_may_pay_three_ip_before_the_opponent_roll():
    pos = duel_pos(ip=4)
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=None, cid="11", source="prestige")
    assert_buyout_offered(g, 0, "11")
    assert_bought_out(g, 0, 4, [4, 2, 6, 6])


def test_r12_pc_named_who_fights_rolls_an_opponent():
    pos = duel_pos(ip=4)
    pos.dice(4, 2, 6, 6)  # Duke Roland; both dueling dice 6: no effect
    g = pos.run("duel", player=None, cid="11", source="prestige")
    g.apply(char_action("11"))
    assert g.decision()["kind"] == "halt" and g.state.players[0].ip == 4
    assert "Duke Roland is Sir Drew's opponent" in logs(g) and "Both duellists survive" in logs(g)


def test_r12_pc_rolled_as_opponent_may_pay():
    pos = duel_pos(ip=0)
    pos.player(1, ip=3)
    pos.dice(1, 2)  # Sir Guy, player 1's PC (§19.7.5)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert_buyout_offered(g, 1, "12")
    assert_bought_out(g, 1, 3, [], opponent_rolled=True)  # the roll that named him; no other


# ---------------------------------------------------------------------------
# R12: the player must fight and has no henchman to designate
# ---------------------------------------------------------------------------


def test_r12_player_required_without_henchman_may_pay():
    pos = duel_pos(ip=5)
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert_buyout_offered(g, 0, "11")
    assert g.state.rng.scripted == [4, 2, 6, 6]  # offered before the opponent roll
    assert_bought_out(g, 0, 5, [4, 2, 6, 6])


def test_r12_player_required_without_henchman_who_fights_designates_his_pc():
    pos = duel_pos(ip=5)
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    g.apply(char_action("11"))
    assert g.decision()["kind"] == "halt" and g.state.players[0].ip == 5
    assert "Player 0 designates Sir Drew to fight the duel (§19.3)" in logs(g)
    assert "Duke Roland is Sir Drew's opponent" in logs(g)


def test_r12_player_whose_pc_is_abroad_may_pay_no_henchman_stands_in():
    pos = duel_pos(ip=3)
    pos.henchman("24", 0)
    pos.char("11", location="cronos").char("42", location="cronos")
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert_buyout_offered(g, 0, "11")
    assert_bought_out(g, 0, 3, [])


def test_r12_player_with_a_henchman_designates_and_is_offered_no_payment():
    pos = duel_pos(ip=10)
    pos.henchman("24", 0)
    g = pos.run("duel", player=0, cid=None, source="counter")
    d = g.decision()
    assert d["kind"] == "duel_fighter" and set(d["options"]) == {char_action("11"), char_action("24")}


def test_r12_player_with_a_female_pc_designates_a_henchman_without_payment():
    pos = duel_pos(pcs=("56", "12", "13"), ip=10)
    pos.henchman("24", 0)
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")  # the henchman is the only duellist
    assert g.decision()["kind"] == "halt" and g.state.players[0].ip == 10
    assert "Player 0 designates Sir Charles to fight the duel (§19.3)" in logs(g)


# ---------------------------------------------------------------------------
# R12: cannot pay, FAC, no duel possible: no decision
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("ip,crown", [(2, None), (10, "famine")])
def test_r12_cannot_pay_no_decision_the_pc_fights(ip, crown):
    pos = duel_pos(ip=ip)
    pos.state.crown = crown  # a Famine: no IP may be spent (§34.6)
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert g.decision()["kind"] == "halt"  # ruling R10: a single choice is no decision
    assert g.state.players[0].ip == ip and "Duke Roland is Sir Drew's opponent" in logs(g)


def test_r12_fac_may_never_buy_out():
    pos = duel_pos(ip=20)
    pos.char("42", owner=0)
    pos.dice(3, 6, 6, 6)  # Lord Arthur; both dice 6
    g = pos.run("duel", player=None, cid="42", source="prestige")
    assert g.decision()["kind"] == "halt" and g.state.players[0].ip == 20
    assert "Lord Arthur is Duke Roland's opponent" in logs(g)


def test_r12_fac_rolled_as_opponent_may_not_buy_out():
    pos = duel_pos(ip=0)
    pos.char("42", owner=1)
    pos.player(1, ip=20)
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert g.decision()["kind"] == "halt" and g.state.players[1].ip == 20
    assert "Duke Roland is Sir Drew's opponent" in logs(g)


def test_r12_no_opponent_possible_no_payment_offered():
    pos = duel_pos(ip=10)
    pos.char("11", location="cronos")  # nobody else abroad in Cronos (§19.7.4)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert g.decision()["kind"] == "halt" and g.state.players[0].ip == 10
    assert "no character can be his opponent" in logs(g)


# ---------------------------------------------------------------------------
# R12: every source - Duel counter, Prestige table, Court Ball
# ---------------------------------------------------------------------------


def test_r12_duel_counter_12_3_6_buyout_offered():
    pos = duel_pos(ip=6)
    st = pos.state
    pos.turn_state(0)
    kept = [o for o in st.opportunity_pool if OPPORTUNITY_TYPE_OF[o] == "duel"]
    st.players[2].opportunity_drawn.extend(o for o in st.opportunity_pool if o not in kept)
    st.opportunity_pool[:] = kept
    seq(st, ("builder_halt", {}), ("end_of_turn", {}))
    do_draw(st, 0, "opportunity")  # schedules the duel above the halt
    run(st)
    g = Game.from_state(st, advance=False)
    assert_buyout_offered(g, 0, "11")
    assert g.decision()["ctx"]["source"] == "counter"
    assert_bought_out(g, 0, 6, [])
    assert st.pt["no_more"]  # the counter still ends the activities (§12.3.6)


def _prestige_pos(ip: int) -> Position:
    pos = duel_pos(ip=ip)
    pos.player(0, pp=30)
    pos.turn_state(0)
    return pos


def test_r12_prestige_fight_a_duel_buyout_offered():
    pos = _prestige_pos(ip=10)
    pos.dice(1, 2)  # Sporting 3: Quarrel... Fight A Duel
    g = pos.run("prestige_start", p=0)
    if g.decision()["kind"] == "prestige_table":
        g.apply(ID["prestige_sporting"])
    assert_buyout_offered(g, 0, "11")
    assert g.decision()["ctx"]["source"] == "prestige"
    assert_bought_out(g, 0, 10, [])


def test_r12_prestige_fight_a_duel_cannot_pay_fights():
    pos = _prestige_pos(ip=2)
    pos.dice(1, 2, 4, 2, 6, 6)
    g = pos.run("prestige_start", p=0)
    if g.decision()["kind"] == "prestige_table":
        g.apply(ID["prestige_sporting"])
    assert g.decision()["kind"] == "halt" and g.state.players[0].ip == 2
    assert "Duke Roland is Sir Drew's opponent" in logs(g)


def test_r12_court_ball_insulting_buyout_offered():
    pos = duel_pos(ip=4)
    pos.state.forced_crown = ["court_ball"]
    pos.dice(1, 2, 3, 4, 3, 4)  # player 0: 3, Insulting (a duel); the others 7
    g = pos.run("crown_phase")
    assert_buyout_offered(g, 0, "11")
    d = g.decision()
    assert d["ctx"]["source"] == "court_ball"
    assert_bought_out(g, 0, 4, [])


def test_r12_errata_edition_same_buyout():
    pos = duel_pos(edition="errata", ip=3)
    pos.dice(4, 2, 6, 6)
    g = pos.run("duel", player=0, cid=None, source="counter")
    assert_buyout_offered(g, 0, "11")  # ES §19.4, §34.4 say the same as the 1981 text
    assert_bought_out(g, 0, 3, [4, 2, 6, 6])


# ---------------------------------------------------------------------------
# R13: counseling on the Crown Events' political problem (§15.4, D49)
# ---------------------------------------------------------------------------

def _counsel_pos(edition: str) -> Position:
    """Crown Events 8 (One Political Problem) -> Pirates (8), resolved at once by an NC
    Minister Of The Navy; player 0 has a Monarch's Counselor."""
    pos = counsel_position(edition=edition, empty_hands=True)
    st = pos.state
    make_mc(pos, 0, MC)
    pos.office("minister_of_navy", "36")  # Lord Arthur, an NC (Ability above 1)
    st.problems = {}
    st.forced_crown = []
    pos.turn_state(0)
    return pos


def _crown_then_counsel(pos: Position, *dice: int) -> Game:
    st = pos.state
    pos.dice(*dice)
    seq(st, ("crown_phase", {}), ("counsel_step", {"p": 0}), ("builder_halt", {}), ("end_of_turn", {}))
    run(st)
    g = Game.from_state(st, advance=False)
    while g.decision()["kind"] == "declare_modifier":  # listed PC/FAC modifiers, if any
        g.apply(SIGN_MINUS if SIGN_MINUS in g.decision()["options"] else g.decision()["options"][0])
    return g


def test_r13_1981_crown_problem_resolved_at_once_opens_its_table():
    pos = _counsel_pos("1981")
    g = _crown_then_counsel(pos, 4, 4, 4, 4, 1)  # One Political Problem; Pirates; 1 resolves
    st = g.state
    assert "pirates" not in st.problems and "Pirates" in logs(g)
    assert st.tstate["crown_problems"] == ["pirates"]
    d = g.decision()
    assert (d["player"], d["kind"]) == (0, "counsel_table")
    assert set(d["options"]) == {ID["counsel_table_pirates"], PASS}


def test_r13_errata_d49_crown_problem_resolved_at_once_opens_no_table():
    pos = _counsel_pos("errata")
    g = _crown_then_counsel(pos, 4, 4, 4, 4, 1)
    assert "pirates" not in g.state.problems
    assert g.decision()["kind"] == "halt"  # no table open, no counseling (D49)


def test_r13_1981_problem_resolved_in_the_problems_phase_opens_no_table():
    pos = _counsel_pos("1981")
    st = pos.state
    st.crown = "court_ball"
    st.tstate["crown_events"] = ["court_ball"]
    assert open_tables(st) == ["court_ball"]  # a problem resolved before the Crown Events: no table
    st.tstate["crown_problems"] = ["pirates"]
    assert open_tables(st) == ["court_ball", "pirates"]
    pos2 = _counsel_pos("errata")
    pos2.state.crown = "court_ball"
    pos2.state.tstate["crown_problems"] = ["pirates"]
    assert open_tables(pos2.state) == ["court_ball"]


def test_r13_1981_two_problems_both_tables_open_resolved_or_not():
    pos = _counsel_pos("1981")
    pos.office("minister_of_trade", None)  # Agriculture Crisis: no Minister, unresolved (§7.4)
    g = _crown_then_counsel(pos, 3, 4, 4, 4, 1, 5, 6)  # Two Political Problems; Pirates (1: resolved);
    st = g.state                                       # Agriculture Crisis (11)
    assert "pirates" not in st.problems and "agriculture_crisis" in st.problems
    d = g.decision()
    assert d["kind"] == "counsel_table"
    assert set(d["options"]) == {ID["counsel_table_pirates"], ID["counsel_table_agriculture_crisis"], PASS}


def test_r13_crown_problems_are_forgotten_at_the_next_turn():
    pos = _counsel_pos("1981")
    g = _crown_then_counsel(pos, 4, 4, 4, 4, 1)
    assert g.state.tstate["crown_problems"] == ["pirates"]
    from fandonia_env.engine.chapters.turn import new_turn

    st = g.state
    st.stack.clear()
    seq(st, ("builder_halt", {}))
    new_turn(st)
    assert "crown_problems" not in st.tstate


# ---------------------------------------------------------------------------
# R14: a forced set of discards is not a decision
# ---------------------------------------------------------------------------


@pytest.fixture
def halt_at_end_of_turn(monkeypatch):
    def end_of_turn(state):  # stop when mourning ends the turn (§9.4)
        state.tstate["turn_ended"] = True
        seq(state, ("builder_halt", {}))

    monkeypatch.setitem(OPS, "end_of_turn", end_of_turn)


def _mourning_pos(hands: dict[int, tuple[str, ...]]) -> Position:
    pos = empty_handed(3, 1, first=0)
    st = pos.state
    st.wchar("george").dead = True
    st.wchar("george").office = None
    st.wchar("catherine").spouse = None
    st.wchar("george").spouse = None
    for p in range(3):
        pos.give(p, *hands.get(p, ()))
    return pos


def _types(st, p):
    return sorted(CARD_TYPE_OF[c] for c in st.players[p].hand)


def test_r14_mourning_two_different_cards_go_without_a_decision(halt_at_end_of_turn):
    pos = _mourning_pos({0: ("evidence", "alibi"), 1: ("informer", "henchman"), 2: ("escape",)})
    g = pos.run("succession")
    assert g.decision()["kind"] == "halt"  # nobody was asked
    st = g.state
    assert [_types(st, p) for p in range(3)] == [["dwtk"]] * 3
    text = logs(g)
    assert "Player 0 discards 'Evidence' (mourning, §9.4)." in text
    assert "Player 0 discards 'Alibi' (mourning, §9.4)." in text
    assert "Player 2 discards 'Escape' (mourning, §9.4)." in text
    assert check(st, decision=False) is None


def test_r14_mourning_all_of_one_type_goes_without_a_decision(halt_at_end_of_turn):
    pos = _mourning_pos({0: ("evidence", "evidence", "evidence")})
    g = pos.run("succession")
    assert g.decision()["kind"] == "halt"
    assert _types(g.state, 0) == ["dwtk", "evidence"]


def test_r14_mourning_real_choice_is_still_asked(halt_at_end_of_turn):
    pos = _mourning_pos({0: ("evidence", "alibi", "henchman")})
    g = pos.run("succession")
    d = g.decision()
    assert (d["player"], d["kind"]) == (0, "mourning_discard")
    assert set(d["options"]) == {ID["discard_evidence"], ID["discard_alibi"], ID["discard_henchman"]}
    g.apply(ID["discard_henchman"])
    d = g.decision()
    assert d["kind"] == "mourning_discard" and set(d["options"]) == {ID["discard_evidence"], ID["discard_alibi"]}
    g.apply(ID["discard_alibi"])
    assert g.decision()["kind"] == "halt" and _types(g.state, 0) == ["dwtk", "evidence"]


def test_r14_mourning_choice_between_outcomes_then_forced_rest(halt_at_end_of_turn):
    pos = _mourning_pos({0: ("evidence", "evidence", "alibi")})  # {E, E} or {E, A}: a real choice
    g = pos.run("succession")
    d = g.decision()
    assert d["kind"] == "mourning_discard"
    assert set(d["options"]) == {ID["discard_evidence"], ID["discard_alibi"]}
    g.apply(ID["discard_alibi"])  # the second card is forced: two Evidence left, one goes
    assert g.decision()["kind"] == "halt" and _types(g.state, 0) == ["dwtk", "evidence"]


def test_r14_hand_limit_all_of_one_type_goes_without_a_decision():
    pos = empty_handed(3, 5)
    pos.give(1, *["henchman"] * 13)  # DOWN WITH THE KING + 13 Henchman: 14 cards, limit 12
    g = pos.run("end_player_turn", p=1)
    assert g.decision()["kind"] == "halt"
    assert _types(g.state, 1) == ["dwtk"] + ["henchman"] * 11
    assert logs(g).count("Player 1 discards 'Henchman' (hand limit).") == 2


def test_r14_hand_limit_real_choice_is_still_asked():
    pos = empty_handed(3, 5)
    pos.give(1, *["henchman"] * 11, "evidence")  # 13 cards: one to discard, two kinds
    g = pos.run("end_player_turn", p=1)
    d = g.decision()
    assert (d["player"], d["kind"]) == (1, "hand_limit_discard")
    assert set(d["options"]) == {ID["discard_henchman"], ID["discard_evidence"]}
