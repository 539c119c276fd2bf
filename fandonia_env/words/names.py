"""Names and cleaned texts for people: characters, offices, cards, countries, tables, titles, a
character's situation and a player's name, from one seat's view (no catalogue keys, no section marks).

Part of ``fandonia_env.words`` (``fandonia_env.wording`` re-exports the public names).
"""

from __future__ import annotations

import re
from typing import Any

from ..engine.data import components as C
from ..engine.data.tables import (
    COUNSELING_TABLES,
    PRESTIGE_TABLES,
    TITLE_TABLE,
    TITLE_TABLE_ERRATA_FEMALE,
)

#: what the module offers the rest of the package (``fandonia_env.words`` re-exports it)
__all__ = [
    "a_an", "cap", "card_name", "char_brief", "char_name", "clean", "country_name", "he", "his", "is_female", "key_words", "next_title",
    "office_name", "ordinal", "pct", "player_words", "rule_of", "situation_of", "table_name", "title_of"
]

# ---------------------------------------------------------------------------
# Small helpers: names and cleaned texts
# ---------------------------------------------------------------------------

_RULE_PAREN = re.compile(r"\s*\((?:[^()]*?(?:§|\bES\b|\bD\d+\b|\bT1\.|\bA\d+\b|ruling|note \d)[^()]*?)\)")
_RULE_TAIL = re.compile(r",?\s*(?:ES\s*)?§\s*[\d.]+[a-z]?(?:[-,]\s*§?[\d.]+)*")
_RULE_ANY = re.compile(r"(?:ES\s*)?§\s*\S*")
_PLAYER = re.compile(r"\bplayer (\d)\b")
_SPACES = re.compile(r"\s{2,}")
_RULE_REF = re.compile(r"((?:ES )?§[\d.]+(?:\s*optional)?(?: [A-Z][A-Za-z' ]+)?)")


def clean(text: str) -> str:
    """A log line or engine text in plain words: rule references dropped, "player 3" as "Player 3"."""
    t = _RULE_PAREN.sub("", text)
    t = _RULE_TAIL.sub("", t)
    t = _RULE_ANY.sub("", t)
    t = _PLAYER.sub(lambda m: f"Player {m.group(1)}", t)
    t = t.replace("( ", "(").replace(" )", ")").replace("()", "")
    t = _SPACES.sub(" ", t).strip()
    t = re.sub(r"\s+([.,:;])", r"\1", t)
    return t


def rule_of(text: str) -> str | None:
    """The first rule reference in a catalogue description (e.g. "§13.4.1"), or None."""
    m = _RULE_REF.search(text)
    return m.group(1).strip() if m else None


def char_name(cid: str | None) -> str:
    if not cid:
        return "nobody"
    try:
        return C.character_name(cid)
    except KeyError:
        return str(cid)


def key_words(key: str | None) -> str:
    return (key or "").replace("_", " ")


def office_name(key: str | None) -> str:
    return C.OFFICES[key].name if key in C.OFFICES else key_words(key).title()


def card_name(key: str | None) -> str:
    return C.CARD_TYPES[key].name if key in C.CARD_TYPES else key_words(key).title()


def country_name(key: str | None) -> str:
    return C.COUNTRY_NAMES.get(key or "", key_words(key).title())


def table_name(key: str | None) -> str:
    if key in PRESTIGE_TABLES:
        return str(PRESTIGE_TABLES[key]["name"])
    if key in COUNSELING_TABLES:
        return str(COUNSELING_TABLES[key]["name"])
    return {"pc_advantage": "PC Advantage", "charity": "Charity", "court_ball": "Court Ball",
            "romance": "Romance"}.get(key or "", key_words(key).title())


def cap(text: str) -> str:
    """The text with its first letter capitalised (the rest unchanged)."""
    return text[:1].upper() + text[1:]


def a_an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def is_female(cid: str | None) -> bool:
    """Whether the character (noble or royal) is a woman."""
    if cid is None:
        return False
    if cid in C.ROYALS:
        return bool(C.ROYALS[cid].female)
    return cid in C.FEMALES


def his(cid: str | None) -> str:
    """The possessive pronoun of a character: "her" for a woman, else "his"."""
    return "her" if is_female(cid) else "his"


def he(cid: str | None) -> str:
    """The subject pronoun of a character: "she" for a woman, else "he"."""
    return "she" if is_female(cid) else "he"


def pct(p: float) -> str:
    if 0 < p < 0.005:
        return "under 1%"
    if 0.995 < p < 1:
        return "over 99%"
    return f"{round(p * 100)}%"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def title_of(cid: str, c: dict[str, Any], view: dict[str, Any]) -> str:
    """A noble's present title ("Earl"), "" for royals and untitled functionaries."""
    if cid in C.ROYALS:
        return ""
    config = {"edition": view["rules"]["edition"], "players": view["n_players"]}
    printed = C.printed_title(config, cid)
    if not printed:
        return ""
    ladder = C.female_titles(config) if cid in C.FEMALES else C.MALE_TITLES
    i = ladder.index(printed) if printed in ladder else -1
    t = printed if i < 0 else ladder[min(len(ladder) - 1, i + int(c.get("titles") or 0))]
    return str(C.TITLE_NAMES.get(t, t))


def next_title(cid: str, c: dict[str, Any], view: dict[str, Any]) -> tuple[str, int] | None:
    """The title a noble would rise to and its IP cost (the Title Table), if any."""
    now = title_of(cid, c, view).lower()
    female = cid in C.FEMALES
    rows = TITLE_TABLE_ERRATA_FEMALE if female and view["rules"]["edition"] == "errata" else TITLE_TABLE
    for r in rows:
        if r["from"] == now:
            return str(C.TITLE_NAMES.get(r["to"], r["to"])), int(r["cost_ip"])
    return None


def situation_of(cid: str, c: dict[str, Any], me: int | None = None) -> list[str]:
    """A character's situation in words (role for one's own, then conditions)."""
    s: list[str] = []
    if me is not None and c.get("owner") == me:
        if c.get("is_pc"):
            s.append("your player character (PC)")
        elif cid in C.ROYALS:
            s.append("royal ally (FARC)")
        else:
            s.append("aligned noble (FAC)")
    if c.get("henchman"):
        s.append("henchman")
    if c.get("counselor"):
        s.append("Monarch's Counselor")
    for key, words in (("dead", "dead"), ("imprisoned", "imprisoned"), ("awaiting_execution", "awaiting execution"),
                       ("banished", "banished"), ("hiding", "in hiding"), ("wrongdoer", "accused of wrongdoing"),
                       ("banned", "banned from Court Balls")):
        if c.get(key):
            s.append(words)
    loc = c.get("location")
    if loc and loc != C.FANDONIA:
        s.append("abroad in " + country_name(loc))
    if c.get("engaged_to"):
        s.append("engaged to " + char_name(c["engaged_to"]))
    return s


def _owner_words(view: dict[str, Any], cid: str) -> str:
    c = view["chars"][cid]
    o, me = c["owner"], view.get("me")
    if o is None:
        return "neutral"
    if o == me:
        return "your PC" if c["is_pc"] else "yours"
    return f"Player {o}'s PC" if c["is_pc"] else f"Player {o}'s"


def char_brief(view: dict[str, Any], cid: str) -> str:
    """'Duke Roland (Status 5, High Minister, Player 2's)'."""
    c = view["chars"][cid]
    bits = [f"Status {view['status'][cid]}"]
    if c["office"] and c["office"] != "monarch":
        bits.append(office_name(c["office"]))
    if view.get("monarch") == cid:
        bits.append("the Monarch")
    bits.append(_owner_words(view, cid))
    for key, words in (("dead", "dead"), ("imprisoned", "imprisoned"), ("banished", "banished"), ("hiding", "hiding")):
        if c[key]:
            bits.append(words)
    if c["location"] != C.FANDONIA:
        bits.append("in " + country_name(c["location"]))
    return f"{char_name(cid)} ({', '.join(bits)})"


def player_words(view: dict[str, Any], p: int | None) -> str:
    if p is None:
        return "nobody"
    if p == view.get("me"):
        return "you"
    pl = view["players"][p] if 0 <= p < len(view["players"]) else None
    return f"Player {p}" + (f" ({char_name(pl['pc'])})" if pl else "")
