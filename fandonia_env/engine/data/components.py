"""Components of the 1981 game as data (§2; tables-and-differences.md §2).

Nothing here is computed: procedures elsewhere read these constants.

Character ids are strings, so that they can be JSON object keys:
``"11"`` .. ``"66"`` for the 36 cards of the Nobles Deck (§2.1.2) and the
royal keys ``"george"`` .. ``"jane"`` for the eleven cards of the Royalty Deck
(§2.1.1).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..core.options import edition_of

# ---------------------------------------------------------------------------
# Countries (§20.2)
# ---------------------------------------------------------------------------
FANDONIA: Final = "fandonia"
COUNTRIES: Final[tuple[str, ...]] = ("sandarkan", "epalin", "cronos", "city_states", "besyzan")
COUNTRY_NAMES: Final = {
    "fandonia": "Fandonia",
    "sandarkan": "Sandarkan",
    "epalin": "Epalin",
    "cronos": "Cronos",
    "city_states": "The City States",
    "besyzan": "Besyzan",
}


# ---------------------------------------------------------------------------
# Nobles Deck (§2.1.2)
# ---------------------------------------------------------------------------
class Noble(NamedTuple):
    cid: str
    name: str
    title: str  # printed title: sir, knight, earl, lord, duke, lady, or "" (functionaries)
    status: int
    ability: int | None  # None = no ability rating ("-")
    dueling: int | None  # None = cannot duel (§19.2)
    seduction: int | None  # females 56-66 only
    female: bool
    trial_numbers: tuple[int, ...] = ()  # Judges (§28.2)


def _n(cid, name, title, s, a, d, sed=None, female=False, trial=()):
    return Noble(str(cid), name, title, s, a, d, sed, female, trial)


NOBLES: Final[dict[str, Noble]] = {
    n.cid: n
    for n in (
        _n(11, "Sir Drew", "sir", 1, 6, 1),
        _n(12, "Sir Guy", "sir", 1, 5, 2),
        _n(13, "Sir Malcolm", "sir", 1, 5, 3),
        _n(14, "Sir Richard", "sir", 1, 4, 3),
        _n(15, "Sir Michael", "sir", 1, 4, 4),
        _n(16, "Sir Robert", "sir", 1, 3, 3),
        _n(21, "Sir Donald", "sir", 1, 3, 4),
        _n(22, "Sir James", "sir", 1, 2, 4),
        _n(23, "Sir Jeffrey", "sir", 1, 2, 5),
        _n(24, "Sir Charles", "sir", 1, 1, 6),
        _n(25, "Knight Dale", "knight", 2, 2, 6),
        _n(26, "Knight William", "knight", 2, 3, 5),
        _n(31, "Knight Simon", "knight", 2, 4, 4),
        _n(32, "Earl Maxwell", "earl", 3, 1, 2),
        _n(33, "Earl Francis", "earl", 3, 2, 2),
        _n(34, "Earl Duncan", "earl", 3, 3, 2),
        _n(35, "Lord Mortimer", "lord", 4, 2, 3),
        _n(36, "Lord Arthur", "lord", 4, 4, 2),
        _n(41, "Lord Perceval", "lord", 4, 6, 1),
        _n(42, "Duke Roland", "duke", 5, 4, 5),
        _n(43, "Duke Henry", "duke", 5, 5, 4),
        _n(44, "Duke Marley", "duke", 5, 6, 3),
        _n(45, "Magistrate", "", 3, None, None),
        _n(46, "1st Judge", "", 6, None, None, trial=(1, 2, 3)),
        _n(51, "2nd Judge", "", 6, None, None, trial=(4, 5, 6)),
        _n(52, "Sheriff", "", 3, None, 6),
        _n(53, "General", "", 4, None, 4),
        _n(54, "Admiral", "", 4, None, 3),
        _n(55, "Archbishop", "", 8, None, None),
        _n(56, "Lady Margaret", "lady", 3, None, None, 2, True),
        _n(61, "Lady Victoria", "lady", 3, None, None, 3, True),
        _n(62, "Lady Elizabeth", "lady", 3, None, None, 4, True),
        _n(63, "Lady Ruth", "lady", 3, None, None, 4, True),
        _n(64, "Lady Mary", "lady", 3, None, None, 5, True),
        _n(65, "Lady Melanie", "lady", 3, None, None, 5, True),
        _n(66, "Lady Deborah", "lady", 3, None, None, 6, True),
    )
}
NOBLE_IDS: Final[tuple[str, ...]] = tuple(NOBLES)

MAGISTRATE, JUDGE_1, JUDGE_2, SHERIFF, GENERAL, ADMIRAL, ARCHBISHOP = (
    "45", "46", "51", "52", "53", "54", "55",
)
JUDGES: Final = (JUDGE_1, JUDGE_2)

#: §3.1: the deck PCs are dealt from (11-24 and 56-66).
PC_DECK: Final[tuple[str, ...]] = tuple(c for c in NOBLE_IDS if int(c) <= 24 or int(c) >= 56)
#: D10, ruling R3/A22 (ES §3.1): the errata deck for 3-6 players is 11-44 and 56-66
#: (29 cards); with two players ES §3.1.1 (D11) keeps 11-24 and 56-66 (``PC_DECK``).
ERRATA_PC_DECK: Final[tuple[str, ...]] = tuple(c for c in NOBLE_IDS if int(c) <= 44 or int(c) >= 56)
#: §3.3 / §16.1: characters who may hold office (11-44).
OFFICE_ELIGIBLE: Final[tuple[str, ...]] = tuple(c for c in NOBLE_IDS if int(c) <= 44)
#: §13.4.1: characters who may never acquire a title.
NO_TITLE: Final[frozenset[str]] = frozenset({"45", "46", "51", "52", "53", "54", "55"})
#: §13.4.18, §20.7: nobles who may never travel or be abroad.
NEVER_ABROAD: Final[frozenset[str]] = frozenset({"45", "46", "51", "52", "55"})
#: §19.2: nobles who can fight duels (11-44 and 52-54).
DUELISTS: Final[frozenset[str]] = frozenset(c for c in NOBLE_IDS if int(c) <= 44 or c in ("52", "53", "54"))
FEMALES: Final[frozenset[str]] = frozenset(c for c, n in NOBLES.items() if n.female)
#: ES §31.4 (D78): the functionaries (45-55), who still have heirs in the errata edition.
FUNCTIONARIES: Final[frozenset[str]] = frozenset(str(i) for i in range(45, 56))

#: §13.4.1 male ladder and female ladder; Title Table costs are in data.tables.
MALE_TITLES: Final[tuple[str, ...]] = ("sir", "knight", "earl", "lord", "duke")
FEMALE_TITLES: Final[tuple[str, ...]] = ("lady", "duchess")
TITLE_NAMES: Final = {
    "sir": "Sir", "knight": "Knight", "earl": "Earl", "lord": "Lord", "duke": "Duke",
    "lady": "Lady", "duchess": "Duchess", "": "",
    # errata female ladder (ES §13.4.1, D25): Baronesa, Condesa, Marquesa, Duquesa
    "baroness": "Baroness", "countess": "Countess", "marchioness": "Marchioness",
}

# -- errata edition (ruling R1): printed values that differ -------------------
#: D25, ruling R3/A20 (ES §13.4.1): Lady -> Baronesa -> Condesa -> Marquesa -> Duquesa;
#: the costs are ``tables.TITLE_TABLE_ERRATA_FEMALE`` (2, 3, 4, 5 IP by rank reached).
ERRATA_FEMALE_TITLES: Final[tuple[str, ...]] = ("lady", "baroness", "countess", "marchioness", "duchess")
#: D1 (ES §2.1.1: Jane S5) and D2 (ES §2.1.2: 56/61 Marquesa S4, 62/63 Condesa S3,
#: 64/65 Baronesa S2, 66 Lady S1; Seduction ratings unchanged).
ERRATA_STATUS: Final[dict[str, int]] = {"jane": 5, "56": 4, "61": 4, "62": 3, "63": 3, "64": 2, "65": 2, "66": 1}
ERRATA_TITLE: Final[dict[str, str]] = {
    "56": "marchioness", "61": "marchioness", "62": "countess", "63": "countess",
    "64": "baroness", "65": "baroness", "66": "lady",
}
#: D11 (ES §3.1.1): in a two-player errata game every female character is a Condesa
#: with Status 3 (Jane, a royal, keeps her Status 5).
ERRATA_2P_FEMALE: Final = ("countess", 3)


def printed_status_in(cid: str, status_overrides: dict[str, int], two_player_female: tuple[str, int] | None,
                      players: int) -> int:
    """The Status printed on ``cid``'s card, given an edition's printed overrides (``Ruleset``)."""
    if two_player_female is not None and cid in FEMALES and players == 2:
        return two_player_female[1]
    s = status_overrides.get(cid)
    if s is not None:
        return s
    return NOBLES[cid].status if cid in NOBLES else ROYALS[cid].status


def printed_title_in(cid: str, title_overrides: dict[str, str], two_player_female: tuple[str, int] | None,
                     players: int) -> str:
    """The title printed on noble ``cid``'s card, given an edition's printed overrides."""
    if two_player_female is not None and cid in FEMALES and players == 2:
        return two_player_female[0]
    return title_overrides.get(cid, NOBLES[cid].title)


#: The printed values of each edition (ruling R1): Status and title overrides, the two-player
#: female card (D11), the female ladder (D25).  ``ruleset.Ruleset`` picks its edition's.
STATUS_BY_EDITION: Final[dict[str, dict[str, int]]] = {"1981": {}, "errata": ERRATA_STATUS}
TITLE_BY_EDITION: Final[dict[str, dict[str, str]]] = {"1981": {}, "errata": ERRATA_TITLE}
TWO_PLAYER_FEMALE_BY_EDITION: Final[dict[str, tuple[str, int] | None]] = {"1981": None, "errata": ERRATA_2P_FEMALE}
FEMALE_TITLES_BY_EDITION: Final[dict[str, tuple[str, ...]]] = {"1981": FEMALE_TITLES, "errata": ERRATA_FEMALE_TITLES}


# Kept for code outside the engine that has a config, not a state (play.py, the observation
# encoders): plain look-ups in the tables above.  Engine code asks ``ruleset(state)``.
def printed_status(config: dict, cid: str) -> int:
    """The Status printed on ``cid``'s card in this game's edition (D1, D2, D11)."""
    ed = edition_of(config)
    return printed_status_in(cid, STATUS_BY_EDITION[ed], TWO_PLAYER_FEMALE_BY_EDITION[ed], config["players"])


def printed_title(config: dict, cid: str) -> str:
    """The title printed on noble ``cid``'s card in this game's edition (D2, D11)."""
    ed = edition_of(config)
    return printed_title_in(cid, TITLE_BY_EDITION[ed], TWO_PLAYER_FEMALE_BY_EDITION[ed], config["players"])


def female_titles(config: dict) -> tuple[str, ...]:
    """The female title ladder of this game's edition (§13.4.1; D25)."""
    return FEMALE_TITLES_BY_EDITION[edition_of(config)]


# ---------------------------------------------------------------------------
# Royalty Deck (§2.1.1, §9.2)
# ---------------------------------------------------------------------------
class Royal(NamedTuple):
    cid: str
    name: str
    status: int
    uv_dice: int  # number of dice for the Usurpation Value (0 = none)
    uv_mult: int  # multiplier; Thomas: special half die (§36.3)
    death_numbers: tuple[int, ...]
    female: bool


def _counts(lo: int, hi: int) -> tuple[int, ...]:
    return tuple(x for x in range(lo, hi + 1) if 1 <= x % 10 <= 6)


ROYALS: Final[dict[str, Royal]] = {
    r.cid: r
    for r in (
        Royal("george", "King George", 10, 2, 3, _counts(55, 66), False),
        Royal("alan", "Prince Alan", 10, 2, 2, _counts(53, 54), False),
        Royal("anne", "Princess Anne", 10, 1, 1, _counts(51, 52), True),
        Royal("john", "John (the Brother)", 9, 1, 3, _counts(41, 46), False),
        Royal("edward", "Edward (the Uncle)", 8, 1, 3, _counts(31, 36), False),
        Royal("phillip", "Phillip (the Nephew)", 8, 1, 2, _counts(25, 26), False),
        Royal("almery", "Almery (the Cousin)", 7, 1, 2, _counts(23, 24), False),
        Royal("catherine", "Queen Catherine", 10, 1, 2, _counts(11, 16), True),
        Royal("alfred", "Alfred (the Bastard)", 5, 1, 1, _counts(21, 22), False),
        Royal("thomas", "Thomas (the Pretender)", 4, 1, 0, (), False),
        Royal("jane", "Jane (the Mistress)", 2, 0, 0, (), True),
    )
}
ROYAL_IDS: Final[tuple[str, ...]] = tuple(ROYALS)
#: §9.2 order of succession.
SUCCESSION: Final[tuple[str, ...]] = (
    "george", "alan", "anne", "john", "edward", "phillip", "almery", "catherine", "alfred",
)
#: §2.1.4: Royal Alignment cards exist for every RC except George and Thomas.
ALIGNABLE_ROYALS: Final[tuple[str, ...]] = tuple(r for r in ROYAL_IDS if r not in ("george", "thomas"))

ALL_CHARACTER_IDS: Final[tuple[str, ...]] = NOBLE_IDS + ROYAL_IDS


# ---------------------------------------------------------------------------
# Office Deck (§2.1.3)
# ---------------------------------------------------------------------------
class Office(NamedTuple):
    key: str
    name: str
    bonus: int
    country: str | None  # ambassadors


OFFICES: Final[dict[str, Office]] = {
    o.key: o
    for o in (
        Office("monarch", "Monarch", 4, None),
        Office("high_minister", "High Minister", 3, None),
        Office("minister_of_justice", "Minister Of Justice", 3, None),
        Office("minister_of_state", "Minister Of State", 3, None),
        Office("minister_of_army", "Minister Of The Army", 2, None),
        Office("minister_of_navy", "Minister Of The Navy", 2, None),
        Office("minister_of_treasury", "Minister Of The Treasury", 2, None),
        Office("minister_of_trade", "Minister Of Trade", 2, None),
        Office("amb_sandarkan", "Ambassador To Sandarkan", 1, "sandarkan"),
        Office("amb_epalin", "Ambassador To Epalin", 1, "epalin"),
        Office("amb_cronos", "Ambassador To Cronos", 1, "cronos"),
        Office("amb_city_states", "Ambassador To The City States", 1, "city_states"),
        Office("amb_besyzan", "Ambassador To Besyzan", 0, "besyzan"),
    )
}
OFFICE_KEYS: Final[tuple[str, ...]] = tuple(OFFICES)
#: The twelve offices other than Monarch (§3.3).
NON_MONARCH_OFFICES: Final[tuple[str, ...]] = OFFICE_KEYS[1:]
AMBASSADOR_OF: Final[dict[str, str]] = {o.country: o.key for o in OFFICES.values() if o.country}
MINISTERS: Final[tuple[str, ...]] = OFFICE_KEYS[1:8]


# ---------------------------------------------------------------------------
# Event Deck (§2.1.4)
# ---------------------------------------------------------------------------
class CardType(NamedTuple):
    key: str
    name: str
    count: int  # type: ignore[assignment]
    support: bool = False  # Support card (§14.5.2)


CARD_TYPES: Final[dict[str, CardType]] = {
    t.key: t
    for t in (
        CardType("dwtk", "DOWN WITH THE KING", 6),
        CardType("clergy_support", "Clergy Support", 1, True),
        CardType("peasant_support", "Peasant Support", 5, True),
        CardType("townsmen_support", "Townsmen Support", 3, True),
        CardType("trade_guild_support", "Trade Guild Support", 1, True),
        CardType("army_support", "Army Support", 2, True),
        CardType("navy_support", "Navy Support", 1, True),
        CardType("merchant_support", "Merchant Support", 1, True),
        CardType("foreign_support_sandarkan", "Foreign Support Sandarkan", 1, True),
        CardType("foreign_support_epalin", "Foreign Support Epalin", 1, True),
        CardType("foreign_support_cronos", "Foreign Support Cronos", 1, True),
        CardType("foreign_support_city_states", "Foreign Support The City States", 1, True),
        CardType("monarchs_counselor", "Monarch's Counselor", 5),
        CardType("pardon", "Pardon", 2),
        CardType("amnesty", "Amnesty", 2),
        CardType("henchman", "Henchman", 14),
        CardType("intrigue", "Intrigue", 4),
        CardType("assassination", "Assassination", 8),
        CardType("personal_guards", "Personal Guards", 2),
        CardType("palace_guards", "Palace Guards", 2),
        CardType("treachery", "Treachery", 9),
        CardType("informer", "Informer", 9),
        CardType("escape", "Escape", 4),
        CardType("prison_guards", "Prison Guards", 2),
        CardType("port_guards", "Port Guards", 1),
        CardType("extradition", "Extradition", 2),
        CardType("evidence", "Evidence", 9),
        CardType("alibi", "Alibi", 8),
        # one Royal Alignment card per alignable RC (§2.1.4)
        *(CardType(f"ra_{r}", f"Royal Alignment ({ROYALS[r].name})", 1) for r in ALIGNABLE_ROYALS),
        CardType("extra_activity", "Extra Activity", 4),
    )
}
CARD_TYPE_KEYS: Final[tuple[str, ...]] = tuple(CARD_TYPES)
SUPPORT_CARDS: Final[tuple[str, ...]] = tuple(k for k, t in CARD_TYPES.items() if t.support)
ROYAL_ALIGNMENT_CARD: Final[dict[str, str]] = {r: f"ra_{r}" for r in ALIGNABLE_ROYALS}
#: §8.4.3, §13.4.12, §14.2.7: illegal cards (1981 edition).
ILLEGAL_CARDS: Final[frozenset[str]] = frozenset({"dwtk", "assassination", "treachery", "intrigue"})
#: Errata edition (D19, ES §8.4.3, §13.4.12, §14.2.7, §14.5.2): DWTK, Assassination and the
#: Foreign Support cards; Treachery and Intrigue are legal (D45, D46).
ILLEGAL_CARDS_ERRATA: Final[frozenset[str]] = frozenset(
    {"dwtk", "assassination"} | {k for k in SUPPORT_CARDS if k.startswith("foreign_support")})
#: §8.4.2: Support cards whose Usurpation Value is boosted in a Famine (1981: Army; errata
#: D18, A23, ruling R3: Peasant instead of Army).
FAMINE_SUPPORT: Final[frozenset[str]] = frozenset({"trade_guild_support", "merchant_support", "army_support"})
FAMINE_SUPPORT_ERRATA: Final[frozenset[str]] = frozenset({"trade_guild_support", "merchant_support", "peasant_support"})
#: §14.5.7: an Intrigue card may be used as any of these.
INTRIGUE_SUBSTITUTES: Final[tuple[str, ...]] = ("assassination", "treachery", "informer", "escape", "alibi")
#: Physical card ids: "c000".."c119", in CARD_TYPES order.
CARD_IDS: Final[tuple[str, ...]] = tuple(f"c{i:03d}" for i in range(120))
CARD_TYPE_OF: Final[dict[str, str]] = {}
_i = 0
for _t in CARD_TYPES.values():
    for _ in range(_t.count):
        CARD_TYPE_OF[f"c{_i:03d}"] = _t.key
        _i += 1
assert _i == 120, _i
del _i, _t


# ---------------------------------------------------------------------------
# Opportunity counters (§2.2.2) and Loyalty counters (§2.2.1)
# ---------------------------------------------------------------------------
OPPORTUNITY_TYPES: Final[dict[str, tuple[str, int]]] = {
    "any_activity": ("Any Activity", 2),
    "extra_activity": ("Extra Activity", 5),
    "intrigue": ("Intrigue", 3),
    "scandal": ("Scandal", 2),
    "favor": ("Favor", 2),
    "duel": ("Duel", 1),
    "gout": ("Gout", 1),
    "gain_ip": ("Gain One IP", 8),
    # D7 (ES §12.3.9): errata only, so none in the 1981 mix
    "free_counsel": ("Free Counsel", 0),
}
OPPORTUNITY_IDS: Final[tuple[str, ...]] = tuple(f"o{i:02d}" for i in range(24))
OPPORTUNITY_TYPE_OF: Final[dict[str, str]] = {}
_i = 0
for _k, (_nm, _c) in OPPORTUNITY_TYPES.items():
    for _ in range(_c):
        OPPORTUNITY_TYPE_OF[f"o{_i:02d}"] = _k
        _i += 1
assert _i == 24
#: D6 (ES §2.2.2): the errata counter mix, also 24 counters, with the ids "o24".."o47"
#: (distinct from the 1981 ids, so that ``OPPORTUNITY_TYPE_OF`` stays one static lookup).
ERRATA_OPPORTUNITY_COUNTS: Final[dict[str, int]] = {
    "any_activity": 2, "extra_activity": 3, "intrigue": 5, "scandal": 4, "favor": 2,
    "duel": 1, "gout": 1, "gain_ip": 4, "free_counsel": 2,
}
ERRATA_OPPORTUNITY_IDS: Final[tuple[str, ...]] = tuple(f"o{i:02d}" for i in range(24, 48))
for _k, _c in ERRATA_OPPORTUNITY_COUNTS.items():
    for _ in range(_c):
        OPPORTUNITY_TYPE_OF[f"o{_i:02d}"] = _k
        _i += 1
assert _i == 48
del _i, _k, _nm, _c


#: D6: the 24 Opportunity counters of each edition (§2.2.2).
OPPORTUNITY_IDS_BY_EDITION: Final[dict[str, tuple[str, ...]]] = {"1981": OPPORTUNITY_IDS, "errata": ERRATA_OPPORTUNITY_IDS}


def opportunity_ids(config: dict) -> tuple[str, ...]:
    """The 24 Opportunity counters of this game's edition (§2.2.2; D6); kept for code with a config."""
    return OPPORTUNITY_IDS_BY_EDITION[edition_of(config)]
#: One Loyalty counter per noble, its number that noble's id (§2.2.1).
LOYALTY_IDS: Final[tuple[str, ...]] = NOBLE_IDS


def character_name(cid: str) -> str:
    """The printed name of a character id."""
    if cid in NOBLES:
        return NOBLES[cid].name
    return ROYALS[cid].name
