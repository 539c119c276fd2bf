"""Issue 43 (a newcomer's findings), at the level of the words: "what just happened" ranked by what matters to
the seat, an honest race for the throne (what the seat cannot see is said, never a certainty it does not have),
the terms and pronouns. Each test's docstring names the defect it pins; the pages' side is in
tests/test_page_newcomer.py."""

from __future__ import annotations

import re

from helpers import crown_farc

from fandonia_env import words as wording
from fandonia_env.engine import Game
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import player_view
from fandonia_env.serve.workers import public_view

CERTAIN_NO = re.compile(r"[Nn]obody could take the throne|every usurpation would fail|no usurpation can succeed")
FILLER = [f"Player {1 + i % 2} draws an Event card and rolls on the Literary Pursuits table ({i})." for i in range(14)]
# what the newcomer saw filed among the "lesser events" (issue 43, item 3)
GRAVE = ["King George dies (royal_death); the card is removed from the game (§31.2).",
         "Royal Succession: Prince Alan succeeds King George to the throne (§9.2).",
         "All players are in mourning: the turn ends; next turn's Crown Events result is automatically "
         "'Court Ball' (§9.4)."]
MINE = ["Princess Anne leaves player 0's faction and becomes a NRC.",
        "player 0 loses 3 PP (wedding)."]


def _fresh(players: int = 3) -> Game:
    return Game.from_state(Position(players=players, seed=1).state, advance=False)


def test_race_never_says_no_usurpation_can_succeed_while_others_hold_hidden_cards():
    """Defect: the race said "Nobody could take the throne now: every usurpation would fail" right before
    three successful usurpations (it cannot see the Support cards in other hands and did not say so)."""
    g = _fresh()
    assert all(p.hand for p in g.state.players)
    for v, who in ((player_view(g.state, 0, log=False), "seat"), (public_view(g.state, log=False), "public")):
        r = wording.race(v, public=who == "public")
        assert not CERTAIN_NO.search(r["lead_text"]), (who, r["lead_text"])
        assert "cannot see" in r["lead_text"] or "hidden" in r["lead_text"], r["lead_text"]
        assert r["unknown"] and "cards" in r["unknown"]
        others = [p for p in r["players"] if who == "public" or p["seat"] != 0]
        for p in others:  # who could try on their turn, and how strong with Support cards from the hidden hand
            assert p["hidden_cards"] == 10
            assert p["odds_if_support"] is not None and p["odds_if_support"] >= p["odds"], p
            assert "cards you cannot see" in p["claim"], p["claim"]
    # under a weaker Monarch, the hidden cards make the difference, and the race says by how much
    pos = Position(players=3, seed=1)
    crown_farc(pos, 1, "anne")
    g = Game.from_state(pos.state, advance=False)
    r = wording.race(player_view(g.state, 0, log=False))
    p2 = r["players"][2]
    assert p2["odds_if_support"] > p2["odds"] and "if they were all Support cards" in p2["claim"]
    assert not CERTAIN_NO.search(r["lead_text"]) and "cannot see" in r["lead_text"]


def test_race_names_no_strongest_player_it_cannot_know():
    """Defect: the race twice named another player as the strongest, though it cannot see the Support cards
    in other hands: it now says what it counts (Status on the table) and what it cannot see."""
    g = _fresh()
    r = wording.race(player_view(g.state, 1, log=False))
    assert "strongest" not in r["lead_text"].lower()


def test_race_is_plain_when_every_hand_is_known():
    """With no card in another seat's hand, the race may say that no usurpation can succeed now (nothing is
    hidden); it says nothing of hidden cards then."""
    g = _fresh()
    for pl in g.state.players[1:]:
        pl.hand.clear()
    r = wording.race(player_view(g.state, 0, log=False))
    assert r["unknown"] is None and "cannot see" not in r["lead_text"]


def test_recent_puts_deaths_successions_turn_end_and_the_seats_losses_above_the_fold():
    """Defect: "what just happened" filed the King's death and the turn ending early, a royal leaving the
    seat's faction and the seat's own PP loss at a wedding among the "lesser events"."""
    lines = FILLER[:5] + [GRAVE[0]] + FILLER[5:8] + [MINE[0]] + [GRAVE[1], GRAVE[2]] + FILLER[8:] + [MINE[1]]
    v = {"me": 0}
    top, folded = wording.recent_split(lines, v)
    shown = " | ".join(top)
    for must in ("King George dies", "Prince Alan succeeds King George", "the turn ends",
                 "Princess Anne leaves your faction", "Player 0 (you) loses 3 PP"):
        assert must in shown, (must, top)
    assert len(top) <= wording.RECENT_MAX and len(top) + len(folded) == len(lines)
    assert all("Literary" in t for t in folded)
    # ranked: deaths and successions first, then the seat's own losses
    assert top[0].startswith("King George dies") and top.index(next(t for t in top if "your faction" in t)) > 2
    # recent(): the same lines above the fold, then one line that says how many are folded
    out = wording.recent(lines, v)
    assert out[:-1] == top and re.match(rf"{len(folded)} lesser events", out[-1])


def test_recent_keeps_a_short_list_whole_and_in_order():
    """Nothing folded when the lines fit: they stay in the order they happened."""
    lines = [FILLER[0], GRAVE[0], FILLER[1]]
    assert wording.recent(lines, {"me": 0}) == [wording.clean(x) for x in lines]


def test_pronouns_follow_the_character():
    """Defect: female characters got "his" (the race's claim, the PC's heir, details of options)."""
    from fandonia_env.words.names import his

    assert his("61") == "her" and his("anne") == "her" and his("42") == "his" and his("alan") == "his"
    pos = Position(players=3, seed=1)
    crown_farc(pos, 1, "anne")
    g = Game.from_state(pos.state, advance=False)
    claim = wording.race(player_view(g.state, 0, log=False))["players"][1]["claim"]
    assert "Princess Anne" in claim and " his " not in f" {claim} "
    assert "his heir" not in wording.HELP["terms"]["PC"] and "If he dies" not in wording.HELP["terms"]["PC"]


def test_glossary_lists_the_opportunity_counter_kinds_where_it_says_so():
    """Defect: the hand panel said "the kinds are listed below" with nothing below."""
    text = wording.HELP["counters"]["Opportunity counter"]
    assert "below" not in text
    for kind in ("Any Activity", "Extra Activity", "Intrigue", "Scandal", "Favor", "Duel", "Gout"):
        assert kind in text


def test_how_to_win_and_terms_are_given_in_plain_text():
    """Defect: PP, IP and Status were explained only in hover titles, "Thomas (the Pretender)" nowhere: the
    words have a short "how to win" and the terms the race uses, for the page to show as text."""
    basics = wording.BASICS
    assert "three full turns" in basics["how_to_win"]
    terms = dict(basics["terms"])
    for t in ("PP", "IP", "Status", "Faction", "Thomas (the Pretender)"):
        assert t in terms and len(terms[t]) > 20, t
    assert "line of succession" in terms["Thomas (the Pretender)"]


def _duel_view() -> dict:
    """A seat's view at a duel_fighter decision, from a random short game (seed 10 meets one early)."""
    import random

    g = Game(players=3, seed=10, max_turns=8, preset="short-game")
    rng = random.Random(10)
    while not g.over:
        v = g.view(g.current_player(), log=False)
        if v.get("decision") and v["decision"]["kind"] == "duel_fighter":
            return v
        g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no duel met")


def test_duel_confirmation_gives_the_chance_its_option_shows():
    """Defect: the duel dialog said "not known in advance" while its buttons said 33% / 83%: the confirmation
    now carries the same chance in words (``confirm.chance``), and the page shows it."""
    v = _duel_view()
    fights = [o for o in wording.decision_words(v)["options"] if o["confirm"]]
    assert fights
    for o in fights:
        pct_shown = re.search(r"\((\d+%)\)", o["detail"]).group(1)
        assert pct_shown in o["confirm"]["chance"], (o["detail"], o["confirm"])
