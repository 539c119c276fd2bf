"""The fixed, append-only action catalogue.

Every choice any player can make is one integer id from this catalogue.  Big
choices are split into steps (activity, then target, then card, then sign), so
each step is one id.  Ids never change meaning: new entries are only ever
appended at the end (see ``docs/actions.md``).

Players are named *relative to the decider*: ``player_rel_k`` is the player k
seats to the decider's left (1..5), so one policy serves every seat.  Counsels
are numbered within the table being consulted (``counsel_1`` .. ``counsel_10``),
the table being part of the decision's context.
"""

from __future__ import annotations

from typing import Final

from ..data.components import (
    ALL_CHARACTER_IDS,
    CARD_TYPE_KEYS,
    CARD_TYPES,
    COUNTRIES,
    COUNTRY_NAMES,
    INTRIGUE_SUBSTITUTES,
    OFFICE_KEYS,
    OFFICES,
    character_name,
)

#: The nineteen activities of §13.4, in rule order.
ACTIVITIES: Final[tuple[tuple[str, str], ...]] = (
    ("acquire_title", "Acquire A Title (§13.4.1)"),
    ("fill_office", "Fill A Vacant Office (§13.4.2)"),
    ("become_counselor", "Become A Monarch's Counselor (§13.4.3)"),
    ("court_favor", "Court The Favor Of A FARC (§13.4.4)"),
    ("pardon", "Render A Pardon (§13.4.5)"),
    ("amnesty", "Announce An Amnesty (§13.4.6)"),
    ("create_henchman", "Create A Henchman (§13.4.7)"),
    ("assassinate", "Conduct An Assassination Attempt (§13.4.8)"),
    ("expose_scandal", "Expose A Scandal (§13.4.9)"),
    ("escape", "Escape (§13.4.10)"),
    ("extradite", "Extradite A Wrongdoer (§13.4.11)"),
    ("intrigue_card", "Intrigue An Opponent's Card (§13.4.12)"),
    ("recruit", "Recruit Characters (§13.4.13)"),
    ("recruit_treachery", "Recruit A Character By Treachery (§13.4.14)"),
    ("seduce", "Seduce A Character (§13.4.15)"),
    ("hold_wedding", "Hold A Wedding (§13.4.16)"),
    ("prestige", "Consult The Prestige Tables (§13.4.17)"),
    ("travel", "Travel (§13.4.18)"),
    ("draw", "Draw A Counter Or Card (§13.4.19)"),
)

#: Things a player may do during his Player Turn that are not activities.
FREE_ACTIONS: Final[tuple[tuple[str, str], ...]] = (
    ("propose", "Propose a marriage (§18.4)"),
    ("buy_pp", "Buy One PP with IP (§35.8)"),
    ("buy_modifier", "Buy a +1 Prestige Table modifier for Two IP (§13.4.17)"),
    ("royal_alignment", "Play a Royal Alignment card (§14.5.19)"),
    ("hide", "Send a character into hiding (§24.2)"),
    ("unhide", "Bring a character out of hiding (§24.8)"),
    ("usurp", "Attempt to usurp the Monarch (§36.1)"),
    ("discard", "Voluntarily discard an Event card (§14.2.1)"),
    ("suicide", "Have a banished/imprisoned PC or FAC commit suicide (§29.9, §30.10)"),
    ("play_extra_activity", "Play an Extra Activity card (§14.5.20)"),
    ("farc_pardon", "FARC Monarch's pardon or lifting of a ban (§36.10.4)"),
)

PRESTIGE_TABLES: Final[tuple[str, ...]] = (
    "literary", "fashion", "craft", "romance", "socializing",
    "patronage", "carousing", "sporting", "gambling", "business",
)
COUNSEL_TABLES: Final[tuple[str, ...]] = (
    "court_ball", "intrigue", "scandal",
    "banking_crisis", "economic_crisis", "international_incident", "foreign_war",
    "treason_trials", "pirates", "townsmen_unrest", "peasant_unrest",
    "agriculture_crisis", "natural_disaster",
)
PROBLEMS: Final[tuple[str, ...]] = COUNSEL_TABLES[3:]
MAX_COUNSELS: Final = 10
MAX_OPPONENTS: Final = 5


def _build() -> list[tuple[str, str]]:
    cat: list[tuple[str, str]] = [
        ("pass", "Pass / done / decline"),
        ("yes", "Yes / accept"),
        ("no", "No / refuse"),
    ]
    cat += [(f"act_{k}", d) for k, d in ACTIVITIES]
    cat += [(f"free_{k}", d) for k, d in FREE_ACTIONS]
    cat += [(f"char_{c}", f"Choose {character_name(c)}") for c in ALL_CHARACTER_IDS]
    cat += [(f"play_{k}", f"Play a '{CARD_TYPES[k].name}' card") for k in CARD_TYPE_KEYS]
    cat += [(f"play_intrigue_as_{k}", f"Play an 'Intrigue' card as '{CARD_TYPES[k].name}' (§14.5.7)")
            for k in INTRIGUE_SUBSTITUTES]
    cat += [(f"discard_{k}", f"Discard a '{CARD_TYPES[k].name}' card") for k in CARD_TYPE_KEYS]
    cat += [
        ("sign_plus", "Modify the roll by plus (+)"),
        ("sign_minus", "Modify the roll by minus (-)"),
    ]
    cat += [(f"office_{k}", f"Choose the office {OFFICES[k].name}") for k in OFFICE_KEYS]
    cat += [(f"prestige_{k}", f"Consult the {k} Prestige Table") for k in PRESTIGE_TABLES]
    cat += [(f"counsel_table_{k}", f"Counsel on the {k} Counseling Table") for k in COUNSEL_TABLES]
    cat += [(f"counsel_{i}", f"Make counsel number {i} of the chosen table") for i in range(1, MAX_COUNSELS + 1)]
    cat += [("country_fandonia", "Choose Fandonia")]
    cat += [(f"country_{k}", f"Choose {COUNTRY_NAMES[k]}") for k in COUNTRIES]
    cat += [(f"player_rel_{k}", f"Choose the player {k} seat(s) to your left") for k in range(1, MAX_OPPONENTS + 1)]
    cat += [
        ("draw_loyalty", "Draw a Loyalty counter"),
        ("draw_opportunity", "Draw an Opportunity counter"),
        ("draw_event", "Draw an Event card"),
    ]
    cat += [(f"problem_{k}", f"Choose the political problem {k}") for k in PROBLEMS]
    # issue 5, activities group: §38 optional activities, ES §13.4.20 bribery (errata)
    cat += [
        ("act_foreign_support", "Gain Foreign Support (§38 optional)"),
        ("act_fandonian_support", "Gain Fandonian Support (§38 optional)"),
        ("act_emissary", "Make a character an emissary (§38 optional Emissaries)"),
        ("free_take_bribe", "Demand a bribe (ES §13.4.20, errata)"),
        ("free_offer_bribe", "Offer a bribe to a NC Office Holder (ES §13.4.20, errata)"),
    ]
    cat += [(f"amount_{k}", f"Choose the amount {k}") for k in range(1, 7)]
    cat += [(f"fandonian_support_{k}", f"Try for the '{CARD_TYPES[k].name}' card(s) (§38)")
            for k in ("peasant_support", "townsmen_support", "clergy_support", "army_support",
                      "navy_support", "merchant_support", "trade_guild_support")]
    # issue 5, counsel group: §38 optional Abdication (usurpation.py)
    cat += [("free_abdicate", "Abdicate: the FARC Monarch becomes a NRC (§38 optional Abdication)")]
    return cat


CATALOGUE: Final[tuple[tuple[str, str], ...]] = tuple(_build())
NUM_ACTIONS: Final[int] = len(CATALOGUE)
ID: Final[dict[str, int]] = {name: i for i, (name, _) in enumerate(CATALOGUE)}
NAME: Final[tuple[str, ...]] = tuple(name for name, _ in CATALOGUE)
assert len(ID) == NUM_ACTIONS, "duplicate action names"

PASS: Final = ID["pass"]
YES: Final = ID["yes"]
NO: Final = ID["no"]
SIGN_PLUS: Final = ID["sign_plus"]
SIGN_MINUS: Final = ID["sign_minus"]


def act(name: str) -> int:
    """Action id of a catalogue name (raises KeyError naming it)."""
    try:
        return ID[name]
    except KeyError:
        raise KeyError(f"no action named {name!r} in the catalogue") from None


def char_action(cid: str) -> int:
    return ID[f"char_{cid}"]


def action_char(a: int) -> str:
    name = NAME[a]
    assert name.startswith("char_"), name
    return name[5:]


def suffix(a: int, prefix: str) -> str:
    """The part of action ``a``'s name after ``prefix`` (e.g. 'office_' -> office key)."""
    name = NAME[a]
    if not name.startswith(prefix):
        raise ValueError(f"action {a} ({name}) is not a {prefix!r} action")
    return name[len(prefix):]


def player_action(decider: int, target: int, n: int) -> int:
    return ID[f"player_rel_{(target - decider) % n}"]


def action_player(decider: int, a: int, n: int) -> int:
    return (decider + int(suffix(a, "player_rel_"))) % n


def describe(a: int) -> str:
    return CATALOGUE[a][1]
