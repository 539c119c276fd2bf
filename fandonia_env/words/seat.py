"""Around the seat's decision: who is closest to the throne (``race``), the seat's own faction
(``faction``), what happened since its previous decision (``recent``) and all of it at once
(``seat_words``).

Part of ``fandonia_env.words`` (``fandonia_env.wording`` re-exports the public names).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from ..engine.data import components as C
from ..engine.rules.rule_queries import (
    best_usurpation,
    usurpers,
)
from .names import char_name, clean, office_name, ordinal, pct, situation_of, title_of

#: what the module offers the rest of the package (``fandonia_env.words`` re-exports it)
__all__ = [
    "GOAL", "RECENT_MAX", "VICTORY_TURNS", "faction", "race", "recent", "seat_words"
]

# ---------------------------------------------------------------------------
# The race for the throne
# ---------------------------------------------------------------------------

#: §37: a usurping FARC must reign this many full turns after the turn he took the throne.
VICTORY_TURNS: Final = 3

GOAL: Final = ("Put one of your royal allies on the throne and keep him there: seize the crown from the "
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
        bits.append(f"{char_name(mon)} is Monarch and his ally")
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


def race(view: dict[str, Any], public: bool = False) -> dict[str, Any]:
    """Who is closest to the throne, from this view (``public``: a spectator's public view; other seats'
    hands are never counted, only their Support cards already in front of them)."""
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
        players.append({"seat": q, "name": ("You, " if q == me else "") + f"Player {q} ({char_name(pl['pc'])})",
                        "pp": int(pl["pp"]), "ip": int(pl["ip"]), "status": status,
                        "claim": _claim(v, q, line), "countdown": countdown, "odds": odds})
    leader, text = _leader(view, players, me)
    return {"goal": GOAL, "leader": leader, "lead_text": text, "players": players}


def _who(p: int, me: int | None) -> str:
    return "You" if p == me else f"Player {p}"


def _leader(view: dict[str, Any], players: list[dict[str, Any]], me: int | None) -> tuple[int | None, str]:
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
        return None, (f"Nobody could take the throne now: every usurpation would fail. The strongest faction is "
                      f"{whose} (Status {big['status']}).")
    top = ranked[0]
    s = f"{_who(top['seat'], me)} {'are' if top['seat'] == me else 'is'} closest to the throne: {pct(top['odds'])} " \
        "to usurp now"
    if len(ranked) > 1:
        nxt = ranked[1]
        gap = round((top["odds"] - nxt["odds"]) * 100)
        s += (f", level with {_who(nxt['seat'], me)}" if gap == 0 else
              f", {gap} points ahead of {_who(nxt['seat'], me)} ({pct(nxt['odds'])})")
    else:
        s += "; nobody else has any chance"
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
_IMPORTANT = re.compile(
    r"usurp|reign|wins|draw|dies|killed|executed|assassinat|Monarch|throne|recruits|becomes|FARC|banished|"
    r"imprisoned|trial|marr|engaged|duel|hiding|escapes|steals|intrigues|treachery|seduc|Royal Alignment|"
    r"accused|scandal|pardon", re.I)
RECENT_MAX: Final = 8


def recent(lines: Iterable[str], view: dict[str, Any] | None = None, limit: int = RECENT_MAX) -> list[str]:
    """Plain sentences for the log lines a seat may see since its previous decision: dice mechanics left
    out, rule references dropped, repeats folded; at most ``limit`` (the important ones kept first)."""
    me = None if view is None else view.get("me")
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
    if len(out) <= limit:
        return out
    important = [i for i, t in enumerate(out) if _IMPORTANT.search(t)]
    keep = set(important[-(limit - 1):])
    for i in range(len(out) - 1, -1, -1):
        if len(keep) >= limit - 1:
            break
        keep.add(i)
    kept = [out[i] for i in sorted(keep)]
    return [f"{len(out) - len(kept)} lesser events are left out (see the log)."] + kept


def seat_words(view: dict[str, Any], since: Iterable[str]) -> dict[str, Any]:
    """``race``, ``faction`` and ``recent`` of a seat's state (``since``: its log lines since its previous
    decision)."""
    return {"race": race(view), "faction": faction(view), "recent": recent(since, view)}
