"""fandonia_env.wording: the plain words of every decision the engine can ask (prompts, option labels,
details, confirmations), the race for the throne, the seat's faction, the recent events and the help,
all built from one seat's view."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import crown_farc, justice_position

from fandonia_env import words as wording
from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID, NAME, NO, YES, char_action
from fandonia_env.engine.core.machine import ask, seq
from fandonia_env.engine.core.machine import run as run_machine
from fandonia_env.engine.data import components as C
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import player_view
from fandonia_env.engine.face.hidden import resample
from fandonia_env.engine.rules.rule_queries import best_usurpation, usurpation_chance
from fandonia_env.spaces.observation import DECISION_KINDS

#: what a plain text must not hold: a catalogue key or snake_case word, raw context, a bare section mark
RAW = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|rel:|ctx|None|\{|\}|§")
ENGINE = Path(__file__).resolve().parent.parent / "fandonia_env" / "engine"


def engine_kinds() -> set[str]:
    """Every decision kind the engine's source asks (``ask(player, "kind", ...)``)."""
    kinds = set()
    for f in ENGINE.rglob("*.py"):
        kinds |= set(re.findall(r"\bask\(\s*[\w.()\[\]]+,\s*\"(\w+)\"", f.read_text()))
    return kinds


def check_plain(view: dict, where: str) -> str:
    """Check the seat's decision words; return its kind."""
    dw = wording.decision_words(view)
    assert dw is not None
    kind = dw["kind"]
    p = dw["prompt"]
    assert p and not RAW.search(p), (where, kind, p)
    assert p.lower().rstrip("?.") not in (kind, kind.replace("_", " ")), (where, kind, p)  # not the raw kind
    assert p[-1] in "?." and len(p.split()) >= 3, (where, kind, p)  # a sentence
    assert [o["id"] for o in dw["options"]] == view["decision"]["options"]
    for o in dw["options"]:
        texts = [o["label"], o["detail"] or ""]
        if o["confirm"] is not None:
            texts += [o["confirm"]["title"], o["confirm"]["lose"]]
            assert o["confirm"]["odds"] is None or 0.0 <= o["confirm"]["odds"] <= 1.0
        for t in texts:
            assert not RAW.search(t), (where, kind, o["name"], t)
        assert o["label"]
        assert o["rule"] is None or o["rule"].startswith(("§", "ES §")), (kind, o["rule"])
    return kind


# ---------------------------------------------------------------------------
# Builder positions for the decisions random games seldom reach
# ---------------------------------------------------------------------------


def _favor() -> Game:
    """favor_farc -> favor_through_henchman -> favor_henchman."""
    pos = Position(players=3, seed=1)
    pos.char("alan", owner=0)
    pos.char("anne", owner=0)
    pos.henchman("21", 0)
    pos.henchman("22", 0)
    pos.turn_state(0)
    return pos.run("act_favor", p=0)


def _suicide_char() -> Game:
    pos = Position(players=3, seed=1)
    pos.char("21", owner=0, imprisoned=True, situation_turns=3)
    pos.char("25", owner=0, banished=True, location="cronos", situation_turns=3)  # 22 holds an office
    pos.turn_state(0)
    return pos.run("justice_suicide", p=0)


def _wedding_pair() -> Game:
    pos = Position(players=3, seed=1)
    for a, b in (("21", "61"), ("22", "62")):
        pos.char(a, owner=0)
        pos.char(b, owner=0)
        pos.state.wchar(a).engaged_to = b
        pos.state.wchar(b).engaged_to = a
    pos.player(0, pp=80, ip=20)
    pos.turn_state(0)
    return pos.run("wedding_start", p=0)


def _farc_pardon() -> Game:
    pos = Position(players=3, seed=1)
    crown_farc(pos, 0, "john")
    pos.char("35", owner=0, banished=True, wrongdoer=True, location="epalin", situation_turns=2)
    pos.char("36", owner=0, banned=True)
    pos.turn_state(0)
    return pos.run("farc_pardon_start", p=0)


def _pardon() -> Game:
    pos = Position(players=3, seed=1)
    pos.give(0, "pardon")
    pos.char("21", owner=0, imprisoned=True)
    pos.char("25", owner=1, banished=True, location="cronos", wrongdoer=True)
    pos.turn_state(0)
    return pos.run("justice_pardon", p=0)


def _escape() -> Game:
    """escape_target -> escape_card."""
    pos = Position(players=3, seed=1)
    pos.give(0, "escape", "intrigue")
    pos.char("21", owner=0, imprisoned=True, wrongdoer=True)
    pos.char("25", owner=0, imprisoned=True, wrongdoer=True)
    pos.turn_state(0)
    return pos.run("justice_escape", p=0)


def _extradition() -> Game:
    """Errata: extradite_target -> extradite_intrigue -> (no Intrigue) extradition_veto."""
    pos = justice_position(3, plain=("42", "35", "25"), edition="errata",
                           vacant=("minister_of_justice", "amb_sandarkan", "amb_epalin", "amb_cronos",
                                   "amb_city_states", "amb_besyzan"))
    pos.turn_state(1)
    pos.give(1, "extradition", "intrigue")
    for cid in ("35", "42"):
        pos.char(cid, owner=2, wrongdoer=True, hiding=False, location="cronos")
        pos.state.misc.setdefault("justice_fate", {})[cid] = "hearing"
    pos.char("25", owner=0)
    pos.office("amb_cronos", "25")  # player 0's FAC is the Ambassador there: he may veto
    return pos.run("justice_extradite", p=1)


def _dissolve() -> Game:
    """Errata: dissolve_government -> dissolve_office -> dissolve_char."""
    pos = Position(players=3, seed=1, edition="errata")
    crown_farc(pos, 0, "john")
    pos.state.reign["since"] = pos.state.turn - 1
    return pos.run("dissolve_offer")


def _asked(kind: str, options: list[int], ctx: dict, **config) -> Game:
    """A position whose next step is this decision (as the engine's effect would schedule it)."""
    pos = Position(players=3, seed=1, **config)
    pos.henchman("21", 0)
    pos.henchman("22", 0)
    st = pos.state
    seq(st, ask(0, kind, options, "court_ball_ban_choice", ctx, p=0), ("builder_halt", {}), ("end_of_turn", {}))
    run_machine(st)
    return Game.from_state(st, advance=False)


def _court_ball_ban() -> Game:
    return _asked("court_ball_ban", [char_action("21"), char_action("22")], {"table": "court_ball"})


def _court_ball_designate() -> Game:
    return _asked("court_ball_designate", [char_action("21"), char_action("22")],
                  {"table": "court_ball", "result": "duel"})


def _marriage_spouse() -> Game:
    """The PC's spouse at his side when he picks a Prestige table of the marriage rule (D97): bring her along?"""
    pos = Position(players=3, seed=1, preset="errata-all-optional")  # PCs 44, 21, 14 there
    st = pos.state
    pos.char("61", owner=0, spouse="44", location=st.chars["44"].location)
    st.wchar("44").spouse = "61"
    pos.player(0, ip=10)
    pos.turn_state(0)
    g = pos.run("prestige_start", p=0)
    g.apply(next(o for o in g.decision()["options"] if NAME[o] == "prestige_fashion"))
    return g


def _prestige_designate() -> Game:
    return _asked("prestige_designate", [char_action("56"), char_action("21")],
                  {"result": "scandal", "rule": "§17.2.5", "why": "Prestige Table"})


def _assassinate() -> Game:
    """assassination_target -> intrigue_grant -> assassination_card (1981: an Intrigue card may stand
    for either)."""
    pos = Position(players=3, seed=1)
    pos.give(0, "assassination", "intrigue")
    pos.turn_state(0, intrigue=1)
    return pos.run("justice_assassinate", p=0)


def _fill_office() -> Game:
    """fill_office_office -> fill_office_char (§13.4.2)."""
    pos = Position(players=3, seed=1)
    st = pos.state
    for cid in ("41", "42"):
        pos.char(cid, owner=0)
        if st.chars[cid].office:
            pos.office(st.chars[cid].office, None)
        st.wchar(cid).location = "fandonia"
    pos.office("minister_of_trade", None).player(0, ip=10, pp=40).turn_state(0)
    return pos.run("fill_office_start", p=0)


def _hand_limit() -> Game:
    """Thirteen cards of several types at the end of the Player Turn (§14.2.1)."""
    pos = Position(players=3, seed=1)
    pos.turn_state(0)
    pos.give(0, "henchman", "henchman", "henchman")
    return pos.run("end_player_turn", p=0)


def _halt() -> Game:
    return Position(players=3, seed=1).run("check_draw")


#: builder positions for the decisions random games seldom reach: the kinds met on the way, in order
#: (each step answers yes, or takes the last option); the last four since issue 45, when the random
#: games no longer happened to meet those kinds
POSITIONS = {
    "favor": (_favor, ["favor_farc", "favor_through_henchman", "favor_henchman"]),
    "suicide": (_suicide_char, ["suicide_char"]),
    "wedding": (_wedding_pair, ["wedding_pair", "wedding_attend"]),
    "farc_pardon": (_farc_pardon, ["farc_pardon"]),
    "pardon": (_pardon, ["pardon_target"]),
    "escape": (_escape, ["escape_target", "escape_card"]),
    "extradition": (_extradition, ["extradite_target", "extradite_intrigue", "extradition_veto"]),
    "dissolve": (_dissolve, ["dissolve_government", "dissolve_office", "dissolve_char"]),
    "court_ball_ban": (_court_ball_ban, ["court_ball_ban"]),
    "court_ball_designate": (_court_ball_designate, ["court_ball_designate"]),
    "marriage_spouse": (_marriage_spouse, ["marriage_spouse"]),
    "prestige_designate": (_prestige_designate, ["prestige_designate"]),
    "assassinate": (_assassinate, ["assassination_target", "intrigue_grant", "assassination_card"]),
    "fill_office": (_fill_office, ["fill_office_office", "fill_office_char"]),
    "hand_limit": (_hand_limit, ["hand_limit_discard"]),
    "halt": (_halt, ["halt"]),
}


def walk(name: str) -> list[str]:
    """Play a builder position through its decisions, checking the words of each; the kinds met."""
    build, kinds = POSITIONS[name]
    g = build()
    met = []
    for k in kinds:
        d = g.decision()
        assert d is not None and d["kind"] == k, (name, k, d)
        assert Game.from_json(g.to_json()).decision() == d, f"{name}: a position a saved game cannot hold"
        met.append(check_plain(g.view(d["player"], log=False), name))
        if k != kinds[-1]:  # on: yes (without Intrigue, to reach the veto), else the last option
            g.apply(NO if k == "extradite_intrigue" else YES if YES in d["options"] else d["options"][-1])
    return met


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_wording_builder_positions_reach_the_rare_decisions(name):
    assert walk(name) == POSITIONS[name][1]


# ---------------------------------------------------------------------------
# Every decision met in random games, both editions, the optional rules, 2-6 players
# ---------------------------------------------------------------------------


def test_wording_every_engine_decision_kind_has_a_prompt():
    kinds = engine_kinds()
    assert {"turn_main", "usurp_support", "card_window", "pp_limit_lose"} <= kinds  # the scan reads the engine
    assert kinds <= set(wording.PROMPTS), sorted(kinds - set(wording.PROMPTS))
    assert set(DECISION_KINDS) - {"other"} <= set(wording.PROMPTS)


def test_wording_plain_prompts_and_labels_for_every_decision_of_random_games_and_positions():
    met: set[str] = set()
    for edition in ("1981", "errata"):
        for n in range(2, 7):
            for s in range(3):
                g = Game(players=n, seed=700 + 10 * n + s, preset=f"{edition}-all-optional", max_turns=30)
                rng = random.Random(s)
                steps = 0
                while not g.over and steps < 2500:
                    p = g.current_player()
                    met.add(check_plain(g.view(p, log=False), f"{edition} {n}p seed {s} step {steps}"))
                    g.apply(rng.choice(g.legal_actions()))
                    steps += 1
    for name in POSITIONS:
        met |= set(walk(name))
    missing = (engine_kinds() | set(DECISION_KINDS) - {"other"}) - met
    assert not missing, f"decision kinds never met (add a builder position): {sorted(missing)}"


# ---------------------------------------------------------------------------
# Confirmations of fatal and risky choices
# ---------------------------------------------------------------------------


def _usurp_position() -> Game:
    pos = Position(players=3, seed=1)
    pos.char("alan", owner=0)
    pos.char("anne", owner=0)
    pos.give(0, "peasant_support", "army_support")
    pos.turn_state(0)
    return pos.run("turn_main", p=0)


def test_wording_usurpation_confirm_carries_the_rule_queries_odds():
    g = _usurp_position()
    v = g.view(0, log=False)
    dw = wording.decision_words(v)
    assert dw["kind"] == "turn_main"
    usurp = next(o for o in dw["options"] if o["name"] == "free_usurp")
    cid, odds = best_usurpation(v, 0)
    assert usurp["confirm"]["odds"] == round(odds, 4)
    assert "PC dies" in usurp["confirm"]["lose"] and "Support card" in usurp["confirm"]["lose"]
    assert "King George" in usurp["confirm"]["title"]
    assert usurp["rule"] == "§36.1"
    g.apply(ID["free_usurp"])
    v = g.view(0, log=False)
    dw = wording.decision_words(v)
    assert dw["kind"] == "usurp_farc"
    for o in dw["options"]:
        c = o["name"][5:]
        assert o["confirm"]["odds"] == round(usurpation_chance(v, 0, c), 4)
        assert o["label"].startswith("Usurp the throne with ")
    g.apply(char_action("anne"))
    g.apply(ID["play_peasant_support"])  # one card played, the other kept
    v = g.view(0, log=False)
    dw = wording.decision_words(v)
    assert dw["kind"] == "usurp_support" and "Princess Anne" in dw["prompt"]
    roll = next(o for o in dw["options"] if o["name"] == "pass")
    assert roll["confirm"]["odds"] == round(usurpation_chance(v, 0, "anne", with_hand=False), 4)
    assert "Princess Anne is killed too" in roll["confirm"]["lose"]


def test_wording_risky_tables_ask_for_confirmation_and_safe_ones_do_not():
    pos = Position(players=3, seed=1)
    pos.player(0, ip=10)
    pos.turn_state(0)
    g = pos.run("prestige_start", p=0)
    dw = wording.decision_words(g.view(0, log=False))
    by = {o["name"]: o for o in dw["options"]}
    assert by["prestige_literary"]["confirm"] is None  # no row of Literary Pursuits brings a duel or justice
    gamble = by["prestige_gambling"]["confirm"]
    assert gamble is not None and "duel" in gamble["lose"] and "%" in gamble["lose"]
    assert wording.prestige_risk("carousing", 0) > wording.prestige_risk("carousing", 2) > 0
    assert wording.prestige_risk("gambling", 0) == pytest.approx(3 / 36)  # rows 2 and 3
    assert wording.assassination_odds() == pytest.approx(10 / 36)  # 9 or more on two dice


# ---------------------------------------------------------------------------
# The race, the faction, recent events, help
# ---------------------------------------------------------------------------


def test_wording_race_shows_the_reign_countdown_claims_and_public_odds():
    pos = Position(players=3, seed=1)
    crown_farc(pos, 1, "alan")
    pos.state.turn = 4
    pos.state.reign["since"] = 3
    pos.char("anne", owner=2)
    pos.give(2, "peasant_support")
    g = Game.from_state(pos.state, advance=False)
    v = player_view(g.state, 0, log=False)
    r = wording.race(v)
    assert r["goal"] == wording.GOAL and "three full turns" in r["goal"]
    assert r["leader"] == 1
    p1 = r["players"][1]
    assert p1["countdown"] == 2 and "wins at the end of turn 6" in p1["claim"]
    assert "Player 1" in r["lead_text"] and "2 more turns" in r["lead_text"]
    p2 = r["players"][2]
    assert "Princess Anne" in p2["claim"] and "1st in line" in p2["claim"]
    # another seat's odds count only what is public (its hand is not known to seat 0)
    assert p2["odds"] == round(best_usurpation(v, 2, with_hand=False)[1], 4)
    mine = player_view(g.state, 2, log=False)
    assert wording.race(mine)["players"][2]["odds"] == round(best_usurpation(mine, 2, with_hand=True)[1], 4)
    assert r["players"][1]["odds"] is None  # his own royal reigns: nothing to usurp
    for p in r["players"]:
        assert p["status"] == sum(v["status"][c] for c, x in v["chars"].items() if x["owner"] == p["seat"]
                                  and not x["dead"])
        assert not RAW.search(p["claim"]) and not RAW.search(p["name"])
    assert not RAW.search(r["lead_text"])


def test_wording_faction_lists_the_seats_own_characters_pc_first():
    pos = Position(players=3, seed=1)
    pos.char("42", owner=0, titles=1, spouse="61")
    pos.char("61", owner=0, spouse="42", imprisoned=True)
    pos.char("alan", owner=0)
    pos.office("high_minister", "42")
    g = Game.from_state(pos.state, advance=False)
    f = wording.faction(g.view(0, log=False))
    assert f[0]["cid"] == g.state.players[0].pc and "your player character" in f[0]["situation"]
    by = {x["cid"]: x for x in f}
    assert set(by) == {c for c, x in g.state.chars.items() if x.owner == 0}
    assert by["42"]["office"] == "High Minister" and by["42"]["spouse"] == "Lady Victoria"
    assert by["42"]["titles"] == "Duke" and by["42"]["name"] == "Duke Roland"  # already at the top
    assert "imprisoned" in by["61"]["situation"] and "royal ally" in by["alan"]["situation"]
    assert by["alan"]["titles"] is None


def test_wording_recent_turns_log_lines_into_plain_sentences():
    lines = ["=== Turn 3 ===", "--- Player 1's turn ---", "Player 1 performs the activity: Travel.",
             "First player rolls: player 0 31, player 1 52.",
             "Royal Favor Table: rolled 10 (4+6) = 10.",
             "Player 1 attempts to usurp the throne of King George with Thomas (the Pretender) (§36).",
             "player 0 loses 5 PP (PC's death, half rounded down).",
             "Player 2 discards an Event card (§31.5).", "Player 2 discards an Event card (§31.5)."]
    v = {"me": 0}
    out = wording.recent(lines, v)
    assert out == ["Player 1 performs the activity: Travel.",
                   "Player 1 attempts to usurp the throne of King George with Thomas (the Pretender).",
                   "Player 0 (you) loses 5 PP (PC's death, half rounded down).",
                   "Player 2 discards an Event card. (x2)"]
    many = [f"Player 1 draws a Loyalty counter number {i}." for i in range(20)] + ["Sir Drew dies (duel)."]
    short = wording.recent(many, v, limit=5)
    # ranked (issue 43): the death first, then the latest lesser lines, then how many are folded
    assert len(short) == 6 and short[0] == "Sir Drew dies (duel)." and short[1:5] == many[16:20]
    assert short[-1] == "16 lesser events are folded (see the log)."


def test_wording_help_explains_every_card_office_and_the_terms_in_plain_words():
    h = wording.HELP
    assert set(h) == {"cards", "counters", "offices", "titles", "terms", "basics"}
    assert {t.name for t in C.CARD_TYPES.values()} <= set(h["cards"])
    assert {o.name for o in C.OFFICES.values()} == set(h["offices"])
    assert {"Any Activity", "Gout", "Loyalty counter"} <= set(h["counters"])
    assert {"PC", "FARC", "IP", "PP", "Usurpation"} <= set(h["terms"])
    for group in (h[k] for k in h if k != "basics"):
        for k, text in group.items():
            assert text and not RAW.search(text), (k, text)


def test_wording_fields_unchanged_when_other_seats_hidden_information_changes():
    """Built from the seat's view only: resampling every card and counter the seat cannot see changes
    none of its words."""
    for n in (3, 5):
        g = Game(players=n, seed=40 + n, max_turns=6, preset="1981-all-optional")
        rng = random.Random(n)
        for step in range(300):
            if g.over:
                break
            if step % 7 == 0:
                for i in range(n):
                    other = resample(g.state, i, rng)
                    a, b = player_view(g.state, i, log=False), player_view(other, i, log=False)
                    lines = [e["t"] for e in g.state.log[-40:] if e["to"] in (None, i)]
                    assert wording.seat_words(a, lines) == wording.seat_words(b, lines)
                    assert wording.decision_words(a) == wording.decision_words(b)
            g.apply(rng.choice(g.legal_actions()))
