"""§8 Crown Events (all eight results), §9 Royal Succession, and the intrigue draw shared
with 'Intrigue An Opponent's Card' (§13.4.12, §14.2.7, §14.5.1).

Operations owned by other chapters (kill, accuse, scandal, duel, new_problem, discharge,
check_draw, end_of_turn) are replaced by recorders, so each test checks exactly what this
chapter does and what it hands on."""

from __future__ import annotations

import pytest
from helpers import court_ball, recorded, recorder

from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID, NO, YES, char_action, player_action
from fandonia_env.engine.core.machine import OPS, run, seq
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import card_places

FOREIGN = ("kill", "accuse", "scandal", "duel", "new_problem", "discharge", "check_draw")
REAL = dict(OPS)  # the real operations, for the tests that follow a chain through other chapters


@pytest.fixture(autouse=True)
def stubs(monkeypatch):
    for nm in FOREIGN:
        monkeypatch.setitem(OPS, nm, recorder(nm))

    def end_of_turn(state):  # stop right after the turn ends (mourning, §9.4)
        state.tstate["turn_ended"] = True
        seq(state, ("builder_halt", {}))

    monkeypatch.setitem(OPS, "end_of_turn", end_of_turn)


def pos3(seed=1, first=0):
    pos = Position(players=3, seed=seed, first=first)
    st = pos.state
    for pl in st.players:  # every PC at home, in a normal situation
        st.wchar(pl.pc).location = "fandonia"
    return pos


def hand_of(pos, p, *types):
    pos.empty_hand(p)
    pos.give(p, *types)


# ---------------------------------------------------------------------------
# §8.1-8.3 the Crown Events Table (one roll, no modifiers); A10 forced results
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dice,key", [
    ((1, 1), "royal_death"), ((1, 2), "royal_death"), ((2, 2), "famine"), ((2, 3), "intrigue"),
    ((3, 3), "court_ball"), ((3, 4), "two_problems"), ((4, 4), "one_problem"), ((5, 5), "one_problem"),
    ((5, 6), "scandal"), ((6, 6), "plague"),
])
def test_8_1_crown_events_table_rows(dice, key):
    pos = pos3()
    pos.dice(*dice, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 3, 3)  # spare dice for the sub-rolls
    st = pos.state
    for pl in st.players:  # keep Intrigue quiet: no hand can be intrigued
        pl.hand = [c for c in pl.hand if CARD_TYPE_OF[c] == "dwtk"]
    st.deck.extend(c for c in list(CARD_TYPE_OF) if c not in card_places(st))
    g = pos.run("crown_phase")
    while g.decision()["kind"] != "halt":
        g.apply(g.legal_actions()[0])
    assert g.state.crown == key
    assert g.state.tstate["crown_events"] == [key]


def test_8_3_no_modifiers_the_roll_reads_the_natural_sum():
    pos = pos3()
    pos.state.players[0].ball_mod = 2  # a Court Ball modifier never touches the Crown roll
    pos.dice(2, 2)
    g = pos.run("crown_phase")
    assert g.state.crown == "famine"


def test_8_4_5_two_political_problems_schedule_two_new_problems():
    pos = pos3()
    pos.dice(3, 4)
    g = pos.run("crown_phase")
    assert len(recorded(g.state, "new_problem")) == 2 and g.state.crown == "two_problems"


def test_8_4_5_one_political_problem_schedules_one_new_problem():
    pos = pos3()
    pos.dice(6, 4)
    g = pos.run("crown_phase")
    assert len(recorded(g.state, "new_problem")) == 1 and g.state.crown == "one_problem"


def test_9_4_forced_court_ball_replaces_the_roll_a10():
    pos = pos3()
    st = pos.state
    st.forced_crown = ["court_ball", "court_ball"]  # two automatic Court Balls make one
    pos.dice(3, 4, 3, 4, 3, 4)  # the three players' Court Ball rolls (7: Barely Noticed)
    g = pos.run("crown_phase")
    assert g.state.crown == "court_ball"
    assert g.state.forced_crown == []
    assert g.state.tstate["crown_events"] == ["court_ball"]
    assert g.state.rng.scripted == []  # exactly three rolls: no Crown Events roll was made
    assert not recorded(g.state, "new_problem")


def test_a10_first_player_orders_several_forced_results_and_famine_governs():
    pos = pos3(first=1)
    st = pos.state
    st.forced_crown = ["court_ball", "famine"]
    pos.dice(3, 4, 3, 4, 3, 4)
    g = pos.run("crown_phase")
    d = g.decision()
    assert (d["player"], d["kind"], d["ctx"]["event"]) == (1, "crown_order", "court_ball")
    g.apply(NO)  # not the Court Ball first: the Famine is then resolved first, automatically
    assert g.decision()["kind"] == "halt"
    assert g.state.tstate["crown_events"] == ["famine", "court_ball"]
    assert g.state.crown == "famine"  # no IP may be spent this turn (§34.6)


# ---------------------------------------------------------------------------
# §8.4.1 Royal Death
# ---------------------------------------------------------------------------


def test_8_4_1_royal_death_dice_count_names_the_rc_by_death_number():
    pos = pos3()
    pos.dice(1, 2, 4, 3)  # Crown roll 3 (Royal Death); count 43 = John
    g = pos.run("crown_phase")
    assert recorded(g.state, "kill") == [{"cid": "john", "cause": "royal_death"}]


def test_8_4_1_royal_death_rerolls_a_dead_rc_a4():
    pos = pos3()
    pos.state.wchar("john").dead = True
    pos.dice(1, 1, 4, 3, 6, 6)  # 43 John is dead: roll again; 66 King George
    g = pos.run("crown_phase")
    assert recorded(g.state, "kill") == [{"cid": "george", "cause": "royal_death"}]


# ---------------------------------------------------------------------------
# §8.4.2 Famine
# ---------------------------------------------------------------------------


def test_8_4_2_famine_blocks_ip_spending():
    from fandonia_env.engine.rules.queries import ip_spendable

    pos = pos3()
    pos.state.players[0].ip = 6
    pos.dice(1, 3)
    g = pos.run("crown_phase")
    assert g.state.crown == "famine"
    assert ip_spendable(g.state, 0) == 0


# ---------------------------------------------------------------------------
# §8.4.3 Intrigue and the intrigue draw (§14.2.7, §14.5.1, A39, A41, §36.10.1)
# ---------------------------------------------------------------------------


def test_8_4_3_first_player_draws_a_legal_card_which_is_discarded():
    pos = pos3()
    _only(pos, 1, "henchman")  # four Henchman cards
    hand_of(pos, 2, "evidence")  # DWTK + 1: protected
    st = pos.state
    pos.dice(2, 3)
    g = pos.run("crown_phase")
    d = g.decision()
    assert (d["player"], d["kind"], d["ctx"]["victim"]) == (0, "crown_intrigue", 1)
    g.apply(YES)
    assert CARD_TYPE_OF[st.discard[-1]] == "henchman" and len(st.players[1].hand) == 3
    assert not recorded(g.state, "accuse")
    assert g.decision()["kind"] == "halt"  # player 2 (three or fewer cards) is not offered


def test_8_4_3_first_player_may_decline():
    pos = pos3()
    _only(pos, 1, "henchman")
    hand_of(pos, 2, "evidence")
    pos.dice(2, 3)
    g = pos.run("crown_phase")
    g.apply(NO)
    assert len(g.state.players[1].hand) == 4 and g.decision()["kind"] == "halt"


def test_8_4_3_player_with_three_or_less_cards_dwtk_included_is_protected_a39():
    pos = pos3()
    hand_of(pos, 1, "henchman", "henchman")  # DWTK + 2 = 3 cards
    hand_of(pos, 2, "henchman", "henchman")
    pos.dice(2, 3)
    g = pos.run("crown_phase")
    assert g.decision()["kind"] == "halt"
    assert g.state.crown == "intrigue"


def test_8_4_3_farc_monarch_players_hand_is_protected_36_10_1():
    pos = pos3()
    hand_of(pos, 1, "henchman", "henchman", "henchman", "henchman")
    hand_of(pos, 2, "henchman", "henchman", "henchman", "henchman")
    st = pos.state
    st.wchar("george").owner = 2  # player 2's FARC is the Monarch
    pos.dice(2, 3)
    g = pos.run("crown_phase")
    d = g.decision()
    assert d["ctx"]["victim"] == 1
    g.apply(NO)
    assert g.decision()["kind"] == "halt"  # player 2 is never offered


def _only(pos, p, ctype, extra=3):
    """p's hand: ``extra + 1`` cards of ``ctype``, the DWTK parked out of the way."""
    st = pos.state
    hand_of(pos, p, *[ctype] * (extra + 1))
    d = next(c for c in st.players[p].hand if CARD_TYPE_OF[c] == "dwtk")
    st.players[p].hand.remove(d)
    st.removed.append(d)


@pytest.mark.parametrize("ctype", ["assassination", "treachery", "intrigue"])
def test_14_2_7_illegal_card_is_kept_and_owner_accused(ctype, monkeypatch):
    from fandonia_env.engine.core.rng import RNG

    pos = pos3()
    for q in range(3):
        pos.empty_hand(q)
    _only(pos, 1, "evidence", extra=2)
    pos.give(1, ctype)
    st = pos.state
    hand = st.players[1].hand
    hand.insert(0, hand.pop())
    monkeypatch.setattr(RNG, "below", lambda self, n: 0)  # the random draw hits that card
    g = pos.run("intrigue_draw", p=0, victim=1)
    assert len(st.players[1].hand) == 4  # kept
    acc = recorded(g.state, "accuse")
    assert len(acc) == 1 and acc[0]["cid"] == st.players[1].pc and acc[0]["dwtk"] is False
    assert any(f"'{ctype.capitalize()}'" in e["t"] and e["to"] is None for e in st.log)  # shown to all


def test_14_5_1_dwtk_drawn_owner_accused_with_plus_two(monkeypatch):
    from fandonia_env.engine.core.rng import RNG

    pos = pos3()
    st = pos.state
    hand_of(pos, 1, "evidence", "evidence", "evidence")
    hand = st.players[1].hand
    dw = next(c for c in hand if CARD_TYPE_OF[c] == "dwtk")
    hand.remove(dw)
    hand.insert(0, dw)
    monkeypatch.setattr(RNG, "below", lambda self, n: 0)  # the random draw hits the DWTK
    g = pos.run("intrigue_draw", p=0, victim=1)
    acc = recorded(g.state, "accuse")
    assert len(acc) == 1 and acc[0]["cid"] == st.players[1].pc and acc[0]["dwtk"] is True
    assert dw in st.players[1].hand and len(st.players[1].hand) == 4


def test_14_2_7_legal_card_is_discarded_and_shown_to_all():
    pos = pos3()
    _only(pos, 1, "evidence")
    st = pos.state
    g = pos.run("intrigue_draw", p=0, victim=1)
    assert len(st.players[1].hand) == 3
    assert CARD_TYPE_OF[st.discard[-1]] == "evidence"
    assert not recorded(g.state, "accuse")
    assert any("'Evidence'" in e["t"] and e["to"] is None for e in st.log)


def test_8_4_3_face_down_pc_is_not_accused_a47():
    pos = pos3()
    _only(pos, 1, "treachery")
    pos.state.wchar(pos.state.players[1].pc).dead = True
    g = pos.run("intrigue_draw", p=0, victim=1)
    assert not recorded(g.state, "accuse") and len(g.state.players[1].hand) == 4


# ---------------------------------------------------------------------------
# §13.4.12 Intrigue An Opponent's Card (activity)
# ---------------------------------------------------------------------------


def test_13_4_12_needs_grant_or_card_and_a_victim_with_more_than_three_cards():
    from fandonia_env.engine.chapters.crown import intrigue_card_legal

    pos = pos3()
    hand_of(pos, 0, "evidence")
    hand_of(pos, 1, "henchman", "henchman", "henchman")  # 4 cards
    hand_of(pos, 2, "henchman")
    pos.turn_state(0)
    st = pos.state
    assert not intrigue_card_legal(st, 0)  # no grant, no card
    st.pt["intrigue"] = 1
    assert intrigue_card_legal(st, 0)
    hand_of(pos, 1, "henchman", "henchman")  # now 3 cards: protected
    assert not intrigue_card_legal(st, 0)
    st.pt["intrigue"] = 0
    hand_of(pos, 0, "intrigue")
    hand_of(pos, 2, "henchman", "henchman", "henchman")
    assert intrigue_card_legal(st, 0)
    st.wchar("george").owner = 2  # FARC Monarch's player (§36.10.1)
    assert not intrigue_card_legal(st, 0)


def test_13_4_12_consumes_the_intrigue_grant_and_draws_from_chosen_victim():
    pos = pos3()
    hand_of(pos, 0, "intrigue")
    _only(pos, 1, "evidence")
    _only(pos, 2, "evidence")
    pos.turn_state(0, intrigue=1)
    g = pos.run("intrigue_card_start", p=0)
    d = g.decision()
    assert d["kind"] == "intrigue_victim"
    assert set(d["options"]) == {player_action(0, 1, 3), player_action(0, 2, 3)}
    g.apply(player_action(0, 2, 3))
    st = g.state
    assert st.pt["intrigue"] == 0  # the counter was used, the card kept
    assert any(CARD_TYPE_OF[c] == "intrigue" for c in st.players[0].hand)
    assert len(st.players[2].hand) == 3 and len(st.players[1].hand) == 4


def test_13_4_12_plays_an_intrigue_card_without_a_grant():
    pos = pos3()
    hand_of(pos, 0, "intrigue")
    _only(pos, 1, "evidence")
    hand_of(pos, 2)  # protected: the only victim is chosen without asking
    pos.turn_state(0)
    g = pos.run("intrigue_card_start", p=0)
    assert g.decision()["kind"] == "halt"
    st = g.state
    assert not any(CARD_TYPE_OF[c] == "intrigue" for c in st.players[0].hand)
    assert CARD_TYPE_OF[st.discard[-2]] == "intrigue" and CARD_TYPE_OF[st.discard[-1]] == "evidence"


def test_13_4_12_any_activity_waiver_consumes_nothing_a42():
    pos = pos3()
    hand_of(pos, 0, "intrigue")
    _only(pos, 1, "evidence")
    hand_of(pos, 2)
    pos.turn_state(0, waiver=True, intrigue=1)
    g = pos.run("intrigue_card_start", p=0)
    assert g.decision()["kind"] == "halt"
    st = g.state
    assert st.pt["intrigue"] == 1
    assert any(CARD_TYPE_OF[c] == "intrigue" for c in st.players[0].hand)
    assert len(st.players[1].hand) == 3


# ---------------------------------------------------------------------------
# §8.4.4 Court Ball
# ---------------------------------------------------------------------------


def test_8_4_4_good_rows_give_pp_modifier_and_free_counsel():
    pos = pos3()
    st = pos.state
    pp = [pl.pp for pl in st.players]
    g = court_ball(pos, 4, 4, 6, 6, 3, 4)  # 8, 12, 7
    pl = g.state.players
    assert [p.pp - q for p, q in zip(pl, pp)] == [1, 5, 0]
    assert [p.ball_mod for p in pl] == [1, 2, 0]
    assert [p.free_counsel for p in pl] == [True, True, False]


def test_8_4_4_modifier_is_cumulative_to_plus_two_and_applies_to_the_roll():
    pos = pos3()
    st = pos.state
    st.players[0].ball_mod = 2
    st.players[1].ball_mod = 1
    pp = st.players[0].pp
    g = court_ball(pos, 3, 3, 3, 3, 1, 2)  # 6+2 = 8; 6+1 = 7; 3 -> Insulting (duel)
    pl = g.state.players
    assert pl[0].ball_mod == 2 and pl[0].pp == pp + 1 and pl[0].free_counsel  # capped at +2
    assert pl[1].ball_mod == 1 and not pl[1].free_counsel


def test_8_4_4_ill_mannered_loses_one_pp():
    pos = pos3()
    pp = pos.state.players[0].pp
    g = court_ball(pos, 2, 3, 3, 4, 3, 4)
    assert g.state.players[0].pp == pp - 1


def test_8_4_4_abusive_conduct_designate_pc_accused_and_pc_banned():
    pos = pos3()
    st = pos.state
    g = court_ball(pos, 1, 1, 3, 4, 3, 4)
    pc0 = st.players[0].pc
    assert recorded(g.state, "accuse")[0]["cid"] == pc0
    assert st.chars[pc0].banned


def test_8_4_4_attending_henchman_takes_the_ban_and_may_be_designated_17_2_3():
    pos = pos3()
    st = pos.state
    hm = next(c for c in ("42", "43", "44", "41", "36") if st.chars[c].office is None)
    pos.char(hm, owner=0, henchman_card=None)
    pos.give(0, "henchman")
    card = next(c for c in st.players[0].hand if CARD_TYPE_OF[c] == "henchman")
    st.players[0].hand.remove(card)
    st.wchar(hm).henchman_card = card
    g = court_ball(pos, 2, 2, 3, 4, 3, 4)  # 4: Disgraceful Conduct
    d = g.decision()
    assert d["kind"] == "court_ball_designate"
    assert set(d["options"]) == {char_action(st.players[0].pc), char_action(hm)}
    g.apply(char_action(hm))
    assert st.chars[hm].banned and not st.chars[st.players[0].pc].banned
    assert recorded(g.state, "scandal")[0]["cid"] == hm


def test_8_4_4_insulting_schedules_a_court_ball_duel_among_attendees():
    pos = pos3()
    st = pos.state
    st.wchar("11").hiding = True  # does not attend
    g = court_ball(pos, 1, 2, 3, 4, 3, 4)
    duel = recorded(g.state, "duel")
    assert len(duel) == 1 and duel[0]["player"] == 0 and duel[0]["source"] == "court_ball"
    assert "11" not in duel[0]["attendees"] and "george" in duel[0]["attendees"]
    assert st.chars[st.players[0].pc].banned


@pytest.mark.parametrize("situation", ["banned", "banished", "imprisoned", "hiding", "abroad", "dead"])
def test_8_4_4_player_whose_pc_cannot_attend_does_not_roll_a43(situation):
    pos = pos3()
    st = pos.state
    c = st.wchar(st.players[1].pc)
    if situation == "abroad":
        c.location = "epalin"
    else:
        setattr(c, situation, True)
    pp = st.players[1].pp
    g = court_ball(pos, 6, 6, 6, 6)  # only players 0 and 2 roll
    assert g.state.rng.scripted == []
    assert g.state.players[1].pp == pp and g.state.players[0].free_counsel and g.state.players[2].free_counsel


# ---------------------------------------------------------------------------
# §8.4.6 Scandal
# ---------------------------------------------------------------------------


def test_8_4_6_scandal_dice_count_names_the_object_even_a_pc():
    pos = pos3()
    st = pos.state
    pc0 = st.players[0].pc
    pos.dice(5, 6, int(pc0[0]), int(pc0[1]))
    g = pos.run("crown_phase")
    assert recorded(g.state, "scandal") == [{"cid": pc0, "exposer": None, "why": "Crown Events scandal"}]


def test_8_4_6_scandal_rerolls_a_face_down_pc_a3():
    pos = pos3()
    st = pos.state
    pc0 = st.players[0].pc
    st.wchar(pc0).dead = True
    pos.dice(5, 6, int(pc0[0]), int(pc0[1]), 4, 2)
    g = pos.run("crown_phase")
    assert [c["cid"] for c in recorded(g.state, "scandal")] == ["42"]


# ---------------------------------------------------------------------------
# §8.4.7 Plague
# ---------------------------------------------------------------------------


def test_8_4_7_plague_two_different_counts_reroll_pcs_and_abroad():
    pos = pos3()
    st = pos.state
    pc0 = st.players[0].pc
    st.wchar("35").location = "cronos"
    st.wchar("35").office = None
    pos.dice(6, 6,  # Plague
             int(pc0[0]), int(pc0[1]),  # a PC: roll again
             3, 5,  # abroad: roll again
             4, 2,  # Duke Roland dies
             4, 2,  # the same count: roll again
             5, 5)  # the Archbishop dies
    g = pos.run("crown_phase")
    assert recorded(g.state, "kill") == [{"cid": "42", "cause": "plague"}, {"cid": "55", "cause": "plague"}]
    assert g.state.crown == "plague"


# ---------------------------------------------------------------------------
# §9 Royal Succession
# ---------------------------------------------------------------------------


def _kill_george(st):
    st.wchar("george").dead = True
    st.wchar("george").office = None
    st.wchar("catherine").spouse = None
    st.wchar("george").spouse = None


def test_9_2_next_in_line_succeeds_support_rerolled_offices_discharged_9_4():
    pos = pos3()
    st = pos.state
    _kill_george(st)
    for p in range(3):
        hand_of(pos, p, "henchman", "evidence", "alibi")
    holders = sorted(cid for cid, c in st.chars.items() if c.office and c.office != "monarch")
    pos.dice(6, 5)
    # the Monarch dies in the Crown Events Phase: the rest of the turn is to be cut short
    seq(st, ("succession", {}), ("support_bonus", {}), ("player_turns", {}), ("end_of_turn", {}))
    run(st)
    g = Game.from_state(st, advance=False)
    assert st.monarch == "alan" and st.chars["alan"].office == "monarch"
    assert st.support == 110
    assert sorted(c["cid"] for c in recorded(g.state, "discharge")) == holders
    assert st.forced_crown == ["court_ball"]
    for _ in range(6):  # §9.4 each player discards two cards (never the DWTK)
        d = g.decision()
        assert d["kind"] == "mourning_discard" and ID["discard_dwtk"] not in d["options"]
        g.apply(d["options"][0])
    assert g.decision()["kind"] == "halt"
    assert st.tstate["turn_ended"] and st.tstate.get("aborted")
    assert all(len(pl.hand) == 2 for pl in st.players)
    assert not any(fr.op == "player_turns" for fr in st.stack)


def test_9_2_dead_rcs_are_skipped_and_ra_card_removed_9_4():
    pos = pos3()
    st = pos.state
    _kill_george(st)
    st.wchar("alan").dead = True
    pos.give(1, "ra_anne")
    ra = next(c for c in st.players[1].hand if CARD_TYPE_OF[c] == "ra_anne")
    g = pos.run("succession")
    while g.decision()["kind"] != "halt":
        g.apply(g.legal_actions()[0])
    assert st.monarch == "anne"
    assert ra in st.removed and ra not in st.players[1].hand


def test_9_2_farc_heir_becomes_nrc_and_spouse_nrc_consort_a56():
    pos = pos3()
    st = pos.state
    _kill_george(st)
    ra = next(c for c in st.deck if CARD_TYPE_OF[c] == "ra_alan")
    st.deck.remove(ra)
    pos.char("alan", owner=1, alignment_card=ra)
    wife = "62" if st.chars["62"].owner is None else "63"
    pos.char(wife, owner=1, spouse="alan")
    st.wchar("alan").spouse = wife
    g = pos.run("succession")
    while g.decision()["kind"] != "halt":
        g.apply(g.legal_actions()[0])
    assert st.monarch == "alan" and st.chars["alan"].owner is None
    assert ra in st.removed and st.chars["alan"].alignment_card is None
    w = st.chars[wife]
    assert w.owner is None and w.consort and w.loyalty_counter  # §18.10: counter stays
    assert sum(card_places(st).values()) == 120


def test_9_3_jane_and_thomas_never_succeed():
    from fandonia_env.engine.chapters.crown import next_in_line

    st = pos3().state
    for rc in ("george", "alan", "anne", "john", "edward", "phillip", "almery", "catherine"):
        st.wchar(rc).dead = True
    st.monarch = "catherine"
    assert next_in_line(st) == "alfred"
    st.wchar("alfred").dead = True
    assert next_in_line(st) is None  # Thomas and Jane alive, yet nobody can succeed


def test_37_no_rc_can_succeed_goes_to_the_draw_check():
    pos = pos3()
    st = pos.state
    for rc in ("george", "alan", "anne", "john", "edward", "phillip", "almery", "catherine", "alfred"):
        st.wchar(rc).dead = True
    g = pos.run("succession")
    assert recorded(g.state, "check_draw") == [{}]


def test_9_4_mourning_discards_only_what_he_has_a39():
    pos = pos3()
    st = pos.state
    _kill_george(st)
    hand_of(pos, 0, "evidence")
    hand_of(pos, 1)
    hand_of(pos, 2, "evidence", "evidence", "evidence")
    g = pos.run("succession")
    d = g.decision()
    assert d["kind"] == "halt"  # single choices are automatic (R10)
    assert [len(pl.hand) for pl in st.players] == [1, 1, 2]


# ---------------------------------------------------------------------------
# Audit additions: §8.2, §9.1, §9.2 consort, §9.4 chain
# ---------------------------------------------------------------------------


def test_8_2_crown_events_table_consulted_once_a_turn():
    pos = pos3()
    pos.dice(2, 2, 3, 3)  # Famine; the 3+3 must stay unrolled
    g = pos.run("crown_phase")
    assert g.decision()["kind"] == "halt"
    assert g.state.tstate["crown_events"] == ["famine"] and g.state.crown == "famine"
    assert g.state.rng.scripted == [3, 3]


def test_9_1_royal_death_kills_the_rc_for_good_and_removes_his_ra_card(monkeypatch):
    monkeypatch.setitem(OPS, "kill", REAL["kill"])
    pos = pos3()
    st = pos.state
    ra = next(c for c, t in CARD_TYPE_OF.items() if t == "ra_john")
    pos.dice(1, 1, 4, 3)  # Royal Death; dice count 43 = John
    g = pos.run("crown_phase")
    assert g.decision()["kind"] == "halt"
    assert st.chars["john"].dead and ra in st.removed
    assert card_places(st)[ra] == 1
    assert st.monarch == "george" and not st.tstate.get("aborted")


def test_9_4_royal_death_of_the_monarch_succession_ends_the_turn(monkeypatch):
    monkeypatch.setitem(OPS, "kill", REAL["kill"])
    monkeypatch.setitem(OPS, "discharge", REAL["discharge"])
    pos = pos3()
    st = pos.state
    for p in range(3):
        hand_of(pos, p)  # only the DWTK: nothing to discard (A39)
    st.support = 0  # in crisis: a new Monarch ends it (§33.3)
    pos.dice(1, 1, 6, 6, 4, 5)  # Royal Death; 66 King George; Support 9 x 10
    seq(st, ("crown_phase", {}), ("support_bonus", {}), ("player_turns", {}), ("end_of_turn", {}))
    run(st)
    g = Game.from_state(st, advance=False)
    assert g.decision()["kind"] == "halt"
    assert st.chars["george"].dead and st.monarch == "alan" and st.chars["alan"].office == "monarch"
    assert st.support == 90 and st.forced_crown == ["court_ball"]
    assert not any(c.office for cid, c in st.chars.items() if cid != "alan")
    assert st.tstate.get("aborted") and not any(fr.op == "player_turns" for fr in st.stack)


def test_9_2_fac_consort_loses_henchman_and_counselor_cards_14_2_4():
    pos = pos3()
    st = pos.state
    _kill_george(st)
    wife = "62" if st.chars["62"].owner is None else "64"
    mc = next(c for c in st.deck if CARD_TYPE_OF[c] == "monarchs_counselor")
    st.deck.remove(mc)
    pos.char("alan", owner=1, spouse=wife)
    pos.char(wife, owner=1, spouse="alan", counselor_card=mc)
    for p in range(3):
        hand_of(pos, p)
    g = pos.run("succession")
    assert g.decision()["kind"] == "halt"
    w = st.chars[wife]
    assert w.consort and w.owner is None and w.counselor_card is None and mc in st.discard
    assert sum(card_places(st).values()) == 120
