"""Consequences before the click (issue 43): the engine's ``preview`` of every option of a seat's decision
(``fandonia_env/engine/face/preview.py``) and its plain words (``fandonia_env/words/preview.py``).

Builder positions for the features the issue names (a title's cost, an office abroad, the PP limit and the
character to give up, free actions, a roll's exact chances, a confirmation before losing a character), the
resample test (a preview never depends on what the seat cannot see), and previews against outcomes over a
few whole games (``scripts/preview_check.py`` runs the same check over twenty and more)."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from fandonia_env import words as wording
from fandonia_env.engine import Game
from fandonia_env.engine.core.actions import ID, NAME
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.hidden import resample
from fandonia_env.engine.face.preview import facts, outcome, play_out, preview
from fandonia_env.engine.rules.queries import pp_required

RAW = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|§")


def words_of(g: Game, seat: int = 0) -> dict:
    """The seat's decision in plain words, with the preview."""
    dw = wording.decision_words(g.view(seat, log=False), preview=preview(g.state, seat, worlds=8))
    assert dw is not None
    for o in dw["options"]:
        pw = o["preview"]
        confirm = [o["confirm"]["title"], o["confirm"]["lose"]] if o["confirm"] else []
        text = " ".join([*pw["certain"], *pw["chances"], pw["then"] or "", pw["cost"] or "", *confirm])
        assert not RAW.search(text), (o["name"], text)
    return dw


def claims_hold(g: Game, seat: int, action: int, rec: dict, seed: int = 0) -> None:
    """Every certain effect of the preview is among what the choice does in the true game."""
    s = g.state.clone()
    before = facts(s, seat)
    after, _ = play_out(s, action, random.Random(seed))
    actual = [list(e) for e in outcome(before, facts(after, seat))]
    actual = [[list(x) if isinstance(x, tuple) else x for x in e] for e in actual]
    for e in rec["certain"]:
        assert e in actual, (NAME[action], e, actual)


def _title_position(tight: bool) -> Game:
    pos = Position(players=3, seed=1)
    pos.char("21", owner=0)
    pos.char("22", owner=0)
    need = pp_required(pos.state, 0)
    pos.player(0, ip=20, pp=need if tight else need + 10)
    pos.turn_state(0)
    return pos.run("act_title", p=0)


def test_preview_title_purchase_shows_its_ip_cost_and_the_status_it_raises():
    g = _title_position(tight=False)
    assert g.decision()["kind"] == "title_character"
    pv = preview(g.state, 0, worlds=8)
    assert set(pv) == set(g.decision()["options"])
    for a, rec in pv.items():
        cid = NAME[a][5:]
        kinds = {e[0]: e for e in rec["certain"]}
        assert kinds["ip"][1] < 0, rec  # the price, for certain
        assert kinds["titles"] == ["titles", cid, 0, 1]
        assert kinds["status"][1] == cid and kinds["status"][3] == kinds["status"][2] + 1
        assert rec["chances"] == [] and rec["odds"] is None and not any(rec["worst"].values())
        claims_hold(g, 0, a, rec)
    o = words_of(g)["options"][0]
    assert o["preview"]["cost"].endswith("IP") and any("Status goes from" in s for s in o["preview"]["certain"])
    assert o["confirm"] is None


def test_preview_pp_over_limit_names_the_characters_to_give_up_and_confirms():
    g = _title_position(tight=True)
    pv = preview(g.state, 0, worlds=8)
    noble = pv[ID["char_21"]]
    assert ["give_up", ["21", "22"]] in noble["certain"]
    assert noble["worst"]["loses_character"] and not noble["worst"]["loses_royal"]
    claims_hold(g, 0, ID["char_21"], noble)
    dw = words_of(g)
    o = next(o for o in dw["options"] if o["name"] == "char_21")
    assert any("you must give up at once one of" in s for s in o["preview"]["certain"]), o["preview"]
    assert o["confirm"] is not None and o["confirm"]["odds"] == 0.0 and "a character" in o["confirm"]["lose"]


def test_preview_office_abroad_moves_the_character_and_costs_ip():
    pos = Position(players=3, seed=1)
    for cid in ("41", "42"):
        pos.char(cid, owner=0)
        if pos.state.chars[cid].office:
            pos.office(pos.state.chars[cid].office, None)
        pos.state.wchar(cid).location = "fandonia"
    pos.office("amb_cronos", None).player(0, ip=10, pp=40).turn_state(0)
    g = pos.run("fill_office_start", p=0)
    g.apply(ID["office_amb_cronos"])
    assert g.decision()["kind"] == "fill_office_char"
    pv = preview(g.state, 0, worlds=8)
    rec = pv[ID["char_41"]]
    assert ["office", "41", None, "amb_cronos"] in rec["certain"]
    assert ["place", "41", "fandonia", "cronos"] in rec["certain"]
    claims_hold(g, 0, ID["char_41"], rec)
    o = next(o for o in words_of(g)["options"] if o["name"] == "char_41")
    assert any("goes abroad to Cronos" in s for s in o["preview"]["certain"]), o["preview"]


def test_preview_travel_abroad_of_the_pc_halves_his_gains():
    pos = Position(players=3, seed=1)
    pos.turn_state(0)
    g = pos.run("act_travel", p=0)
    pc = g.state.players[0].pc
    while g.decision()["kind"] == "travel_character":
        g.apply(ID["char_" + pc])
    assert g.decision()["kind"] == "travel_destination"
    pv = preview(g.state, 0, worlds=8)
    for a, rec in pv.items():
        assert ["halved", True] in rec["certain"], rec
        assert any(e[0] == "place" and e[1] == pc and e[3] != "fandonia" for e in rec["certain"])
        claims_hold(g, 0, a, rec)
    o = words_of(g)["options"][0]
    assert any("halved" in s for s in o["preview"]["certain"])


def test_preview_free_actions_are_marked_free_and_activities_are_not():
    pos = Position(players=3, seed=1)
    pos.player(0, ip=30, pp=30)
    pos.turn_state(0)
    g = pos.run("turn_main", p=0)
    d = g.decision()
    assert d["kind"] == "turn_main"
    pv = preview(g.state, 0, worlds=8)
    names = {NAME[a]: rec for a, rec in pv.items()}
    assert names["pass"]["free"] is None  # ending the turn (here: the builder's halt) is neither
    assert names["free_buy_pp"]["free"] is True
    assert ["pp", 1] in names["free_buy_pp"]["certain"] and any(e[0] == "ip" for e in names["free_buy_pp"]["certain"])
    acts = [n for n in names if n.startswith("act_")]
    assert acts and all(names[n]["free"] is False and ["activities", -1] in names[n]["certain"] for n in acts)
    dw = words_of(g)
    free = next(o for o in dw["options"] if o["name"] == "free_buy_pp")
    assert free["preview"]["free"] is True and free["preview"]["cost"].startswith("free")
    act = next(o for o in dw["options"] if o["name"] == acts[0])
    assert act["preview"]["free"] is False and act["preview"]["cost"].startswith("1 activity")
    for a, rec in pv.items():
        claims_hold(g, 0, a, rec)


def test_preview_roll_on_a_prestige_table_gives_exact_chances():
    pos = Position(players=3, seed=1)
    pos.player(0, ip=10, pp=30)
    pos.turn_state(0)
    g = pos.run("prestige_start", p=0)
    assert g.decision()["kind"] == "prestige_table"
    pv = preview(g.state, 0, worlds=8)
    exact = [rec for rec in pv.values() if rec["odds"] == "exact"]
    assert exact, pv
    for rec in exact:
        assert abs(sum(c["p"] for c in rec["chances"]) - 1) < 1e-3
        for c in rec["chances"]:  # a sum of 2d6: multiples of 1/36
            assert abs(c["p"] * 36 - round(c["p"] * 36)) < 0.01, c
    o = next(o for o in words_of(g)["options"] if pv[o["id"]]["odds"] == "exact")
    assert o["preview"]["odds"] == "exact" and o["preview"]["chances"] and "%" in o["preview"]["chances"][0]


def test_preview_confirms_before_giving_up_a_character():
    g = _title_position(tight=True)
    g.apply(ID["char_21"])
    d = g.decision()
    assert d["kind"] == "pp_limit_lose"
    dw = words_of(g)
    for o in dw["options"]:
        assert o["preview"]["confirm"] is not None and o["confirm"] is not None
        assert any("leaves your faction" in s or "dies" in s for s in o["preview"]["certain"]), o["preview"]


@pytest.mark.parametrize("preset,players,seed", [("1981", 3, 2), ("errata", 4, 5)])
def test_preview_resample_other_hands_give_the_same_preview(preset, players, seed):
    """A preview for seat s is the same when everything s cannot see is redealt consistently with its view."""
    g = Game(players=players, seed=seed, preset=preset, max_turns=4)
    rng = random.Random(seed)
    checked = 0
    while not g.over and checked < 25:
        d = g.decision()
        p = d["player"]
        if len(d["options"]) > 2 or rng.random() < 0.3:
            want = preview(g.state, p, worlds=6, seed=7)
            for k in range(2):
                other = resample(g.state, p, random.Random(100 * k + checked))
                assert preview(other, p, worlds=6, seed=7) == want, d["kind"]
            checked += 1
        g.apply(rng.choice(d["options"]))
    assert checked >= 10


@pytest.mark.parametrize("preset,players,seed", [("1981", 2, 11), ("errata-all-optional", 5, 12)])
def test_preview_claims_match_outcomes_over_whole_games(preset, players, seed):
    """Whole (short) games: every option of every decision has a preview, and the certain effects claimed
    for the option taken are what it does in the true game."""
    g = Game(players=players, seed=seed, preset=preset, max_turns=5)
    rng = random.Random(seed)
    kinds = set()
    while not g.over:
        d = g.decision()
        p = d["player"]
        pv = preview(g.state, p, worlds=6, seed=g.state.steps)
        assert set(pv) == set(d["options"]), d["kind"]
        a = rng.choice(d["options"])
        claims_hold(g, p, a, pv[a], seed=g.state.steps)
        kinds.add(d["kind"])
        g.apply(a)
    assert len(kinds) >= 8


def test_preview_is_empty_for_a_seat_without_a_decision_and_plain_json():
    import json

    g = Game(players=3, seed=0)
    p = g.current_player()
    assert preview(g.state, (p + 1) % 3) == {}
    pv = preview(g.state, p, worlds=4)
    assert json.loads(json.dumps({str(k): v for k, v in pv.items()}))
    for rec in pv.values():
        assert set(rec) == {"free", "certain", "chances", "odds", "worst", "then", "paid"}
        assert set(rec["worst"]) == {"loses_character", "loses_royal", "loses_half_points"}
        total = sum(Fraction(c["p"]).limit_denominator(1000) for c in rec["chances"])
        assert not rec["chances"] or abs(total - 1) < Fraction(1, 100)
