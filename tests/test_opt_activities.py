"""§38 optional activities (opt_activities.py): Gaining Foreign Support, Gaining Fandonian
Support, Emissaries (A52), Blackmail (errata D94)."""

from __future__ import annotations

from helpers import activity_turn, free_noble, halted, holds, legal, logs

from fandonia_env.engine.core.actions import ID, NO, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF
from fandonia_env.engine.face.builder import Position


def setup(optional=(), edition="1981", players=3, seed=5, p=0, **pt) -> Position:
    return activity_turn(p, players=players, seed=seed, edition=edition, optional=optional, **pt)


# ---------------------------------------------------------------------------
# Gaining Foreign Support
# ---------------------------------------------------------------------------


def test_opt_foreign_support_off_by_default_and_needs_a_fac_abroad():
    pos = setup()
    st = pos.state
    st.wchar(st.players[0].pc).location = "epalin"
    assert not legal(st, "foreign_support")
    pos = setup(["foreign_support"])
    st = pos.state
    assert not legal(st, "foreign_support")
    st.wchar(st.players[0].pc).location = "epalin"
    assert legal(st, "foreign_support")
    st.wars.append("epalin")
    assert not legal(st, "foreign_support")  # never a country at war


def test_opt_foreign_support_success_takes_card_from_another_hand():
    pos = setup(["foreign_support"])
    st = pos.state
    st.wchar(st.players[0].pc).location = "epalin"
    pos.give(1, "foreign_support_epalin").dice(5)  # 1 FAC: 5-6 successful
    g = pos.run("opt_foreign_support", p=0)
    halted(g)
    assert holds(st, 0, "foreign_support_epalin") == 1 and holds(st, 1, "foreign_support_epalin") == 0
    assert "die 5: Successful" in logs(g)


def test_opt_foreign_support_column_by_fac_count_and_failure():
    pos = setup(["foreign_support"])
    st = pos.state
    st.wchar(st.players[0].pc).location = "cronos"
    fac = free_noble(st)
    pos.char(fac, owner=0, location="cronos")
    card = next(c for c in st.deck if CARD_TYPE_OF[c] == "foreign_support_cronos")
    st.deck.remove(card)
    st.discard.append(card)
    pos.dice(3)  # 2 FACs: 4-6 successful; 3 fails
    g = pos.run("opt_foreign_support", p=0)
    halted(g)
    assert card in st.discard and "2 FAC(s) in the country, die 3: — (no effect)" in logs(g)
    st.tstate.clear()
    pos.dice(4)
    g = pos.run("opt_foreign_support", p=0)
    halted(g)
    assert card in st.players[0].hand


def test_opt_foreign_support_card_still_in_deck_gives_nothing():
    pos = setup(["foreign_support"])
    st = pos.state
    st.wchar(st.players[0].pc).location = "sandarkan"
    pos.dice(6)
    g = pos.run("opt_foreign_support", p=0)
    halted(g)
    assert holds(st, 0, "foreign_support_sandarkan") == 0 and "receives nothing" in logs(g)


# ---------------------------------------------------------------------------
# Gaining Fandonian Support
# ---------------------------------------------------------------------------


def test_opt_fandonian_support_eligibility_a_to_g():
    pos = setup(["fandonian_support"])
    st = pos.state
    assert not legal(st, "fandonian_support")
    fac = free_noble(st)
    pos.char(fac, owner=0).office("high_minister", fac)
    g = pos.run("opt_fandonian_support", p=0)
    opts = g.decision()["options"]
    assert set(opts) == {ID["fandonian_support_townsmen_support"], ID["fandonian_support_merchant_support"],
                         ID["fandonian_support_trade_guild_support"]}  # b, f, g
    pos2 = setup(["fandonian_support"])
    st2 = pos2.state
    pos2.char("55", owner=0, office=None)  # the Archbishop: a (Peasant) and c (Clergy)
    g2 = pos2.run("opt_fandonian_support", p=0)
    assert set(g2.decision()["options"]) == {ID["fandonian_support_peasant_support"],
                                             ID["fandonian_support_clergy_support"]}
    assert not legal(setup(["foreign_support"]).state, "fandonian_support")
    del st2


def test_opt_fandonian_support_six_takes_every_card_from_hands_and_discards():
    pos = setup(["fandonian_support"])
    st = pos.state
    pos.char("52", owner=0, office=None)  # the Sheriff: Peasant Support
    pos.give(1, "peasant_support", "peasant_support").give(2, "peasant_support")
    card = next(c for c in st.deck if CARD_TYPE_OF[c] == "peasant_support")
    st.deck.remove(card)
    st.discard.append(card)
    pos.dice(6)
    g = pos.run("opt_fandonian_support", p=0)
    halted(g)
    assert holds(st, 0, "peasant_support") == 4 and holds(st, 1, "peasant_support") == 0
    assert card in st.players[0].hand


def test_opt_fandonian_support_one_to_five_no_effect():
    pos = setup(["fandonian_support"])
    st = pos.state
    pos.char("52", owner=0, office=None)
    pos.give(1, "peasant_support").dice(5)
    g = pos.run("opt_fandonian_support", p=0)
    halted(g)
    assert holds(st, 1, "peasant_support") == 1 and holds(st, 0, "peasant_support") == 0


# ---------------------------------------------------------------------------
# Emissaries (A52)
# ---------------------------------------------------------------------------


def test_opt_emissaries_need_minister_of_state_or_ambassador():
    pos = setup(["emissaries"])
    st = pos.state
    assert not legal(st, "emissary")
    pos.office("minister_of_state", st.players[0].pc)
    assert legal(st, "emissary")
    pos2 = setup()
    pos2.office("minister_of_state", pos2.state.players[0].pc)
    assert not legal(pos2.state, "emissary")  # switch off


def test_opt_emissaries_success_places_nc_abroad_and_failure_does_nothing():
    pos = setup(["emissaries"])
    st = pos.state
    pos.office("minister_of_state", st.players[0].pc)
    target = free_noble(st, lambda cid: cid not in ("45", "46", "51", "52", "55"))
    pos.dice(2)
    g = pos.run("opt_emissary", p=0)
    d = g.decision()
    assert d["kind"] == "emissary_character" and char_action(target) in d["options"]
    assert char_action(st.players[1].pc) not in d["options"] and char_action("john") not in d["options"]
    assert char_action("55") not in d["options"]  # not allowed to travel (§20.7)
    g.apply(char_action(target))
    g.apply(ID["country_epalin"])
    halted(g)
    assert st.chars[target].location == "fandonia" and "Monarch refuses" in logs(g)
    pos.dice(3)
    g = pos.run("opt_emissary", p=0)
    g.apply(char_action(target))
    g.apply(ID["country_epalin"])
    halted(g)
    assert st.chars[target].location == "epalin" and st.misc["emissary"] == {target: "epalin"}
    assert st.chars[target].owner is None


def test_opt_emissaries_consort_and_characters_who_travelled_this_turn_are_not_candidates():
    pos = setup(["emissaries"])
    st = pos.state
    pos.office("minister_of_state", st.players[0].pc)
    queen = free_noble(st, lambda cid: cid not in ("45", "46", "51", "52", "55"))
    back = free_noble(st, lambda cid: cid not in ("45", "46", "51", "52", "55"), exclude=(queen,))
    pos.char(queen, consort=True)  # the King/Queen consort is a NRC (§9.2): never an emissary
    pos.char(back, owner=0, travel_turn=st.turn)  # came home this turn (§20.1)
    g = pos.run("opt_emissary", p=0)
    opts = g.decision()["options"]
    assert char_action(queen) not in opts and char_action(back) not in opts
    st.wchar(back).travel_turn = st.turn - 1
    g = pos.run("opt_emissary", p=0)
    assert char_action(back) in g.decision()["options"]


def test_opt_emissaries_success_counts_as_travel_this_turn():
    pos = setup(["emissaries"])
    st = pos.state
    pos.office("minister_of_state", st.players[0].pc)
    fac = free_noble(st, lambda cid: cid not in ("45", "46", "51", "52", "55"))
    pos.char(fac, owner=0).dice(6)
    g = pos.run("opt_emissary", p=0)
    g.apply(char_action(fac))
    g.apply(ID["country_cronos"])
    halted(g)
    assert st.chars[fac].location == "cronos" and st.chars[fac].travel_turn == st.turn
    from fandonia_env.engine.chapters.activities import _travellers
    assert fac not in _travellers(st, 0)  # may not travel back in the same turn (§20.1)


# ---------------------------------------------------------------------------
# Blackmail (D94)
# ---------------------------------------------------------------------------


def _victim_hand(pos, q=1, types=("evidence", "alibi", "informer")):
    pos.give(q, *types)


def _evidence_hand(pos, dwtk_drawn: bool):
    """Player 1 holds DOWN WITH THE KING and three Evidence cards, ordered so that the next random
    draw from his hand picks DOWN WITH THE KING (``dwtk_drawn``) or else an Evidence card."""
    _victim_hand(pos, types=("evidence", "evidence", "evidence"))
    i = pos.state.rng.copy().below(4)
    hand = pos.state.players[1].hand
    dw = next(c for c in hand if CARD_TYPE_OF[c] == "dwtk")
    hand.remove(dw)
    hand.insert(i if dwtk_drawn else (i + 1) % 4, dw)


def test_opt_blackmail_paid_transfers_one_ip_and_bars_drawing_this_turn():
    pos = setup(["blackmail"])
    st = pos.state
    _victim_hand(pos)
    pos.player(0, ip=0).player(1, ip=3)
    g = pos.run("intrigue_draw", p=0, victim=1)
    d = g.decision()
    assert d["kind"] == "blackmail_choice" and d["player"] == 0
    g.apply(YES)
    d = g.decision()
    assert d["kind"] == "blackmail_pay" and d["player"] == 1
    g.apply(YES)
    halted(g)
    assert st.players[0].ip == 1 and st.players[1].ip == 2 and len(st.players[1].hand) == 4
    g = pos.run("intrigue_draw", p=0, victim=1)
    halted(g)
    assert len(st.players[1].hand) == 4 and "may not draw a card" in logs(g)


def test_opt_blackmail_refused_player_keeps_the_drawn_card():
    pos = setup(["blackmail"])
    st = pos.state
    _evidence_hand(pos, dwtk_drawn=False)
    pos.player(1, ip=3)
    g = pos.run("intrigue_draw", p=0, victim=1)
    g.apply(YES)
    g.apply(NO)  # refuses to pay
    d = g.decision()
    assert d["kind"] == "blackmail_keep" and d["ctx"]["card"] == "evidence"
    g.apply(YES)
    halted(g)
    assert holds(st, 0, "evidence") == 1 and len(st.players[1].hand) == 3 and st.players[1].ip == 3


def test_opt_blackmail_declined_uses_the_normal_intrigue_draw():
    pos = setup(["blackmail"])
    st = pos.state
    _evidence_hand(pos, dwtk_drawn=False)
    g = pos.run("intrigue_draw", p=0, victim=1)
    g.apply(NO)
    halted(g)
    assert len(st.players[1].hand) == 3 and "a legal card, which is discarded" in logs(g)


def _dwtk_drawn(pos):
    _evidence_hand(pos, dwtk_drawn=True)
    pos.player(1, ip=0)  # cannot pay: refusal is automatic
    g = pos.run("intrigue_draw", p=0, victim=1)
    g.apply(YES)
    return g


def test_opt_blackmail_errata_d94_dwtk_is_returned_and_another_drawn():
    pos = setup(["blackmail"], edition="errata")
    st = pos.state
    g = _dwtk_drawn(pos)
    d = g.decision()
    assert d["kind"] == "blackmail_keep" and d["ctx"]["card"] == "evidence"
    g.apply(NO)
    halted(g)
    assert "D94" in logs(g)
    assert holds(st, 1, "dwtk") == 1 and holds(st, 0, "evidence") == 0 and len(st.players[1].hand) == 3


def test_opt_blackmail_1981_dwtk_stays_and_owner_is_accused():
    pos = setup(["blackmail"])
    st = pos.state
    st.wchar(st.players[1].pc).fixed_status = 8
    pos.dice(1)  # 1 + 2 = 3: innocent
    g = _dwtk_drawn(pos)
    halted(g)
    assert holds(st, 1, "dwtk") == 1 and len(st.players[1].hand) == 4
    assert "+2 (DOWN WITH THE KING)" in logs(g)


def test_opt_blackmail_off_uses_the_normal_draw_without_asking():
    pos = setup()
    st = pos.state
    _evidence_hand(pos, dwtk_drawn=False)
    g = pos.run("intrigue_draw", p=0, victim=1)
    halted(g)  # no blackmail_choice decision with the switch off
    assert len(st.players[1].hand) == 3 and "a legal card, which is discarded" in logs(g)
    assert "blackmail" not in logs(g).lower()


def test_opt_blackmail_payer_is_not_offered_as_intrigue_victim_for_the_rest_of_the_turn():
    from fandonia_env.engine.chapters.crown import _intrigue_victims

    pos = setup(["blackmail"])
    st = pos.state
    for q in range(st.n):
        pos.give(q, "evidence", "informer", "escape", "alibi")
    before = _intrigue_victims(st, 0)
    assert 1 in before
    st.tstate.setdefault("blackmail_paid", []).append([0, 1])
    assert _intrigue_victims(st, 0) == [q for q in before if q != 1]
    assert 0 in _intrigue_victims(st, 1)  # only the blackmailer is barred, not the payer
