"""Errata edition, activities group: D30/D41 (absent, R2), D31 female henchmen, D32 Any
Activity + Assassination card, D42/D43 ES §13.4.20 bribery (bribery.py, A27), D52 a
henchman courting a FARC (activities.py)."""

from __future__ import annotations

from helpers import activity_turn, free_legal, free_noble, halted, kind, logs

from fandonia_env.engine import Game
from fandonia_env.engine.chapters.problems import roll_spec
from fandonia_env.engine.chapters.turn import activity_options
from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import CATALOGUE, ID, NO, PASS, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF, NOBLES
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.rules.queries import status


def setup(edition: str = "errata", players: int = 3, seed: int = 5, p: int = 0, **pt) -> Position:
    return activity_turn(p, players=players, seed=seed, edition=edition, vacant=("minister_of_justice",), **pt)


def _pc(st, p=0):
    return st.players[p].pc


# ---------------------------------------------------------------------------
# D30 / D41: absent by ruling R2
# ---------------------------------------------------------------------------


def test_errata_d30_d41_counselor_influence_and_privateer_are_absent():
    words = ("privateer", "corsair", "corsario", "influence", "monarch_favor", "favor_monarch")
    for nm, _ in CATALOGUE:
        assert not any(w in nm for w in words), nm
    for key in list(registry.ACTIVITIES) + list(registry.FREE_ACTIONS):
        assert not any(w in key for w in words), key
    pos = setup(any_activity=1, intrigue=1)
    st = pos.state
    st.wchar(_pc(st)).counselor_card = None
    pos.give(0, "monarchs_counselor")
    st.wchar(_pc(st)).counselor_card = st.players[0].hand.pop()  # a PC "able to counsel" (A29)
    st.players[0].ip = 20
    opts = activity_options(st, 0)
    names = {CATALOGUE[a][0] for a in opts}
    assert all(n.startswith(("act_", "free_")) for n in names)
    assert not any(w in n for n in names for w in words)


# ---------------------------------------------------------------------------
# D31 Female henchmen
# ---------------------------------------------------------------------------


def test_errata_d31_female_fac_may_become_a_henchman():
    for edition in ("errata", "1981"):
        pos = setup(edition)
        st = pos.state
        lady = free_noble(st, lambda cid: NOBLES[cid].female)
        pos.char(lady, owner=0).player(0, pp=40).give(0, "henchman")
        g = pos.run("act_henchman", p=0)
        if kind(g) == "henchman_character":
            g.apply(char_action(lady))
        halted(g)
        assert st.chars[lady].henchman_card is not None, edition


# ---------------------------------------------------------------------------
# D32 Any Activity counter + Assassination card
# ---------------------------------------------------------------------------


def test_errata_d32_any_activity_waiver_and_assassination_card_both_count():
    pos = setup(p=1, waiver=True)
    st = pos.state
    target = free_noble(st)
    pos.give(1, "assassination")
    pos.dice(3, 3)
    g = pos.run("justice_assassinate", p=1)
    if kind(g) == "assassin":
        g.apply(char_action(_pc(st, 1)))
    g.apply(char_action(target))
    d = g.decision()
    assert d["kind"] == "card_window" and d["player"] == 1 and ID["play_assassination"] in d["options"]
    g.apply(ID["play_assassination"])
    while kind(g) != "halt":
        g.apply(PASS if PASS in g.decision()["options"] else g.decision()["options"][0])
    assert "Assassination Table 8" in logs(g)  # 3 + 3 + 2
    assert not any(CARD_TYPE_OF[c] == "assassination" for c in st.players[1].hand)


# ---------------------------------------------------------------------------
# D42 Taking bribes
# ---------------------------------------------------------------------------


def test_errata_d42_take_bribe_only_errata_pc_with_office_or_counselor():
    for edition in ("1981", "errata"):
        pos = setup(edition)
        st = pos.state
        assert not free_legal(st, "take_bribe")
        pos.office("minister_of_trade", _pc(st))
        assert free_legal(st, "take_bribe") == (edition == "errata")
    pos = setup()
    st = pos.state
    fac = free_noble(st)
    pos.char(fac, owner=0).office("minister_of_trade", fac)
    assert not free_legal(st, "take_bribe")  # a FAC is not enough (A27 viii)


def test_errata_d42_take_bribe_roll_greater_gains_the_ip_once_per_turn():
    pos = setup()
    st = pos.state
    pos.office("minister_of_trade", _pc(st)).player(0, ip=2)
    pos.dice(4)
    g = pos.run("bribe_take", p=0)
    d = g.decision()
    assert d["kind"] == "bribe_demand" and d["options"] == [ID[f"amount_{k}"] for k in range(1, 7)]
    g.apply(ID["amount_3"])
    halted(g)
    assert st.players[0].ip == 5
    assert not free_legal(st, "take_bribe")


def test_errata_d42_take_bribe_failure_accuses_pc_with_bribe_on_wrongdoing_and_hearing():
    pos = setup()
    st = pos.state
    me = _pc(st)
    pos.give(0, "monarchs_counselor").player(0, ip=2)
    st.wchar(me).counselor_card = st.players[0].hand.pop()
    st.wchar(me).fixed_status = 5
    sv = status(st, me)
    assert 5 <= sv <= 8
    # bribe die 3 (not > 3): accused; wrongdoing (sv - 3) + 3 = sv: hearing (innocent without the
    # bribe); hearing 2d: 1 + 1 + 3 - 1 (no Evidence) = 4 < sv: innocent
    pos.dice(3, sv - 3, 1, 1)
    g = pos.run("bribe_take", p=0)
    g.apply(ID["amount_3"])
    if kind(g) == "hide_from_hearing":
        g.apply(NO)
    halted(g)
    text = logs(g)
    assert st.players[0].ip == 2
    assert f"rolls {sv - 3} +3 (the bribe, ES §13.4.20) = {sv}" in text
    assert "The bribe adds +3 to the hearing roll" in text
    assert "4 is less than Status" in text and not st.chars[me].wrongdoer
    assert not st.misc.get("bribe_hearing")


# ---------------------------------------------------------------------------
# D43 Bribing a NC Office Holder
# ---------------------------------------------------------------------------


def _minister(pos, office="minister_of_trade"):
    st = pos.state
    cid = free_noble(st)
    pos.office(office, cid)
    return cid


def test_errata_d43_offer_bribe_only_in_errata_same_country_and_with_ip():
    pos = setup("1981")
    _minister(pos)
    pos.player(0, ip=5)
    assert not free_legal(pos.state, "offer_bribe")
    pos = setup()
    st = pos.state
    m = _minister(pos)
    pos.player(0, ip=0)
    assert not free_legal(st, "offer_bribe")  # A27 vii
    pos.player(0, ip=5)
    assert free_legal(st, "offer_bribe")
    for cid, c in st.chars.items():
        if c.office and c.office != "monarch" and c.owner is None and c.location == "fandonia":
            c.location = "epalin" if cid != m else c.location
    st.wchar(m).location = "epalin"
    assert not free_legal(st, "offer_bribe")  # nobody of p0 in Epalin
    st.wchar(_pc(st)).location = "epalin"
    assert free_legal(st, "offer_bribe")


def _offer_bribe(pos: Position, m: str, ip: int, *dice: int) -> Game:
    """Player 0 (``ip`` IP) offers a bribe to the neutral minister ``m``, the dice scripted."""
    pos.player(0, ip=ip).dice(*dice)
    g = pos.run("bribe_offer", p=0)
    if kind(g) == "bribe_target":
        g.apply(char_action(m))
    return g


def test_errata_d43_accepted_bribe_pays_bank_and_gives_one_problem_sign():
    pos = setup()
    st = pos.state
    m = _minister(pos)
    g = _offer_bribe(pos, m, 5, 3)
    d = g.decision()
    assert d["kind"] == "bribe_amount" and d["options"] == [ID[f"amount_{k}"] for k in range(1, 6)]
    g.apply(ID["amount_3"])
    halted(g)
    assert st.players[0].ip == 2
    assert "the bribe is accepted" in logs(g)
    assert not free_legal(st, "offer_bribe")  # once per turn
    st.players[0].ip = 10
    spec = roll_spec(st, "economic_crisis", free_noble(st, exclude=(m,)))
    bribed = [s for s in spec["signs"] if "bribed" in s["why"]]
    assert bribed == [{"player": 0, "amount": 1, "why": bribed[0]["why"]}]
    again = roll_spec(st, "economic_crisis", free_noble(st, exclude=(m,)))
    assert not [s for s in again["signs"] if "bribed" in s["why"]]  # one roll only (A27 iv)


def test_errata_d43_bribe_expires_after_next_problems_phase():
    pos = setup()
    st = pos.state
    m = _minister(pos)
    st.misc["bribery_bought"] = {m: {"p": 0, "turn": 1}}
    st.turn, st.phase = 2, "player_turn"
    assert not [s for s in roll_spec(st, "economic_crisis", free_noble(st, exclude=(m,)))["signs"]
                if "bribed" in s["why"]]


def test_errata_d43_refused_bribe_costs_nothing():
    pos = setup()
    st = pos.state
    m = _minister(pos)
    g = _offer_bribe(pos, m, 5, 5)
    g.apply(ID["amount_2"])
    halted(g)
    assert st.players[0].ip == 5 and "refused" in logs(g)
    assert not st.misc.get("bribery_bought")


def test_errata_d43_a_six_accuses_the_nc_and_the_offerer_with_the_amount():
    pos = setup()
    st = pos.state
    m = _minister(pos)
    me = _pc(st)
    st.wchar(m).fixed_status = 8
    st.wchar(me).fixed_status = 8
    g = _offer_bribe(pos, m, 9, 6, 1, 1)  # a natural 6 fails even a 6-IP offer (A27 ii); 1 + 6 = 7 < 8
    g.apply(ID["amount_6"])
    halted(g)
    text = logs(g)
    assert st.players[0].ip == 9 and "a 6, the bribe fails" in text
    assert text.count("rolls 1 +6 (the bribe, ES §13.4.20) = 7") == 2
    assert "(taking a bribe)" in text and "(offering a bribe)" in text


def test_errata_d43_bought_sign_on_a_counseling_roll_and_one_success_per_nc_a_turn():
    from fandonia_env.engine.chapters.bribery import _bribable, _pairs
    from fandonia_env.engine.chapters.counsel import modifier_signs

    pos = setup()
    st = pos.state
    navy = next(cid for cid, c in st.chars.items() if c.office == "minister_of_navy")
    pos.char(navy, owner=None)
    pos.player(0, ip=5).player(1, ip=5).dice(1)
    g = pos.run("bribe_offer", p=0)
    if kind(g) == "bribe_target":
        g.apply(char_action(navy))
    if kind(g) == "bribe_offerer":
        g.apply(char_action(_pc(st)))
    g.apply(ID["amount_1"])
    halted(g)
    assert navy not in _bribable(st)  # each NC Office Holder: one successful bribe a turn
    assert navy not in _pairs(st, 1)  # not offered to player 1 either
    signs = modifier_signs(st, "pirates", 3, None)  # the Minister Of The Navy modifies this counsel
    mine = [s for s in signs if "bribed" in s["why"]]
    assert mine == [{"player": 0, "amount": 1, "why": mine[0]["why"]}]
    assert not [s for s in modifier_signs(st, "pirates", 3, None) if "bribed" in s["why"]]  # used up


def test_errata_d43_bribe_sign_not_given_in_1981():
    pos = setup("1981")
    st = pos.state
    navy = next(cid for cid, c in st.chars.items() if c.office == "minister_of_navy")
    pos.char(navy, owner=None)
    st.misc["bribery_bought"] = {navy: {"p": 0, "turn": st.turn}}
    from fandonia_env.engine.chapters.counsel import modifier_signs
    assert not [s for s in modifier_signs(st, "pirates", 3, None) if "bribed" in s["why"]]


# ---------------------------------------------------------------------------
# D52 A henchman courting a FARC
# ---------------------------------------------------------------------------


def _farc_and_henchman(pos, r="john", p=0):
    st = pos.state
    pos.give(p, f"ra_{r}")
    card = next(c for c in st.players[p].hand if CARD_TYPE_OF[c] == f"ra_{r}")
    st.players[p].hand.remove(card)
    st.wchar(r).owner = p
    st.wchar(r).alignment_card = card
    hm = free_noble(st)
    pos.char(hm, owner=p).player(p, pp=40)
    pos.give(p, "henchman")
    st.wchar(hm).henchman_card = st.players[p].hand.pop()
    return hm


def test_errata_d52_henchman_courting_does_not_protect_the_farc():
    for edition, owner in (("errata", None), ("1981", 0)):
        pos = setup(edition)
        st = pos.state
        _farc_and_henchman(pos)
        pos.dice(1, 1)  # 2: RC Is Displeased
        g = pos.run("act_favor", p=0)
        assert kind(g) == "favor_through_henchman"
        g.apply(YES)
        halted(g)
        assert st.chars["john"].owner == owner, edition
