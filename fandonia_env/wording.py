"""The one source of words for people playing the game: what a decision asks, what each choice
does and to whom, who is closest to the throne, the seat's own faction, what happened since the
seat's previous decision, and a glossary (``HELP``).

Everything here is built from **one seat's view** (``Game.view(seat)``, ``engine.game.player_view``)
and the log lines that seat may see: never another seat's hand or drawn counters, never the true
state.  The server (``serve/workers.py``: the fields ``decision.prompt``, ``decision.options[i]``
``label/detail/rule/confirm``, ``race``, ``faction``, ``recent``; ``GET /help``) and the terminal game
(``play.py``) both read their words from here.

Plain words only: prompts and labels carry no catalogue keys and no section marks; the rule a choice
follows is in its ``rule`` field (e.g. "§36.3"), for a tooltip.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from .engine.core.actions import NAME
from .engine.data import components as C
from .engine.data.tables import (
    ASSASSINATION,
    CLEMENCY,
    COUNSELING_TABLES,
    FUNERAL,
    PRESTIGE_TABLES,
    PROBLEMS,
    TITLE_TABLE,
    TITLE_TABLE_ERRATA_FEMALE,
)
from .engine.rules.rule_queries import (
    best_usurpation,
    pp_price,
    support_multiplier,
    usurpation_chance,
    usurpers,
)

__all__ = [
    "GOAL", "HELP", "VICTORY_TURNS", "char_name", "clean", "decision_words", "faction", "option_words",
    "prompt", "race", "recent", "seat_words", "situation_of", "title_of",
]

#: §37: a usurping FARC must reign this many full turns after the turn he took the throne.
VICTORY_TURNS: Final = 3

GOAL: Final = ("Put one of your royal allies on the throne and keep him there: seize the crown from the "
               "Monarch (a usurpation), then hold it for three full turns after the turn you took it. "
               "If no royal who could still inherit the throne is left alive, the game is a draw.")

RISKY_RESULTS: Final = frozenset({"duel", "scandal", "wrongdoing", "hearing", "trial"})

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


def _words(key: str | None) -> str:
    return (key or "").replace("_", " ")


def office_name(key: str | None) -> str:
    return C.OFFICES[key].name if key in C.OFFICES else _words(key).title()


def card_name(key: str | None) -> str:
    return C.CARD_TYPES[key].name if key in C.CARD_TYPES else _words(key).title()


def country_name(key: str | None) -> str:
    return C.COUNTRY_NAMES.get(key or "", _words(key).title())


def table_name(key: str | None) -> str:
    if key in PRESTIGE_TABLES:
        return str(PRESTIGE_TABLES[key]["name"])
    if key in COUNSELING_TABLES:
        return str(COUNSELING_TABLES[key]["name"])
    return {"pc_advantage": "PC Advantage", "charity": "Charity", "court_ball": "Court Ball",
            "romance": "Romance"}.get(key or "", _words(key).title())


def cap(text: str) -> str:
    """The text with its first letter capitalised (the rest unchanged)."""
    return text[:1].upper() + text[1:]


def a_an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "under 1%"
    if 0.995 < p < 1:
        return "over 99%"
    return f"{round(p * 100)}%"


def _ordinal(n: int) -> str:
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


def _next_title(cid: str, c: dict[str, Any], view: dict[str, Any]) -> tuple[str, int] | None:
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


# ---------------------------------------------------------------------------
# Dice odds from the tables (2d6 sums)
# ---------------------------------------------------------------------------

_2D6: Final = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}


def _p_2d6(ok: Callable[[int], bool], mod: int = 0, lo: int = 2, hi: int = 12) -> float:
    return sum(p for s, p in _2D6.items() if ok(min(hi, max(lo, s + mod))))


def _row(table: dict[str, Any], total: int) -> dict[str, Any]:
    for r_lo, r_hi, row in table["rows"]:
        if r_lo <= total <= r_hi:
            return row  # type: ignore[no-any-return]
    return {}


def prestige_risk(table: str, mod: int) -> float:
    """P(a Prestige Table roll with modifier ``mod`` ends in a duel, scandal, accusation, hearing or trial)."""
    T = PRESTIGE_TABLES[table]
    return _p_2d6(lambda t: bool(RISKY_RESULTS & set(_row(T, t).get("special", ()))), mod, T["lo"], T["hi"])


def assassination_odds(target_is_monarch: bool = False, extra_cards: int = 0) -> float:
    """P(success) on the Assassination Table before any card of the others (Monarch target -1,
    each extra Assassination card +2)."""
    mod = (-1 if target_is_monarch else 0) + 2 * extra_cards
    return _p_2d6(lambda t: bool(_row(ASSASSINATION, t).get("success")), mod,
                  ASSASSINATION["lo"], ASSASSINATION["hi"])


def _prestige_mod(view: dict[str, Any], table: str) -> int:
    me = view["me"]
    own = int(view["players"][me]["prestige_mods"].get(table, 0))
    ts = view.get("turn_state") or {}
    if ts.get("bought_mod") and not ts.get("bought_used") and own < 2:
        own += 1
    return own


# ---------------------------------------------------------------------------
# Activities, free actions, cards, counters: labels and plain explanations
# ---------------------------------------------------------------------------

#: activity key -> (label, detail)
ACTIVITY_WORDS: Final[dict[str, tuple[str, str]]] = {
    "acquire_title": ("Buy a title", "Pay IP to move one of your nobles a step up the ladder of titles; "
                                     "each step adds 1 to his Status."),
    "fill_office": ("Fill a vacant office", "Pay 3 IP to put one of your characters into an office nobody holds."),
    "become_counselor": ("Make a Monarch's Counselor", "Play a Monarch's Counselor card on one of your "
                                                       "characters, who may then advise the Monarch."),
    "court_favor": ("Court a royal ally's favor", "Your PC or a henchman visits one of your royal allies to win "
                                                  "IP; a very bad roll makes the royal leave you."),
    "pardon": ("Pardon a character", "Play a Pardon card: one banished, imprisoned or accused character "
                                     "returns to normal life."),
    "amnesty": ("Declare an amnesty", "Play an Amnesty card: every banished, imprisoned or accused character "
                                      "returns to normal life."),
    "create_henchman": ("Make a henchman", "Play a Henchman card on one of your nobles: a henchman can act "
                                           "for your PC (court royals, fight duels, face scandals)."),
    "assassinate": ("Attempt an assassination", "Your PC or a henchman tries to kill a character on a dice roll "
                                                "(an Intrigue counter and an Assassination card); a caught "
                                                "assassin faces justice."),
    "expose_scandal": ("Expose a scandal", "Use your Scandal counter: a character of your choice rolls on the "
                                           "Scandal Table (accusations, hearings, trials)."),
    "escape": ("Help a character escape", "One of your imprisoned or hiding characters flees abroad "
                                          "(an Escape card, or guards)."),
    "extradite": ("Extradite a wrongdoer", "Play an Extradition card: a wrongdoer hiding abroad is brought back "
                                           "to face justice."),
    "intrigue_card": ("Steal a card from an opponent", "Use an Intrigue counter or card: take a card at random "
                                                       "from another player's hand."),
    "recruit": ("Recruit a character", "A neutral character whose Loyalty counter you drew joins your faction, "
                                       "if your PP cover his Status."),
    "recruit_treachery": ("Recruit by treachery", "With an Intrigue counter and a Treachery card, take a "
                                                  "character away from another player."),
    "seduce": ("Seduce a character", "One of your characters tries to win another over to your faction by "
                                      "seduction."),
    "hold_wedding": ("Hold a wedding", "An engaged couple of your faction marries; the other players may "
                                       "come and socialize."),
    "prestige": ("Roll on a Prestige Table", "Try your luck at literature, fashion, gambling and more to win PP "
                                             "or IP; bad rolls can cost points or bring duels and scandals."),
    "travel": ("Travel", "Send your PC or one of your nobles to another country, or home."),
    "draw": ("Draw one more counter or card", "Pay 1 IP to draw a Loyalty counter, an Opportunity counter or an "
                                              "Event card."),
    "foreign_support": ("Seek foreign support", "A character of yours abroad asks that country for its Foreign "
                                                "Support card."),
    "fandonian_support": ("Seek support at home", "Roll to win a Support card of a Fandonian group (peasants, "
                                                  "army, clergy...)."),
    "emissary": ("Send an emissary", "Make one of your characters an emissary to a foreign country."),
}

#: free action key -> (label, detail)
FREE_WORDS: Final[dict[str, tuple[str, str]]] = {
    "propose": ("Propose a marriage", "Two unmarried characters of your faction get engaged if the proposal die "
                                      "allows; a wedding follows later."),
    "buy_pp": ("Buy 1 PP", "Turn IP into PP (it costs nothing else)."),
    "buy_modifier": ("Buy +1 for your next Prestige roll", "Pay 2 IP for +1 on the Prestige Table you consult "
                                                           "this turn."),
    "royal_alignment": ("Play a Royal Alignment card", "The royal on the card becomes your ally (FARC): a "
                                                        "candidate for the throne."),
    "hide": ("Hide a character", "Send one of your characters into hiding: safe from justice but out of play."),
    "unhide": ("Bring a character out of hiding", "One of your hiding characters comes back into play."),
    "usurp": ("Usurp the throne", "Try to seize the crown for one of your royals; your faction, Support cards and "
                                  "a roll against the Monarch's side decide. A failure costs your PC his life."),
    "discard": ("Discard an Event card", "Throw away one card from your hand."),
    "suicide": ("End a captive's life", "A banished or imprisoned PC or noble of yours commits suicide."),
    "play_extra_activity": ("Play an Extra Activity card", "One more activity this turn."),
    "farc_pardon": ("Royal pardon", "Your royal Monarch pardons one of your characters (or lifts a Court Ball "
                                    "ban)."),
    "take_bribe": ("Demand a bribe", "Your PC, an office holder or counselor, asks for 1-6 IP; a die decides "
                                     "whether he gets it or is accused of wrongdoing."),
    "offer_bribe": ("Bribe an office holder", "Pay a neutral office holder IP to sway his next roll."),
    "abdicate": ("Abdicate", "Your royal Monarch gives up the throne and stops being your ally."),
}

#: card type -> what it does, in plain words (also ``HELP["cards"]``)
CARD_WORDS: Final[dict[str, str]] = {
    "dwtk": "DOWN WITH THE KING: a dangerous card to be caught with; never discarded. If another player draws "
            "it from your hand, your PC is accused of wrongdoing.",
    "support": "Support cards (Clergy, Peasant, Townsmen, Trade Guild, Army, Navy, Merchant, Foreign): add dice "
               "to a usurpation, yours or your royal Monarch's defence. Lost only when the usurpation fails.",
    "monarchs_counselor": "Monarch's Counselor: one of your characters becomes a counselor and may advise the "
                          "Monarch on his problems for prestige.",
    "pardon": "Pardon: one banished, imprisoned or accused character returns to normal life.",
    "amnesty": "Amnesty: every banished, imprisoned or accused character returns to normal life.",
    "henchman": "Henchman: one of your nobles becomes a henchman, who can stand in for your PC.",
    "intrigue": "Intrigue: works as an Intrigue counter, or in place of an Assassination, Treachery, Informer, "
                "Escape or Alibi card. Dangerous to be caught with.",
    "assassination": "Assassination: needed for an assassination attempt; each extra one adds 2 to the roll. "
                     "Dangerous to be caught with.",
    "personal_guards": "Personal Guards: -2 on an assassination roll against someone who holds no office.",
    "palace_guards": "Palace Guards: +2 or -2 on an assassination roll against a royal or an office holder.",
    "treachery": "Treachery: recruit a character by treachery, spoil a seduction, -2 on an assassination or a "
                 "royal favor roll, +1 or -1 on a duelling die. Dangerous to be caught with.",
    "informer": "Informer: spoil a seduction; +2 or -2 on an assassination, +1 or -1 on a hearing, trial or "
                "scandal roll.",
    "escape": "Escape: one character in prison or hiding at home flees abroad.",
    "prison_guards": "Prison Guards: help a prisoner escape or stop an escape from prison; +2 or -2 on an "
                     "interrogation.",
    "port_guards": "Port Guards: help a hiding character escape abroad or stop such an escape.",
    "extradition": "Extradition: bring a wrongdoer hiding abroad back to face justice.",
    "evidence": "Evidence: +1 on a hearing or trial roll (worse for the accused).",
    "alibi": "Alibi: -3 on a hearing roll, -1 on a trial roll (better for the accused).",
    "royal_alignment": "Royal Alignment: the royal named on it becomes your ally (FARC), a candidate for the "
                       "throne.",
    "extra_activity": "Extra Activity: one more activity this turn.",
}


def card_words(ctype: str) -> str:
    """What a card of this type does (``CARD_WORDS``, by family)."""
    if ctype in CARD_WORDS:
        return CARD_WORDS[ctype]
    if ctype.startswith("ra_"):
        return CARD_WORDS["royal_alignment"].replace("the royal named on it", char_name(ctype[3:]))
    if C.CARD_TYPES.get(ctype) is not None and C.CARD_TYPES[ctype].support:
        return CARD_WORDS["support"]
    return card_name(ctype)


COUNTER_WORDS: Final[dict[str, str]] = {
    "Loyalty counter": "Names one noble. Holding it lets you recruit him (if neutral and your PP cover his "
                       "Status).",
    "Opportunity counter": "A one-turn chance, drawn each turn; the kinds are listed below.",
    "Any Activity": "Perform one activity this turn even if you lack what it normally needs.",
    "Extra Activity": "One more activity this turn.",
    "Intrigue": "Lets you steal a card, attempt an assassination or recruit by treachery this turn.",
    "Scandal": "Lets you expose a scandal about a character this turn.",
    "Favor": "+5 when you court a royal ally's favor this turn.",
    "Duel": "Your PC or a henchman must fight a duel.",
    "Gout": "You lose 1 IP and may do no more activities this turn.",
    "Gain One IP": "You gain 1 IP.",
    "Free Counsel": "You may counsel the Monarch this turn without a Monarch's Counselor (errata edition).",
}

def _office_words() -> dict[str, str]:
    """What each office does, from the political problems table: which problems its holder tries to
    resolve and which he helps with."""
    out = {"monarch": "The reigning royal: replaced by the next in line when he dies, or by a usurpation."}
    for o in C.NON_MONARCH_OFFICES:
        off = C.OFFICES[o]
        resolves = [str(v["name"]) for v in PROBLEMS.values() if v["resolving_office"] == o]
        helps = [str(v["name"]) for v in PROBLEMS.values()
                 if o in v["modifying_offices"] and v["resolving_office"] != o]
        bits = []
        if off.country:
            bits.append(f"Fandonia's ambassador, living in {country_name(off.country)}")
        if resolves:
            bits.append("tries to resolve " + " and ".join(resolves))
        if helps:
            bits.append("can sway " + " and ".join(helps))
        bits.append(f"adds {off.bonus} to his Status" if off.bonus else "adds nothing to his Status")
        s = "; ".join(bits)
        out[o] = s[0].upper() + s[1:] + "."
    return out


OFFICE_WORDS: Final[dict[str, str]] = _office_words()

TITLE_WORDS: Final[dict[str, str]] = {
    "Sir": "The lowest noble title.", "Knight": "One step above Sir (+1 Status).",
    "Earl": "Two steps above Sir (+2 Status).", "Lord": "Three steps above Sir (+3 Status).",
    "Duke": "The highest title for men (+4 Status over Sir).",
    "Lady": "The usual title of a noblewoman.",
    "Baroness": "Errata ladder for women: one step above Lady.",
    "Countess": "Errata ladder: two steps above Lady.", "Marchioness": "Errata ladder: three steps above Lady.",
    "Duchess": "The highest title for women.",
    "Status": "Every character's weight at court; a title step adds 1, an office adds its bonus.",
}

TERM_WORDS: Final[dict[str, str]] = {
    "PC": "Player character: the noble who is you. If he dies, his heir takes over after a while and you lose "
          "half your PP and your cards.",
    "FAC": "A noble aligned with you (your faction).",
    "FARC": "A royal aligned with you: your candidate for the throne.",
    "NC / NRC": "A neutral noble / a neutral royal, aligned with nobody.",
    "EAC / EARC": "An enemy's aligned noble / royal.",
    "IP": "Influence points: the money of the court, spent on titles, offices, tables and bribes.",
    "PP": "Prestige points: your standing. Your PP must cover the Status of your faction, or characters leave.",
    "Monarch's Support": "How firmly the people back the Monarch (20-120); it adds to the Monarch's side when "
                         "someone tries to usurp.",
    "Usurpation": "An attempt to take the throne: your royal's dice, your faction's Status and your Support cards "
                  "against the Monarch's. Failure kills your PC (and your royal, unless it is Thomas).",
    "Order of succession": "Who inherits when the Monarch dies: King George, Prince Alan, Princess Anne, John, "
                           "Edward, Phillip, Almery, Queen Catherine, Alfred.",
    "Thomas (the Pretender)": "Anyone without a royal ally of his own can usurp with Thomas, who adds only half a "
                              "die.",
    "Reign countdown": "A royal ally who takes the throne must keep it three full turns after that turn; then his "
                       "player wins.",
    "Henchman": "A noble of yours who can act for your PC.",
    "Wrongdoer": "A character accused of wrongdoing; he may face a hearing and a trial.",
    "Hearing / Trial": "Justice: a hearing can clear or send to trial; a trial can banish, imprison or execute.",
    "Duel": "Two characters each roll a die; a roll under one's duelling rating kills the other.",
    "Political problems": "Crises the ministers try to resolve; unresolved ones lower the Monarch's Support.",
    "Card window": "Before a roll, players in turn may play cards that change it.",
    "Prestige Tables": "Ten tables (Literary, Fashion, Craft, Romance, Socializing, Patronage, Carousing, Sporting, "
                       "Gambling, Business) that win or lose PP and IP; low rows can bring duels and scandals.",
}


def _help() -> dict[str, dict[str, str]]:
    cards: dict[str, str] = {}
    for k, t in C.CARD_TYPES.items():
        cards[t.name] = card_words(k)
    counters = dict(COUNTER_WORDS)
    offices = {C.OFFICES[k].name: v for k, v in OFFICE_WORDS.items()}
    return {"cards": cards, "counters": counters, "offices": offices, "titles": dict(TITLE_WORDS),
            "terms": dict(TERM_WORDS)}


#: ``GET /help``: plain explanations of cards, counters, offices, titles and terms.
HELP: Final[dict[str, dict[str, str]]] = _help()

# ---------------------------------------------------------------------------
# Decisions: prompts
# ---------------------------------------------------------------------------

_RESULT_WHAT: Final = {"duel": "fight a duel", "scandal": "face the Scandal Table",
                       "wrongdoing": "be accused of wrongdoing", "hearing": "go to a hearing",
                       "trial": "go to trial", "banned": "be banned from Court Balls"}

_CROWN_WORDS: Final = {"royal_death": "a royal death", "famine": "a famine", "intrigue": "an intrigue",
                       "court_ball": "a Court Ball", "two_problems": "two political problems",
                       "one_problem": "a political problem", "scandal": "a scandal", "plague": "the plague"}


@dataclass
class _W:
    """One decision being worded: the seat's view, the decision and its context."""

    v: dict[str, Any]
    d: dict[str, Any]

    @property
    def ctx(self) -> dict[str, Any]:
        return self.d.get("ctx") or {}

    @property
    def me(self) -> int:
        return int(self.v["me"])

    def c(self, key: str) -> str:
        cid = self.ctx.get(key)
        return char_name(cid) if isinstance(cid, str) else "the character"

    def rel(self, key: str) -> int | None:
        r = self.ctx.get(key)
        return None if r is None else (self.me + int(r)) % int(self.v["n_players"])

    def p(self, p: int | None) -> str:
        return player_words(self.v, p)

    def roll(self) -> str:
        return clean(str(self.ctx.get("roll") or "the roll"))


def _crown_event(w: _W) -> str:
    ev = str(w.ctx.get("event", ""))
    if ev == "one_problem" and w.ctx.get("problem"):
        return "the political problem " + table_name(w.ctx["problem"])
    return _CROWN_WORDS.get(ev, _words(ev))


def _usurp_prompt(w: _W) -> str:
    u = w.c("usurper")
    if w.ctx.get("side") == "monarch":
        return (f"Your royal Monarch is being challenged by {u}'s usurpation: add Support cards to the "
                f"defence (the attacker's rating is {w.ctx.get('rating', 'known')}), or stop.")
    return f"You are usurping the throne with {u}: add Support cards one at a time, then roll."


def _duel_prompt(w: _W) -> str:
    if w.ctx.get("required"):
        s = f"A duel must be fought ({_words(w.ctx.get('source', 'a challenge'))}): {w.c('required')} would fight"
        if w.ctx.get("avoid_cost_ip"):
            s += f" unless you pay {w.ctx['avoid_cost_ip']} IP"
        return s + ", or choose who stands in."
    return f"You must fight a duel ({_words(w.ctx.get('source', 'a challenge'))}): choose who fights."


#: kind -> prompt (a format-free function of the worded decision)
PROMPTS: Final[dict[str, Callable[[_W], str]]] = {
    "turn_main": lambda w: (f"Your turn: choose an activity ({w.ctx.get('activities_left', 0)} left this turn) "
                            "or a free action, or end your turn."),
    "use_any_activity": lambda w: (f"You could do '{ACTIVITY_WORDS.get(w.ctx.get('activity', ''), ('it',))[0]}' "
                                   "the normal way or with your Any Activity counter: use the counter?"),
    "choose_draw": lambda w: "Your PC is not free this turn, so you draw only one thing: which?",
    "hand_limit_discard": lambda w: (f"You hold too many cards ({w.ctx.get('over', 1)} over the limit): "
                                     "discard one."),
    "title_character": lambda w: "Buy a title: which of your nobles rises one step?",
    "counselor_character": lambda w: "Which character becomes a Monarch's Counselor?",
    "favor_farc": lambda w: "Court the favor of which of your royal allies?",
    "favor_through_henchman": lambda w: f"Who courts {w.c('farc')}: a henchman, or your PC?",
    "favor_henchman": lambda w: f"Which henchman courts {w.c('farc')}?",
    "henchman_character": lambda w: "Which of your nobles becomes a henchman?",
    "recruit_character": lambda w: "Recruit which character into your faction?",
    "treachery_target": lambda w: "Win which character away from another player by treachery?",
    "treachery_card": lambda w: f"Which card do you use to win over {w.c('target')}?",
    "seducer": lambda w: "Who does the seducing?",
    "seduce_target": lambda w: f"Whom should {w.c('seducer')} seduce?",
    "travel_character": lambda w: "Travel: which of your characters goes?",
    "travel_destination": lambda w: f"Where does {w.c('cid')} travel to?",
    "draw_choice": lambda w: "Draw what (1 IP)?",
    "voluntary_discard": lambda w: "Discard which card?",
    "royal_alignment": lambda w: "Play which Royal Alignment card? That royal becomes your ally.",
    "assassin": lambda w: "Who carries out the assassination?",
    "assassination_target": lambda w: f"Whom should {w.c('assassin')} try to kill?",
    "intrigue_grant": lambda w: "Pay for the attempt with your Intrigue counter or with an Intrigue card?",
    "assassination_card": lambda w: "Which card arms the assassin?",
    "scandal_target": lambda w: "Expose a scandal about whom?",
    "bribe_demand": lambda w: "How many IP does your PC demand as a bribe? The higher, the riskier.",
    "bribe_target": lambda w: "Which neutral office holder do you bribe?",
    "bribe_offerer": lambda w: f"Which of your characters offers the bribe to {w.c('target')}?",
    "bribe_amount": lambda w: f"How many IP do you offer {w.c('target')}?",
    "pardon_target": lambda w: "Pardon: which character returns to normal life?",
    "clemency_ask": lambda w: f"{w.c('target')} was sentenced: ask the Monarch for clemency?",
    "counsel_table": lambda w: ("Counsel the Monarch" + (" (a free counsel)" if w.ctx.get("free") else "")
                                + ": on which matter?"),
    "counsel_choice": lambda w: f"Which counsel do you give on {table_name(w.ctx.get('table'))}?",
    "counsel_target": lambda w: f"Counsel {w.ctx.get('counsel', '')} on {table_name(w.ctx.get('table'))}: "
                                "aimed at whom?",
    "counsel_counselor": lambda w: "Which of your counselors gives the counsel?",
    "counsel_prevent": lambda w: (f"{cap(w.p(w.ctx.get('player')))} wants to counsel the Monarch on "
                                  f"{table_name(w.ctx.get('table'))}: use your counselor to stop it?"),
    "crown_order": lambda w: f"Several Crown events are due: deal with {_crown_event(w)} now?",
    "crown_intrigue": lambda w: (f"Intrigue: take a card at random from {w.p(w.ctx.get('victim'))}'s hand "
                                 f"({w.ctx.get('hand_size', '?')} cards)?"),
    "intrigue_victim": lambda w: "Take a card from whose hand?",
    "court_ball_designate": lambda w: (f"Court Ball: who must {_RESULT_WHAT.get(w.ctx.get('result', ''), 'answer')}"
                                       ", your PC or a henchman?"),
    "court_ball_ban": lambda w: "Court Ball: which of your henchmen is banned from Court Balls?",
    "mourning_discard": lambda w: f"Court mourning: discard {w.ctx.get('left', 1)} more card(s); which one?",
    "death_discard": lambda w: f"Your PC has died: discard {w.ctx.get('left', 1)} more card(s); which one?",
    "funeral_attend": lambda w: f"Attend the funeral of {w.c('deceased')}? Guests roll on the Funeral Table.",
    "prestige_roll_again": lambda w: f"The {table_name(w.ctx.get('table'))} roll allows another try: roll again?",
    "banish_country": lambda w: f"{w.c('target')} is banished: to which country?",
    "escape_target": lambda w: "Escape: which character flees abroad?",
    "escape_card": lambda w: f"Which card helps {w.c('target')} escape?",
    "escape_country": lambda w: f"Where does {w.c('target')} flee?",
    "escape_hide_choice": lambda w: f"{w.c('target')} fled abroad: hide there, or live openly?",
    "extradite_target": lambda w: "Extradite which wrongdoer?",
    "hide_char": lambda w: "Send whom into hiding?",
    "unhide_char": lambda w: "Bring whom out of hiding?",
    "unhide_abroad": lambda w: f"{w.c('target')} leaves hiding abroad: stay there openly, or go home to face justice?",
    "extradite_intrigue": lambda w: f"Extraditing {w.c('target')}: add Intrigue so nobody can stop it?",
    "extradition_veto": lambda w: f"Your ambassador can refuse to hand over {w.c('target')}: veto the extradition?",
    "office_select": lambda w: "Office phase: which vacant office is filled next?",
    "office_fill": lambda w: (f"The office {office_name(w.ctx.get('office'))} is vacant: put one of your "
                              f"characters in it for {w.ctx.get('cost', '?')} IP, or pass?"),
    "dissolve_government": lambda w: "Your royal reigns: dissolve the government and appoint new office holders?",
    "dissolve_office": lambda w: f"Appoint a new office holder ({w.ctx.get('left', 1)} left): which office?",
    "dissolve_char": lambda w: f"Who becomes {office_name(w.ctx.get('office'))}?",
    "fill_office_office": lambda w: "Fill which vacant office?",
    "fill_office_char": lambda w: f"Who becomes {office_name(w.ctx.get('office'))}?",
    "foreign_support_country": lambda w: "Ask which country for its support?",
    "fandonian_support_card": lambda w: "Seek the support of which Fandonian group?",
    "emissary_character": lambda w: "Who becomes an emissary?",
    "emissary_country": lambda w: f"Send {w.c('target')} as emissary to which country?",
    "blackmail_choice": lambda w: (f"Blackmail {w.p(w.rel('victim_rel'))} (1 IP, or you take a card from his "
                                   "hand), or just take a card?"),
    "blackmail_pay": lambda w: (f"{cap(w.p(w.rel('blackmailer_rel')))} blackmails you: pay 1 IP, or let "
                                "him draw a card from your hand?"),
    "blackmail_keep": lambda w: f"You drew {card_name(w.ctx.get('card'))}: keep it or discard it?",
    "prestige_table": lambda w: "Roll on which Prestige Table?",
    "prestige_designate": lambda w: (f"{clean(str(w.ctx.get('why', 'A table result')))}: who must "
                                     f"{_RESULT_WHAT.get(w.ctx.get('result', ''), 'answer')}?"),
    "problem_order": lambda w: "Political problems: which one is dealt with next?",
    "problem_leave_unresolved": lambda w: (f"Your minister {w.c('minister')} faces "
                                           f"{table_name(w.ctx.get('problem'))}: leave it unresolved on purpose?"),
    "declare_modifier": lambda w: (f"Before the {w.roll()}: you have a modifier of {w.ctx.get('amount', 1)} "
                                   f"({clean(str(w.ctx.get('why', 'yours')))}). Add it, subtract it, or neither?"),
    "card_window": lambda w: f"The {w.roll()} is about to be rolled: play a card to change it?",
    "card_sign": lambda w: (f"Your {card_name(w.ctx.get('card'))} card changes the {w.roll()} by "
                            f"{w.ctx.get('amount', 1)}: up or down?"),
    "propose_proposer": lambda w: "Who proposes marriage?",
    "propose_proposee": lambda w: f"Whom does {w.c('proposer')} propose to?",
    "propose_use_auto": lambda w: (f"{w.c('proposer')} proposes to {w.c('proposee')}: use your sure acceptance "
                                   "(True Love) for it?"),
    "wedding_pair": lambda w: "Which engaged couple marries?",
    "wedding_attend": lambda w: (f"{cap(w.p(w.ctx.get('host')))} holds a wedding: attend? Guests roll on "
                                 "the Socializing Table."),
    "duel_fighter": _duel_prompt,
    "duel_card_target": lambda w: "Your Treachery card in the duel: whose die does it change?",
    "ri_elope": lambda w: f"{w.c('proposer')} and {w.c('proposee')} may elope and marry at once: do it?",
    "ri_elope_romance": lambda w: "After the elopement you may roll on the Romance Table (free): roll?",
    "marriage_spouse": lambda w: (f"Bring your PC's spouse {w.c('spouse')} along to the "
                                  f"{table_name(w.ctx.get('table'))} and roll twice?"),
    "hearing_hiding": lambda w: f"{w.c('target')} is called to a hearing while in hiding: stay hidden?",
    "hide_from_hearing": lambda w: f"{w.c('target')} is called to a hearing: go into hiding instead?",
    "choose_judge": lambda w: f"Which judge hears the case of {w.c('target')}?",
    "suicide_char": lambda w: "Which of your captive characters takes his own life?",
    "prison_death_pay": lambda w: (f"{w.c('target')} may die in prison (a roll of 11-12): pay 1 IP to make "
                                   "that impossible?"),
    "pc_advantage_table": lambda w: "Your PC's advantage: +1 on which Prestige Table?",
    "pc_advantage_office": lambda w: "Your PC's advantage: put him in which office?",
    "sweet_charity": lambda w: "You have no IP: beg for charity (a roll on the Charity Table)?",
    "usurp_farc": lambda w: "Usurp the throne with which royal?",
    "usurp_support": _usurp_prompt,
    "farc_pardon": lambda w: "Your royal Monarch pardons whom?",
    "pp_limit_lose": lambda w: (f"Your PP ({w.ctx.get('pp', '?')}) no longer cover your faction (it needs "
                                f"{w.ctx.get('required', '?')}): give up a character."),
    "halt": lambda w: "The position is set up: continue?",
}

#: the rule a kind follows (for the options' ``rule`` when nothing more precise is known)
KIND_RULES: Final[dict[str, str]] = {
    "turn_main": "§13", "use_any_activity": "§12.3.1", "choose_draw": "§10", "hand_limit_discard": "§14.2.1",
    "title_character": "§13.4.1", "counselor_character": "§13.4.3", "favor_farc": "§13.4.4",
    "favor_through_henchman": "§13.4.4", "favor_henchman": "§13.4.4", "henchman_character": "§13.4.7",
    "recruit_character": "§13.4.13", "treachery_target": "§13.4.14", "treachery_card": "§13.4.14",
    "seducer": "§13.4.15", "seduce_target": "§13.4.15", "travel_character": "§13.4.18",
    "travel_destination": "§13.4.18", "draw_choice": "§13.4.19", "voluntary_discard": "§14.2.1",
    "royal_alignment": "§14.5.19", "assassin": "§13.4.8", "assassination_target": "§13.4.8",
    "intrigue_grant": "§14.5.7", "assassination_card": "§13.4.8", "scandal_target": "§13.4.9",
    "bribe_demand": "ES §13.4.20", "bribe_target": "ES §13.4.20", "bribe_offerer": "ES §13.4.20",
    "bribe_amount": "ES §13.4.20", "pardon_target": "§13.4.5", "clemency_ask": "§38 Clemency",
    "counsel_table": "§15", "counsel_choice": "§15", "counsel_target": "§15", "counsel_counselor": "§15",
    "counsel_prevent": "§38", "crown_order": "§8.4", "crown_intrigue": "§8.4.3", "intrigue_victim": "§13.4.12",
    "court_ball_designate": "§8.4.4", "court_ball_ban": "§8.4.4", "mourning_discard": "§9.4",
    "death_discard": "§31.5", "funeral_attend": "§38 Funerals", "prestige_roll_again": "§13.4.17",
    "banish_country": "§29", "escape_target": "§13.4.10", "escape_card": "§13.4.10", "escape_country": "§13.4.10",
    "escape_hide_choice": "ES §24.7", "extradite_target": "§13.4.11", "hide_char": "§24.2", "unhide_char": "§24.8",
    "unhide_abroad": "ES §20.8", "extradite_intrigue": "ES §25.3", "extradition_veto": "ES §25.2",
    "office_select": "§6", "office_fill": "§6", "dissolve_government": "ES §36.14", "dissolve_office": "ES §36.14",
    "dissolve_char": "ES §36.14", "fill_office_office": "§13.4.2", "fill_office_char": "§13.4.2",
    "foreign_support_country": "§38", "fandonian_support_card": "§38", "emissary_character": "§38",
    "emissary_country": "§38", "blackmail_choice": "§38 Blackmail", "blackmail_pay": "§38 Blackmail",
    "blackmail_keep": "§38 Blackmail", "prestige_table": "§13.4.17", "prestige_designate": "§17.2.5",
    "problem_order": "§7", "problem_leave_unresolved": "§7.4", "declare_modifier": "§2.3", "card_window": "§14.3",
    "card_sign": "§2.3", "propose_proposer": "§18.4", "propose_proposee": "§18.4", "propose_use_auto": "§18.4.5",
    "wedding_pair": "§13.4.16", "wedding_attend": "§13.4.16", "duel_fighter": "§19", "duel_card_target": "§19.9",
    "ri_elope": "§38 Romantic Intrigue", "ri_elope_romance": "§38 Romantic Intrigue",
    "marriage_spouse": "ES §38 Marriage", "hearing_hiding": "§24", "hide_from_hearing": "§24",
    "choose_judge": "§28.2", "suicide_char": "§29.9", "prison_death_pay": "ES §30.10",
    "pc_advantage_table": "§38", "pc_advantage_office": "§38", "sweet_charity": "§38 Sweet Charity",
    "usurp_farc": "§36.2", "usurp_support": "§36.4", "farc_pardon": "§36.10.4", "pp_limit_lose": "§35.5",
}


def prompt(view: dict[str, Any], decision: dict[str, Any] | None = None) -> str:
    """What the seat's pending decision asks, in one plain sentence."""
    d = decision if decision is not None else view.get("decision")
    if not d:
        return ""
    w = _W(view, d)
    f = PROMPTS.get(d["kind"])
    if f is None:
        return f"Decide: {_words(d['kind'])}."
    return f(w)


# ---------------------------------------------------------------------------
# Decisions: options
# ---------------------------------------------------------------------------

#: kind -> what choosing character {c} does
CHAR_VERBS: Final[dict[str, str]] = {
    "title_character": "Buy a title for {c}", "counselor_character": "Make {c} a Monarch's Counselor",
    "favor_farc": "Court {c}", "favor_henchman": "Send {c} to court {farc}", "henchman_character": "Make {c} a henchman",
    "recruit_character": "Recruit {c}", "treachery_target": "Win {c} over by treachery",
    "seducer": "{c} does the seducing", "seduce_target": "Seduce {c}", "travel_character": "{c} travels",
    "assassin": "{c} is the assassin", "assassination_target": "Try to kill {c}",
    "scandal_target": "Expose a scandal about {c}", "bribe_target": "Bribe {c}", "bribe_offerer": "{c} offers the bribe",
    "pardon_target": "Pardon {c}", "counsel_target": "Aim the counsel at {c}", "counsel_counselor": "{c} gives the counsel",
    "court_ball_designate": "{c} must {what}", "court_ball_ban": "Ban {c} from Court Balls",
    "escape_target": "{c} escapes", "extradite_target": "Extradite {c}", "hide_char": "Send {c} into hiding",
    "unhide_char": "Bring {c} out of hiding", "office_fill": "Put {c} in the office for {cost} IP",
    "dissolve_char": "Appoint {c} as {office}", "fill_office_char": "Appoint {c} as {office}",
    "emissary_character": "Make {c} an emissary", "prestige_designate": "{c} must {what}",
    "propose_proposer": "{c} proposes", "propose_proposee": "{proposer} proposes to {c}",
    "wedding_pair": "{c} marries {partner}", "duel_fighter": "{c} fights the duel",
    "duel_card_target": "Change the die of {c}", "choose_judge": "{c} judges the case",
    "suicide_char": "{c} takes his own life", "usurp_farc": "Usurp the throne with {c}",
    "farc_pardon": "Pardon {c}", "pp_limit_lose": "Give up {c}: your PP no longer cover your faction",
}

#: kind -> (yes label, no label)
YES_NO: Final[dict[str, tuple[str, str]]] = {
    "use_any_activity": ("Use the Any Activity counter", "Do it the normal way"),
    "favor_through_henchman": ("A henchman courts {farc}", "Your PC courts {farc}"),
    "intrigue_grant": ("Use your Intrigue counter", "No"),
    "clemency_ask": ("Ask for clemency for {target}", "Do not ask"),
    "counsel_prevent": ("Stop the counsel (his turn ends)", "Let him counsel"),
    "crown_order": ("Deal with it now", "Deal with another one first"),
    "crown_intrigue": ("Take a card", "Leave his hand alone"),
    "funeral_attend": ("Attend the funeral", "Stay away"),
    "prestige_roll_again": ("Roll again", "Keep this result"),
    "escape_hide_choice": ("{target} hides there", "{target} lives openly abroad"),
    "unhide_abroad": ("{target} stays abroad openly", "{target} goes home to face justice"),
    "extradite_intrigue": ("Add your Intrigue counter", "Extradite without Intrigue"),
    "extradition_veto": ("Veto the extradition", "Let it happen"),
    "dissolve_government": ("Dissolve the government", "Keep the government"),
    "blackmail_choice": ("Blackmail him", "Just take a card"),
    "blackmail_pay": ("Pay 1 IP", "Refuse: he draws a card from your hand"),
    "blackmail_keep": ("Keep the card", "Discard it"),
    "problem_leave_unresolved": ("Leave it unresolved on purpose", "Try to resolve it"),
    "propose_use_auto": ("Use the sure acceptance", "Roll for it"),
    "wedding_attend": ("Attend the wedding", "Stay away"),
    "ri_elope": ("Elope and marry now", "Stay engaged"),
    "ri_elope_romance": ("Roll on the Romance Table", "Do not roll"),
    "marriage_spouse": ("Bring {spouse} along: roll twice", "Go alone: roll once"),
    "hearing_hiding": ("Stay in hiding", "Come out and face the hearing"),
    "hide_from_hearing": ("Go into hiding instead", "Face the hearing"),
    "prison_death_pay": ("Pay 1 IP", "Do not pay"),
    "sweet_charity": ("Beg for charity", "Do not beg"),
    "halt": ("Continue", "Stop"),
}

#: kind -> what "pass" means
PASS_WORDS: Final[dict[str, tuple[str, str | None]]] = {
    "turn_main": ("End your turn", "Stop doing activities; the next player goes."),
    "card_window": ("Play no card", None),
    "declare_modifier": ("Neither: leave the roll alone", None),
    "counsel_table": ("Give no counsel", None),
    "office_fill": ("Pass: take no office", None),
    "dissolve_office": ("Stop appointing", None),
    "pc_advantage_office": ("Keep your PC out of office", None),
    "propose_proposer": ("Let the sure acceptance go", None),
    "halt": ("Continue", None),
}


def _confirm(title: str, odds: float | None, lose: str) -> dict[str, Any]:
    return {"title": title, "odds": None if odds is None else round(float(odds), 4), "lose": lose}


_PC_DEATH: Final = ("your PC dies (you lose half your PP and IP and your whole hand; his heir enters after a "
                    "while)")


def _usurp_lose(cid: str) -> str:
    royal = "" if cid == "thomas" else f" and {char_name(cid)} is killed too"
    return f"If it fails, {_PC_DEATH}{royal}, and every Support card you played is lost."


def _prestige_confirm(view: dict[str, Any], table: str, mod: int | None = None) -> dict[str, Any] | None:
    m = _prestige_mod(view, table) if mod is None else mod
    risk = prestige_risk(table, m)
    if risk <= 0:
        return None
    name = table_name(table)
    return _confirm(f"Roll on the {name} Table?", None,
                    f"With your modifier {m:+d}, a roll has about {_pct(risk)} chance of a bad row that makes your "
                    "PC or a henchman fight a duel, face a scandal or go before justice (a duel or a trial can "
                    "cost his life).")


def _char_option(w: _W, cid: str, kind: str) -> dict[str, Any]:
    v, ctx = w.v, w.ctx
    brief = char_brief(v, cid)
    fmt = {"c": brief, "farc": w.c("farc"), "office": office_name(ctx.get("office")),
           "cost": ctx.get("cost", "?"), "what": _RESULT_WHAT.get(str(ctx.get("result", "")), "answer"),
           "proposer": w.c("proposer"), "partner": "the partner"}
    if kind == "wedding_pair":
        for a, b in ctx.get("pairs") or []:
            if a == cid:
                fmt["partner"] = char_name(b)
    label = CHAR_VERBS.get(kind, "Choose {c}").format(**fmt)
    detail = None
    confirm = None
    c = v["chars"][cid]
    if kind == "title_character":
        nt = _next_title(cid, c, v)
        if nt:
            detail = f"{char_name(cid)} becomes {nt[0]} for {nt[1]} IP; his Status rises by 1."
    elif kind == "assassination_target" and v.get("monarch") == cid:  # the attempt was confirmed when chosen
        detail = f"The Monarch is harder to reach: {_pct(assassination_odds(True))} before the others' cards."
    elif kind == "usurp_farc":
        odds = usurpation_chance(v, w.me, cid)
        detail = f"{_pct(odds)} to succeed with every Support card you hold played."
        confirm = _confirm(f"Usurp the throne with {char_name(cid)}?", odds, _usurp_lose(cid))
    elif kind == "duel_fighter":
        rating = C.NOBLES[cid].dueling if cid in C.NOBLES else None
        if rating:
            detail = (f"Duelling rating {rating}: he kills his opponent on a die roll under {rating} "
                      f"({_pct((rating - 1) / 6)}); the opponent is drawn afterwards.")
        who = "your PC" if c["is_pc"] else char_name(cid)
        lose = f"{char_name(cid)} may be killed." + (f" If so, {_PC_DEATH}." if c["is_pc"] else "")
        confirm = _confirm(f"Send {who} to fight the duel?", None, lose)
    elif kind == "suicide_char":
        confirm = _confirm(f"{char_name(cid)} takes his own life?", 0.0,
                           f"{char_name(cid)} dies" + (f": {_PC_DEATH}." if c["is_pc"] else "."))
    elif kind == "pp_limit_lose":
        detail = (f"A married noble who leaves dies; others become neutral. Your PP: {ctx.get('pp', '?')}, "
                  f"needed: {ctx.get('required', '?')}.")
    elif kind == "recruit_character":
        detail = f"{char_name(cid)} joins your faction; your PP must cover his Status {v['status'][cid]}."
    return {"label": label, "detail": detail, "confirm": confirm}


def _action_option(w: _W, a: int) -> dict[str, Any]:
    """label, detail, rule, confirm of action ``a`` in this decision."""
    n = NAME[a]
    v, ctx, kind = w.v, w.ctx, w.d["kind"]
    rule = KIND_RULES.get(kind)
    detail: str | None = None
    confirm: dict[str, Any] | None = None
    fmt = {"farc": w.c("farc"), "target": w.c("target"), "spouse": w.c("spouse")}
    if n.startswith("act_"):
        key = n[4:]
        label, detail = ACTIVITY_WORDS.get(key, (clean(_words(key)).capitalize(), None))
        rule = rule_of(_describe(a)) or rule
        if key == "assassinate":
            odds = assassination_odds()
            confirm = _confirm("Attempt an assassination?", odds,
                               "Your Assassination card is spent; on a bad roll the assassin is caught and faces "
                               "justice (a trial can end in execution).")
    elif n.startswith("free_"):
        key = n[5:]
        label, detail = FREE_WORDS.get(key, (clean(_words(key)).capitalize(), None))
        rule = rule_of(_describe(a)) or rule
        if key == "buy_pp":
            label = f"Buy 1 PP for {pp_price(v)} IP"
        elif key == "usurp":
            cid, odds = best_usurpation(v, w.me)
            cands = usurpers(v, w.me)
            cid = cid or (cands[0] if cands else "thomas")
            label = f"Usurp the throne (best chance {_pct(odds)}, with {char_name(cid)})"
            confirm = _confirm(f"Attempt to usurp the throne of {char_name(v.get('monarch'))}?", odds, _usurp_lose(cid))
        elif key == "abdicate":
            confirm = _confirm("Abdicate?", None, "Your royal leaves the throne and your alliance; the count "
                                                  "toward victory ends.")
        elif key == "suicide":
            confirm = _confirm("End a captive's life?", None, "The character you then choose dies.")
    elif n.startswith("char_"):
        r = _char_option(w, n[5:], kind)
        label, detail, confirm = r["label"], r["detail"], r["confirm"]
    elif n in ("yes", "no"):
        yes, no = YES_NO.get(kind, ("Yes", "No"))
        label = (yes if n == "yes" else no).format(**fmt)
        if n == "yes":
            confirm, detail = _yes_risk(w, kind)
    elif n == "pass":
        label, detail = PASS_WORDS.get(kind, ("Pass", None))
        if kind == "duel_fighter" and ctx.get("avoid_cost_ip"):
            label = f"Pay {ctx['avoid_cost_ip']} IP: no duel is fought"
        elif kind == "usurp_support":
            if ctx.get("side") == "monarch":
                label = "Add no more cards: roll the defence"
            else:
                cid = str(ctx.get("usurper") or "thomas")
                odds = usurpation_chance(v, w.me, cid, with_hand=False)
                label = f"Roll the usurpation now ({_pct(odds)} with the cards played)"
                confirm = _confirm(f"Roll the usurpation with {char_name(cid)}?", odds, _usurp_lose(cid))
    elif n.startswith("play_intrigue_as_"):
        t = n[len("play_intrigue_as_"):]
        label = f"Play an Intrigue card as {card_name(t)}"
        detail = card_words(t)
        rule = "§14.5.7"
    elif n.startswith("play_"):
        t = n[5:]
        label, detail = _play_label(w, t)
    elif n.startswith("discard_"):
        t = n[8:]
        label = f"Discard {card_name(t)}"
        detail = card_words(t)
    elif n in ("sign_plus", "sign_minus"):
        amt = ctx.get("amount") or 1
        if kind == "card_sign":
            label = (f"Up: +{amt} on the {w.roll()}" if n == "sign_plus" else f"Down: -{amt} on the {w.roll()}")
        else:
            label = (f"Add {amt} to the {w.roll()}" if n == "sign_plus" else f"Subtract {amt} from the {w.roll()}")
    elif n.startswith("office_"):
        o = n[7:]
        on = office_name(o)
        label = {"office_select": f"Fill {on} next", "fill_office_office": f"Fill the office {on}",
                 "dissolve_office": f"Appoint a new {on}",
                 "pc_advantage_office": f"Put your PC in the office {on}"}.get(kind, on)
        detail = OFFICE_WORDS.get(o)
        holder = next((cid for cid, c in v["chars"].items() if c["office"] == o), None)
        if holder and kind == "pc_advantage_office":
            detail = f"{char_name(holder)} gives the office up."
    elif n.startswith("prestige_"):
        t = n[9:]
        T = PRESTIGE_TABLES[t]
        if kind == "pc_advantage_table":
            label = f"+1 on the {T['name']} Table"
        else:
            cost = int(T.get("cost_ip") or 0)
            label = f"Roll on the {T['name']} Table" + (f" ({cost} IP)" if cost else "")
            m = _prestige_mod(v, t)
            detail = f"Your modifier on this table: {m:+d}."
            confirm = _prestige_confirm(v, t, m)
    elif n.startswith("counsel_table_"):
        t = n[len("counsel_table_"):]
        label = f"Counsel on {table_name(t)}"
    elif n.startswith("counsel_") and n[8:].isdigit():
        i = int(n[8:])
        cs = COUNSELING_TABLES.get(str(ctx.get("table")), {}).get("counsels", [])
        if 0 < i <= len(cs):
            label = f"Counsel {i}: {clean(cs[i - 1]['text'])}"
            detail = clean(cs[i - 1]["effect_text"]) or None
        else:
            label = f"Counsel number {i}"
    elif n.startswith("country_"):
        cn = country_name(n[8:])
        label = {"banish_country": f"Banish him to {cn}", "escape_country": f"Flee to {cn}",
                 "travel_destination": f"Go to {cn}", "foreign_support_country": f"Ask {cn} for support",
                 "emissary_country": f"Send the emissary to {cn}"}.get(kind, cn)
    elif n.startswith("player_rel_"):
        seat = (w.me + int(n[11:])) % int(v["n_players"])
        pl = v["players"][seat]
        who = player_words(v, seat)
        label = {"intrigue_victim": f"Take a card from {who}'s hand ({pl['hand_size']} cards)"}.get(kind, who)
    elif n.startswith("draw_"):
        what = n[5:]
        label = {"loyalty": "Draw a Loyalty counter", "opportunity": "Draw an Opportunity counter",
                 "event": "Draw an Event card"}.get(what, f"Draw {_words(what)}")
        detail = {"loyalty": COUNTER_WORDS["Loyalty counter"], "opportunity": COUNTER_WORDS["Opportunity counter"],
                  "event": "A card for your hand."}.get(what)
    elif n.startswith("problem_"):
        label = f"Deal with {table_name(n[8:])} next"
    elif n.startswith("amount_"):
        k = int(n[7:])
        if kind == "bribe_demand":
            label = f"Demand {k} IP"
            odds = (6 - k) / 6
            confirm = _confirm(f"Demand a bribe of {k} IP?", odds,
                               "If the die does not beat the bribe, your PC gets nothing and is accused of "
                               "wrongdoing (a hearing or a trial may follow).")
        else:
            label = f"Offer {k} IP"
    elif n.startswith("fandonian_support_"):
        t = n[len("fandonian_support_"):]
        label = f"Seek the {card_name(t)} card"
        detail = card_words(t)
    else:
        label = clean(_describe(a))
    return {"id": a, "name": n, "label": label, "detail": detail, "rule": rule, "confirm": confirm}


def _describe(a: int) -> str:
    from .engine.core.actions import describe

    return describe(a)


def _play_label(w: _W, t: str) -> tuple[str, str | None]:
    kind, v = w.d["kind"], w.v
    if kind == "royal_alignment" and t.startswith("ra_"):
        return f"Ally with {char_name(t[3:])}", card_words(t)
    if kind == "usurp_support":
        side = w.ctx.get("side")
        who = w.me if side != "monarch" else w.me
        try:
            mult, why = support_multiplier(v, who, t)
        except ValueError:
            return f"Play {card_name(t)}", card_words(t)
        avg = 3.5 * mult
        return (f"Add {card_name(t)} (a die times {mult}, about {avg:g} on average)",
                f"Worth a die times {mult} ({clean(why)}).")
    if kind in ("treachery_card", "assassination_card", "escape_card"):
        return f"Use {a_an(card_name(t))} card", card_words(t)
    if kind == "card_window":
        return f"Play {card_name(t)} on the {w.roll()}", card_words(t)
    return f"Play {card_name(t)}", card_words(t)


def _yes_risk(w: _W, kind: str) -> tuple[dict[str, Any] | None, str | None]:
    """The confirmation (and detail) of a risky "yes"."""
    v, ctx = w.v, w.ctx
    if kind == "prestige_roll_again":
        t = str(ctx.get("table"))
        if t in PRESTIGE_TABLES:
            return _prestige_confirm(v, t, int(ctx.get("mod") or 0)), None
    if kind in ("wedding_attend",):
        return _prestige_confirm(v, "socializing", int(v["players"][w.me]["prestige_mods"].get("socializing", 0))), None
    if kind == "ri_elope_romance":
        return _prestige_confirm(v, "romance", int(v["players"][w.me]["prestige_mods"].get("romance", 0))), None
    if kind == "funeral_attend":
        risk = _p_2d6(lambda t: "scandal" in _row(FUNERAL, t).get("special", ()), 0, FUNERAL["lo"], FUNERAL["hi"])
        return _confirm("Attend the funeral?", None,
                        f"About {_pct(risk)} chance of a faux pas that puts your PC before the Scandal Table; "
                        "other rows cost or win a few PP or IP."), None
    if kind == "clemency_ask":
        cid = ctx.get("target")
        mine = isinstance(cid, str) and cid in v["chars"] and v["chars"][cid]["owner"] == w.me
        good = _p_2d6(lambda t: _row(CLEMENCY, t).get("verdict") in ("pardoned", "new_trial"))
        bad = _p_2d6(lambda t: _row(CLEMENCY, t).get("verdict") == "executed")
        detail = f"{_pct(good)} for a pardon or a new trial, {_pct(bad)} that he is executed at once."
        if mine:
            return _confirm(f"Ask for clemency for {char_name(cid)}?", good,
                            f"On a 2 or 3 ({_pct(bad)}) the Monarch has {char_name(cid)} executed at once."), detail
        return None, detail
    return None, None


def option_words(view: dict[str, Any], decision: dict[str, Any], a: int) -> dict[str, Any]:
    """``{id, name, label, detail, rule, confirm}`` of option ``a`` of the seat's decision."""
    return _action_option(_W(view, decision), a)


def decision_words(view: dict[str, Any], decision: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The seat's decision for people: ``{kind, ctx, prompt, options: [{id, name, label, detail, rule,
    confirm}]}`` (None when the seat has no decision)."""
    d = decision if decision is not None else view.get("decision")
    if not d:
        return None
    w = _W(view, d)
    return {"kind": d["kind"], "ctx": d.get("ctx") or {}, "prompt": prompt(view, d),
            "options": [_action_option(w, a) for a in d["options"]]}


# ---------------------------------------------------------------------------
# The race for the throne
# ---------------------------------------------------------------------------


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
        where = f"{_ordinal(line.index(cid) + 1)} in line" if cid in line else "not in the line of succession"
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
    s = f"{_who(top['seat'], me)} {'are' if top['seat'] == me else 'is'} closest to the throne: {_pct(top['odds'])} " \
        "to usurp now"
    if len(ranked) > 1:
        nxt = ranked[1]
        gap = round((top["odds"] - nxt["odds"]) * 100)
        s += (f", level with {_who(nxt['seat'], me)}" if gap == 0 else
              f", {gap} points ahead of {_who(nxt['seat'], me)} ({_pct(nxt['odds'])})")
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
