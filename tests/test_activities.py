"""Activities of §13.4 (titles, counselors, royal favor, henchmen, recruiting, treachery,
seduction, travel, drawing), §11, §17, §20, and the free actions §35.8, §14.2.1,
§14.5.19, §14.5.20 (fandonia_env/engine/chapters/activities.py)."""

from __future__ import annotations

import pytest
from helpers import activity_turn, free_legal, free_noble, halted, legal

from fandonia_env.engine.chapters.activities import (
    _destinations,
    _seduce_targets,
    _seducers,
    release_character,
    title_cost,
)
from fandonia_env.engine.core.actions import ID, NAME, PASS, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF, NOBLES, OPPORTUNITY_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules.queries import henchmen, status


def setup(players: int = 3, seed: int = 5, **pt):
    return activity_turn(players=players, seed=seed, **pt)


def nc(st, pred=lambda cid: True, exclude=()):
    """A neutral noble without office, not a PC, matching pred (else an Office Holder taken out of office)."""
    return free_noble(st, pred, exclude, at_home=False, unseat=True)


def titled(title):
    return lambda cid: NOBLES[cid].title == title


def sir_and_knight(st) -> tuple[str, str]:
    """Two neutral nobles (see ``nc``): a Sir and a Knight."""
    a = nc(st, titled("sir"))
    return a, nc(st, titled("knight"), exclude=(a,))


# ---------------------------------------------------------------------------
# §13.4.1 Acquire A Title
# ---------------------------------------------------------------------------


def test_13_4_1_title_costs_title_table_ip_and_adds_one_status():
    pos = setup()
    st = pos.state
    earl = nc(st, titled("earl"))
    pos.char(earl, owner=0)
    pos.player(0, ip=10, pp=20)
    g = pos.run("act_title", p=0)
    d = g.decision()
    assert d["kind"] == "title_character" and char_action(earl) in d["options"]
    before = status(st, earl)
    g.apply(char_action(earl))
    assert st.chars[earl].titles == 1 and status(st, earl) == before + 1
    assert st.players[0].ip == 6  # Earl -> Lord costs 4
    d = g.decision()
    assert PASS in d["options"] and char_action(earl) not in d["options"]  # one title per turn
    g.apply(PASS)
    halted(g)


def test_13_4_1_any_number_of_characters_in_one_activity():
    pos = setup()
    st = pos.state
    a, b = sir_and_knight(st)
    pos.char(a, owner=0).char(b, owner=0)
    pos.player(0, ip=5, pp=30)
    g = pos.run("act_title", p=0)
    g.apply(char_action(a))  # 2 IP
    g.apply(char_action(b))  # 3 IP
    assert st.chars[a].titles == 1 and st.chars[b].titles == 1 and st.players[0].ip == 0
    halted(g)  # nobody left: the loop ends by itself
    assert st.tstate["titled"] == [a, b]


def test_13_4_1_female_ladder_lady_to_duchess_then_no_more():
    pos = setup()
    st = pos.state
    lady = nc(st, titled("lady"))
    pos.char(lady, owner=0)
    pos.player(0, ip=10, pp=30)
    g = pos.run("act_title", p=0)
    g.apply(char_action(lady))
    assert st.players[0].ip == 7  # Lady -> Duchess costs 3
    st.tstate = {}  # next turn
    assert title_cost(st, lady) is None


def test_13_4_1_dukes_functionaries_rcs_and_blocked_characters_cannot():
    pos = setup()
    st = pos.state
    pc = st.players[0].pc
    st.wchar(pc).banished = True  # the PC is banished: no title
    duke = nc(st, titled("duke"))
    judge = "46"
    earl = nc(st, titled("earl"))
    pos.char(duke, owner=0).char(judge, owner=0).char(earl, owner=0, hiding=True)
    pos.player(0, ip=20, pp=60)
    assert not legal(st, "acquire_title")
    st.wchar(earl).hiding = False
    assert legal(st, "acquire_title")


def test_13_4_1_not_offered_without_enough_ip():
    pos = setup()
    st = pos.state
    st.wchar(st.players[0].pc).imprisoned = True
    lord = nc(st, titled("lord"))
    pos.char(lord, owner=0)
    pos.player(0, ip=4, pp=20)  # Lord -> Duke costs 5
    assert not legal(st, "acquire_title")
    pos.player(0, ip=5, pp=status(st, lord))  # PP covers the Lord but not the Duke: offered all
    assert legal(st, "acquire_title")  # the same (ruling R17: the give-up follows the rise)


# ---------------------------------------------------------------------------
# §13.4.3 / §14.5.3 Become A Monarch's Counselor
# ---------------------------------------------------------------------------


def test_13_4_3_counselor_card_goes_under_pc_or_fac_not_office_holder_or_henchman():
    pos = setup()
    st = pos.state
    pc = st.players[0].pc
    holder = next(cid for cid, c in st.chars.items() if c.office == "high_minister")
    hm = nc(st, titled("sir"))
    pos.char(holder, owner=0).char(hm, owner=0).player(0, pp=40)
    assert not legal(st, "become_counselor")  # no card
    pos.give(0, "henchman", "monarchs_counselor")
    card_h = next(c for c in st.players[0].hand if CARD_TYPE_OF[c] == "henchman")
    st.players[0].hand.remove(card_h)
    st.wchar(hm).henchman_card = card_h
    g = pos.run("act_counselor", p=0)
    halted(g)  # only the PC was eligible: chosen automatically
    assert CARD_TYPE_OF[st.chars[pc].counselor_card] == "monarchs_counselor"
    assert st.chars[holder].counselor_card is None and st.chars[hm].counselor_card is None
    assert not any(CARD_TYPE_OF[c] == "monarchs_counselor" for c in st.players[0].hand)


# ---------------------------------------------------------------------------
# §13.4.4 Court The Favor Of A FARC (Royal Favor Table), §17.2.4
# ---------------------------------------------------------------------------


def _farc(pos, r="john", p=0):
    pos.give(p, f"ra_{r}")
    st = pos.state
    card = next(c for c in st.players[p].hand if CARD_TYPE_OF[c] == f"ra_{r}")
    st.players[p].hand.remove(card)
    st.wchar(r).owner = p
    st.wchar(r).alignment_card = card
    return card


@pytest.mark.parametrize("dice,ip", [((2, 2), 0), ((3, 2), 1), ((4, 3), 2), ((6, 5), 3)])
def test_13_4_4_royal_favor_rows_give_ip(dice, ip):
    pos = setup()
    st = pos.state
    _farc(pos)
    pos.player(0, ip=0, pp=40).dice(*dice)
    g = pos.run("act_favor", p=0)
    halted(g)
    assert st.players[0].ip == ip and st.chars["john"].owner == 0


def test_13_4_4_displeased_farc_becomes_nrc_and_card_discarded():
    pos = setup()
    st = pos.state
    card = _farc(pos)
    pos.player(0, pp=40).dice(1, 2)
    g = pos.run("act_favor", p=0)
    halted(g)
    assert st.chars["john"].owner is None and st.chars["john"].alignment_card is None
    assert card in st.discard


def test_13_4_4_favor_counter_adds_five_and_treachery_subtracts_two():
    pos = setup(favor=True)
    st = pos.state
    _farc(pos)
    pos.give(1, "treachery", "treachery").give(2, "treachery")
    pos.player(0, ip=0, pp=40).dice(1, 1)  # 2 + 5 - 2 = 5: One IP
    g = pos.run("act_favor", p=0)
    d = g.decision()
    assert d["player"] == 1 and d["kind"] == "card_window"
    g.apply(ID["play_treachery"])
    halted(g)  # max one Treachery: player 2 is not offered a window
    assert st.players[0].ip == 1 and st.chars["john"].owner == 0


def test_17_2_4_henchman_courting_farc_never_becomes_nrc():
    pos = setup()
    st = pos.state
    _farc(pos)
    hm = nc(st, titled("sir"))
    pos.char(hm, owner=0).player(0, pp=40)
    pos.give(0, "henchman")
    st.wchar(hm).henchman_card = st.players[0].hand.pop()
    pos.dice(1, 1)
    g = pos.run("act_favor", p=0)
    d = g.decision()
    assert d["kind"] == "favor_through_henchman"
    g.apply(YES)
    halted(g)  # one henchman: chosen automatically
    assert st.chars["john"].owner == 0


def test_13_4_4_a59_usurping_farc_monarch_stays_when_displeased():
    pos = setup()
    st = pos.state
    _farc(pos)
    st.wchar("george").office = None
    st.wchar("john").office = "monarch"
    st.monarch = "john"
    pos.player(0, pp=40).dice(1, 1)
    g = pos.run("act_favor", p=0)
    halted(g)
    assert st.chars["john"].owner == 0


def test_13_4_4_needs_a_farc_and_asks_which():
    pos = setup()
    st = pos.state
    assert not legal(st, "court_favor")
    _farc(pos, "john")
    _farc(pos, "edward")
    pos.player(0, pp=40).dice(3, 3)
    g = pos.run("act_favor", p=0)
    d = g.decision()
    assert d["kind"] == "favor_farc" and set(d["options"]) == {char_action("john"), char_action("edward")}
    g.apply(char_action("edward"))
    halted(g)


# ---------------------------------------------------------------------------
# §13.4.7 / §14.5.6 / §17 Create A Henchman
# ---------------------------------------------------------------------------


def test_13_4_7_henchman_card_under_a_fac_not_pc_or_counselor():
    pos = setup()
    st = pos.state
    a, b = sir_and_knight(st)
    pos.char(a, owner=0).char(b, owner=0).player(0, pp=40)
    assert not legal(st, "create_henchman")
    pos.give(0, "monarchs_counselor", "henchman")
    st.wchar(b).counselor_card = next(c for c in st.players[0].hand if CARD_TYPE_OF[c] == "monarchs_counselor")
    st.players[0].hand.remove(st.chars[b].counselor_card)
    g = pos.run("act_henchman", p=0)
    halted(g)  # only a: chosen automatically
    assert CARD_TYPE_OF[st.chars[a].henchman_card] == "henchman"
    assert st.chars[b].henchman_card is None and st.chars[st.players[0].pc].henchman_card is None
    assert a in henchmen(st, 0)


# ---------------------------------------------------------------------------
# §13.4.13 / §11 Recruit Characters
# ---------------------------------------------------------------------------


def test_13_4_13_recruit_both_drawn_counters_in_one_activity():
    pos = setup()
    st = pos.state
    a, b = sir_and_knight(st)
    pos.loyalty(0, a).loyalty(0, b).player(0, pp=10)
    g = pos.run("act_recruit", p=0)
    g.apply(char_action(a))
    assert st.chars[a].owner == 0 and st.chars[a].loyalty_counter and a not in st.players[0].loyalty_drawn
    d = g.decision()
    assert set(d["options"]) == {char_action(b), PASS}
    g.apply(char_action(b))
    halted(g)
    assert st.chars[b].owner == 0 and st.players[0].loyalty_drawn == []
    check(st, decision=False)


def test_13_4_13_recruit_needs_pp_and_a_free_nc():
    pos = setup()
    st = pos.state
    a = nc(st, titled("duke"))
    pos.loyalty(0, a).player(0, pp=4)
    assert not legal(st, "recruit")  # Status 5 > 4 PP
    pos.player(0, pp=5)
    assert legal(st, "recruit")
    st.wchar(a).hiding = True
    assert not legal(st, "recruit")
    st.wchar(a).hiding = False
    st.wchar(a).location = "epalin"
    st.wars = ["epalin"]
    assert not legal(st, "recruit")  # stuck at war
    st.wars = []
    assert legal(st, "recruit")  # Reading: abroad is no bar to ordinary recruiting


def test_13_4_13_second_recruit_only_if_pp_cover_both():
    pos = setup()
    st = pos.state
    a, b = sir_and_knight(st)
    pos.loyalty(0, a).loyalty(0, b).player(0, pp=2)
    g = pos.run("act_recruit", p=0)
    g.apply(char_action(a))
    halted(g)  # 1 + 2 > 2 PP: b is not offered
    assert st.chars[b].owner is None


# ---------------------------------------------------------------------------
# §13.4.14 Recruit A Character By Treachery
# ---------------------------------------------------------------------------


def test_13_4_14_treachery_enemy_fac_changes_side_keeps_counter_loses_henchman_card():
    pos = setup(intrigue=1)
    st = pos.state
    t = nc(st, titled("knight"))
    pos.char(t, owner=1).player(0, pp=10)
    pos.give(1, "henchman")
    st.wchar(t).henchman_card = st.players[1].hand.pop()
    hcard = st.chars[t].henchman_card
    assert not legal(st, "recruit_treachery")  # no Treachery card
    pos.give(0, "treachery")
    assert legal(st, "recruit_treachery")
    g = pos.run("act_treachery", p=0)
    halted(g)
    assert st.chars[t].owner == 0 and st.chars[t].loyalty_counter
    assert st.chars[t].henchman_card is None and hcard in st.discard
    assert st.pt["intrigue"] == 0 and not any(CARD_TYPE_OF[c] == "treachery" for c in st.players[0].hand)
    check(st, decision=False)


def test_13_4_14_exclusions_married_george_thomas_pc_and_pp():
    pos = setup(intrigue=1)
    st = pos.state
    pos.give(0, "treachery").player(0, pp=40)
    for r in ("george", "thomas"):
        st.wchar(r).owner = 1
    assert not legal(st, "recruit_treachery")  # enemy PCs and George/Thomas never
    w = nc(st, titled("lady"))
    h = nc(st, titled("sir"))
    pos.char(w, owner=1).char(h, owner=1)
    st.wchar(w).spouse, st.wchar(h).spouse = h, w
    assert not legal(st, "recruit_treachery")  # married
    st.wchar(w).spouse = st.wchar(h).spouse = None
    pos.player(0, pp=0)
    assert not legal(st, "recruit_treachery")  # PP


def test_13_4_14_a36_abroad_only_with_pc_or_henchman_in_same_country():
    pos = setup(intrigue=1)
    st = pos.state
    t = nc(st, titled("knight"))
    pos.char(t, owner=1, location="cronos").player(0, pp=10).give(0, "treachery")
    assert not legal(st, "recruit_treachery")
    st.wchar(st.players[0].pc).location = "epalin"
    assert not legal(st, "recruit_treachery")
    st.wchar(st.players[0].pc).location = "cronos"
    assert legal(st, "recruit_treachery")


def test_13_4_14_earc_moves_with_its_alignment_card_intrigue_cards_as_grant_and_treachery():
    pos = setup()
    st = pos.state
    card = _farc(pos, "alfred", p=1)
    pos.player(0, pp=10).give(0, "intrigue")
    assert not legal(st, "recruit_treachery")  # one Intrigue card cannot be both
    pos.give(0, "intrigue")
    g = pos.run("act_treachery", p=0)
    halted(g)
    assert st.chars["alfred"].owner == 0 and st.chars["alfred"].alignment_card == card
    assert not any(CARD_TYPE_OF[c] == "intrigue" for c in st.players[0].hand)


def test_13_4_14_any_activity_waiver_needs_no_cards():
    pos = setup(waiver=True)
    st = pos.state
    t = nc(st, titled("sir"))
    pos.char(t, owner=2).player(0, pp=10)
    assert legal(st, "recruit_treachery")
    g = pos.run("act_treachery", p=0)
    halted(g)
    assert st.chars[t].owner == 0


# ---------------------------------------------------------------------------
# §13.4.15 Seduce A Character
# ---------------------------------------------------------------------------


def _seduction(pos, rating=5, target_owner=None):
    st = pos.state
    lady = nc(st, lambda c: NOBLES[c].female and NOBLES[c].seduction == rating)
    male = nc(st, titled("knight"))
    pos.char(lady, owner=0)
    if target_owner is not None:
        pos.char(male, owner=target_owner)
    pos.player(0, pp=20)
    return lady, male


def _only_target(g, st, lady, male):
    d = g.decision()
    while d["kind"] in ("seducer", "seduce_target"):
        opt = char_action(lady) if d["kind"] == "seducer" else char_action(male)
        g.apply(opt)
        d = g.decision()


def test_13_4_15_seduction_success_nc_becomes_fac_with_its_counter():
    pos = setup(intrigue=1)
    st = pos.state
    lady, male = _seduction(pos, rating=5)
    pos.dice(4)
    g = pos.run("act_seduce", p=0)
    _only_target(g, st, lady, male)
    halted(g)
    assert st.chars[male].owner == 0 and st.chars[male].loyalty_counter and male not in st.loyalty_pool
    assert st.pt["intrigue"] == 0
    check(st, decision=False)


def test_13_4_15_seduction_fails_when_die_not_less_than_rating():
    pos = setup(intrigue=1)
    st = pos.state
    lady, male = _seduction(pos, rating=5, target_owner=1)
    pos.dice(5)
    g = pos.run("act_seduce", p=0)
    _only_target(g, st, lady, male)
    halted(g)
    assert st.chars[male].owner == 1


def test_13_4_15_informer_negates_before_the_roll():
    pos = setup(intrigue=1)
    st = pos.state
    lady, male = _seduction(pos, rating=5, target_owner=1)
    pos.give(1, "informer").dice(1)
    g = pos.run("act_seduce", p=0)
    _only_target(g, st, lady, male)
    d = g.decision()
    assert d["player"] == 1 and ID["play_informer"] in d["options"]
    g.apply(ID["play_informer"])
    halted(g)
    assert st.chars[male].owner == 1 and st.rng.scripted == [1]  # no die was rolled


def test_13_4_15_needs_intrigue_unmarried_female_and_same_country():
    pos = setup()
    st = pos.state
    lady, male = _seduction(pos, rating=5)
    assert not legal(st, "seduce")  # no Intrigue grant
    st.pt["intrigue"] = 1
    assert legal(st, "seduce")
    st.wchar(male).location = "cronos"
    assert male not in _seduce_targets(st, 0, lady)
    st.wchar(lady).location = "cronos"
    assert male in _seduce_targets(st, 0, lady)
    assert "55" not in _seduce_targets(st, 0, lady)  # never the Archbishop


# ---------------------------------------------------------------------------
# §13.4.18 / §20 Travel
# ---------------------------------------------------------------------------


def test_13_4_18_travel_abroad_and_back_any_number():
    pos = setup()
    st = pos.state
    pc = st.players[0].pc
    a = nc(st, titled("sir"))
    pos.char(a, owner=0, location="epalin").player(0, pp=20)
    g = pos.run("act_travel", p=0)
    g.apply(char_action(pc))
    d = g.decision()
    assert d["kind"] == "travel_destination" and ID["country_fandonia"] not in d["options"]
    g.apply(ID["country_cronos"])
    g.apply(char_action(a))
    assert ID["country_fandonia"] in g.decision()["options"]
    g.apply(ID["country_fandonia"])
    halted(g)
    assert st.chars[pc].location == "cronos" and st.chars[a].location == "fandonia"
    assert st.chars[pc].travel_turn == st.turn == st.chars[a].travel_turn


def test_20_1_no_travel_to_or_from_war_nor_when_blocked_or_never_abroad():
    pos = setup()
    st = pos.state
    pc = st.players[0].pc
    st.wchar(pc).hiding = True
    judge = "46"
    pos.char(judge, owner=0).player(0, pp=20)
    amb = next(cid for cid, c in st.chars.items() if c.office == "amb_cronos")
    pos.char(amb, owner=0)
    failed = nc(st, titled("sir"))
    pos.char(failed, owner=0, failed_problem=True)
    assert not legal(st, "travel")
    st.wchar(pc).hiding = False
    st.wchar(pc).location = "epalin"
    st.wars = ["epalin"]
    assert not legal(st, "travel")  # may not return from a country at war
    st.wars = ["cronos"]
    assert "cronos" not in _destinations(st, st.chars[pc])
    st.wchar(pc).travel_turn = st.turn  # already travelled this turn
    assert not legal(st, "travel")


# ---------------------------------------------------------------------------
# §13.4.19 Draw A Counter Or Card
# ---------------------------------------------------------------------------


def test_13_4_19_draw_costs_one_ip():
    pos = setup()
    st = pos.state
    pos.player(0, ip=3)
    n = len(st.players[0].hand)
    g = pos.run("act_draw", p=0)
    g.apply(ID["draw_event"])
    halted(g)
    assert st.players[0].ip == 2 and len(st.players[0].hand) == n + 1


def test_13_4_19_no_loyalty_draw_when_none_left_and_no_draw_without_ip():
    pos = setup()
    st = pos.state
    pos.player(0, ip=0)
    assert not legal(st, "draw")
    pos.player(0, ip=1)
    st.players[1].loyalty_drawn = st.loyalty_pool
    st.loyalty_pool = []
    g = pos.run("act_draw", p=0)
    assert ID["draw_loyalty"] not in g.decision()["options"]


def test_13_4_19_gout_counter_ends_the_activities():
    pos = setup()
    st = pos.state
    pos.player(0, ip=3)
    gout = next(o for o in st.opportunity_pool if OPPORTUNITY_TYPE_OF[o] == "gout")
    st.players[2].opportunity_drawn = [o for o in st.opportunity_pool if o != gout]
    st.opportunity_pool = [gout]
    g = pos.run("act_draw", p=0)
    g.apply(ID["draw_opportunity"])
    halted(g)
    assert st.pt["no_more"] and st.players[0].ip == 1  # One IP paid, One IP lost to Gout


# ---------------------------------------------------------------------------
# Free actions: §35.8, §14.2.1, §14.5.20, §14.5.19
# ---------------------------------------------------------------------------


def test_35_8_buy_one_pp_for_five_ip():
    pos = setup()
    st = pos.state
    pos.player(0, ip=9, pp=3)
    assert free_legal(st, "buy_pp")
    g = pos.run("free_buy_pp", p=0)
    halted(g)
    assert (st.players[0].ip, st.players[0].pp) == (4, 4)
    assert not free_legal(st, "buy_pp")


def test_14_2_1_voluntary_discard_never_dwtk():
    pos = setup()
    st = pos.state
    assert not free_legal(st, "discard")  # only DWTK in hand
    pos.give(0, "alibi", "evidence")
    g = pos.run("free_discard", p=0)
    d = g.decision()
    assert set(d["options"]) == {ID["discard_alibi"], ID["discard_evidence"]}
    g.apply(ID["discard_alibi"])
    halted(g)
    assert [CARD_TYPE_OF[c] for c in st.players[0].hand] == ["dwtk", "evidence"]


def test_14_5_20_extra_activity_card_adds_one_activity_not_when_restricted():
    pos = setup()
    st = pos.state
    assert not free_legal(st, "play_extra_activity")
    pos.give(0, "extra_activity")
    g = pos.run("free_extra_activity", p=0)
    halted(g)
    assert st.pt["extra"] == 1 and not free_legal(st, "play_extra_activity")
    pos.give(0, "extra_activity")
    st.pt["restricted"] = True
    assert not free_legal(st, "play_extra_activity")


def test_14_5_19_royal_alignment_makes_nrc_a_farc_with_pp():
    pos = setup()
    st = pos.state
    pos.give(0, "ra_edward", "ra_catherine").player(0, pp=7)
    assert not free_legal(st, "royal_alignment")  # Edward Status 8 > 7; Catherine barred
    pos.player(0, pp=8)
    g = pos.run("free_alignment", p=0)
    halted(g)  # Catherine is barred while George reigns: Edward chosen automatically
    assert st.chars["edward"].owner == 0 and CARD_TYPE_OF[st.chars["edward"].alignment_card] == "ra_edward"
    assert not free_legal(st, "royal_alignment")
    check(st, decision=False)


# ---------------------------------------------------------------------------
# §17.4 / §35.5 release
# ---------------------------------------------------------------------------


def test_35_5_1_release_returns_counter_discards_cards_keeps_office():
    pos = setup()
    st = pos.state
    holder = next(cid for cid, c in st.chars.items() if c.office == "minister_of_trade")
    pos.char(holder, owner=0).give(0, "henchman")
    card = st.players[0].hand.pop()
    st.wchar(holder).henchman_card = card
    g = pos.run("release", cid=holder)
    halted(g)
    c = st.chars[holder]
    assert c.owner is None and not c.loyalty_counter and holder in st.loyalty_pool
    assert c.henchman_card is None and card in st.discard and c.office == "minister_of_trade"
    check(st, decision=False)


def test_35_5_2_release_farc_discards_alignment_card_pc_never_released():
    pos = setup()
    st = pos.state
    card = _farc(pos, "anne")
    release_character(st, "anne")
    assert st.chars["anne"].owner is None and card in st.discard
    pc = st.players[0].pc
    release_character(st, pc)
    assert st.chars[pc].owner == 0


def test_13_turn_main_offers_registered_activities():
    pos = setup()
    st = pos.state
    a = nc(st, titled("sir"))
    pos.loyalty(0, a).player(0, ip=5, pp=10)
    g = pos.run("turn_main", p=0)
    opts = g.decision()["options"]
    for key in ("recruit", "travel", "draw", "acquire_title"):
        assert ID[f"act_{key}"] in opts
    assert ID["free_buy_pp"] in opts and ID["act_seduce"] not in opts
    g.apply(ID["act_recruit"])
    assert st.chars[a].owner == 0


def test_31_2_release_of_dead_farc_removes_alignment_card_from_game():
    pos = setup()
    st = pos.state
    card = _farc(pos, "alan")
    st.wchar("alan").dead = True
    release_character(st, "alan")
    assert st.chars["alan"].owner is None and card in st.removed and card not in st.discard


def test_36_10_5_farc_monarch_cannot_be_recruited_by_treachery():
    pos = setup(intrigue=1)
    st = pos.state
    _farc(pos, "john", p=1)
    pos.give(0, "treachery").player(0, pp=40)
    assert legal(st, "recruit_treachery")
    st.wchar("george").office = None
    st.wchar("john").office = "monarch"
    st.monarch = "john"
    assert not legal(st, "recruit_treachery")


# ---------------------------------------------------------------------------
# Audit additions: §10, §11, §12, §13.1, §14, §17, §20
# ---------------------------------------------------------------------------


def _only_counters(st, kind, holder=2):
    """Leave only Opportunity counters of ``kind`` in the container (the others are parked
    with ``holder``), so that a random draw is determined."""
    others = [o for o in st.opportunity_pool if OPPORTUNITY_TYPE_OF[o] != kind]
    st.players[holder].opportunity_drawn.extend(others)
    st.opportunity_pool[:] = [o for o in st.opportunity_pool if OPPORTUNITY_TYPE_OF[o] == kind]


def test_10_player_turn_draws_first_then_activities_then_counters_go_back():
    pos = setup()
    st = pos.state
    _only_counters(st, "gain_ip")
    a = nc(st, titled("sir"))
    st.loyalty_pool[:] = [a]  # the only Loyalty counter left: drawn for sure
    others = [x for x in NOBLES if x != a and x not in st.loyalty_pool and not st.chars[x].loyalty_counter]
    st.players[1].loyalty_drawn.extend(others)
    pos.player(0, ip=0, pp=10)
    hand = len(st.players[0].hand)
    g = pos.run("player_turn", p=0)
    d = g.decision()
    # step 1 is over before the first activity decision: one of each drawn
    assert d["kind"] == "turn_main" and d["player"] == 0
    pl = st.players[0]
    assert pl.loyalty_drawn == [a] and len(pl.opportunity_drawn) == 1 and len(pl.hand) == hand + 1
    assert pl.ip == 1  # 'Gain One IP' (§12.3.8)
    assert ID["act_recruit"] in d["options"]
    g.apply(PASS)  # no activities; not eligible to counsel: the turn ends
    halted(g)
    assert pl.loyalty_drawn == [] and a in st.loyalty_pool  # §11.2
    assert pl.opportunity_drawn == [] and len(st.opportunity_pool) == 8  # §12.2
    assert st.chars[a].owner is None and st.pt == {}


def test_11_2_recruited_counter_stays_on_the_card_the_other_goes_back():
    pos = setup()
    st = pos.state
    a, b = sir_and_knight(st)
    pos.loyalty(0, a).loyalty(0, b).player(0, pp=1)
    g = pos.run("act_recruit", p=0)
    halted(g)  # only a is affordable: recruited automatically
    g = pos.run("end_player_turn", p=0)
    halted(g)
    assert st.chars[a].loyalty_counter and a not in st.loyalty_pool
    assert not st.chars[b].loyalty_counter and b in st.loyalty_pool
    check(st, decision=False)


def test_11_3_fac_who_dies_returns_its_counter_eac_keeps_it():
    pos = setup(intrigue=1)
    st = pos.state
    a = nc(st, titled("sir"))
    t = nc(st, titled("knight"), exclude=(a,))
    pos.char(a, owner=0).char(t, owner=1).player(0, pp=20).give(0, "treachery")
    g = pos.run("act_treachery", p=0)
    halted(g)  # t becomes player 0's FAC: player 1's EAC keeps its counter on the card
    assert st.chars[t].owner == 0 and st.chars[t].loyalty_counter and t not in st.loyalty_pool
    g = pos.run("kill", cid=a, cause="test")
    halted(g)
    assert st.chars[a].owner is None and not st.chars[a].loyalty_counter and a in st.loyalty_pool
    check(st, decision=False)


def test_12_3_1_any_activity_counter_is_not_an_extra_activity():
    from fandonia_env.engine.chapters.turn import activities_left

    pos = setup(any_activity=1)
    st = pos.state
    assert activities_left(st) == 2
    t = nc(st, titled("sir"))
    pos.char(t, owner=2).player(0, pp=10)
    st.pt["done"] = ["travel", "draw"]  # both activities used
    g = pos.run("turn_main", p=0)
    assert ID["act_recruit_treachery"] not in g.decision()["options"]
    st.pt["done"] = ["travel"]
    g = pos.run("turn_main", p=0)
    assert ID["act_recruit_treachery"] in g.decision()["options"]  # waived: no card, no counter


def test_12_3_6_duel_counter_no_activities_and_a_duel_for_the_player():
    from fandonia_env.engine.chapters.turn import activities_left, do_draw

    pos = setup()
    st = pos.state
    _only_counters(st, "duel")
    do_draw(st, 0, "opportunity")
    assert st.pt["no_more"] and activities_left(st) == 0
    top = st.stack[-1]
    assert top.op == "duel" and top.args == {"player": 0, "cid": None, "source": "counter"}


def test_13_4_19_duel_counter_drawn_by_the_activity_ends_the_activities():
    from fandonia_env.engine.chapters.activities import act_draw_pick

    pos = setup()
    st = pos.state
    _only_counters(st, "duel")
    pos.player(0, ip=2)
    act_draw_pick(st, ID["draw_opportunity"], 0)
    assert st.pt["no_more"] and st.players[0].ip == 1 and st.stack[-1].op == "duel"


def test_13_1_same_activity_not_twice_and_two_activities_per_turn():
    pos = setup()
    st = pos.state
    pos.player(0, ip=5, pp=10)
    st.pt["done"] = ["travel"]
    g = pos.run("turn_main", p=0)
    opts = g.decision()["options"]
    assert ID["act_travel"] not in opts and ID["act_draw"] in opts
    st.pt["done"] = ["travel", "draw"]
    g = pos.run("turn_main", p=0)
    opts = g.decision()["options"]
    assert not any(NAME[o].startswith("act_") for o in opts)
    assert ID["free_buy_pp"] in opts  # free actions stay available (not activities)


def test_13_1_restricted_player_free_intrigue_is_his_single_activity():
    from fandonia_env.engine.chapters.turn import activities_left

    pos = setup(restricted=True, done=["intrigue_card"], free_used=1)
    assert activities_left(pos.state) == 0  # §24.3, §29.2: never more than one activity


def test_13_1_restriction_lifts_the_turn_after_the_pc_returns_to_normal():
    from fandonia_env.engine.chapters.turn import end_of_turn, new_turn

    pos = Position(players=3, seed=4)
    st = pos.state
    pc0 = st.wchar(st.players[0].pc)
    pc0.hiding = True

    def next_turn():
        st.stack.clear()
        st.pt = {}
        end_of_turn(st)
        st.stack.clear()
        new_turn(st)
        st.stack.clear()

    next_turn()  # turn 1 ends with the PC in hiding
    pc0.hiding = False  # returned to normal in turn 2
    seen = []
    for _ in (2, 3):
        pos.run("player_turn", p=0)
        seen.append(st.pt["restricted"])
        next_turn()
    assert seen == [True, False]  # one activity in turn 2, two again from turn 3 (ruling R19)


def test_14_2_1_played_cards_do_not_count_towards_the_hand_limit():
    pos = setup()
    st = pos.state
    a = nc(st, titled("sir"))
    pos.char(a, owner=0).player(0, pp=20)
    pos.give(0, "henchman")
    st.wchar(a).henchman_card = st.players[0].hand.pop()
    pos.give(0, *(["alibi"] * 6 + ["evidence"] * 5))  # 12 cards in hand with DWTK
    assert len(st.players[0].hand) == 12
    g = pos.run("end_player_turn", p=0)
    halted(g)  # no discard: the Henchman card under the FAC is played
    assert len(st.players[0].hand) == 12 and st.chars[a].henchman_card is not None


def test_14_2_2_voluntary_discard_is_shown_to_all():
    pos = setup()
    st = pos.state
    pos.give(0, "alibi", "evidence")
    g = pos.run("free_discard", p=0)
    g.apply(ID["discard_alibi"])
    halted(g)
    assert any(e["to"] is None and "Alibi" in e["t"] for e in st.log[-3:])
    assert CARD_TYPE_OF[st.discard[-1]] == "alibi"


def test_14_2_3_treachery_intrigue_and_extra_activity_are_discarded_when_played():
    pos = setup()
    st = pos.state
    t = nc(st, titled("sir"))
    pos.char(t, owner=1).player(0, pp=10).give(0, "intrigue", "treachery", "extra_activity")
    g = pos.run("act_treachery", p=0)
    halted(g)  # the Intrigue card stands for the counter (§14.5.7), then the Treachery card
    assert st.chars[t].owner == 0
    g = pos.run("free_extra_activity", p=0)
    halted(g)
    assert sorted(CARD_TYPE_OF[c] for c in st.discard[-3:]) == ["extra_activity", "intrigue", "treachery"]
    assert [CARD_TYPE_OF[c] for c in st.players[0].hand] == ["dwtk"]


def test_14_5_19_alignment_not_of_dead_rcs_catherine_once_george_is_not_monarch():
    pos = setup()
    st = pos.state
    pos.give(0, "ra_catherine", "ra_anne").player(0, pp=40)
    st.wchar("anne").dead = True
    assert not free_legal(st, "royal_alignment")  # Catherine barred while George reigns
    st.monarch = "edward"
    st.wchar("george").office, st.wchar("edward").office = None, "monarch"
    g = pos.run("free_alignment", p=0)
    halted(g)
    assert st.chars["catherine"].owner == 0 and st.chars["anne"].owner is None


def test_17_6_henchman_abroad_may_not_court_the_favor_of_a_farc():
    pos = setup()
    st = pos.state
    _farc(pos)
    hm = nc(st, titled("sir"))
    pos.char(hm, owner=0, location="cronos").player(0, pp=40)
    pos.give(0, "henchman")
    st.wchar(hm).henchman_card = st.players[0].hand.pop()
    pos.dice(3, 3)
    g = pos.run("act_favor", p=0)
    halted(g)  # no 'through a henchman?' question: the only henchman is abroad
    assert not any(e["t"].endswith("(henchman).") for e in st.log[-6:])


def test_20_3_minister_who_failed_a_problem_may_not_travel():
    pos = setup()
    st = pos.state
    pc = st.players[0].pc
    st.wchar(pc).hiding = True
    m = nc(st, titled("sir"))
    pos.char(m, owner=0, failed_problem=True).player(0, pp=20)
    assert not legal(st, "travel")
    st.wchar(m).failed_problem = False
    assert legal(st, "travel")


def test_20_4_ambassador_and_his_wife_may_not_travel():
    pos = setup()
    st = pos.state
    pc = st.players[0].pc
    st.wchar(pc).hiding = True
    amb = next(cid for cid, c in st.chars.items() if c.office == "amb_cronos")
    wife = nc(st, lambda c: NOBLES[c].female)
    pos.char(amb, owner=0).char(wife, owner=0, location="cronos").player(0, pp=40)
    st.wchar(amb).spouse, st.wchar(wife).spouse = wife, amb
    assert not legal(st, "travel")
    st.wchar(amb).spouse = st.wchar(wife).spouse = None
    assert legal(st, "travel")  # the lady alone may travel


def test_20_7_rcs_and_functionaries_never_travel():
    pos = setup()
    st = pos.state
    st.wchar(st.players[0].pc).hiding = True
    _farc(pos, "john")
    for f in ("45", "46", "51", "52", "55"):
        pos.char(f, owner=0)
    pos.player(0, pp=60)
    assert not legal(st, "travel")
    pos.char("53", owner=0)  # the General may travel
    assert legal(st, "travel")


def test_13_4_13_consort_and_dead_characters_cannot_be_recruited():
    pos = setup()
    st = pos.state
    a = nc(st, titled("sir"))
    pos.loyalty(0, a).player(0, pp=10)
    st.wchar(a).consort = True
    assert not legal(st, "recruit")  # §18.10: not recruited in any manner
    st.wchar(a).consort = False
    st.wchar(a).imprisoned = True
    assert not legal(st, "recruit")
    st.wchar(a).imprisoned = False
    assert legal(st, "recruit")


def test_13_4_15_married_female_does_not_seduce_and_no_male_rc_or_married_male_target():
    pos = setup(intrigue=1)
    st = pos.state
    lady, male = _seduction(pos, rating=5)
    assert legal(st, "seduce")
    h = nc(st, titled("earl"), exclude=(male,))
    st.wchar(lady).spouse, st.wchar(h).spouse = h, lady
    assert lady not in _seducers(st, 0)  # a married female may not seduce
    st.wchar(lady).spouse = st.wchar(h).spouse = None
    other = nc(st, lambda c: NOBLES[c].female, exclude=(lady,))
    st.wchar(male).spouse, st.wchar(other).spouse = other, male
    targets = _seduce_targets(st, 0, lady)
    assert male not in targets and not any(t in targets for t in ("john", "edward", "george"))


def test_14_5_19_alignment_checks_the_pp_limit_of_a_spouse_owner_35_5():
    pos = setup()
    st = pos.state
    f = nc(st, lambda c: NOBLES[c].female and NOBLES[c].status <= 3)
    pos.char(f, owner=1)
    st.wchar(f).spouse, st.wchar("alfred").spouse = "alfred", f
    pos.player(1, pp=status(st, f)).player(0, pp=40).give(0, "ra_alfred")
    assert status(st, f) == 5  # the higher of the two (§18.9)
    g = pos.run("free_alignment", p=0)
    halted(g)
    assert st.chars["alfred"].owner == 0
    # §18.10 Status 8 put player 1 over his limit: he lost his only FAC at once (§35.5)
    assert any("must lose characters" in e["t"] for e in st.log)
    assert st.chars[f].owner is None
