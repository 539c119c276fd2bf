"""The consequences of a choice before it is made, in plain words (issue 43): ``preview_words`` turns one
option's preview (``engine/face/preview.py``: computed by the engine from the deciding seat's information
only) into a cost, sentences for what certainly changes, the chances of the rest and a confirmation when
the worst outcome loses a character, a royal or half the PP.

Part of ``fandonia_env.words`` (``fandonia_env.wording`` re-exports the public names).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..engine.data import components as C
from .names import cap, char_name, country_name, key_words, office_name, pct

__all__ = ["effect_words", "preview_confirm", "preview_lines", "preview_words"]

#: outcomes listed one by one; the less likely ones are summed into one line
MAX_CHANCES: Final = 6

_SITUATION: Final = {
    ("hiding", True): "{c} goes into hiding", ("hiding", False): "{c} comes out of hiding",
    ("banished", True): "{c} is banished", ("banished", False): "{c}'s banishment ends",
    ("imprisoned", True): "{c} is imprisoned", ("imprisoned", False): "{c} leaves prison",
    ("wrongdoer", True): "{c} is accused of wrongdoing", ("wrongdoer", False): "{c} is cleared of wrongdoing",
    ("awaiting_execution", True): "{c} awaits execution",
    ("awaiting_execution", False): "{c} no longer awaits execution",
}


def _he(cid: str) -> str:
    female = C.NOBLES[cid].female if cid in C.NOBLES else C.ROYALS[cid].female if cid in C.ROYALS else False
    return "she" if female else "he"


def _amount(n: int, unit: str) -> str:
    return f"{abs(n)} {unit}" if unit in ("IP", "PP") else f"{abs(n)} {unit}{'' if abs(n) == 1 else 's'}"


def _res(e: list[Any], v: dict[str, Any]) -> str:
    unit = {"ip": "IP", "pp": "PP", "cards": "card"}[e[0]]
    if e[0] == "cards":
        return f"you {'draw' if e[1] > 0 else 'give up'} {_amount(e[1], unit)}"
    return f"you {'gain' if e[1] > 0 else 'lose'} {_amount(e[1], unit)}"


def _acts(e: list[Any], v: dict[str, Any]) -> str:
    n = int(e[1])
    if n == -1:
        return "it uses one of your activities this turn"
    word = "activity" if abs(n) == 1 else "activities"
    return f"you {'lose' if n < 0 else 'get'} {abs(n)} {word} this turn"


def _office(e: list[Any], v: dict[str, Any]) -> str:
    c, old, new = char_name(e[1]), e[2], e[3]
    if new is None:
        return f"{c} leaves the office of {office_name(old)}"
    return f"{c} becomes {office_name(new)}"


def _place(e: list[Any], v: dict[str, Any]) -> str:
    c, new = char_name(e[1]), e[3]
    if new == "fandonia":
        return f"{c} returns to Fandonia"
    return f"{c} goes abroad to {country_name(new)}"


def _halved(e: list[Any], v: dict[str, Any]) -> str:
    pc = str(v["players"][int(v["me"])]["pc"])
    he = _he(pc)
    if e[1]:
        return (f"your PC is away ({he} is abroad, hiding or banished): your Prestige gains and losses are "
                "halved")
    return "your Prestige gains and losses are no longer halved"


def _required(e: list[Any], v: dict[str, Any]) -> str:
    pp = int(v["players"][int(v["me"])]["pp"])
    s = f"your PP must cover a faction Status of {e[2]} (it was {e[1]})"
    if e[2] > e[1] and e[2] > pp:
        s += f": more than your {pp} PP, so unless you gain PP you must give up a character"
    return s


def _give_up(e: list[Any], v: dict[str, Any]) -> str:
    names = [char_name(c) for c in e[1]]
    return ("your PP no longer cover your faction: you must give up at once "
            + (names[0] if len(names) == 1 else "one of " + ", ".join(names[:-1]) + " or " + names[-1]))


def _lost(e: list[Any], v: dict[str, Any]) -> str:
    royal = " (a royal)" if e[2] else ""
    return f"{char_name(e[1])}{royal} {'dies' if e[0] == 'died' else 'leaves your faction'}"


_EFFECT: Final[dict[str, Callable[[list[Any], dict[str, Any]], str]]] = {
    "ip": _res, "pp": _res, "cards": _res, "activities": _acts,
    "turn_ends": lambda e, v: "your turn ends",
    "status": lambda e, v: f"{char_name(e[1])}'s Status goes from {e[2]} to {e[3]}",
    "office": _office,
    "titles": lambda e, v: f"{char_name(e[1])} {'gains a title' if e[3] > e[2] else 'loses a title'}",
    "place": _place,
    "situation": lambda e, v: _SITUATION.get((e[2], bool(e[3])), "{c}: " + key_words(e[2])).format(c=char_name(e[1])),
    "gained": lambda e, v: f"{char_name(e[1])} joins your faction",
    "lost": _lost, "died": _lost,
    "halved": _halved, "pp_required": _required, "give_up": _give_up,
    "next": lambda e, v: f"then you choose {_NEXT.get(e[1], key_words(e[1]))}",
    "won": lambda e, v: "you win the game",
    "game_over": lambda e, v: "the game ends",
}

#: what the seat chooses next, for the decisions an option often leads to (others: the kind's words)
_NEXT: Final = {
    "prestige_table": "which Prestige Table to roll on", "travel_destination": "where to travel",
    "travel_character": "who travels", "draw_choice": "what to draw", "choose_draw": "what to draw",
    "usurp_support": "the Support cards for the usurpation", "usurp_farc": "which royal usurps",
    "voluntary_discard": "which card to discard", "title_character": "which noble gets the title",
    "fill_office_office": "which office to fill", "fill_office_char": "who fills the office",
    "recruit_character": "whom to recruit", "treachery_target": "whom to win over",
    "seducer": "who seduces", "seduce_target": "whom to seduce", "hide_char": "who hides",
    "unhide_char": "who comes out of hiding", "royal_alignment": "which royal to ally with",
    "assassination_target": "whom to assassinate", "henchman_character": "who becomes a henchman",
    "counselor_character": "who becomes a Counselor", "favor_farc": "which royal to court",
    "propose_proposer": "who proposes", "propose_proposee": "to whom", "suicide_char": "who dies",
    "bribe_target": "whom to bribe", "counsel_table": "which counsel table", "emissary_character": "the emissary",
}


def effect_words(effect: list[Any], view: dict[str, Any]) -> str:
    """One effect of a preview (``engine/face/preview.py``) as a phrase, from the seat's point of view."""
    f = _EFFECT.get(str(effect[0]))
    return f(effect, view) if f else key_words(str(effect[0]))


def _cost(certain: list[list[Any]], free: bool | None) -> str | None:
    parts = []
    if free:
        parts.append("free (spends no activity)")
    for e in certain:
        if e[0] == "activities" and e[1] == -1:
            parts.append("1 activity")
        elif e[0] in ("ip", "pp") and e[1] < 0:
            parts.append(_amount(e[1], e[0].upper()))
        elif e[0] == "cards" and e[1] < 0:
            parts.append(_amount(e[1], "card"))
    return ", ".join(parts) if parts else None


def _is_cost(e: list[Any]) -> bool:
    return (e[0] == "activities" and e[1] == -1) or (e[0] in ("ip", "pp", "cards") and e[1] < 0)


def _chance_lines(rec: dict[str, Any], view: dict[str, Any]) -> list[str]:
    lines = []
    rest = 0.0
    for i, ch in enumerate(rec["chances"]):
        if i >= MAX_CHANCES:
            rest += ch["p"]
            continue
        paid = rec.get("paid", [])  # told in the cost already
        what = "; ".join(effect_words(e, view) for e in ch["effects"] if e not in paid) or \
            "nothing more changes for you"
        lines.append(f"{pct(ch['p'])}: {what}")
    if rest > 0:
        lines.append(f"{pct(rest)}: other outcomes")
    return lines


def _then_words(then: dict[str, Any] | None) -> str | None:
    if not then:
        return None
    parts = []
    for k in ("ip", "pp"):
        r = then[k]
        if r is None or r[1] > 0 or r == [0, 0]:
            continue  # a gain, or an outcome left to chance: no cost to tell
        lo, hi = -r[1], -r[0]
        parts.append(f"{lo} to {hi} {k.upper()}" if lo != hi else f"{lo} {k.upper()}")
    s = f"Then you choose {_NEXT.get(then['kind'], key_words(then['kind']))}"
    return s + (f"; depending on that choice it costs {' and '.join(parts)}." if parts else ".")


def preview_confirm(rec: dict[str, Any], view: dict[str, Any]) -> dict[str, Any] | None:
    """A confirmation (``{title, odds, lose, chance}``, as ``option_words``' ``confirm``; no ``chance`` sentence) when the worst outcome of the
    option loses a character, a royal or half the PP; ``odds``: the chance that none of that happens."""
    w = rec.get("worst") or {}
    if not any(w.values()):
        return None
    pp = int(view["players"][int(view["me"])]["pp"])

    def bad(effs: list[list[Any]]) -> bool:
        return any(e[0] in ("lost", "died", "give_up") or (e[0] == "pp" and e[1] <= -2 and -2 * e[1] >= pp)
                   for e in effs)

    if bad(rec["certain"]):
        safe = 0.0
    else:
        safe = 1.0 - sum(ch["p"] for ch in rec["chances"] if bad(ch["effects"]))
    what = [t for k, t in (("loses_royal", "a royal"), ("loses_character", "a character"),
                           ("loses_half_points", "half your PP")) if w.get(k)]
    if "a royal" in what and "a character" in what:
        what.remove("a character")
    lose = "This can cost you " + " and ".join(what) + "."
    if safe == 0.0:
        lose = "This certainly costs you " + " and ".join(what) + "."
    return {"title": "Are you sure?", "odds": round(max(0.0, safe), 4), "lose": lose, "chance": None}


def preview_words(rec: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """One option's preview in plain words: ``{free, cost, certain: [sentence], chances: [sentence], odds,
    then, confirm}`` (``odds``: "exact", "estimated from N possible deals", or None)."""
    then = rec.get("then")
    certain = [cap(effect_words(e, view)) + "." for e in rec["certain"]
               if not _is_cost(e) and not (then and e[0] == "next")]
    odds = rec.get("odds")
    if odds and odds.startswith("sampled"):
        n = "".join(ch for ch in odds if ch.isdigit())
        odds = f"estimated from {n} possible deals of the cards you cannot see"
    return {"free": rec.get("free"), "cost": _cost(rec["certain"] + rec.get("paid", []), rec.get("free")),
            "certain": certain,
            "chances": _chance_lines(rec, view), "odds": odds, "then": _then_words(then),
            "confirm": preview_confirm(rec, view)}


def preview_lines(words: dict[str, Any] | None) -> list[str]:
    """``preview_words`` as lines of text (the terminal game prints them under the option)."""
    if not words:
        return []
    head = []
    if words["free"]:
        head.append("Free action (spends no activity).")
    cost = words["cost"]
    if cost and cost.startswith("free (spends no activity)"):
        cost = cost[len("free (spends no activity)"):].lstrip(", ")
    if cost:
        head.append(f"Costs {cost}.")
    lines = [" ".join(head + words["certain"])] if head or words["certain"] else []
    if words["then"]:
        lines.append(words["then"])
    if words["chances"]:
        lines.append(f"Chances ({words['odds'] or 'estimated'}): " + "; ".join(words["chances"]) + ".")
    return lines
