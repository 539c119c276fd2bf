"""§34 IPs, §35 PPs, §36 Usurpation, §37 Victory (fandonia_env.engine.chapters.usurpation).

The ``kill`` and ``release`` operations belong to other chapters; these tests replace them by
recorders (``calls``) so that what this chapter schedules can be checked exactly.
"""

from __future__ import annotations

import pytest
from helpers import crown_farc

from fandonia_env.engine.chapters.usurpation import (
    faction_value,
    neutral_value,
    support_multiplier,
    usurpers,
)
from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import ID, PASS, char_action
from fandonia_env.engine.core.machine import OPS
from fandonia_env.engine.data.components import CARD_TYPE_OF, NOBLE_IDS, ROYALS, SUPPORT_CARDS
from fandonia_env.engine.data.tables import MONARCH_SUPPORT_BANDS, monarch_support_value
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.rules.queries import (
    can_spend,
    ip_spendable,
    lose_ip,
    lose_pp,
    pp_required,
    spend_ip,
    status,
)

# player 0's PC is 56 (Lady Margaret, Status 3), player 1's 63 (Lady Ruth, 3), player 2's 13
# (Sir Malcolm, 1) with seed 1; first player 0.
P0_PC, P1_PC, P2_PC = "56", "63", "13"
LESSER_RCS = ("alan", "anne", "john", "edward", "phillip", "almery", "alfred")


@pytest.fixture
def calls(monkeypatch):
    rec: list[tuple] = []

    def kill(state, cid, cause):
        rec.append(("kill", cid, cause))
        c = state.wchar(cid)
        c.dead = True
        if c.spouse is not None:
            state.wchar(c.spouse).spouse = None
            c.spouse = None
        if not c.is_pc:
            c.owner = None
            c.office = None

    def release(state, cid):
        rec.append(("release", cid))
        c = state.wchar(cid)
        c.owner = None
        if c.loyalty_counter and cid in NOBLE_IDS:
            c.loyalty_counter = False
            state.loyalty_pool.append(cid)

    monkeypatch.setitem(OPS, "kill", kill)
    monkeypatch.setitem(OPS, "release", release)
    return rec


def pos3(seed: int = 1) -> Position:
    pos = Position(players=3, seed=seed)
    assert [pl.pc for pl in pos.state.players] == [P0_PC, P1_PC, P2_PC]
    return pos


def quiet(pos: Position, support: int = 50) -> Position:
    """Every NC becomes player 2's EAC and the lesser RCs are dead: the Monarch's side then
    counts only the RCs left (Catherine, Thomas, Jane) and the Monarch's Support."""
    st = pos.state
    for cid in NOBLE_IDS:
        if st.chars[cid].owner is None:
            pos.char(cid, owner=2)
    for r in LESSER_RCS:
        st.wchar(r).dead = True
    st.players[2].pp = 500
    st.support = support
    for p in range(st.n):
        pos.empty_hand(p)
    return pos


def halted(g) -> bool:
    return g.decision()["kind"] == "halt"


# ---------------------------------------------------------------------------
# §34 IPs (shared primitives in queries.py)
# ---------------------------------------------------------------------------


def test_34_3_ip_debt_is_forgiven():
    st = pos3().state
    st.players[0].ip = 2
    assert lose_ip(st, 0, 5) == 2 and st.players[0].ip == 0


def test_34_6_no_ip_may_be_used_in_famine():
    st = pos3().state
    st.players[0].ip = 10
    st.crown = "famine"
    assert ip_spendable(st, 0) == 0 and not can_spend(st, 0, 5)


def test_34_7_crisis_allows_half_the_ip_or_a_single_one():
    st = pos3().state
    st.support = 0
    st.players[0].ip = 7
    assert ip_spendable(st, 0) == 3
    spend_ip(st, 0, 3, "test")
    assert ip_spendable(st, 0) == 0
    st.players[1].ip = 1
    assert ip_spendable(st, 1) == 1


# ---------------------------------------------------------------------------
# §35 PPs
# ---------------------------------------------------------------------------


def test_35_3_pp_debt_is_forgiven():
    st = pos3().state
    st.players[0].pp = 3
    assert lose_pp(st, 0, 9) == 3 and st.players[0].pp == 0


def test_35_6_pc_spouse_does_not_count_toward_the_limit():
    pos = pos3()
    pos.char("42", owner=0).char("32", owner=0)  # Duke Roland (5 + office 3), Earl Maxwell 3
    st = pos.state
    assert pp_required(st, 0) == 8 + 3
    st.wchar(P0_PC).spouse, st.wchar("32").spouse = "32", P0_PC  # writes go through wchar
    assert pp_required(st, 0) == 8  # §35.6 the PC's spouse is exempt


def test_35_5_player_over_the_limit_loses_fac_of_his_choice(calls):
    pos = pos3()
    pos.char("35", owner=0).char("36", owner=0).char("25", owner=0)  # 4 + 4 + 2
    pos.player(0, pp=6)
    g = pos.run("pp_check_all")
    d = g.decision()
    assert d["player"] == 0 and d["kind"] == "pp_limit_lose"
    assert set(d["options"]) == {char_action("35"), char_action("36"), char_action("25")}
    g.apply(char_action("25"))  # 8 still > 6: he must lose another
    assert g.decision()["kind"] == "pp_limit_lose"
    g.apply(char_action("35"))
    assert halted(g)
    assert calls == [("release", "25"), ("release", "35")]
    assert g.state.chars["36"].owner == 0


def test_35_5_2_farc_lost_is_released(calls):
    pos = pos3()
    pos.char("john", owner=0)  # Status 9
    pos.player(0, pp=5)
    g = pos.run("pp_check_all")
    assert halted(g)  # a single candidate is taken automatically (R10)
    assert calls == [("release", "john")]


def test_35_5_3_married_fac_lost_dies(calls):
    pos = pos3()
    pos.char("42", owner=0).char("61", owner=0)
    st = pos.state
    st.wchar("42").spouse, st.wchar("61").spouse = "61", "42"
    pos.player(0, pp=3)
    g = pos.run("pp_check_all")
    g.apply(char_action("42"))
    assert ("kill", "42", "pp_limit") in calls


def test_35_5_4_player_within_the_limit_loses_nothing(calls):
    pos = pos3()
    pos.char("35", owner=0)
    pos.player(0, pp=4)
    g = pos.run("pp_check_all")
    assert halted(g) and calls == []


def test_35_5_pp_limit_is_held_after_every_step_not_at_the_end_of_the_turn():
    """Ruling R17: the machine runs ``queries.pp_limit_watch`` after every step, so no end-of-turn
    step is needed."""
    from fandonia_env.engine.core.machine import WATCHES
    from fandonia_env.engine.rules.queries import pp_limit_watch

    assert "pp_check_all" not in registry.END_OF_TURN and WATCHES == [pp_limit_watch]


# ---------------------------------------------------------------------------
# §36.2-§36.3 who usurps
# ---------------------------------------------------------------------------


def test_36_2_player_with_several_farcs_chooses_one(calls):
    pos = quiet(pos3())
    pos.state.wchar("john").dead = False
    pos.state.wchar("edward").dead = False
    pos.char("john", owner=0).char("edward", owner=0).turn_state(0)
    g = pos.run("usurp_start", p=0)
    d = g.decision()
    assert d["kind"] == "usurp_farc" and set(d["options"]) == {char_action("john"), char_action("edward")}


def test_36_3_no_farc_or_only_jane_uses_thomas():
    pos = pos3()
    st = pos.state
    assert usurpers(st, 0) == ["thomas"]
    pos.char("jane", owner=0)
    assert usurpers(st, 0) == ["thomas"]
    pos.char("john", owner=0)
    assert usurpers(st, 0) == ["john"]  # §36.3 not Thomas if he has a FARC


def test_36_12_farc_not_free_cannot_be_used_nor_thomas_instead():
    pos = pos3()
    pos.char("john", owner=0, hiding=True)
    assert usurpers(pos.state, 0) == []
    assert not registry.FREE_ACTIONS["usurp"].legal(pos.state, 0)


def test_36_3_thomas_usurpation_value_is_half_a_die_rounded_up(calls):
    pos = quiet(pos3(), support=50)
    pos.turn_state(0)
    # Thomas 5 -> 3; George 2d x3; Catherine 1d x2 + 10
    pos.dice(5, 1, 1, 1)
    g = pos.run("usurp_start", p=0)
    assert any("half of 5, rounded up = 3" in e["t"] for e in g.state.log)


# ---------------------------------------------------------------------------
# §36.4 the usurper's rating
# ---------------------------------------------------------------------------


def test_36_4_2_married_pc_doubled_and_spouse_not_counted_a13():
    pos = pos3()
    pos.char("42", owner=0).char("35", owner=0).char("john", owner=0).char("jane", owner=0)
    st = pos.state
    st.wchar(P0_PC).spouse, st.wchar("35").spouse = "35", P0_PC
    pc_val, others = faction_value(st, 0, "john")
    # PC: married, Status max(3, 4) = 4, doubled; FACs: Roland 5 + 3 (Minister of Justice);
    # FARCs other than John: Jane 2; Mortimer (spouse) not counted.
    assert pc_val == 8 and others == 8 + 2


def test_36_12_banished_imprisoned_hiding_or_stuck_not_counted():
    pos = pos3()
    pos.char("35", owner=0, imprisoned=True, wrongdoer=True).char("36", owner=0, hiding=True)
    pos.char("25", owner=0, location="epalin")
    st = pos.state
    st.wars = ["epalin"]
    assert faction_value(st, 0, None) == (3, 0)
    st.wchar(P0_PC).banished = True
    st.wchar(P0_PC).location = "cronos"
    assert faction_value(st, 0, None) == (0, 0)


@pytest.mark.parametrize("card,setup,mult", [
    ("clergy_support", {}, 2),
    ("clergy_support", {"fac": "55"}, 3),
    ("peasant_support", {"fac": "52"}, 8),
    ("peasant_support", {"problem": "peasant_unrest"}, 8),
    ("townsmen_support", {"problem": "townsmen_unrest"}, 5),
    ("townsmen_support", {"fac": "45"}, 5),
    ("trade_guild_support", {"famine": True}, 3),
    ("merchant_support", {}, 2),
    ("army_support", {}, 7),
    ("army_support", {"famine": True}, 10),
    ("army_support", {"fac": "53", "war": True}, 4),
    ("navy_support", {"fac": "54"}, 5),
    ("navy_support", {"fac": "54", "problem": "pirates"}, 2),
    ("foreign_support_sandarkan", {}, 3),
    ("foreign_support_sandarkan", {"fac": "12"}, 4),  # 12 is Ambassador to Sandarkan
    ("foreign_support_cronos", {"fac": "41"}, 3),  # 41 is Ambassador to Cronos
    ("foreign_support_city_states", {}, 2),
])
def test_14_5_2_support_card_values_and_boosts_a53(card, setup, mult):
    pos = pos3()
    st = pos.state
    if "fac" in setup:
        pos.char(setup["fac"], owner=0)
    if "problem" in setup:
        st.problems[setup["problem"]] = {}
    if setup.get("famine"):
        st.crown = "famine"
    if setup.get("war"):
        st.wars = ["epalin"]
    assert support_multiplier(st, 0, card)[0] == mult
    if "fac" in setup and not ("problem" in setup or "war" in setup):
        assert support_multiplier(st, 1, card)[0] < mult  # the FAC must be the user's own (A53)


def test_36_4_4_support_cards_played_and_rolled(calls):
    pos = quiet(pos3(), support=50)
    pos.give(0, "army_support", "clergy_support").turn_state(0)
    g = pos.run("usurp_start", p=0)
    assert g.decision()["kind"] == "usurp_support"
    g.apply(ID["play_army_support"])
    st = g.state
    assert [CARD_TYPE_OF[c] for c in st.players[0].in_front] == ["army_support"]  # played, public
    assert g.decision()["options"] == sorted([ID["play_clergy_support"], PASS])
    g.apply(PASS)  # he need not play every card (§14.5.2)
    log = [e["t"] for e in st.log]
    assert any("'Army Support' card: 1dx7 (base value)" in t for t in log)
    assert not any("'Clergy Support' card:" in t for t in log)
    assert [CARD_TYPE_OF[c] for c in st.players[0].hand if CARD_TYPE_OF[c] != "dwtk"] == ["clergy_support"]


# ---------------------------------------------------------------------------
# §36.5 the Monarch's rating, §36.6 success, §36.7 failure
# ---------------------------------------------------------------------------


def test_36_5_2_neutrals_exclude_monarch_catherine_and_used_thomas_a14():
    pos = quiet(pos3())
    st = pos.state
    assert neutral_value(st, "john") == 4 + 2  # Thomas, Jane; not George, not Catherine
    assert neutral_value(st, "thomas") == 2
    st.wchar("51").owner = None  # 2nd Judge back to neutral (Status 6)
    assert neutral_value(st, "thomas") == 8


@pytest.mark.parametrize("lo,hi,value", MONARCH_SUPPORT_BANDS)
def test_36_5_4_monarch_support_value_bands(lo, hi, value):
    for s in range(lo, hi + 1, 5):
        assert monarch_support_value(s) == value


def test_36_6_successful_usurpation(calls):
    pos = quiet(pos3(), support=10)  # Support value 0
    st = pos.state
    st.wchar("john").dead = False
    pos.char("john", owner=0).give(0, "army_support").turn_state(0)
    # usurper: John 1d x3 = 6x3 = 18, PC 3, army 1d x7 = 6x7 = 42 -> 63
    # Monarch: George (2+1)x3 = 9, Thomas 4 + Jane 2 + John? (FARC: no) = 6,
    # Catherine 1x2 + 10 = 12, support 0 -> 27.  Support reroll 3+4.
    pos.dice(6, 6, 2, 1, 1, 3, 4)
    g = pos.run("usurp_start", p=0)
    g.apply(ID["play_army_support"])
    assert halted(g)
    st = g.state
    assert calls[0] == ("kill", "george", "usurpation")
    assert st.monarch == "john" and st.chars["john"].office == "monarch" and st.chars["john"].owner == 0
    assert st.support == 70
    assert st.forced_crown == ["court_ball"]
    assert st.reign == {"player": 0, "cid": "john", "since": st.turn}
    assert [CARD_TYPE_OF[c] for c in st.players[0].in_front] == ["army_support"]  # §14.5.2 stay in front
    assert any("Usurpation Rating: John (the Brother)'s Usurpation Value 18 + PC 3" in e["t"] and "= 63" in e["t"]
               for e in st.log)
    assert any("Monarch's Usurpation Rating" in e["t"] and "= 27" in e["t"] for e in st.log)
    # ruling R16: in the 1981 edition the FARC Monarch's Status (with the Monarch's office bonus) counts
    assert pp_required(st, 0) == status(st, "john") == 13


def test_36_7_tie_fails_pc_and_farc_killed_cards_discarded(calls):
    pos = quiet(pos3(), support=10)
    st = pos.state
    st.wchar("john").dead = False
    pos.char("john", owner=0).give(0, "merchant_support").turn_state(0)
    # usurper: John 3x3 = 9 + PC 3 + merchant 1x2 = 2 -> 14
    # Monarch: George (1+1)x3 = 6 + neutrals 6 + Catherine 1x2+10 = 12, support 0... = 24
    # make it a tie: Catherine 1 -> 12; George (1+1)*3 = 6; total 24 -> raise usurper to 24:
    # John 6x3 = 18, merchant 3x2 = 6 ... 18 + 3 + 6 = 27 > 24; use merchant 1x2 -> 23 < 24.
    # Tie: John 5x3 = 15 + 3 + merchant 3x2 = 6 -> 24.
    pos.dice(5, 3, 1, 1, 1)
    discards = len(st.discard)
    g = pos.run("usurp_start", p=0)
    g.apply(ID["play_merchant_support"])
    st = g.state
    assert any("= 24" in e["t"] and "Usurpation Rating:" in e["t"] for e in st.log)
    assert calls[:2] == [("kill", "john", "usurpation"), ("kill", P0_PC, "usurpation")]
    assert st.monarch == "george" and st.players[0].in_front == []
    assert len(st.discard) == discards + 1 and st.reign == {}


def test_36_7_failure_with_thomas_kills_only_the_pc_a15(calls):
    pos = pos3()  # a full court: Thomas cannot win
    pos.empty_hand(0).turn_state(0)
    g = pos.run("usurp_start", p=0)
    assert ("kill", "thomas", "usurpation") not in calls
    assert calls[0] == ("kill", P0_PC, "usurpation")
    assert g.state.chars["thomas"].owner is None


def test_36_5_1_jane_halves_a_male_monarch_and_married_monarch_adds_ten(calls):
    pos = quiet(pos3(), support=10)
    st = pos.state
    # Monarch: Prince Alan, married to Lady Victoria (61, an NC of... made neutral here)
    st.wchar("alan").dead = False
    st.wchar("george").dead = True
    st.wchar("george").office = None
    st.wchar("alan").office = "monarch"
    st.monarch = "alan"
    st.wchar("61").owner = None
    st.wchar("alan").spouse, st.wchar("61").spouse = "61", "alan"
    pos.char("jane", owner=0).turn_state(0)
    # Thomas 1 -> 1; Alan (6+5) x2 = 22 -> halved 11; neutrals: Thomas used, Catherine 10, Lady
    # Victoria 3 (married to Alan: max(3, 10) = 10); +10 married; support 0.
    pos.dice(1, 6, 5)
    pos.run("usurp_start", p=0)
    log = [e["t"] for e in st.log]
    assert any("halved to 11" in t for t in log)
    assert any("is married: +10" in t for t in log)


def test_a9_first_player_rolls_for_the_monarch_unless_he_usurps(calls):
    pos = quiet(pos3(), support=10)
    pos.turn_state(0)
    pos.dice(1, 1, 1, 1)
    pos.run("usurp_start", p=0)
    assert any(e["t"].startswith("Player 1 rolls King George") for e in pos.state.log)


# ---------------------------------------------------------------------------
# §36.8-§36.9 usurping a FARC Monarch; §36.13 several usurpers
# ---------------------------------------------------------------------------


def test_36_8_defender_plays_support_cards_and_36_9_loses_pc_and_cards(calls):
    pos = quiet(pos3(), support=10)
    st = pos.state
    crown_farc(pos, 1, "edward")
    st.wchar("john").dead = False
    pos.char("john", owner=0).give(1, "merchant_support").turn_state(0)
    # usurper: John 6x3 = 18 + PC 3 = 21; defender: Edward 1x3 = 3 + PC 3 + merchant 1x2 = 2
    # + support 0 = 8.  Support reroll 1+1.
    pos.dice(6, 1, 1, 1, 1)
    g = pos.run("usurp_start", p=0)
    d = g.decision()
    assert d["player"] == 1 and d["kind"] == "usurp_support" and d["ctx"]["rating"] == 21
    g.apply(ID["play_merchant_support"])
    assert halted(g)
    st = g.state
    assert ("kill", "edward", "usurpation") in calls and ("kill", P1_PC, "usurpation") in calls
    assert st.monarch == "john" and st.players[1].in_front == []
    assert st.reign["player"] == 0 and st.support == 20


def test_36_8_thomas_against_thomas_another_pretender(calls):
    pos = quiet(pos3(), support=10)
    crown_farc(pos, 1, "thomas")
    pos.turn_state(0)
    assert usurpers(pos.state, 0) == ["thomas"]
    # usurper Thomas 6 -> 3 + PC 3 = 6; defender Thomas 1 -> 1 + PC 3 = 4.  Reroll 2+2.
    pos.dice(6, 1, 2, 2)
    g = pos.run("usurp_start", p=0)
    st = g.state
    assert ("kill", "thomas", "usurpation") not in calls
    assert ("kill", P1_PC, "usurpation") in calls
    assert st.monarch == "thomas" and st.chars["thomas"].owner == 0 and st.chars["thomas"].office == "monarch"


def test_36_13_another_player_may_usurp_the_same_turn(calls):
    pos = quiet(pos3(), support=10)
    crown_farc(pos, 0, "john")
    assert not registry.FREE_ACTIONS["usurp"].legal(pos.state, 0)  # not his own Monarch
    assert registry.FREE_ACTIONS["usurp"].legal(pos.state, 1)


# ---------------------------------------------------------------------------
# §36.10.4 a FARC Monarch's pardon (A51)
# ---------------------------------------------------------------------------


def test_36_10_4_farc_monarch_pardons_and_lifts_a_ban():
    pos = pos3()
    crown_farc(pos, 0, "john")
    pos.char("35", owner=0, banished=True, wrongdoer=True, location="epalin", situation_turns=2)
    pos.char("36", owner=0, banned=True)
    pos.char("25", owner=0, hiding=True, wrongdoer=True)
    pos.turn_state(0)
    st = pos.state
    assert registry.FREE_ACTIONS["farc_pardon"].legal(st, 0)
    assert not registry.FREE_ACTIONS["farc_pardon"].legal(st, 1)
    g = pos.run("farc_pardon_start", p=0)
    assert set(g.decision()["options"]) == {char_action("35"), char_action("36"), char_action("25")}
    g.apply(char_action("35"))
    c = st.chars["35"]
    assert not c.banished and not c.wrongdoer and c.location == "fandonia"  # as by a Pardon card
    g = pos.run("farc_pardon_start", p=0)
    g.apply(char_action("36"))
    g = pos.run("farc_pardon_start", p=0)  # one target left: taken automatically (R10)
    assert halted(g)
    assert not st.chars["36"].banned and not st.chars["25"].hiding and not st.chars["25"].wrongdoer
    assert not registry.FREE_ACTIONS["farc_pardon"].legal(st, 0)


def test_36_10_4_farc_pardon_is_a_pardon_suicide_called_off_escaped_prisoner_freed():
    """§36.10.4 "by pardoning them" = §13.4.5: the same return to a normal situation as the
    Pardon card (wrongdoing.restore): a pending suicide (§29.9) is called off, an escaped
    prisoner hiding abroad is no longer one, a banished FAC in a country now at war stays there."""
    pos = pos3()
    crown_farc(pos, 0, "john")
    st = pos.state
    st.wars = ["cronos"]
    pos.char("35", owner=0, banished=True, wrongdoer=True, location="epalin", situation_turns=3,
             suicide=True)
    pos.char("36", owner=0, hiding=True, wrongdoer=True, location="sandarkan", escaped=True)
    pos.char("25", owner=0, banished=True, wrongdoer=True, location="cronos")
    pos.turn_state(0)
    for cid in ("35", "36", "25"):
        g = pos.run("farc_pardon_start", p=0)
        if g.decision()["kind"] == "farc_pardon":
            g.apply(char_action(cid))
    a, b, c = st.chars["35"], st.chars["36"], st.chars["25"]
    assert not a.suicide and not a.banished and a.location == "fandonia" and a.situation_turns == 0
    assert not b.hiding and not b.wrongdoer and not b.escaped
    assert not c.banished and not c.wrongdoer and c.location == "cronos"  # stuck at war (§7.10.1)
    assert not registry.FREE_ACTIONS["farc_pardon"].legal(st, 0)


# ---------------------------------------------------------------------------
# §37 Victory and the draw
# ---------------------------------------------------------------------------


def test_37_win_after_three_full_turns_a48():
    pos = pos3()
    crown_farc(pos, 0, "john")
    st = pos.state
    st.reign["since"] = 4
    for t, over in ((5, False), (6, False), (7, True)):
        st.turn = t
        pos.run("victory_check")
        assert st.over is over
    assert st.result == "win" and st.winner == 0 and st.phase == "over"


def test_37_count_resets_when_the_reign_ends():
    pos = pos3()
    crown_farc(pos, 0, "john")
    st = pos.state
    st.reign["since"] = 1
    st.wchar("john").owner = None  # no longer his FARC
    st.turn = 5
    pos.run("victory_check")
    assert not st.over and st.reign == {}


def test_36_11_farc_monarch_death_loses_next_player_turn():
    pos = pos3()
    crown_farc(pos, 0, "john")
    st = pos.state
    st.wchar("john").dead = True  # died, e.g. assassinated; succession put Alan on the throne
    st.wchar("john").office = None
    st.wchar("alan").office = "monarch"
    st.monarch = "alan"
    pos.run("victory_check")
    assert st.players[0].lost_turns == 1 and st.reign == {}


def test_37_draw_when_no_rc_can_succeed_a4():
    pos = pos3()
    st = pos.state
    for r in ("alan", "anne", "john", "edward", "phillip", "almery", "catherine"):
        st.wchar(r).dead = True
    pos.run("check_draw")
    assert not st.over  # Alfred can still succeed
    st.wchar("alfred").dead = True
    pos.run("check_draw")
    assert st.over and st.result == "draw" and st.winner is None


def test_37_draw_with_thomas_on_the_throne_after_all_nine_die_a4():
    pos = pos3()
    crown_farc(pos, 0, "thomas")
    st = pos.state
    for r in ROYALS:
        if r not in ("thomas", "jane"):
            st.wchar(r).dead = True
    pos.run("check_draw")
    assert st.result == "draw"


def test_support_values_cover_every_support_card():
    from fandonia_env.engine.chapters.usurpation import SUPPORT_VALUES

    assert set(SUPPORT_VALUES) == set(SUPPORT_CARDS)


def test_36_6_with_the_real_kill_no_succession_and_the_turn_goes_on():
    """Integration with the justice chapter's ``kill`` (no recorder): §36.6, §9.4 last sentence."""
    if "kill" not in OPS:
        pytest.skip("the justice chapter's kill is not present")
    pos = quiet(pos3(), support=10)
    st = pos.state
    st.wchar("john").dead = False
    pos.char("john", owner=0).turn_state(0)
    st.wchar("catherine").dead = True
    st.wchar("alfred").dead = False  # someone must be left to succeed, or it is a draw (§37)
    # John 6x3 = 18 + PC 3 = 21 > George (1+1)x3 = 6 + Thomas 4 + Jane 2 + Alfred 5 = 17
    pos.dice(6, 1, 1, 3, 4)
    g = pos.run("usurp_start", p=0)
    assert halted(g)
    assert st.chars["george"].dead and st.monarch == "john" and st.chars["john"].owner == 0
    assert not any("must be succeeded" in e["t"] for e in st.log) and not st.tstate.get("aborted")


def test_37_draw_when_the_last_rc_who_can_succeed_dies_under_a_farc_monarch(calls):
    """§37 reading: the reigning Monarch cannot succeed to his own throne, so the death of the
    last other RC of the order of succession (§9.2) ends the game as a draw even while a
    usurping FARC reigns; Thomas and Jane alive do not keep the game going (§9.3)."""
    pos = pos3()
    crown_farc(pos, 0, "john")
    st = pos.state
    for r in ("alan", "anne", "edward", "phillip", "almery", "catherine"):
        st.wchar(r).dead = True
    pos.run("victory_check")
    assert not st.over  # Alfred can still succeed John
    pos.run("kill", cid="alfred", cause="assassination")
    pos.run("check_draw")
    assert st.over and st.result == "draw" and st.winner is None
