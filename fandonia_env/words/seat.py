"""Around the seat's decision: who is closest to the throne (``race``), the seat's own faction
(``faction``), what happened since its previous decision (``recent``) and all of it at once
(``seat_words``).

Part of ``fandonia_env.words`` (``fandonia_env.wording`` re-exports the public names).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any, Final

from ..engine.data import components as C
from ..engine.rules.rule_queries import (
    PartsMemo,
    best_usurpation,
    success_chance,
    usurpation_parts,
    usurpers,
)
from .names import char_name, clean, office_name, ordinal, pct, situation_of, title_of

#: what the module offers the rest of the package (``fandonia_env.words`` re-exports it)
__all__ = [
    "ASSUMED_SUPPORT", "GOAL", "MAX_ASSUMED", "RECENT_MAX", "VICTORY_TURNS", "faction", "race", "recent", "recent_split",
    "seat_words"
]

# ---------------------------------------------------------------------------
# The race for the throne
# ---------------------------------------------------------------------------

#: §37: a usurping FARC must reign this many full turns after the turn he took the throne.
VICTORY_TURNS: Final = 3

GOAL: Final = ("Put one of your royal allies on the throne and keep the throne: seize the crown from the "
               "Monarch (a usurpation), then hold it for three full turns after the turn you took it. "
               "If no royal who could still inherit the throne is left alive, the game is a draw.")


def _line(view: dict[str, Any]) -> list[str]:
    """The living royals who could inherit, in order (the Monarch left out)."""
    return [r for r in C.SUCCESSION if not view["chars"][r]["dead"] and r != view.get("monarch")]


def _claim(view: dict[str, Any], q: int, line: list[str]) -> str:
    chars = view["chars"]
    bits: list[str] = []
    r = view.get("reign") or {}
    mon = view.get("monarch")
    if r and r.get("player") == q and r.get("cid") == mon:
        end = int(r["since"]) + VICTORY_TURNS
        bits.append(f"reigning with {char_name(mon)} since turn {r['since']}: wins at the end of turn {end}")
    elif mon is not None and chars[mon]["owner"] == q:
        bits.append(f"{char_name(mon)} is Monarch and {'your' if q == view.get('me') else 'their'} ally")
    pc = view["players"][q]["pc"]
    if chars[pc]["dead"]:
        bits.append("PC dead (an heir will come)")
    royals = [cid for cid in C.ROYALS if chars[cid]["owner"] == q and not chars[cid]["dead"] and cid != mon]
    for cid in royals:
        where = f"{ordinal(line.index(cid) + 1)} in line" if cid in line else "not in the line of succession"
        bits.append(f"ally of {char_name(cid)} ({where})")
    if not royals and not (mon is not None and chars[mon]["owner"] == q):
        cands = usurpers(view, q)
        bits.append("no royal ally: could usurp with Thomas (the Pretender)" if cands == ["thomas"]
                    else "no royal ally")
    return "; ".join(bits)


#: the multiplier of an ordinary Support card (1d x 3): the race supposes every card of another seat's hidden
#: hand could be one (at most ``MAX_ASSUMED`` of them)
ASSUMED_SUPPORT: Final = 3
MAX_ASSUMED: Final = 10


def _odds_if_support(v: dict[str, Any], q: int, hidden: int) -> float | None:
    """Player q's best chance to usurp with the Support cards in front of him and every card of his hidden
    hand (``hidden`` cards) an ordinary Support card (``ASSUMED_SUPPORT``), or None when he may not usurp (or
    no Monarch reigns)."""
    cands = usurpers(v, q)
    if v.get("monarch") is None or not cands or hidden <= 0:
        return None
    extra = (ASSUMED_SUPPORT,) * min(hidden, MAX_ASSUMED)
    memo = PartsMemo()
    best = 0.0
    for cid in cands:
        parts = usurpation_parts(v, q, cid, with_hand=False, memo=memo)
        more = dataclasses.replace(parts, usurper_cards=tuple(sorted(parts.usurper_cards + extra)))
        best = max(best, success_chance(more))
    return round(best, 4)


def race(view: dict[str, Any], public: bool = False) -> dict[str, Any]:
    """Who is closest to the throne, from this view (``public``: a spectator's public view; other seats'
    hands are never counted, only their Support cards already in front of them). ``unknown`` says what the
    view cannot see (the cards in other hands); each other seat's ``odds_if_support`` is its chance if every
    card of its hidden hand were an ordinary Support card (``ASSUMED_SUPPORT``)."""
    me = None if public else view.get("me")
    v = view if not public else {**view, "me": -1, "hand": []}
    line = _line(view)
    chars = view["chars"]
    mon = view.get("monarch")
    r = view.get("reign") or {}
    players = []
    for pl in view["players"]:
        q = int(pl["idx"])
        status = sum(int(view["status"][cid]) for cid, c in chars.items() if c["owner"] == q and not c["dead"])
        countdown = None
        if r and r.get("player") == q and r.get("cid") == mon:
            countdown = max(0, int(r["since"]) + VICTORY_TURNS - int(view["turn"]))
        odds = None
        if mon is not None and usurpers(v, q):
            odds = round(best_usurpation(v, q, with_hand=(q == me))[1], 4)
        hidden = 0 if q == me else int(pl.get("hand_size") or 0)
        claim = _claim(v, q, line)
        if_support = None if q == me else _odds_if_support(v, q, hidden)
        if if_support is not None:
            claim += (f"; holds {hidden} card{'s' if hidden != 1 else ''} you cannot see: if they were all "
                      f"Support cards, {pct(if_support)} to usurp")
        players.append({"seat": q, "name": ("You, " if q == me else "") + f"Player {q} ({char_name(pl['pc'])})",
                        "pp": int(pl["pp"]), "ip": int(pl["ip"]), "status": status, "claim": claim,
                        "countdown": countdown, "odds": odds, "hidden_cards": hidden, "odds_if_support": if_support})
    unknown = _unknown(view, players, me)
    leader, text = _leader(view, players, me)
    if unknown and not view.get("over"):
        text += " " + unknown
    return {"goal": GOAL, "leader": leader, "lead_text": text, "players": players, "unknown": unknown}


def _unknown(view: dict[str, Any], players: list[dict[str, Any]], me: int | None) -> str | None:
    """What the race cannot see, in a sentence: the cards in other hands (None when no other hand holds one)."""
    hidden = [p for p in players if p["hidden_cards"] > 0]
    if not hidden:
        return None
    could = [p for p in hidden if p["odds_if_support"] is not None]
    s = ("You cannot see the cards in other hands" if me is not None else
         "The cards in the players' hands are hidden") + ": these odds count only Support cards already played."
    if could and max(p["odds_if_support"] for p in could) == 0:
        s += " Even if every hidden card were an ordinary Support card, no attempt would succeed now (stronger ones could)."
    elif could:
        best = max(could, key=lambda p: p["odds_if_support"])
        n = best["hidden_cards"]
        s += (f" {_who(best['seat'], me)} could try on their turn: if all {n} card{'s' if n != 1 else ''} in that "
              f"hand were Support cards, {pct(best['odds_if_support'])}.")
    return s


def _who(p: int, me: int | None) -> str:
    return "You" if p == me else f"Player {p}"


def _leader(view: dict[str, Any], players: list[dict[str, Any]], me: int | None) -> tuple[int | None, str]:
    if view.get("over"):
        w = view.get("winner")
        who = "nobody wins" if w is None else ("you win" if w == me else f"Player {w} wins")
        return w, f"The game is over ({clean(str(view.get('result') or 'ended'))}): {who}."
    reigning = [p for p in players if p["countdown"] is not None]
    if reigning:
        p = reigning[0]
        n = p["countdown"]
        when = "at the end of this turn" if n == 0 else f"in {n} more turn{'s' if n != 1 else ''} after this one"
        verb = "win" if p["seat"] == me else "wins"
        return p["seat"], (f"{_who(p['seat'], me)} {'reign' if p['seat'] == me else 'reigns'} through "
                           f"{char_name(view.get('monarch'))} and {verb} {when} unless the throne is lost.")
    ranked = sorted((p for p in players if p["odds"]), key=lambda p: -p["odds"])
    if view.get("monarch") is None:
        return None, "The throne is empty for now: nobody can usurp until a Monarch reigns."
    if not ranked:
        big = max(players, key=lambda p: p["status"])
        whose = "yours" if big["seat"] == me else f"Player {big['seat']}'s"
        if any(p["hidden_cards"] for p in players):
            return None, (f"With the cards already played, no usurpation would succeed now. The faction with the "
                          f"most Status on the table is {whose} ({big['status']}).")
        return None, (f"Every hand is known and no usurpation could succeed now. The faction with the most Status "
                      f"is {whose} ({big['status']}).")
    top = ranked[0]
    s = f"{_who(top['seat'], me)} {'are' if top['seat'] == me else 'is'} closest to the throne: {pct(top['odds'])} " \
        "to usurp now"
    if len(ranked) > 1:
        nxt = ranked[1]
        gap = round((top["odds"] - nxt["odds"]) * 100)
        s += (f", level with {_who(nxt['seat'], me)}" if gap == 0 else
              f", {gap} points ahead of {_who(nxt['seat'], me)} ({pct(nxt['odds'])})")
    else:
        s += "; nobody else could with the cards already played"
    return top["seat"], s + "."


# ---------------------------------------------------------------------------
# The seat's faction
# ---------------------------------------------------------------------------


def faction(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's own characters: PC first, then nobles, then royals."""
    me = view["me"]
    chars = view["chars"]
    mine = [cid for cid, c in chars.items() if c["owner"] == me]
    mine.sort(key=lambda cid: (not chars[cid]["is_pc"], cid in C.ROYALS, C.ALL_CHARACTER_IDS.index(cid)))
    out = []
    for cid in mine:
        c = chars[cid]
        office = office_name(c["office"]) if c["office"] else None
        if view.get("monarch") == cid:
            office = "Monarch"
        out.append({"cid": cid, "name": char_name(cid), "status": int(view["status"][cid]), "office": office,
                    "titles": title_of(cid, c, view) or None,
                    "spouse": char_name(c["spouse"]) if c["spouse"] else None,
                    "situation": ", ".join(situation_of(cid, c, me)) or None})
    return out


# ---------------------------------------------------------------------------
# What happened since the seat's previous decision
# ---------------------------------------------------------------------------

_DROP = re.compile(
    r"^=+ Turn|^-+ |Usurpation Rating|Usurpation Value|^Dueling roll|modifier (goes|stays|becomes)|Table, row|"
    r"Table \d+:|Counseling Results Table|resolution \(Ability|: rolled \d|rolls the dice count|"
    r"First player rolls|^\w[\w' ]* Table: rolled|is the object of a scandal.*rolls|Foreign War Table: rolled|"
    r"reveals '|^The Monarch's Usurpation Rating|: 1d|x\d+ = \d+|the gains and losses are halved|"
    r"^No counseling is allowed|is face-down: no Player Turn|no vacant office|no unresolved political")
#: what matters most to a seat, first: deaths, successions and the throne, the end of the game or the turn
_GRAVE = re.compile(
    r"\bdies\b|\bdead\b|killed|executed|assassinat|succeeds|to the throne|usurpation (?:fails|succeeds)|"
    r"attempts to usurp|reigns?\b|\bwins\b|\bdraw\b|game is (?:over|stopped)|the turn ends|turn is over|"
    r"turn ends|mourning|no heir", re.I)
#: then the seat's own characters and points (lines that name it once "Player N (you)"/"your" are written)
_MINE = re.compile(r"\(you\)|\byour\b|^You\b")
_LOSS = re.compile(r"\bloses?\b|leaves?\b|\bjoins?\b|becomes|recruit|imprisoned|banished|hiding|trial|"
                   r"accused|scandal|steals|intrigues|treachery|seduc|married|engaged|duel|\bPP\b|\bIP\b", re.I)
#: then royals, the Monarch and everyone's points
_ROYAL_OR_POINTS = re.compile(
    "|".join([r"\bPP\b", r"\bIP\b", "Monarch", "throne", "FARC", "NRC", "Royal Alignment", "usurp"] +
             [re.escape(r.name) for r in C.ROYALS.values()]))
RECENT_MAX: Final = 8


def _rank(t: str) -> int:
    """How much a recent line matters to the seat: 0 deaths, successions, the end of the turn; 1 the seat's
    own losses and changes of faction; 2 royals and points; 3 the rest (folded)."""
    if _GRAVE.search(t):
        return 0
    if _MINE.search(t) and _LOSS.search(t):
        return 1
    if _ROYAL_OR_POINTS.search(t):
        return 2
    return 3


def _plain_recent(lines: Iterable[str], me: int | None) -> list[str]:
    """The lines in plain sentences: dice mechanics left out, rule references dropped, repeats folded."""
    out: list[str] = []
    prev, count = None, 0
    for raw in lines:
        if _DROP.search(raw):
            continue
        t = clean(raw)
        if not t:
            continue
        if me is not None:
            t = re.sub(rf"\bPlayer {me}\b(?!')", f"Player {me} (you)", t)
            t = t.replace(f"Player {me}'s", "your").replace("(you) (you)", "(you)")
        if t == prev:
            count += 1
            out[-1] = f"{t} (x{count})"
            continue
        prev, count = t, 1
        out.append(t)
    return out


def recent_split(lines: Iterable[str], view: dict[str, Any] | None = None,
                 limit: int = RECENT_MAX) -> tuple[list[str], list[str]]:
    """(above the fold, folded) of the log lines a seat may see since its previous decision, in plain
    sentences. All of them in order when they fit in ``limit``; else the ``limit`` that matter most to the
    seat, most important first (deaths, successions and the end of the turn; the seat's own losses and
    changes of faction; royals and points; in the order they happened within each rank), and the rest in
    order, folded."""
    out = _plain_recent(lines, None if view is None else view.get("me"))
    if len(out) <= limit:
        return out, []
    ranks = [_rank(t) for t in out]
    top = sorted((i for i in range(len(out)) if ranks[i] < 3), key=lambda i: (ranks[i], i))[:limit]
    lesser = [i for i in range(len(out)) if ranks[i] == 3]
    if len(top) < limit:  # room left: the latest lesser lines, in order
        top += lesser[len(lesser) - (limit - len(top)):]
    kept = set(top)
    return [out[i] for i in top], [t for i, t in enumerate(out) if i not in kept]


def recent(lines: Iterable[str], view: dict[str, Any] | None = None, limit: int = RECENT_MAX) -> list[str]:
    """``recent_split``'s lines above the fold, then (when some are folded) one line that says how many."""
    top, folded = recent_split(lines, view, limit)
    if not folded:
        return top
    return top + [f"{len(folded)} lesser event{'s are' if len(folded) != 1 else ' is'} folded (see the log)."]


def seat_words(view: dict[str, Any], since: Iterable[str]) -> dict[str, Any]:
    """``race``, ``faction`` and ``recent`` of a seat's state (``since``: its log lines since its previous
    decision); ``recent_more``: the lesser lines folded out of ``recent``."""
    top, folded = recent_split(since, view)
    recent_lines = top + ([f"{len(folded)} lesser event{'s are' if len(folded) != 1 else ' is'} folded (see the "
                           "log)."] if folded else [])
    return {"race": race(view), "faction": faction(view), "recent": recent_lines, "recent_more": folded}
