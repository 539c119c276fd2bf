"""§13.4.17 Consult The Prestige Tables (T1.14, T1.14.11 notes 1-12), the bought +1
modifier, halving (§20.5, §24.3, §29.2, A1, A2) and the wedding guests' Socializing roll
(§13.4.16, A44)."""

from __future__ import annotations

import pytest
from helpers import kind, pc

from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import ID, NO, YES, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF, NOBLES
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.rules.queries import is_female

CROSS = ("duel", "scandal", "accuse", "hearing", "to_trial", "auto_proposal", "pp_check_all")


@pytest.fixture
def calls(stub_ops):
    """Other chapters' operations replaced by recorders (the contract: scheduled by name)."""
    return stub_ops(*CROSS)


def names(calls):
    return [c[0] for c in calls]


def P(key):
    return ID[f"prestige_{key}"]


def dice_for(s):
    return (1, s - 1) if s <= 7 else (s - 6, 6)


def position(female=False, ip=10, pp=30, **pt):
    """Player 0's turn, with a PC of the wanted sex, in Fandonia, in a normal situation."""
    for seed in range(200):
        pos = Position(players=3, seed=seed, first=0)
        if is_female(pos.state.players[0].pc) == female:
            break
    pos.player(0, ip=ip, pp=pp)
    pos.turn_state(0, **pt)
    return pos


def consult(pos, table, s, *more_dice):
    pos.dice(*dice_for(s), *more_dice)
    g = pos.run("prestige_start", p=0)
    d = g.decision()
    if d["kind"] == "prestige_table":
        assert P(table) in d["options"]
        g.apply(P(table))
    return g


def make_henchman(pos, p, cid):
    st = pos.state
    assert not st.chars[cid].is_pc and st.chars[cid].owner is None
    pos.char(cid, owner=p, location="fandonia", office=None)
    card = next(c for c in st.deck if CARD_TYPE_OF[c] == "henchman")
    st.deck.remove(card)
    st.wchar(cid).henchman_card = card


# ---------------------------------------------------------------------------
# One test per table: every row (T1.14.1-T1.14.10)
# ---------------------------------------------------------------------------
# Expected per row 2..12: (PP change, IP change, new modifier, effect).  "ALL" = the total
# becomes 0; "DBL" = the total doubles.  Effects: ne no effect, ra roll again, sc scandal,
# du duel, wr wrongdoing, he hearing, tr trial, ap proposal, ic free intrigue, x2/x3 extra
# activities, aa any activity.  Start: 30 PP, 10 IP (the table's cost paid first).

EXPECT = {
    "literary": [(-1, 0, -1, None), (0, -1, 0, None), (0, 0, 0, "ne"), (0, 0, 0, "ra"), (0, 1, 1, None),
                 (1, 0, 1, None), (1, 0, 1, None), (1, 0, 1, None), (2, 0, 1, None), (2, 0, 1, None),
                 (3, 0, 1, None)],
    "fashion": [(0, 0, -2, "sc"), (-2, 0, -1, None), (-1, 0, -1, None), (0, -1, 0, None), (1, 0, 1, None),
                (1, 0, 1, None), (2, 0, 1, None), (2, 0, 1, None), (3, 0, 1, None), (4, 0, 1, None),
                (5, 0, 1, None)],
    "craft": [(0, 0, -2, "sc"), (-10, "ALL", -1, None), (-5, "ALL", -1, None), (0, "ALL", -1, None),
              (0, 0, 0, "ne"), (0, 0, 0, "ra"), (1, 1, 0, None), (2, 2, 1, None), (3, 3, 1, None),
              (5, 5, 2, None), (10, 10, 2, None)],
    "romance": [(0, 0, -2, "du"), (0, 0, -2, "du"), (0, 0, -2, "sc"), (0, 0, 0, "ap"), (0, 0, 0, "ap"),
                (0, 0, 0, "ap"), (0, 0, 0, "ic"), (0, 5, 1, None), (5, 0, 1, None), (5, 0, 1, None),
                (10, 0, 1, None)],
    "socializing": [(0, 0, -2, "du"), (0, 0, -2, "sc"), (-5, 0, -1, None), (-1, 0, 0, None), (0, 0, 0, "ap"),
                    (0, 0, 0, "ic"), (5, 0, 0, None), (5, 1, 0, None), (5, 2, 0, None), (10, 0, 1, None),
                    (10, 5, 1, None)],
    "patronage": [(0, 0, -2, "wr"), (0, 0, -2, "sc"), (-20, 0, -1, None), (-10, 0, -1, None),
                  (-5, 0, -1, None), (0, 0, 0, "x3"), (10, 0, 1, None), (10, 0, 1, None), (20, 0, 1, None),
                  (25, 0, 1, None), ("DBL", 0, 1, None)],
    "carousing": [(0, 0, -2, "tr"), (0, 0, -2, "he"), (0, 0, -2, "wr"), (0, 0, -2, "du"), (0, 0, -2, "sc"),
                  (0, 0, 0, "ic"), (0, 0, 0, "x2"), (0, 0, 0, "x3"), (0, 0, 1, "aa"), (0, "DBL", 1, None),
                  ("DBL", 0, 1, None)],
    "sporting": [(0, 0, -2, "wr"), (0, 0, -2, "du"), (0, 0, -2, "du"), (0, 0, -2, "du"), (0, 0, -2, "du"),
                 (0, 0, 0, "ne"), (10, 0, 0, None), (10, 0, 0, None), (15, 0, 1, None), (20, 0, 1, None),
                 (25, 0, 1, None)],
    "gambling": [(0, 0, -2, "wr"), (0, 0, -2, "sc"), (-20, "ALL", -1, None), (0, "ALL", 0, None),
                 (0, 0, 0, "ra"), (0, 2, 0, None), (0, 2, 0, None), (0, 3, 1, None), (0, 4, 1, None),
                 (0, 5, 1, None), (0, 10, 1, None)],
    "business": [(0, 0, -2, "he"), ("ALL", "ALL", -1, None), (-20, "ALL", -1, None), (-5, "ALL", -1, None),
                 (0, "ALL", -1, None), (0, 0, 0, "ne"), (0, 10, 1, None), (0, 15, 1, None), (0, 20, 1, None),
                 (0, 25, 2, None), (25, 25, 2, None)],
}
COST = {"socializing": 1, "patronage": 2, "business": 3}
DESIGNATED = {"sc": "scandal", "wr": "accuse", "he": "hearing", "tr": "to_trial"}


def _final(start, delta):
    if delta == "ALL":
        return 0
    if delta == "DBL":
        return start * 2
    return max(0, start + delta)


def _check_table(table, calls):
    for s, (dpp, dip, mod, eff) in zip(range(2, 13), EXPECT[table]):
        calls.clear()
        pos = position(female=False)
        st = pos.state
        g = consult(pos, table, s)
        if eff == "ra":
            assert kind(g) == "prestige_roll_again", (table, s)
            g.apply(NO)
        assert kind(g) == "halt", (table, s, g.decision())
        pl = st.players[0]
        ip0 = 10 - COST.get(table, 0)
        assert pl.pp == _final(30, dpp), (table, s)
        assert pl.ip == _final(ip0, dip), (table, s)
        assert pl.prestige_mods[table] == mod, (table, s)
        pt = st.pt
        assert pt["no_more"] == (eff in ("ne", "sc", "du")), (table, s)
        # ruling R15: a PP loss schedules the PP limit check at once, after the row's own steps
        assert [c for c in calls if c[0] == "pp_check_all"] == ([("pp_check_all", {})] if pl.pp < 30 else []), \
            (table, s)
        calls[:] = [c for c in calls if c[0] != "pp_check_all"]
        if eff in DESIGNATED:
            assert calls == [(DESIGNATED[eff], {"cid": pc(pos), **(
                {"why": calls[0][1].get("why")} if eff in ("sc", "wr") else {})})], (table, s)
        elif eff == "du":
            src = "carousing" if table == "carousing" else "prestige"
            assert calls == [("duel", {"player": 0, "cid": None, "source": src})], (table, s)
        elif eff == "ap":
            assert calls == [("auto_proposal", {"p": 0})], (table, s)
        else:
            assert calls == [], (table, s, calls)
        assert pt["free"] == (["intrigue_card"] if eff == "ic" else [])
        assert pt["extra"] == {"x2": 2, "x3": 3}.get(eff, 0), (table, s)
        assert pt["any_activity"] == (1 if eff == "aa" else 0)
        assert any(f"row {s}:" in e["t"] for e in st.log), (table, s)
        check(st)


def test_13_4_17_literary_pursuits_table_rows(calls):
    _check_table("literary", calls)


def test_13_4_17_fashion_table_rows(calls):
    _check_table("fashion", calls)


def test_13_4_17_craft_table_rows(calls):
    _check_table("craft", calls)


def test_13_4_17_romance_table_rows(calls):
    _check_table("romance", calls)


def test_13_4_17_socializing_table_rows(calls):
    _check_table("socializing", calls)


def test_13_4_17_patronage_table_rows(calls):
    _check_table("patronage", calls)


def test_13_4_17_carousing_table_rows(calls):
    _check_table("carousing", calls)


def test_13_4_17_sporting_table_rows(calls):
    _check_table("sporting", calls)


def test_13_4_17_gambling_table_rows(calls):
    _check_table("gambling", calls)


def test_13_4_17_business_speculation_table_rows(calls):
    _check_table("business", calls)


# ---------------------------------------------------------------------------
# Choosing a table: Sporting, costs, one table per Player Turn
# ---------------------------------------------------------------------------


def test_13_4_17_female_pc_never_consults_sporting():
    pos = position(female=True)
    g = pos.run("prestige_start", p=0)
    opts = g.decision()["options"]
    assert P("sporting") not in opts and P("fashion") in opts
    pos = position(female=False)
    g = pos.run("prestige_start", p=0)
    assert P("sporting") in g.decision()["options"]


def test_13_4_17_costs_are_paid_and_unaffordable_tables_are_not_offered(calls):
    pos = position(ip=1)
    g = pos.run("prestige_start", p=0)
    opts = g.decision()["options"]
    assert P("socializing") in opts and P("patronage") not in opts and P("business") not in opts
    pos = position(ip=3)
    pos.dice(3, 3)  # 6: Lucky... Business 6 = Poor Investment, lose all IP
    g = pos.run("prestige_start", p=0)
    g.apply(P("business"))
    assert pos.state.players[0].ip == 0
    assert any("pays 3 IP" in e["t"] for e in pos.state.log)


def test_13_4_17_no_ip_in_a_famine_only_free_tables(calls):
    pos = position(ip=10)
    pos.state.crown = "famine"  # §34.6: no IP may be spent
    g = pos.run("prestige_start", p=0)
    opts = g.decision()["options"]
    assert P("socializing") not in opts and P("business") not in opts and P("literary") in opts


def test_13_4_17_one_table_per_player_turn(calls):
    pos = position()
    pos.dice(3, 4)  # Fashion 7: Tasteful
    g = pos.run("turn_main", p=0)
    assert ID["act_prestige"] in g.decision()["options"]
    g.apply(ID["act_prestige"])
    g.apply(P("fashion"))
    d = g.decision()
    assert d["kind"] == "turn_main"
    assert ID["act_prestige"] not in d["options"]  # §13.4.17 / §13.1
    assert ID["free_buy_modifier"] not in d["options"]
    assert pos.state.players[0].pp == 31


# ---------------------------------------------------------------------------
# Cumulative modifiers (±2) and the A6 clamp
# ---------------------------------------------------------------------------


def test_13_4_17_modifiers_apply_to_later_rolls_and_are_capped_at_plus_two(calls):
    pos = position()
    pos.player(0, prestige_mods={"fashion": 2})
    g = consult(pos, "fashion", 2)  # 2 + 2 = 4: Slovenly, lose One PP, -1
    assert kind(g) == "halt"
    assert pos.state.players[0].pp == 29
    assert pos.state.players[0].prestige_mods["fashion"] == 1
    pos = position()
    pos.player(0, prestige_mods={"fashion": 2})
    consult(pos, "fashion", 12)  # +1 more: capped at +2
    assert pos.state.players[0].prestige_mods["fashion"] == 2
    assert pos.state.players[0].pp == 35


def test_13_4_17_modifiers_capped_at_minus_two_and_roll_clamped_to_2(calls):
    pos = position()
    pos.player(0, prestige_mods={"fashion": -2})
    g = consult(pos, "fashion", 3)  # 3 - 2 = 1 -> clamped to row 2 (A6): scandal
    assert g.decision()["kind"] == "halt"
    assert pos.state.players[0].prestige_mods["fashion"] == -2
    assert names(calls) == ["scandal"]
    assert any("row 2:" in e["t"] for e in pos.state.log)


def test_13_4_17_modifiers_are_per_table(calls):
    pos = position()
    pos.player(0, prestige_mods={"fashion": 2})
    consult(pos, "craft", 7, 1, 1)  # Craft 7: Ordinary, roll again (Fashion +2 does not count)
    assert any("row 7:" in e["t"] for e in pos.state.log)


# ---------------------------------------------------------------------------
# The bought +1 modifier
# ---------------------------------------------------------------------------


def test_13_4_17_buy_modifier_costs_two_ip_and_adds_one(calls):
    pos = position(ip=5)
    legal = registry.FREE_ACTIONS["buy_modifier"].legal
    assert legal(pos.state, 0)
    pos.run("prestige_buy", p=0)
    assert pos.state.players[0].ip == 3 and pos.state.pt["bought_mod"]
    assert not legal(pos.state, 0)  # one per turn
    g = consult(pos, "fashion", 11)  # 11 + 1 = 12: Fashion Setter
    assert kind(g) == "halt"
    assert pos.state.players[0].pp == 35
    assert pos.state.players[0].prestige_mods["fashion"] == 1  # the bought +1 is not recorded


def test_13_4_17_buy_modifier_not_legal_without_two_ip_or_when_every_table_is_at_plus_two():
    legal = registry.FREE_ACTIONS["buy_modifier"].legal
    pos = position(ip=1)
    assert not legal(pos.state, 0)
    pos = position(ip=5)
    pos.player(0, prestige_mods={k: 2 for k in EXPECT})
    assert not legal(pos.state, 0)
    pos = position(ip=5, no_more=True)
    assert not legal(pos.state, 0)  # no activity left to use it on


def test_13_4_17_bought_modifier_not_used_on_a_plus_two_table(calls):
    pos = position(ip=5, bought_mod=True)
    pos.player(0, prestige_mods={"fashion": 2})
    consult(pos, "fashion", 9)  # 9 + 2 = 11 (not 12): Regal, Four PP
    assert pos.state.players[0].pp == 34


def test_13_4_17_bought_modifier_offered_in_the_turn(calls):
    pos = position(ip=5)
    g = pos.run("turn_main", p=0)
    assert ID["free_buy_modifier"] in g.decision()["options"]
    g.apply(ID["free_buy_modifier"])
    assert ID["free_buy_modifier"] not in g.decision()["options"]
    assert pos.state.players[0].ip == 3


# ---------------------------------------------------------------------------
# T1.14.11 notes
# ---------------------------------------------------------------------------


def test_t1_14_11_note_1_roll_again_is_optional_chains_and_keeps_the_same_modifier(calls):
    pos = position(bought_mod=True)
    pos.player(0, prestige_mods={"gambling": 1})
    # Gambling: 4 + 1 + 1 = 6 Break Even (roll again) -> 4 + 2 = 6 again -> 10 + 2 = 12 Bank Breaker
    g = consult(pos, "gambling", 4, 2, 2, 4, 6)
    assert kind(g) == "prestige_roll_again"
    g.apply(YES)
    assert kind(g) == "prestige_roll_again"
    g.apply(YES)
    assert kind(g) == "halt"
    pl = pos.state.players[0]
    assert pl.ip == 20
    assert pl.prestige_mods["gambling"] == 2  # 1 + 0 + 0 + 1 (each row's modifier applied, A45)


def test_t1_14_11_note_2_no_effect_ends_activities(calls):
    pos = position()
    g = consult(pos, "sporting", 7)
    assert kind(g) == "halt"
    assert pos.state.pt["no_more"]
    assert pos.state.players[0].pp == 30


def test_t1_14_11_note_3_free_intrigue_lost_if_already_intrigued_this_turn(calls):
    pos = position(done=["intrigue_card"])
    consult(pos, "romance", 8)
    assert pos.state.pt["free"] == [] and pos.state.pt["extra"] == 0


def test_t1_14_11_note_3_free_intrigue_does_not_use_a_normal_activity(calls):
    from fandonia_env.engine.chapters.turn import activities_left, activity_options
    from fandonia_env.engine.core.actions import ID

    pos = position(done=["prestige"])
    consult(pos, "socializing", 7)
    assert activities_left(pos.state) == 1  # the normal one left; the free one is extra
    assert pos.state.pt["free"] == ["intrigue_card"] and pos.state.pt["intrigue"] == 0
    pos.state.pt["done"].append("travel")  # budget spent: the free intrigue is still offered
    opts = activity_options(pos.state, 0)
    assert ID["act_intrigue_card"] in opts and ID["act_recruit"] not in opts


def test_t1_14_11_notes_6_to_9_designate_pc_or_henchman(calls):
    pos = position()
    make_henchman(pos, 0, "31")
    g = consult(pos, "carousing", 2)  # Assault. Go To Trial.
    d = g.decision()
    assert d["kind"] == "prestige_designate"
    assert sorted(d["options"]) == sorted([char_action(pc(pos)), char_action("31")])
    g.apply(char_action("31"))
    assert calls == [("to_trial", {"cid": "31"})]
    assert not pos.state.pt["no_more"]  # note 9: activities continue
    check(pos.state)


def test_17_2_5_henchman_not_in_a_normal_situation_is_not_designated_for_wrongdoing(calls):
    pos = position()
    make_henchman(pos, 0, "31")
    pos.char("31", hiding=True)
    g = consult(pos, "sporting", 2)  # Lawless: accused of wrongdoing
    assert kind(g) == "halt"  # only the PC: decided automatically (R10)
    assert calls[0][0] == "accuse" and calls[0][1]["cid"] == pc(pos)
    # a scandal may fall on him in any situation (§22)
    calls.clear()
    pos = position()
    make_henchman(pos, 0, "31")
    pos.char("31", hiding=True)
    g = consult(pos, "fashion", 2)
    assert char_action("31") in g.decision()["options"]
    g.apply(char_action("31"))
    assert calls[0][0] == "scandal" and calls[0][1]["cid"] == "31"
    assert pos.state.pt["no_more"]


# ---------------------------------------------------------------------------
# Halving (§20.5, §24.3, §29.2, A1, A2) and duels while hiding/banished
# ---------------------------------------------------------------------------


def test_20_5_gains_halved_rounded_up_when_pc_abroad(calls):
    pos = position()
    pos.char(pc(pos), location="epalin")
    consult(pos, "fashion", 12)  # Five PP -> 3
    assert pos.state.players[0].pp == 33
    pos = position()
    pos.char(pc(pos), location="epalin")
    consult(pos, "craft", 3)  # lose Ten PP & all IP -> lose 5 PP and ceil(10/2) = 5 IP
    assert pos.state.players[0].pp == 25 and pos.state.players[0].ip == 5
    assert pos.state.players[0].prestige_mods["craft"] == -1  # modifiers not halved (A1)


def test_20_5_duel_abroad_goes_to_the_duel_procedure(calls):
    pos = position()
    pos.char(pc(pos), location="epalin")
    consult(pos, "romance", 2)
    assert calls == [("duel", {"player": 0, "cid": None, "source": "prestige"})]
    assert pos.state.pt["no_more"]


def test_24_3_hiding_halves_once_and_ignores_duels(calls):
    pos = position(ip=9)
    pos.char(pc(pos), hiding=True, location="epalin")  # abroad and hiding: halve once (A2)
    consult(pos, "carousing", 11)  # Double Current IP: gain ceil(9/2) = 5
    assert pos.state.players[0].ip == 14
    calls.clear()
    pos = position()
    pos.char(pc(pos), hiding=True)
    consult(pos, "sporting", 4)  # Betting. Fight A Duel.
    assert calls == []
    assert not pos.state.pt["no_more"]
    assert pos.state.players[0].prestige_mods["sporting"] == -2
    assert any("ignored" in e["t"] for e in pos.state.log)


def test_29_2_banished_halves_lose_all_and_ignores_duels(calls):
    pos = position(ip=7)
    pos.char(pc(pos), banished=True, location="cronos")
    consult(pos, "business", 3)  # Bankruptcy: lose all PP & IP -> lose 15 PP and ceil(4/2) = 2 IP
    assert pos.state.players[0].pp == 15 and pos.state.players[0].ip == 2
    assert calls == [("pp_check_all", {})]  # ruling R15
    calls.clear()
    pos = position()
    pos.char(pc(pos), banished=True, location="cronos")
    consult(pos, "socializing", 2)
    assert calls == [] and not pos.state.pt["no_more"]


# ---------------------------------------------------------------------------
# §13.4.16 the wedding guests' Socializing roll (A44)
# ---------------------------------------------------------------------------


def test_13_4_16_guest_socializing_roll_no_cost_existing_modifier_no_activity_loss(calls):
    pos = position()  # player 0's turn (the host)
    pos.player(1, ip=4, pp=20, prestige_mods={"socializing": -2})
    pos.dice(2, 2)  # 4 - 2 = 2: Insulting. Fight A Duel.
    g = pos.run("socializing_roll", p=1, guest=True)
    assert kind(g) == "halt"
    assert calls == [("duel", {"player": 1, "cid": None, "source": "prestige"})]
    assert pos.state.players[1].ip == 4  # no cost
    assert pos.state.players[1].prestige_mods["socializing"] == -2
    assert not pos.state.pt["no_more"]  # the host keeps his activities (A44)


def test_13_4_16_guest_free_intrigue_kept_for_his_own_player_turn(calls):
    pos = position()
    pos.player(1, prestige_mods={"socializing": 1})
    pos.dice(3, 3)  # 6 + 1 = 7: Useful Contacts
    pos.run("socializing_roll", p=1, guest=True)
    assert pos.state.pt["free"] == []  # not the host's
    assert pos.state.tstate["prestige_grants"] == {"1": {"intrigue": 1}}
    assert pos.state.players[1].prestige_mods["socializing"] == 1
    pos.turn_state(1)
    pos.run("prestige_turn_start", p=1)
    assert pos.state.pt["free"] == ["intrigue_card"] and pos.state.pt["extra"] == 0
    assert "1" not in pos.state.tstate["prestige_grants"]


def test_13_4_16_guest_scandal_designated_by_the_guest(calls):
    pos = position()
    cid = next(c for c in NOBLES if pos.state.chars[c].owner is None and not pos.state.chars[c].office
               and int(c) <= 44)
    make_henchman(pos, 1, cid)
    pos.dice(1, 2)  # Risque
    g = pos.run("socializing_roll", p=1, guest=True)
    d = g.decision()
    assert d["kind"] == "prestige_designate" and d["player"] == 1
    g.apply(char_action(cid))
    assert calls[0][0] == "scandal" and calls[0][1]["cid"] == cid
    assert not pos.state.pt["no_more"]


def test_13_4_17_random_consultations_keep_invariants(calls):
    import random

    r = random.Random(3)
    for _i in range(40):
        pos = position(ip=r.randint(0, 12), pp=r.randint(0, 40))
        if r.random() < 0.3:
            pos.char(pc(pos), location="sandarkan")
        g = pos.run("prestige_start", p=0)
        while kind(g) != "halt":
            g.apply(r.choice(g.decision()["options"]))
            check(pos.state)
        assert all(-2 <= m <= 2 for m in pos.state.players[0].prestige_mods.values())


def test_17_6_henchman_abroad_is_not_designated_for_a_table_result(calls):
    pos = position()
    make_henchman(pos, 0, "31")
    pos.char("31", location="cronos")
    g = consult(pos, "fashion", 2)  # Roll On Scandal Table: designate PC or a henchman
    assert kind(g) == "halt"  # the henchman abroad may not stand in: the PC, automatically (R10)
    assert calls[0][0] == "scandal" and calls[0][1]["cid"] == pc(pos)
    check(pos.state)
