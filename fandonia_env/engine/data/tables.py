"""Every game table of *Down With The King* (Avalon Hill, 1981) as plain Python data.

Source of truth: section 1 of the project's rules reference ("Table
reconstruction", sub-sections 1.1-1.20), authoritative by ruling R4 (docs/rulings.md),
including the rows whose dice numbers were reconstructed from printed order.
Rule numbers ("§13.4.17") are the English (EN, 1981) rule numbers; "T1.x" means
sub-section 1.x of tables-and-differences.md.  Where that document states an
errata (Spanish, ES) difference *inline in the table section*, it is recorded
in an optional ``"errata"`` field; nothing was taken from its section 3.

Nothing here contains game logic, except two look-up helpers:

* :func:`lookup` -- the row of a dice table for a (modified) roll, clamped to
  the table's end rows (ambiguity A6, ruling R8).
* :func:`monarch_support_value` -- the Usurpation Chart band (§36.5.4), read from
  ``MONARCH_SUPPORT_BANDS``.

The Support cards' usurpation values (``SUPPORT_VALUES``) live here too; what an effect code
means is ``effects.py`` (the one interpreter).

Table shape
-----------
A *dice table* is a dict with the keys

``key``        stable snake_case name.
``name``       printed name.
``section``    T1.x sub-section, e.g. ``"1.8"``.
``rules``      tuple of rule numbers, e.g. ``("§28",)``.
``dice``       ``"2d_sum"`` (two dice summed, 2-12) or ``"1d"`` (one die, 1-6).
``lo``/``hi``  end rows (2/12 or 1/6); modified rolls are clamped to them.
``modifiers``  tuple of printed modifier descriptions (documentation only).
``rows``       tuple of ``(lo, hi, row)``: every value lo..hi (inclusive) maps
               to ``row``; the ranges cover ``lo..hi`` of the table exactly once.

A *row* is a dict that always has ``text`` (the printed result, for logs) and
the machine-readable fields listed below that apply to its table.

Effect vocabulary (row fields)
------------------------------
``text``          str; printed wording (EN).
``pp``            int; Prestige Points gained (+) or lost (-) by the rolling
                  player (§13.4.17, §8.4.4, §15.8).  0 when none.
``ip``            int; Influence Points gained (+) or lost (-).  0 when none.
``mod``           int; change to the table's own cumulative modifier
                  (Prestige tables: capped at +-2, §13.4.17 / T1.14; Court Ball:
                  max +2, never negative, §8.4.4 / T1.3).
``special``       tuple of effect codes (see ``EFFECT_CODES``), in printed order.
``extra_activities``  int; with code ``extra_activities`` (T1.14.11 notes 10-11).
``confidence``    Prestige rows only: ``"clean"`` when the modifier is legible
                  in EN, else the T1.14 grade ``"H"``/``"M"``/``"L"`` of the
                  inferred modifier adopted by ruling R5.
``errata``        str; optional, the ES (errata edition) difference stated
                  inline in T1.

Table-specific row fields: Crown Events ``event`` (+ ``problems`` count);
Assassination ``success`` (bool) and ``caught`` (bool); Royal Favor ``ip``;
Interrogation ``trial_mod``; Trial ``verdict``; Political Problems
``problem``; Foreign War ``countries``; Counseling Results ``accepted``;
Clemency ``verdict``; PC Advantage ``start_ip`` / ``start_pp`` / table mods;
1d tables ``success``.

Effect codes (``special``), with their rules -- also in ``EFFECT_CODES``; what each one
does is ``effects.py`` (``EFFECTS``), the one interpreter:

``roll_again``      the player *may* roll again on the same table with the
                    same modifier (T1.14.11 note 1, §13.4.17).
``no_effect``       nothing happens (T1.14.11 note 2 on Prestige tables, where
                    it also ends the player's activities).
``lose_remaining_activities``  the player may perform no more activities this
                    turn (T1.14.11 notes 2, 5, 6).
``designate_pc_or_henchman``  the player designates his PC or a henchman to
                    suffer the result (T1.14.11 notes 5-9; Court Ball §8.4.4).
``duel``            fight a duel (§19; T1.14.11 note 5).  Court Ball row 3: the
                    opponent must be another attending character (§8.4.4).
``scandal``         consult the Scandal Table, T1.5 (§22; T1.14.11 note 6).
``wrongdoing``      accused of wrongdoing (§23; T1.14.11 note 7).
``hearing``         go to a hearing (§26; T1.14.11 note 8).
``trial``           go to trial (§28; T1.14.11 note 9).
``intrigue_card``   perform activity §13.4.12 (Intrigue An Opponent's Card) as a
                    free, additional activity this turn (T1.14.11 note 3).
``auto_proposal``   one marriage proposal automatically accepted; must be made
                    this turn or lost (T1.14.11 note 4, §18.4.5).
``extra_activities``  ``row["extra_activities"]`` extra activities this turn
                    (T1.14.11 notes 10-11).
``any_activity``    perform any one activity of §12.3.1 this turn (note 12).
``lose_all_ip`` / ``lose_all_pp``   the player's IP / PP become 0.
``lose_half_ip`` / ``lose_half_pp``  lose half, rounded up (§22, Scandal).
``double_ip`` / ``double_pp``  the current IP / PP are doubled.
``banned_from_court_ball``  the designated PC/henchman is banned from future
                    Court Balls (§8.4.4, §17.2.3).
``free_counsel``    the player may make a free counsel (§8.4.4, §15.10).
``accuser_wrongdoing``  the accusing PC is accused of wrongdoing; treated as
                    no effect unless the scandal came from 'Expose A Scandal'
                    (§22, §13.4.9).
``pc_accused``      Interrogation: the player's PC is accused of wrongdoing; no
                    effect if the interrogated character is a NC (§27).
``character_dies``  the interrogated character dies (§27).
``lose_office``     Counseling Results: the counseling PC/FAC loses his office
                    (vacant) or his Monarch's Counselor card (§15.8).
``farc_becomes_nrc`` Royal Favor: the courted FARC becomes a NRC (§13.4.4;
                    not when a henchman courts, §17.2.4).

Counsel effect codes (``COUNSELING_TABLES[...]["counsels"][i]["effect"]["code"]``)
are listed in ``COUNSEL_EFFECT_CODES``.

Identifiers
-----------
Offices: ``OFFICES``; countries: ``COUNTRIES``; political problems:
``PROBLEM_KEYS``; prestige tables: ``PRESTIGE_TABLE_KEYS``; counseling tables:
``COUNSELING_TABLE_KEYS``.  Noble characters are ints 11..66 (their ID / dice
count); royal characters are the keys of ``ROYAL_KEYS``.  Named functionaries:
Magistrate 45, 1st Judge 46, 2nd Judge 51, Sheriff 52, General 53, Admiral 54,
Archbishop 55 (T2.2).  Event-card keys are those of ``EVENT_CARDS_CHART`` plus
the Support-card keys in ``SUPPORT_CARD_KEYS``.

Ambiguities (see the T1 text): Carousing's modifier column is entirely an
analogy default (R5); Literary/Socializing/Patronage/Gambling modifiers are
inferred (R5); Natural Disaster has no modifiers (R6); the counseling
"who may modify" columns were re-attached from a detached OCR run (R7).
"""

from __future__ import annotations

from typing import Any, Final, TypedDict

__all__ = [
    "ACTIVITIES_CHART",
    "AMBASSADORS",
    "ASSASSINATION",
    "CHARITY",
    "CLEMENCY",
    "COUNSELING_RESULTS",
    "COUNSELING_TABLES",
    "COUNSELING_TABLE_KEYS",
    "COUNSEL_EFFECT_CODES",
    "COUNTRIES",
    "COURT_BALL",
    "COURT_BALL_MAX_MODIFIER",
    "CROWN_EVENTS",
    "DICE_COUNTS",
    "DICE_PROCEDURES",
    "DICE_TABLES",
    "EFFECT_CODES",
    "EMISSARY",
    "EVENT_CARDS_CHART",
    "FANDONIAN_SUPPORT",
    "FANDONIAN_SUPPORT_ELIGIBILITY",
    "FOREIGN_SUPPORT",
    "FOREIGN_WAR",
    "FUNCTIONARIES",
    "FUNERAL",
    "INTERROGATION",
    "MONARCH_SUPPORT_BANDS",
    "OFFICES",
    "PC_ADVANTAGE",
    "POLITICAL_PROBLEMS",
    "PRESTIGE_BOUGHT_MODIFIER",
    "PRESTIGE_MODIFIER_CAP",
    "PRESTIGE_RESULT_NOTES",
    "PRESTIGE_TABLES",
    "PRESTIGE_TABLE_KEYS",
    "PROBLEMS",
    "PROBLEM_KEYS",
    "ROYAL_DEATH",
    "ROYAL_DEATH_NUMBERS",
    "ROYAL_FAVOR",
    "ROYAL_KEYS",
    "SCANDAL",
    "SUCCESSION_ORDER",
    "SUPPORT_CARD_KEYS",
    "SUPPORT_VALUES",
    "TITLE_NOT_ALLOWED",
    "TITLE_TABLE",
    "TITLE_TABLE_ERRATA_FEMALE",
    "TRIAL",
    "UNRESOLVED_PROBLEM_EFFECTS",
    "UNRESOLVED_PROBLEM_TURNS",
    "USURPATION_CHART",
    "CounselingResultRow",
    "Row",
    "lookup",
    "monarch_support_value",
]


class Row(TypedDict, total=False):
    """Documentation of a table row (rows are plain dicts)."""

    text: str
    pp: int
    ip: int
    mod: int
    special: tuple[str, ...]
    extra_activities: int
    confidence: str
    errata: str


class CounselingResultRow(TypedDict):
    """Documentation of a Counseling Results Table row (T1.13)."""

    text: str
    pp: int
    ip: int
    accepted: bool
    special: tuple[str, ...]


# ---------------------------------------------------------------------------
# Identifiers
# ---------------------------------------------------------------------------

OFFICES: Final[tuple[str, ...]] = (
    "monarch",
    "high_minister",
    "minister_of_justice",
    "minister_of_state",
    "minister_of_army",
    "minister_of_navy",
    "minister_of_treasury",
    "minister_of_trade",
    "amb_sandarkan",
    "amb_epalin",
    "amb_cronos",
    "amb_city_states",
    "amb_besyzan",
)

AMBASSADORS: Final[tuple[str, ...]] = (
    "amb_sandarkan",
    "amb_epalin",
    "amb_cronos",
    "amb_city_states",
    "amb_besyzan",
)

COUNTRIES: Final[tuple[str, ...]] = ("sandarkan", "epalin", "cronos", "city_states", "besyzan")

#: Royal characters (T2.1).
ROYAL_KEYS: Final[tuple[str, ...]] = (
    "george",
    "alan",
    "anne",
    "john",
    "edward",
    "phillip",
    "almery",
    "catherine",
    "alfred",
    "thomas",
    "jane",
)

#: Named functionaries among the nobles (T2.2): key -> character ID.
FUNCTIONARIES: Final[dict[str, int]] = {
    "magistrate": 45,
    "judge_1": 46,
    "judge_2": 51,
    "sheriff": 52,
    "general": 53,
    "admiral": 54,
    "archbishop": 55,
}
_MAG, _J1, _J2, _SHER, _GEN, _ADM, _ARCH = 45, 46, 51, 52, 53, 54, 55
_JUDGES: Final = (_J1, _J2)

PROBLEM_KEYS: Final[tuple[str, ...]] = (
    "banking_crisis",
    "economic_crisis",
    "international_incident",
    "foreign_war",
    "treason_trials",
    "pirates",
    "townsmen_unrest",
    "peasant_unrest",
    "agriculture_crisis",
    "natural_disaster",
)

PRESTIGE_TABLE_KEYS: Final[tuple[str, ...]] = (
    "literary",
    "fashion",
    "craft",
    "romance",
    "socializing",
    "patronage",
    "carousing",
    "sporting",
    "gambling",
    "business",
)

COUNSELING_TABLE_KEYS: Final[tuple[str, ...]] = ("court_ball", "intrigue", "scandal") + PROBLEM_KEYS

SUPPORT_CARD_KEYS: Final[tuple[str, ...]] = (
    "clergy_support",
    "peasant_support",
    "townsmen_support",
    "trade_guild_support",
    "army_support",
    "navy_support",
    "merchant_support",
    "foreign_support_sandarkan",
    "foreign_support_epalin",
    "foreign_support_cronos",
    "foreign_support_city_states",
)

#: All 36 dice counts (red die then white die), §8.4.1 / T1 conventions.
DICE_COUNTS: Final[tuple[int, ...]] = tuple(10 * r + w for r in range(1, 7) for w in range(1, 7))

EFFECT_CODES: Final[dict[str, str]] = {
    "roll_again": "may roll again on the same table with the same modifier (T1.14.11 note 1)",
    "no_effect": "no effect (T1.14.11 note 2: on a Prestige table also ends activities)",
    "lose_remaining_activities": "no more activities this turn (T1.14.11 notes 2, 5, 6)",
    "designate_pc_or_henchman": "player designates his PC or a henchman (T1.14.11 notes 5-9, §8.4.4)",
    "duel": "fight a duel (§19)",
    "scandal": "consult the Scandal Table (§22, T1.5)",
    "wrongdoing": "accused of wrongdoing (§23)",
    "hearing": "go to a hearing (§26)",
    "trial": "go to trial (§28)",
    "intrigue_card": "free additional activity §13.4.12 Intrigue An Opponent's Card (T1.14.11 note 3)",
    "auto_proposal": "one marriage proposal automatically accepted this turn (T1.14.11 note 4, §18.4.5)",
    "extra_activities": "row['extra_activities'] extra activities this turn (T1.14.11 notes 10-11)",
    "any_activity": "perform any one activity of §12.3.1 this turn (T1.14.11 note 12)",
    "lose_all_ip": "IP become 0",
    "lose_all_pp": "PP become 0",
    "lose_half_ip": "lose half IP, rounded up (§22)",
    "lose_half_pp": "lose half PP, rounded up (§22)",
    "double_ip": "current IP doubled",
    "double_pp": "current PP doubled",
    "banned_from_court_ball": "designated PC/henchman banned from future Court Balls (§8.4.4, §17.2.3)",
    "free_counsel": "player may make a free counsel; its ill effects are no effect (§8.4.4, §15.10)",
    "accuser_wrongdoing": "accusing PC accused of wrongdoing; no effect unless from Expose A Scandal (§22)",
    "pc_accused": "player's PC accused of wrongdoing; no effect if interrogated character is a NC (§27)",
    "character_dies": "the interrogated character dies (§27)",
    "lose_office": "counseling PC/FAC loses office or Monarch's Counselor card (§15.8)",
    "farc_becomes_nrc": "courted FARC becomes a NRC (§13.4.4; not if a henchman courts, §17.2.4)",
}

COUNSEL_EFFECT_CODES: Final[dict[str, str]] = {
    "none": "no effect beyond the Counseling Results Table PP (T1.15)",
    "gain_pp": "counseling player receives effect['amount'] PP",
    "force_crown_event": "next turn's Crown Events result is effect['event']",
    "extradite": "the stated wrongdoer is extradited (§25)",
    "appoint_ambassador": "effect['office'] recalled; stated PC or EAC becomes it (§16.5)",
    "intrigue_card_from": "player may intrigue a card from the stated opponent's hand",
    "amnesty": "all banished, imprisoned and wrongdoers returned to normal (§13.4.6)",
    "discard_cards": "cards effect['cards'] in players' hands discarded (§14.2.6); "
    "effect['foreign_support'] is 'all' / 'at_war' / absent",
    "earc_to_nrc": "stated EARC becomes NRC; its Royal Alignment card discarded",
    "scandal": "stated PC, EAC or NC consults the Scandal Table (§22)",
    "wrongdoing": "stated PC, EAC or NC is accused of wrongdoing (§23)",
    "discharge_minister": "holder of effect['office'] discharged",
    "recall_ambassador": "stated Ambassador recalled (effect['at_war_only'] restricts the target)",
    "players_lose_half_ip": "all players (counselor included) with >= effect['min_ip'] IP lose half (rounded up)",
    "players_gain_ip": "all players with <= effect['max_ip'] IP receive effect['amount'] IP",
    "players_lose_ip": "all players with >= effect['min_ip'] IP lose effect['amount'] IP",
}


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def lookup(table: dict[str, Any] | tuple, value: int) -> dict[str, Any]:
    """Return the row for ``value`` of a dice table, clamped to its end rows (A6).

    ``table`` is a table dict (with ``rows`` and optionally ``lo``/``hi``) or a
    bare ``rows`` tuple of ``(lo, hi, row)``.
    """
    rows = table["rows"] if isinstance(table, dict) else table
    lo = table.get("lo", rows[0][0]) if isinstance(table, dict) else rows[0][0]
    hi = table.get("hi", rows[-1][1]) if isinstance(table, dict) else rows[-1][1]
    v = min(max(int(value), lo), hi)
    for r_lo, r_hi, row in rows:
        if r_lo <= v <= r_hi:
            return row
    raise KeyError(f"no row for {value} in table")


def _per_sum(rows: list[dict[str, Any]], start: int = 2) -> tuple:
    """Turn a list of one row per value (from ``start``) into ``(lo, hi, row)`` ranges."""
    return tuple((start + i, start + i, row) for i, row in enumerate(rows))


def _r(text: str, pp: int = 0, ip: int = 0, special: tuple[str, ...] = (), **extra: Any) -> dict:
    row: dict[str, Any] = {"text": text, "pp": pp, "ip": ip, "special": tuple(special)}
    row.update(extra)
    return row


def _table(key: str, name: str, section: str, rules: tuple[str, ...], rows: tuple,
           modifiers: tuple[str, ...] = (), dice: str = "2d_sum", **extra: Any) -> dict:
    lo, hi = (2, 12) if dice == "2d_sum" else (1, 6)
    t: dict[str, Any] = {
        "key": key,
        "name": name,
        "section": section,
        "rules": rules,
        "dice": dice,
        "lo": lo,
        "hi": hi,
        "modifiers": modifiers,
        "rows": rows,
    }
    t.update(extra)
    return t


# ---------------------------------------------------------------------------
# 1.1 Crown Events Table (§8; no modifiers ever, §8.3)
# ---------------------------------------------------------------------------

CROWN_EVENTS: Final = _table(
    "crown_events", "Crown Events Table", "1.1", ("§8", "§8.3", "§8.4"),
    (
        (2, 3, _r("Royal Death", event="royal_death", rule="§8.4.1")),
        (4, 4, _r("Famine", event="famine", rule="§8.4.2")),
        (5, 5, _r("Intrigue", event="intrigue", rule="§8.4.3")),
        (6, 6, _r("Court Ball", event="court_ball", rule="§8.4.4")),
        (7, 7, _r("Two Political Problems", event="political_problems", problems=2, rule="§8.4.5")),
        (8, 10, _r("One Political Problem", event="political_problems", problems=1, rule="§8.4.5")),
        (11, 11, _r("Scandal", event="scandal", rule="§8.4.6")),
        (12, 12, _r("Plague", event="plague", rule="§8.4.7")),
    ),
    modifiers=("none ever (§8.3)",),
    forced=(
        "court_ball after a succession (§9.4)",
        "court_ball after a successful usurpation (§36.6, §36.9)",
        "court_ball after accepted Court Ball counsel 2 (T1.15)",
        "famine / plague / one political problem from unresolved problems (optional §38, T1.17)",
    ),
    confidence="EN damaged; numbers 4-7 inferred from printed order (ruling R4)",
)

# ---------------------------------------------------------------------------
# 1.2 Title Table (§13.4.1)
# ---------------------------------------------------------------------------

TITLE_TABLE: Final[tuple[dict[str, Any], ...]] = (
    {"from": "sir", "to": "knight", "cost_ip": 2, "status": 1},
    {"from": "knight", "to": "earl", "cost_ip": 3, "status": 1},
    {"from": "earl", "to": "lord", "cost_ip": 4, "status": 1},
    {"from": "lord", "to": "duke", "cost_ip": 5, "status": 1},
    {
        "from": "lady", "to": "duchess", "cost_ip": 3, "status": 1,
        "errata": "ES §13.4.1: female ladder lady->baroness->countess->marchioness->duchess "
        "costing 2, 3, 4, 5 IP by rank reached (ruling R3, A20); +1 Status each step",
    },
)
#: Errata female ladder (ruling R3 / A20): (from, to, cost_ip, status).
TITLE_TABLE_ERRATA_FEMALE: Final[tuple[dict[str, Any], ...]] = (
    {"from": "lady", "to": "baroness", "cost_ip": 2, "status": 1},
    {"from": "baroness", "to": "countess", "cost_ip": 3, "status": 1},
    {"from": "countess", "to": "marchioness", "cost_ip": 4, "status": 1},
    {"from": "marchioness", "to": "duchess", "cost_ip": 5, "status": 1},
)
#: Characters who may not acquire titles (§13.4.1): functionaries and all RCs.
TITLE_NOT_ALLOWED: Final[tuple[int, ...]] = (45, 46, 51, 52, 53, 54, 55)

# ---------------------------------------------------------------------------
# 1.3 Court Ball Table (§8.4.4)
# ---------------------------------------------------------------------------

COURT_BALL_MAX_MODIFIER: Final = 2
_CB_BAD: Final = ("designate_pc_or_henchman",)
_CB_GOOD: Final = ("free_counsel",)
COURT_BALL: Final = _table(
    "court_ball", "Court Ball Table", "1.3", ("§8.4.4",),
    _per_sum([
        _r("Abusive Conduct. Player must designate his PC or a henchman to be accused of wrongdoing.",
           special=_CB_BAD + ("wrongdoing", "banned_from_court_ball"), mod=0),
        _r("Insulting. Player must designate his PC or a henchman to fight a duel.",
           special=_CB_BAD + ("duel", "banned_from_court_ball"), mod=0,
           duel_opponent="another attending character (roll dice counts until one matches)"),
        _r("Disgraceful Conduct. Player must designate his PC or a henchman to consult the Scandal Table.",
           special=_CB_BAD + ("scandal", "banned_from_court_ball"), mod=0),
        _r("Ill-mannered. Lose One PP.", pp=-1, mod=0),
        _r("Ignored.", mod=0),
        _r("Barely Noticed.", mod=0),
        _r("Monarch Notices You. Gain One PP.", pp=1, mod=1, special=_CB_GOOD,
           errata="ES §8.4.4: free counsel only on 9 or more; row 8 gives PP and +1 but no free counsel"),
        _r("Monarch Notices Your Exceptional Manners. Gain Two PP.", pp=2, mod=1, special=_CB_GOOD),
        _r("Monarch Notices Your Exceptional Wit. Gain Three PP.", pp=3, mod=1, special=_CB_GOOD),
        _r("Monarch Notices Your Exceptional Charm. Gain Four PP.", pp=4, mod=1, special=_CB_GOOD),
        _r("Monarch Notices Your Elegance. Gain Five PP.", pp=5, mod=2, special=_CB_GOOD),
    ]),
    modifiers=("own cumulative Court Ball modifier, max +2, never negative (§8.4.4)",
               "PC Advantage 2-4: +2 beginning modifier (optional §38)"),
    max_modifier=COURT_BALL_MAX_MODIFIER,
    errata="ES §8.4.4: free counsel threshold 9 (not 8); a player whose PC is banned loses 2 PP at every Court Ball",
)

# ---------------------------------------------------------------------------
# 1.4 Assassination Table (§13.4.8, §21)
# ---------------------------------------------------------------------------

ASSASSINATION: Final = _table(
    "assassination", "Assassination Table", "1.4", ("§13.4.8", "§21"),
    (
        (2, 2, _r("Assassination Unsuccessful. Assassin Caught, Goes To Trial.",
                  success=False, caught=True, special=("trial",))),
        (3, 3, _r("Assassination Unsuccessful. Assassin Caught, Goes To A Hearing.",
                  success=False, caught=True, special=("hearing",))),
        (4, 4, _r("Assassination Unsuccessful. Assassin Caught, Accused Of Wrongdoing.",
                  success=False, caught=True, special=("wrongdoing",))),
        (5, 8, _r("Assassination Unsuccessful.", success=False, caught=False)),
        (9, 9, _r("Assassination Successful. Assassin Caught, Accused Of Wrongdoing.",
                  success=True, caught=True, special=("wrongdoing",))),
        (10, 12, _r("Assassination Successful.", success=True, caught=False)),
    ),
    modifiers=(
        "each additional Assassination card by the attacker +2 (unlimited)",
        "Treachery -2 (one card, any one player)",
        "Informer +2 or -2 (one card, any one player)",
        "Personal Guards -2 each (target is a non-Office-Holder; several, any players)",
        "Palace Guards +2 or -2 each (target is an RC or Office Holder; several)",
        "Monarch is target -1",
    ),
    confidence="EN damaged; rows 2-4 inferred from printed order (ruling R4)",
    errata="ES §13.4.8: with an Any Activity counter a played Assassination card counts as additional (+2)",
)

# ---------------------------------------------------------------------------
# 1.5 Scandal Table (§22)
# ---------------------------------------------------------------------------

SCANDAL: Final = _table(
    "scandal", "Scandal Table", "1.5", ("§22",),
    (
        (2, 2, _r("Lawlessness. Go To Trial.", special=("trial",))),
        (3, 3, _r("Radicalism, Blasphemy & Sacrilege. Go To A Hearing.", special=("hearing",))),
        (4, 4, _r("Libel. Lose Half PP (rounded up) & Accused Of Wrongdoing.",
                  special=("lose_half_pp", "wrongdoing"))),
        (5, 5, _r("Financial Irregularities. Lose Half IP (rounded up) & Accused Of Wrongdoing.",
                  special=("lose_half_ip", "wrongdoing"))),
        (6, 6, _r("Lewdness and Disorderly Conduct. Accused Of Wrongdoing.", special=("wrongdoing",))),
        (7, 10, _r("Rumors Unsubstantiated. No Effect.", special=("no_effect",))),
        (11, 11, _r("Corruption. Accusing PC Accused Of Wrongdoing.",
                    special=("accuser_wrongdoing",), only_if_exposed=True)),
        (12, 12, _r("Sedition. Accusing PC Accused Of Wrongdoing.",
                    special=("accuser_wrongdoing",), only_if_exposed=True)),
    ),
    modifiers=("Informer -1 each by the exposing player (§13.4.9)",
               "Informer +1 each by the player whose PC/FAC is the object (§22)"),
    confidence="EN damaged; rows 3-6, 12 inferred from printed order (ruling R4)",
)

# ---------------------------------------------------------------------------
# 1.6 Royal Favor Table (§13.4.4)
# ---------------------------------------------------------------------------

ROYAL_FAVOR: Final = _table(
    "royal_favor", "Royal Favor Table", "1.6", ("§13.4.4",),
    (
        (2, 3, _r("RC Is Displeased. FARC being courted becomes a NRC.", special=("farc_becomes_nrc",))),
        (4, 4, _r("RC Is Indifferent. No Effect.", special=("no_effect",))),
        (5, 6, _r("RC Is Pleased. One IP.", ip=1)),
        (7, 9, _r("RC Is Pleased. Two IP.", ip=2)),
        (10, 12, _r("RC Is Very Pleased. Three IP.", ip=3)),
    ),
    modifiers=("Treachery -2 (max one card, any player)", "Favor counter +5"),
    errata="ES §17.2.4: the FARC can become a NRC even if a henchman courts; ES §36.10.5: a FARC Monarch cannot be courted",
)

# ---------------------------------------------------------------------------
# 1.7 Interrogation Table (§27)
# ---------------------------------------------------------------------------

INTERROGATION: Final = _table(
    "interrogation", "Interrogation Table", "1.7", ("§27",),
    (
        (2, 4, _r("FAC Exposes PC. The player's PC is accused of wrongdoing.",
                  special=("pc_accused",), trial_mod=0)),
        (5, 6, _r("Character Dies.", special=("character_dies",), trial_mod=0)),
        (7, 7, _r("Character Implicates Self. Add one to Trial Table dice roll.", trial_mod=1)),
        (8, 8, _r("Character Confesses. Add two to Trial Table dice roll.", trial_mod=2)),
        (9, 12, _r("Won't Talk. No Effect.", special=("no_effect",), trial_mod=0)),
    ),
    modifiers=("Treachery -1 (max one)", "Prison Guards +2 or -2 (max one)"),
    confidence="EN damaged; rows 7, 8 inferred from printed order (ruling R4)",
)

# ---------------------------------------------------------------------------
# 1.8 Trial Table (§28)
# ---------------------------------------------------------------------------

TRIAL: Final = _table(
    "trial", "Trial Table", "1.8", ("§28",),
    (
        (2, 3, _r("Found Not Guilty", verdict="not_guilty")),
        (4, 5, _r("Banished", verdict="banished",
                  errata="ES §29.1: if Fandonia is at war with every country, Banished becomes imprisonment")),
        (6, 9, _r("Imprisoned", verdict="imprisoned")),
        (10, 11, _r("Awaiting Execution", verdict="awaiting_execution")),
        (12, 12, _r("Immediately Executed", verdict="executed")),
    ),
    modifiers=(
        "Judge hearing the case is a FAC: +5 or -5 (§28.3)",
        "Evidence +1 each (any players, unlimited); no Evidence played -3",
        "Alibi -1 each",
        "Informer +1 or -1 each",
        "Interrogation result 7: +1; result 8: +2",
    ),
    judge_on_trial="a Judge on trial found anything but Not Guilty is executed immediately (§28.3)",
)

# ---------------------------------------------------------------------------
# 1.9 Political Problems Table (§7, §8.4.5)
# ---------------------------------------------------------------------------

PROBLEMS: Final[dict[str, dict[str, Any]]] = {
    "banking_crisis": {
        "name": "Banking Crisis", "resolving_office": "minister_of_treasury",
        "modifying_offices": ("high_minister", "minister_of_treasury", "minister_of_trade"),
        "modifying_characters": (_MAG,),
    },
    "economic_crisis": {
        "name": "Economic Crisis", "resolving_office": "minister_of_treasury",
        "modifying_offices": ("high_minister", "minister_of_trade", "minister_of_treasury"),
        "modifying_characters": (),
    },
    "international_incident": {
        "name": "International Incident", "resolving_office": "minister_of_state",
        "modifying_offices": ("minister_of_state",) + AMBASSADORS,
        "modifying_characters": (),
    },
    "foreign_war": {
        "name": "Foreign War", "resolving_office": "minister_of_army",
        "modifying_offices": ("minister_of_state", "minister_of_army"),
        "modifying_characters": (_GEN,),
        "side_effects": ("roll the Foreign War Table (§7.10, T1.11)",
                         "Army Support becomes 1dx4 during any Foreign War (§7.10.5)"),
    },
    "treason_trials": {
        "name": "Treason & Conspiracy Trials", "resolving_office": "minister_of_justice",
        "modifying_offices": ("minister_of_justice",),
        "modifying_characters": (_ARCH, _SHER) + _JUDGES,
    },
    "pirates": {
        "name": "Pirates", "resolving_office": "minister_of_navy",
        "modifying_offices": ("minister_of_state", "minister_of_navy"),
        "modifying_characters": (_ADM,),
        "side_effects": ("Navy Support becomes 1dx2 while unresolved (§7.11)",),
    },
    "townsmen_unrest": {
        "name": "Townsmen Unrest", "resolving_office": "high_minister",
        "modifying_offices": ("high_minister",),
        "modifying_characters": (_MAG, _ARCH),
        "side_effects": ("Townsmen Support becomes 1dx5 (§2.1.4)",),
    },
    "peasant_unrest": {
        "name": "Peasant Unrest", "resolving_office": "high_minister",
        "modifying_offices": ("high_minister",),
        "modifying_characters": (_SHER, _ARCH),
        "side_effects": ("Peasant Support becomes 1dx8 (§2.1.4)",),
    },
    "agriculture_crisis": {
        "name": "Agriculture Crisis", "resolving_office": "minister_of_trade",
        "modifying_offices": ("high_minister", "minister_of_trade", "minister_of_treasury"),
        "modifying_characters": (_ARCH,),
    },
    "natural_disaster": {
        "name": "Natural Disaster", "resolving_office": "minister_of_trade",
        "modifying_offices": (),  # ruling R6: no modifying ministers
        "modifying_characters": (),
    },
}

POLITICAL_PROBLEMS: Final = _table(
    "political_problems", "Political Problems Table", "1.9", ("§7", "§8.4.5"),
    (
        (2, 2, _r("Banking Crisis", problem="banking_crisis")),
        (3, 3, _r("Economic Crisis", problem="economic_crisis")),
        (4, 4, _r("International Incident", problem="international_incident")),
        (5, 6, _r("Foreign War", problem="foreign_war")),
        (7, 7, _r("Treason & Conspiracy Trials", problem="treason_trials")),
        (8, 8, _r("Pirates", problem="pirates")),
        (9, 9, _r("Townsmen Unrest", problem="townsmen_unrest")),
        (10, 10, _r("Peasant Unrest", problem="peasant_unrest")),
        (11, 11, _r("Agriculture Crisis", problem="agriculture_crisis")),
        (12, 12, _r("Natural Disaster", problem="natural_disaster")),
    ),
    modifiers=(
        "resolution (§7.5): 1d, resolved if roll < resolving Minister's Ability; natural 6 always fails",
        "each listed modifier who is a PC/FAC: +1 or -1 (§7.6); NC modifiers ignored",
        "FARC Monarch's player +1 or -1 (§7.12, §36.10.3)",
        "government in crisis +1 (§33.2.2)",
        "optional Additional Monarch's Counselor Powers: +1 or -1 each (§38)",
    ),
    errata="ES §13.4.20: a bribed NC Office Holder who is a listed modifier gives the briber +1 or -1",
    confidence="EN damaged; rows 4, 7-10 inferred from printed order (ruling R4); R6 for Natural Disaster",
)

# ---------------------------------------------------------------------------
# 1.10 Usurpation Chart (§36)
# ---------------------------------------------------------------------------

#: Monarch's Support Value bands (§36.5.4, §36.8.5): (lo, hi, value added).
MONARCH_SUPPORT_BANDS: Final[tuple[tuple[int, int, int], ...]] = (
    (120, 120, 40),
    (100, 115, 30),
    (70, 95, 20),
    (30, 65, 10),
    (5, 25, 0),
    (0, 0, -25),
)


def monarch_support_value(support: int) -> int:
    """Usurpation value of the Monarch's Support (T1.10, ``MONARCH_SUPPORT_BANDS``); support
    moves in steps of 5, a value between two bands counts in the lower one."""
    for lo, _hi, value in MONARCH_SUPPORT_BANDS:
        if support >= lo:
            return value
    return MONARCH_SUPPORT_BANDS[-1][2]


#: Support card -> (base multiplier, boosted multiplier, boost conditions); every value is
#: 1d x multiplier (§14.5.2, §36.4.4; errata D3/D4/D18/D80 are applied by
#: ``rule_queries.support_multiplier`` through the Ruleset).  Conditions: ("fac", cid) the
#: player owns that character (A53); ("famine",) this turn's Crown Events result is Famine
#: (§8.4.2); ("problem", key) that problem is unresolved; ("ambassador", office) that office
#: is held by the player's PC or FAC.
SUPPORT_VALUES: Final[dict[str, tuple[int, int, tuple[tuple[str, ...], ...]]]] = {
    "clergy_support": (2, 3, (("fac", "55"),)),
    "peasant_support": (4, 8, (("fac", "52"), ("problem", "peasant_unrest"))),
    "townsmen_support": (3, 5, (("fac", "45"), ("problem", "townsmen_unrest"))),
    "trade_guild_support": (2, 3, (("famine",),)),
    "army_support": (7, 10, (("fac", "53"), ("famine",))),
    "navy_support": (4, 5, (("fac", "54"),)),
    "merchant_support": (2, 3, (("famine",),)),
    "foreign_support_sandarkan": (3, 4, (("ambassador", "amb_sandarkan"),)),
    "foreign_support_epalin": (3, 4, (("ambassador", "amb_epalin"),)),
    "foreign_support_cronos": (2, 3, (("ambassador", "amb_cronos"),)),
    "foreign_support_city_states": (2, 3, (("ambassador", "amb_city_states"),)),
}
assert set(SUPPORT_VALUES) == set(SUPPORT_CARD_KEYS)


USURPATION_CHART: Final[dict[str, Any]] = {
    "section": "1.10",
    "rules": ("§36",),
    "usurper": (
        "FARC's or Thomas' Usurpation Value (dice as on the RC card; Anne and Alfred 1d; Thomas 1/2d rounded up) (§36.4.1)",
        "PC's Status Rating, doubled if the PC is married (§36.4.2)",
        ("Status Ratings of all FACs except the PC's spouse (ruling R8/A13; chart says 'including') "
         "plus Status Ratings of all FARCs except the one in step 1 (§36.4.3)"),
        "Usurpation Values of the Support cards he chooses to play (§36.4.4)",
    ),
    "monarch": (
        "Monarch's Usurpation Value, halved rounded down if the usurper has Jane as FARC and the Monarch is male (§36.5.1)",
        "Status Ratings of all NCs and NRCs; Queen Catherine not counted if King George is Monarch (§36.5.2)",
        ("King George Monarch and Catherine alive: Catherine's Usurpation Value + 10; "
         "Monarch not George and married: + 10 (§36.5.3)"),
        "Monarch's Support Value (MONARCH_SUPPORT_BANDS) (§36.5.4)",
    ),
    "farc_monarch": (
        "Monarch's Usurpation Value (halved if usurper has Jane as FARC and Monarch male); + 10 if married (§36.8.1)",
        "PC's Status Rating, doubled if married (§36.8.2)",
        "Status Ratings of all FACs (except the PC's spouse, R8/A13) and all FARCs except the FARC Monarch (§36.8.3)",
        "Support card values (§36.8.4)",
        "Monarch's Support Value (§36.8.5)",
    ),
    "monarch_support_bands": MONARCH_SUPPORT_BANDS,
    "success": "usurper's rating strictly higher (§36.6); ties fail (§36.7)",
    "not_counted": "statuses of characters banished, imprisoned, in hiding or stuck in a country at war (§36.12, §7.10.2)",
    "errata": "ES prints the 70-95 band as '70 a 96' (typo)",
}

# ---------------------------------------------------------------------------
# 1.11 Foreign War Table (§7.10)
# ---------------------------------------------------------------------------

FOREIGN_WAR: Final = _table(
    "foreign_war", "Foreign War Table", "1.11", ("§7.10",),
    _per_sum([
        _r("War with all other countries", countries=COUNTRIES),
        _r("War with Sandarkan and Besyzan", countries=("sandarkan", "besyzan")),
        _r("War with Cronos and Besyzan", countries=("cronos", "besyzan")),
        _r("War with Sandarkan", countries=("sandarkan",)),
        _r("War with Cronos", countries=("cronos",)),
        _r("War with all other countries", countries=COUNTRIES),
        _r("War with The City States", countries=("city_states",)),
        _r("War with Epalin", countries=("epalin",)),
        _r("War with The City States and Besyzan", countries=("city_states", "besyzan")),
        _r("War with Epalin and Besyzan", countries=("epalin", "besyzan")),
        _r("War with all other countries", countries=COUNTRIES),
    ]),
    confidence="EN damaged; rows 3-9 inferred from printed order (ruling R4)",
)

# ---------------------------------------------------------------------------
# 1.12 Succession Chart (§9.2)
# ---------------------------------------------------------------------------

#: George reigns at start; the rest follow in order.  Thomas only by usurpation
#: (§9.3), Jane never (§9.3), a non-RC consort never (§9.2).
SUCCESSION_ORDER: Final[tuple[str, ...]] = (
    "george", "alan", "anne", "john", "edward", "phillip", "almery", "catherine", "alfred",
)

#: Royal Death numbers (T2.1, used by Royal Death §8.4.1): RC -> dice counts.
ROYAL_DEATH_NUMBERS: Final[dict[str, tuple[int, ...]]] = {
    "george": (55, 56, 61, 62, 63, 64, 65, 66),
    "alan": (53, 54),
    "anne": (51, 52),
    "john": (41, 42, 43, 44, 45, 46),
    "edward": (31, 32, 33, 34, 35, 36),
    "phillip": (25, 26),
    "almery": (23, 24),
    "catherine": (11, 12, 13, 14, 15, 16),
    "alfred": (21, 22),
}
#: Dice count -> RC key (inverse of ROYAL_DEATH_NUMBERS).
ROYAL_DEATH: Final[dict[int, str]] = {c: k for k, cs in ROYAL_DEATH_NUMBERS.items() for c in cs}

# ---------------------------------------------------------------------------
# 1.13 Counseling Results Table (§15.7-15.8)
# ---------------------------------------------------------------------------

COUNSELING_RESULTS: Final = _table(
    "counseling_results", "Counseling Results Table", "1.13", ("§15.7", "§15.8"),
    (
        (2, 2, _r("Monarch Is Displeased. Lose Office & Five PP.", pp=-5, accepted=False,
                  special=("lose_office",))),
        (3, 4, _r("Monarch Is Displeased. Lose Office.", accepted=False, special=("lose_office",))),
        (5, 8, _r("Monarch Is Pleased. Gain One PP.", pp=1, accepted=False)),
        (9, 12, _r("Monarch Is Pleased. Counsel Is Accepted. Gain Two PP.", pp=2, accepted=True)),
    ),
    modifiers=(
        "each listed character on the chosen counsel who is a PC/FAC: +1 or -1 (§15.7)",
        "FARC Monarch's player +1 or -1 (§15.11, §36.10.2)",
    ),
    notes=(
        "lose_office: a henchman counselor is unaffected unless he is the Office Holder (EN)",
        "free counsel (Court Ball): ill effects treated as No Effect (§15.10)",
        "repetition: no counsel repeated on a table until all four made; free counsels exempt (§15.9)",
    ),
    errata="ES §33.2.4: -1 to every counseling roll during a government crisis (EN: no counseling); "
    "ES bribed NC Office Holder +1 or -1; ES §15.3 forbids henchman counseling",
)

# ---------------------------------------------------------------------------
# 1.14 Prestige Tables (§13.4.17)
# ---------------------------------------------------------------------------

PRESTIGE_MODIFIER_CAP: Final = 2  # own cumulative modifier capped at +-2 (§13.4.17)
PRESTIGE_BOUGHT_MODIFIER: Final = 1  # optional bought +1, one, used once (Activities Chart 17)

_END: Final = ("lose_remaining_activities",)
_DES: Final = ("designate_pc_or_henchman",)
_NOEFF: Final = ("no_effect",) + _END
_DUEL: Final = ("duel",) + _DES + _END
_SCAN: Final = ("scandal",) + _DES + _END
_WRONG: Final = ("wrongdoing",) + _DES
_HEAR: Final = ("hearing",) + _DES
_TRIAL: Final = ("trial",) + _DES


def _p(text: str, mod: int, pp: int = 0, ip: int = 0, special: tuple[str, ...] = (),
       confidence: str = "clean", **extra: Any) -> dict:
    return _r(text, pp=pp, ip=ip, special=special, mod=mod, confidence=confidence, **extra)


def _prestige(key: str, name: str, sub: str, cost_ip: int, rows: list[dict], **extra: Any) -> dict:
    return _table(
        key, name, sub, ("§13.4.17",), _per_sum(rows),
        modifiers=("own cumulative modifier for this table, capped at +-2 (§13.4.17)",
                   "optional bought +1 (one, use once)"),
        cost_ip=cost_ip, **extra,
    )


PRESTIGE_TABLES: Final[dict[str, dict[str, Any]]] = {
    "literary": _prestige("literary", "Literary Pursuits", "1.14.1", 0, [
        _p("A Scribbler. Lose One PP.", -1, pp=-1, confidence="L"),
        _p("A Dullard. Lose One IP.", 0, ip=-1, confidence="L"),
        _p("Very Droll. No Effect.", 0, special=_NOEFF, confidence="M"),
        _p("Uninspired. Roll Again.", 0, special=("roll_again",), confidence="M"),
        _p("Businesslike. Gain One IP.", 1, ip=1, confidence="M"),
        _p("Good Technical Skill. Gain One PP.", 1, pp=1, confidence="M"),
        _p("Good Language Skill. Gain One PP.", 1, pp=1, confidence="M"),
        _p("Good Poetic Skill. Gain One PP.", 1, pp=1, confidence="M"),
        _p("Stylistic. Gain Two PP.", 1, pp=2, confidence="M"),
        _p("Brilliant. Gain Two PP.", 1, pp=2, confidence="M"),
        _p("Poet Laureate. Gain Three PP.", 1, pp=3, confidence="L"),
    ], modifier_source="inferred (ruling R5)"),
    "fashion": _prestige("fashion", "Fashion", "1.14.2", 0, [
        _p("Indecent Appearance. Roll On Scandal Table.", -2, special=_SCAN),
        _p("Atrocious Taste. Lose Two PP.", -1, pp=-2),
        _p("Slovenly (No Taste). Lose One PP.", -1, pp=-1),
        _p("Dress Above Means. Lose One IP.", 0, ip=-1),
        _p("Tasteful. Gain One PP.", 1, pp=1),
        _p("Tasteful. Gain One PP.", 1, pp=1),
        _p("Smart. Gain Two PP.", 1, pp=2),
        _p("Smart. Gain Two PP.", 1, pp=2),
        _p("Elegant. Gain Three PP.", 1, pp=3),
        _p("Regal. Gain Four PP.", 1, pp=4),
        _p("Fashion Setter. Gain Five PP.", 1, pp=5),
    ], modifier_source="clean"),
    "craft": _prestige("craft", "Craft", "1.14.3", 0, [
        _p("Defective Products. Roll On Scandal Table.", -2, special=_SCAN),
        _p("Poor Workmanship. Lose Ten PP & All IP.", -1, pp=-10, special=("lose_all_ip",)),
        _p("Overpriced. Lose Five PP & All IP.", -1, pp=-5, special=("lose_all_ip",)),
        _p("No Business. Lose All IP.", -1, special=("lose_all_ip",)),
        _p("Barely Above Water. No Effect.", 0, special=_NOEFF),
        _p("Ordinary. Roll Again.", 0, special=("roll_again",)),
        _p("Business As Usual. Gain One IP & PP.", 0, pp=1, ip=1),
        _p("Skilled. Gain Two PP & IP.", 1, pp=2, ip=2),
        _p("High Quality. Gain Three PP & IP.", 1, pp=3, ip=3),
        _p("Well Known And Respected. Gain Five PP & IP.", 2, pp=5, ip=5),
        _p("Monarch's Craftsman. Gain Ten PP & IP.", 2, pp=10, ip=10),
    ], modifier_source="clean"),
    "romance": _prestige("romance", "Romance", "1.14.4", 0, [
        _p("Quarrel With Brother. Fight A Duel.", -2, special=_DUEL),
        _p("Quarrel With Rival. Fight A Duel.", -2, special=_DUEL),
        _p("Adultery. Roll On Scandal Table.", -2, special=_SCAN),
        _p("True Love. Proposal Automatically Accepted.", 0, special=("auto_proposal",)),
        _p("True Love. Proposal Automatically Accepted.", 0, special=("auto_proposal",)),
        _p("True Love. Proposal Automatically Accepted.", 0, special=("auto_proposal",)),
        _p("Useful Love. Intrigue Opponent's Card.", 0, special=("intrigue_card",)),
        _p("Rich Love. Gain Five IP.", 1, ip=5),
        _p("Respectable. Gain Five PP.", 1, pp=5),
        _p("Reputation As Great Lover. Gain Five PP.", 1, pp=5),
        _p("Charming. Gain Ten PP.", 1, pp=10),
    ], modifier_source="clean",
        note="the current Romance modifier also modifies every marriage-proposal die roll (§18.4)"),
    "socializing": _prestige("socializing", "Socializing", "1.14.5", 1, [
        _p("Insulting. Fight A Duel.", -2, special=_DUEL),
        _p("Risque. Roll On Scandal Table.", -2, special=_SCAN),
        _p("Heartless. Lose Five PP.", -1, pp=-5, confidence="M"),
        _p("Boring. Lose One PP.", 0, pp=-1, confidence="M"),
        _p("True Love. Proposal Automatically Accepted.", 0, special=("auto_proposal",), confidence="H"),
        _p("Useful Contacts. Intrigue Opponent's Card.", 0, special=("intrigue_card",), confidence="H"),
        _p("Socially Acceptable. Gain Five PP.", 0, pp=5, confidence="M"),
        _p("Pleasant Company. Gain Five PP & One IP.", 0, pp=5, ip=1, confidence="M"),
        _p("Person Of Style. Gain Five PP & Two IP.", 0, pp=5, ip=2, confidence="M"),
        _p("In Demand. Gain Ten PP.", 1, pp=10),
        _p("Social Setter. Gain Ten PP & Five IP.", 1, pp=10, ip=5, confidence="M"),
    ], modifier_source="partly inferred (ruling R5)",
        note="also rolled free (not an activity, existing modifier) by wedding guests (§13.4.16)",
        errata="ES §13.4.16: the host rolls too, twice if the host's PC is marrying"),
    "patronage": _prestige("patronage", "Patronage", "1.14.6", 2, [
        _p("Conspirator. Accused Of Wrongdoing.", -2, special=_WRONG, confidence="M"),
        _p("Obscene. Roll On Scandal Table.", -2, special=_SCAN, confidence="M"),
        _p("No Class. Lose Twenty PP.", -1, pp=-20, confidence="L"),
        _p("A Follower. Lose Ten PP.", -1, pp=-10, confidence="L"),
        _p("Obnoxious. Lose Five PP.", -1, pp=-5, confidence="M"),
        _p("Gain Access. Three Extra Activities.", 0, special=("extra_activities",),
           extra_activities=3, confidence="L"),
        _p("Class. Gain Ten PP.", 1, pp=10, confidence="M"),
        _p("Respectable. Gain Ten PP.", 1, pp=10, confidence="M"),
        _p("High Class. Gain Twenty PP.", 1, pp=20, confidence="M"),
        _p("Patron. Gain Twenty-five PP.", 1, pp=25, confidence="M"),
        _p("Leader. Double Current PP.", 1, special=("double_pp",), confidence="L"),
    ], modifier_source="inferred (ruling R5)",
        note="When a gain or loss is halved, any odd number is always rounded up (See 20.5, 24.3, and 29.2)."),
    "carousing": _prestige("carousing", "Carousing", "1.14.7", 0, [
        _p("Assault. Go To Trial.", -2, special=_TRIAL, confidence="M"),
        _p("Stealing. Go To A Hearing.", -2, special=_HEAR, confidence="M"),
        _p("Loose Talk. Accused Of Wrongdoing.", -2, special=_WRONG, confidence="M"),
        _p("Drunken Row. Fight A Duel.", -2, special=_DUEL, confidence="M"),
        _p("Alcoholism. Roll On Scandal Table.", -2, special=_SCAN, confidence="M"),
        _p("Spying. Intrigue Opponent's Card.", 0, special=("intrigue_card",), confidence="M"),
        _p("More Energy. Two Extra Activities.", 0, special=("extra_activities",),
           extra_activities=2, confidence="L"),
        _p("Extra Energy. Three Extra Activities.", 0, special=("extra_activities",),
           extra_activities=3, confidence="L"),
        _p("Useful Companion. Any Activity.", 1, special=("any_activity",), confidence="L"),
        _p("Useful Information. Double Current IP.", 1, special=("double_ip",), confidence="L"),
        _p("Cavalier. Double Current PP.", 1, special=("double_pp",), confidence="L"),
    ], modifier_source="analogy default; EN column entirely missing (ruling R5)",
        note="a duel from this table gets +1 on the duelling die, a penalty (§19.9)"),
    "sporting": _prestige("sporting", "Sporting", "1.14.8", 0, [
        _p("Lawless. Accused Of Wrongdoing.", -2, special=_WRONG),
        _p("Cheating. Fight A Duel.", -2, special=_DUEL),
        _p("Betting. Fight A Duel.", -2, special=_DUEL),
        _p("Poor Sport. Fight A Duel.", -2, special=_DUEL),
        _p("Poor Sport. Fight A Duel.", -2, special=_DUEL),
        _p("Loser. No Effect.", 0, special=_NOEFF),
        _p("Winner. Gain Ten PP.", 0, pp=10),
        _p("Winner. Gain Ten PP.", 0, pp=10),
        _p("Winner. Gain Fifteen PP.", 1, pp=15),
        _p("Big Winner. Gain Twenty PP.", 1, pp=20),
        _p("Champion. Gain Twenty-five PP.", 1, pp=25),
    ], modifier_source="clean", male_only=True),
    "gambling": _prestige("gambling", "Gambling", "1.14.9", 0, [
        _p("Assault. Accused Of Wrongdoing.", -2, special=_WRONG, confidence="M"),
        _p("Cannot Cover Losses. Roll On Scandal Table.", -2, special=_SCAN),
        _p("Cheater. Lose Twenty PP & All IP.", -1, pp=-20, special=("lose_all_ip",), confidence="M"),
        _p("Loser. Lose All IP.", 0, special=("lose_all_ip",), confidence="M"),
        _p("Break Even. Roll Again.", 0, special=("roll_again",), confidence="H"),
        _p("Lucky. Gain Two IP.", 0, ip=2, confidence="M"),
        _p("Lucky. Gain Two IP.", 0, ip=2, confidence="M"),
        _p("Good System. Gain Three IP.", 1, ip=3, confidence="M"),
        _p("Good Player. Gain Four IP.", 1, ip=4, confidence="M"),
        _p("Card Shark. Gain Five IP.", 1, ip=5, confidence="M"),
        _p("Bank Breaker. Gain Ten IP.", 1, ip=10, confidence="L"),
    ], modifier_source="partly inferred (ruling R5)"),
    "business": _prestige("business", "Business Speculation", "1.14.10", 3, [
        _p("Swindling. Go To A Hearing.", -2, special=_HEAR),
        _p("Bankruptcy. Lose All PP & IP.", -1, special=("lose_all_pp", "lose_all_ip")),
        _p("Loss Of Status. Lose Twenty PP & All IP.", -1, pp=-20, special=("lose_all_ip",)),
        _p("Heavy Losses. Lose Five PP and All IP.", -1, pp=-5, special=("lose_all_ip",)),
        _p("Poor Investment. Lose All IP.", -1, special=("lose_all_ip",)),
        _p("No Change. No Effect.", 0, special=_NOEFF),
        _p("Sound Investment. Gain Ten IP.", 1, ip=10),
        _p("Good Returns. Gain Fifteen IP.", 1, ip=15),
        _p("Handsome Returns. Gain Twenty IP.", 1, ip=20),
        _p("Financial Coup. Gain Twenty-five IP.", 2, ip=25),
        _p("Business Prestige. Gain Twenty-five PP & IP.", 2, pp=25, ip=25),
    ], modifier_source="clean"),
}

for _t in PRESTIGE_TABLES.values():
    _t.setdefault("male_only", False)

#: 1.14.11 Prestige Table Results Notes, as flags keyed by effect code.
PRESTIGE_RESULT_NOTES: Final[dict[str, dict[str, Any]]] = {
    "roll_again": {"note": 1, "optional": True, "same_modifier": True, "ends_activities": False,
                   "designate": False,
                   "text": "The player may roll again on the same table with the same modifier used on the first roll."},
    "no_effect": {"note": 2, "optional": False, "ends_activities": True, "designate": False,
                  "text": "The player may not perform any more activities this turn."},
    "intrigue_card": {"note": 3, "optional": True, "ends_activities": False, "designate": False,
                      "free_activity": "intrigue_card",
                      "text": "The player may perform activity 13.4.12 as a free, additional activity this turn."},
    "auto_proposal": {"note": 4, "optional": True, "ends_activities": False, "designate": False,
                      "this_turn_only": True,
                      "text": "One marriage proposal that is automatically accepted; must be made this turn or lost "
                              "(§18.4.5: may ignore §18.4.3; a FARC proposal still costs Five IP and needs a "
                              "Status >= 4 FAC)."},
    "duel": {"note": 5, "optional": False, "ends_activities": True, "designate": True,
             "text": "No more activities this turn; designate PC or a henchman to fight a duel."},
    "scandal": {"note": 6, "optional": False, "ends_activities": True, "designate": True,
                "text": "No more activities this turn; designate PC or a henchman to consult the Scandal Table."},
    "wrongdoing": {"note": 7, "optional": False, "ends_activities": False, "designate": True,
                   "text": "Designate PC or a henchman to be accused of wrongdoing."},
    "hearing": {"note": 8, "optional": False, "ends_activities": False, "designate": True,
                "text": "Designate PC or a henchman to go to a hearing."},
    "trial": {"note": 9, "optional": False, "ends_activities": False, "designate": True,
              "text": "Designate PC or a henchman to go to trial."},
    "extra_activities": {"note": (10, 11), "optional": False, "ends_activities": False, "designate": False,
                         "text": "Two (note 10) or Three (note 11) Extra Activities This Turn."},
    "any_activity": {"note": 12, "optional": True, "ends_activities": False, "designate": False,
                     "text": "Perform any one of the activities listed in 12.3.1 this turn."},
    "_halving": {"note": None, "rules": ("§20.5", "§24.3", "§29.2"),
                 "text": "Gains/losses are halved (odd numbers rounded up) when the PC is abroad (§20.5), in "
                         "hiding (§24.3) or banished (§29.2); 'Fight A Duel' is ignored when the PC is hiding "
                         "or banished, and happens abroad only if another duel-capable character is in the "
                         "same country (§20.5)."},
}

# ---------------------------------------------------------------------------
# 1.15 Counseling Tables (§15)
# ---------------------------------------------------------------------------


def _c(n: int, text: str, effect: dict[str, Any], offices: tuple[str, ...] = (),
       characters: tuple[int, ...] = (), target: str | None = None, effect_text: str = "",
       confidence: str = "clean", stated_ambassador: bool = False, pp_reward: int = 0,
       **extra: Any) -> dict:
    c: dict[str, Any] = {
        "id": n,
        "text": text,
        "effect_text": effect_text,
        "effect": effect,
        "target": target,
        "pp_reward": pp_reward,
        "modifying_offices": offices,
        "modifying_characters": characters,
        "modified_by_stated_ambassador": stated_ambassador,
        "ill_effects": ("counseling_results",),
        "confidence": confidence,
    }
    c.update(extra)
    return c


_NONE: Final = {"code": "none"}


def _disc(office: str) -> dict:
    return {"code": "discharge_minister", "office": office}


def _unrest(people: str, modifier: int) -> dict[str, Any]:
    """The Counseling Table of Townsmen or Peasant Unrest: the same counsels, modified by the Archbishop
    and ``modifier`` (the General too for Military Action)."""
    support = f"{people.lower()}_support"
    return {"name": f"{people} Unrest", "counsels": (
        _c(1, "Discharge The High Minister", _disc("high_minister"), ("high_minister",), (_ARCH, modifier),
           effect_text="The Minister is discharged."),
        _c(2, "Enact Repressive Laws", _NONE, ("high_minister", "minister_of_justice"), (_ARCH, modifier)),
        _c(3, "Enact Liberal Reforms", _NONE, ("high_minister", "minister_of_justice"), (_ARCH, modifier)),
        _c(4, "Take Military Action", {"code": "discard_cards", "cards": (support,)},
           ("high_minister", "minister_of_army"), (_GEN, modifier),
           effect_text=f"All '{people} Support' Event cards must be discarded."),
    )}


_AMNESTY_TXT: Final = "All characters who are banished, imprisoned, or wrongdoers are returned to a normal situation."
_ACCUSE_TXT: Final = "The player may intrigue a card from the opponent's hand."
_WELFARE_TXT: Final = "All players with two or less IP receive Two IP."

COUNSELING_TABLES: Final[dict[str, dict[str, Any]]] = {
    "court_ball": {"name": "Court Ball", "counsels": (
        _c(1, "Gambling Advice", {"code": "gain_pp", "amount": 2}, pp_reward=2,
           effect_text="The player receives Two PP."),
        _c(2, "Propose A Royal Extravagance Or Aggrandizement",
           {"code": "force_crown_event", "event": "court_ball"},
           effect_text="The Crown Events Table result for next turn is automatically 'Court Ball'."),
        _c(3, "Dancing Pointers", _NONE),
        _c(4, "Propose A Cure For The Monarch's Ailments", _NONE),
    )},
    "intrigue": {"name": "Intrigue", "counsels": (
        _c(1, "Extradite A Wrongdoer", {"code": "extradite"}, ("minister_of_justice",), _JUDGES,
           target="wrongdoer", effect_text="The wrongdoer is extradited.", confidence="H"),
        _c(2, "Recommend A New Ambassador To Besyzan",
           {"code": "appoint_ambassador", "office": "amb_besyzan"}, target="pc_or_eac",
           effect_text="The Ambassador To Besyzan is recalled and the PC or EAC becomes the Ambassador To Besyzan.",
           confidence="H"),
        _c(3, "Make An Accusation Of Wrongdoing", {"code": "intrigue_card_from"},
           ("minister_of_justice",), (_SHER,) + _JUDGES, target="opponent", effect_text=_ACCUSE_TXT,
           confidence="H"),
        _c(4, "Announce An Amnesty", {"code": "amnesty"}, ("minister_of_justice",), (_SHER,),
           effect_text=_AMNESTY_TXT, confidence="H"),
    )},
    "scandal": {"name": "Scandal", "counsels": (
        _c(1, "Defy The Pope", {"code": "discard_cards", "cards": ("clergy_support",)}, (), (_ARCH,),
           effect_text="The 'Clergy Support' Event card must be discarded.", confidence="M"),
        _c(2, "Crackdown On Widespread Adultery", _NONE, ("minister_of_justice",),
           (_ARCH, _MAG, _SHER) + _JUDGES, confidence="M",
           alt_reading="counsel 2 = Archbishop, Minister of Justice only; counsel 3 = Magistrate, Sheriff, each Judge"),
        _c(3, "Condemn EARC", {"code": "earc_to_nrc"}, target="earc",
           effect_text="The EARC becomes a NRC. Discard the RC's 'Royal Alignment' Event card.", confidence="M"),
        _c(4, "Expose A Scandal", {"code": "scandal"}, target="pc_eac_or_nc",
           effect_text="The PC, EAC, or NC must consult the Scandal Table.", confidence="M"),
    )},
    "banking_crisis": {"name": "Banking Crisis", "counsels": (
        _c(1, "Discharge The Minister Of The Treasury", _disc("minister_of_treasury"),
           ("minister_of_treasury", "high_minister"), effect_text="The Minister is discharged.", confidence="M"),
        _c(2, "Raise The Tax Rate", _NONE, ("minister_of_treasury",), confidence="M"),
        _c(3, "Lower The Tax Rate", _NONE, ("minister_of_treasury",), confidence="M"),
        _c(4, "Act Against Speculators", {"code": "players_lose_half_ip", "min_ip": 5, "includes_counselor": True},
           ("minister_of_treasury", "high_minister", "minister_of_justice"), (_SHER,),
           effect_text="All players (including the player counseling the Monarch) with five or more IP lose "
           "half their IP.", confidence="M"),
    )},
    "economic_crisis": {"name": "Economic Crisis", "counsels": (
        _c(1, "Discharge The Minister Of The Treasury", _disc("minister_of_treasury"),
           ("minister_of_treasury", "high_minister", "minister_of_trade"),
           effect_text="The Minister is discharged.", confidence="M"),
        _c(2, "Start A Welfare Program", {"code": "players_gain_ip", "max_ip": 2, "amount": 2},
           ("minister_of_treasury", "high_minister"), (_ARCH,), effect_text=_WELFARE_TXT, confidence="M"),
        _c(3, "Ask The Church For Aid", _NONE, (), (_ARCH,), confidence="M"),
        _c(4, "Start A Public Works Program", {"code": "discard_cards", "cards": ("merchant_support",)},
           ("minister_of_treasury", "high_minister"),
           effect_text="The 'Merchant Support' Event card must be discarded.", confidence="M"),
    )},
    "international_incident": {"name": "International Incident", "counsels": (
        _c(1, "Discharge The Minister Of State", _disc("minister_of_state"),
           ("minister_of_state",) + AMBASSADORS, effect_text="The Minister is discharged.", confidence="H"),
        _c(2, "Recall The Ambassador", {"code": "recall_ambassador", "at_war_only": False},
           ("minister_of_state",), target="ambassador", stated_ambassador=True,
           effect_text="The Ambassador is recalled.", confidence="H"),
        _c(3, "Take Military Action", {"code": "discard_cards", "cards": (), "foreign_support": "all"},
           ("minister_of_state", "minister_of_army", "minister_of_navy"), (_GEN, _ADM),
           effect_text="All 'Foreign Support' Event cards must be discarded.", confidence="H"),
        _c(4, "Ignore The Problem", _NONE, confidence="H"),
    )},
    "foreign_war": {"name": "Foreign War", "counsels": (
        _c(1, "Discharge The Minister Of State", _disc("minister_of_state"),
           ("minister_of_state", "minister_of_army"), (_GEN,),
           effect_text="The Minister is discharged.", confidence="M"),
        _c(2, "Recall The Ambassador", {"code": "recall_ambassador", "at_war_only": True},
           ("minister_of_state",), target="ambassador_at_war", stated_ambassador=True,
           effect_text="The Ambassador is recalled.", confidence="H",
           errata="ES §7.10.4: an Ambassador to a country at war loses his office, so no legal target in ES"),
        _c(3, "Propose A Treaty", _NONE, ("minister_of_state", "minister_of_army"), confidence="M"),
        _c(4, "Take Military Action",
           {"code": "discard_cards", "cards": ("army_support",), "foreign_support": "at_war"},
           ("minister_of_state", "minister_of_army"), (_GEN,),
           effect_text="All 'Foreign Support' Event cards corresponding to countries currently at war with "
           "Fandonia and the 'Army Support' Event cards must be discarded.", confidence="M"),
    )},
    "treason_trials": {"name": "Treason & Conspiracy Trials", "counsels": (
        _c(1, "Discharge The Minister Of Justice", _disc("minister_of_justice"),
           ("minister_of_justice",), (_ARCH,) + _JUDGES, effect_text="The Minister is discharged.",
           confidence="M"),
        _c(2, "Announce An Amnesty", {"code": "amnesty"}, ("minister_of_justice",), (_SHER,),
           effect_text=_AMNESTY_TXT, confidence="H"),
        _c(3, "Make Accusation Of Wrongdoing", {"code": "intrigue_card_from"},
           ("minister_of_justice",), (_SHER,) + _JUDGES, target="opponent", effect_text=_ACCUSE_TXT,
           confidence="H"),
        _c(4, "Crack Down On Conspirators",
           {"code": "discard_cards", "cards": ("peasant_support", "townsmen_support")},
           ("minister_of_justice",), (_SHER, _MAG),
           effect_text="All 'Peasant Support' and 'Townsmen Support' Event cards must be discarded.",
           confidence="M"),
    )},
    "pirates": {"name": "Pirates", "counsels": (
        _c(1, "Discharge The Minister Of The Navy", _disc("minister_of_navy"),
           ("minister_of_state", "minister_of_navy"), (_ADM,), effect_text="The Minister is discharged."),
        _c(2, "Increase Tribute To The Pirates", _NONE,
           ("minister_of_state", "minister_of_navy", "minister_of_treasury")),
        _c(3, "Propose A New Treaty With Pirates", _NONE, ("minister_of_state", "minister_of_navy")),
        _c(4, "Take Military Action", {"code": "discard_cards", "cards": ("navy_support",)},
           ("minister_of_state", "minister_of_navy"), (_ADM,),
           effect_text="The 'Navy Support' Event card must be discarded."),
    )},
    "townsmen_unrest": _unrest("Townsmen", _MAG),
    "peasant_unrest": _unrest("Peasant", _SHER),
    "agriculture_crisis": {"name": "Agriculture Crisis", "counsels": (
        _c(1, "Discharge The Minister Of Trade", _disc("minister_of_trade"),
           ("high_minister", "minister_of_trade"), effect_text="The Minister is discharged."),
        _c(2, "Increase Tariffs", {"code": "discard_cards", "cards": ("trade_guild_support",)},
           ("minister_of_trade", "minister_of_treasury"),
           effect_text="The 'Trade Guild Support' Event card must be discarded."),
        _c(3, "Accuse A Character Of Witchcraft", {"code": "wrongdoing"}, target="pc_eac_or_nc",
           effect_text="The accused PC, EAC, or NC is accused of wrongdoing."),
        _c(4, "Ask For Foreign Aid", _NONE, ("minister_of_trade", "minister_of_treasury")),
    )},
    "natural_disaster": {"name": "Natural Disaster", "counsels": (
        _c(1, "Start A Welfare Program", {"code": "players_gain_ip", "max_ip": 2, "amount": 2},
           ("high_minister", "minister_of_treasury"), (_ARCH,), effect_text=_WELFARE_TXT, confidence="H"),
        _c(2, "Give Tribute To The Church", {"code": "players_lose_ip", "min_ip": 5, "amount": 2},
           ("high_minister", "minister_of_treasury"), (_ARCH,),
           effect_text="All players with five or more IP lose Two IP.", confidence="H"),
        _c(3, "Attribute It To The Devil", _NONE, confidence="H"),
        _c(4, "Admonish Court Scientist", _NONE, confidence="H"),
    ), "note": "When a gain or loss is halved, any odd number is rounded up (See 20.5, 24.3, and 29.2)."},
}
for _k, _t in COUNSELING_TABLES.items():
    _t["key"] = _k
    _t["section"] = "1.15"
    _t["rules"] = ("§15",)

# ---------------------------------------------------------------------------
# 1.16 Optional-rule tables (§38)
# ---------------------------------------------------------------------------

#: Foreign Support Table (1d by number of FACs incl. PC in that country):
#: lowest successful die by FAC count (4 means 4 or more).
FOREIGN_SUPPORT: Final[dict[str, Any]] = {
    "key": "foreign_support", "name": "Foreign Support Table", "section": "1.16", "rules": ("§38",),
    "dice": "1d",
    "success_min": {1: 5, 2: 4, 3: 3, 4: 2},
    "grid": {  # die -> (1 FAC, 2 FACs, 3 FACs, 4+ FACs); True = Successful
        1: (False, False, False, False),
        2: (False, False, False, True),
        3: (False, False, True, True),
        4: (False, True, True, True),
        5: (True, True, True, True),
        6: (True, True, True, True),
    },
    "note": "card must be held by another player or in the discard pile; never from a country at war",
}

FANDONIAN_SUPPORT: Final = _table(
    "fandonian_support", "Fandonian Support Table", "1.16", ("§38",),
    ((1, 5, _r("—", success=False)), (6, 6, _r("Successful", success=True))),
    dice="1d",
)
#: Support card -> (offices, characters) whose holder (PC/FAC) may try for it.
FANDONIAN_SUPPORT_ELIGIBILITY: Final[dict[str, dict[str, tuple]]] = {
    "peasant_support": {"offices": (), "characters": (_SHER, _ARCH)},
    "townsmen_support": {"offices": ("high_minister",), "characters": (_MAG,)},
    "clergy_support": {"offices": (), "characters": (_ARCH,)},
    "army_support": {"offices": ("minister_of_army",), "characters": (_GEN,)},
    "navy_support": {"offices": ("minister_of_navy",), "characters": (_ADM,)},
    "merchant_support": {"offices": ("high_minister", "minister_of_trade"), "characters": ()},
    "trade_guild_support": {"offices": ("high_minister", "minister_of_treasury"), "characters": ()},
}

EMISSARY: Final = _table(
    "emissary", "Emissary Table", "1.16", ("§38",),
    ((1, 2, _r("— (Monarch refuses)", success=False)), (3, 6, _r("Successful", success=True))),
    dice="1d",
)

PC_ADVANTAGE: Final = _table(
    "pc_advantage", "PC Advantage Table", "1.16", ("§38",),
    (
        (2, 4, _r("+2 beginning modifier on both the Literary Pursuits Table and the Court Ball Table",
                  table_mods={"literary": 2, "court_ball": 2})),
        (5, 5, _r("+1 beginning modifier on the Prestige Table of his choice", choose_prestige_mod=1)),
        (6, 6, _r("Begins with Seven IP (instead of Two)", start_ip=7)),
        (7, 7, _r("Receives Twenty PP (instead of Ten)", start_pp=20)),
        (8, 12, _r("May place his PC in the office of his choice", choose_office=True,
                   female_pc="roll again")),
    ),
    note="roll from the player whose PC has the lowest ID, clockwise",
)

CLEMENCY: Final = _table(
    "clemency", "Clemency Table", "1.16", ("§38",),
    (
        (2, 3, _r("King is upset. Character is immediately executed.", verdict="executed")),
        (4, 5, _r("King overrules judge. Character is imprisoned, regardless of Trial Table result.",
                  verdict="imprisoned")),
        (6, 7, _r("King goes hunting. No effect.", verdict="no_effect", special=("no_effect",))),
        (8, 10, _r("King grants a new trial.", verdict="new_trial")),
        (11, 12, _r("King pardons character.", verdict="pardoned")),
    ),
    errata="ES: a FARC Monarch may pardon a character accused of wrongdoing",
)

CHARITY: Final = _table(
    "charity", "Charity Table", "1.16", ("§38",),
    (
        (2, 5, _r("Caught Begging. Lose Five PP.", pp=-5)),
        (6, 7, _r("Not Fooling Anybody. No Effect.", special=("no_effect",))),
        (8, 10, _r("Convincing. Gain One IP.", ip=1)),
        (11, 12, _r("Very Convincing. Gain Two IP.", ip=2)),
    ),
)

FUNERAL: Final = _table(
    "funeral", "Funeral Table", "1.16", ("§38",),
    _per_sum([
        _r("Made Improper Advances To Relative Of Deceased. Roll On Scandal Table.", special=("scandal",),
           errata="ES: 'Made inappropriate comments about the deceased.' Roll on Scandal Table."),
        _r("Laughed At Corpse. Lose Two PP.", pp=-2),
        _r("Improper Attire. Lose One PP.", pp=-1),
        _r("Fell Into Grave. Lose One IP.", ip=-1, errata="ES: Lose 1 PP (pp=-1, ip=0)"),
        _r("Attended Wrong Funeral. No Effect.", special=("no_effect",)),
        _r("Slept Through Eulogy. No Effect.", special=("no_effect",)),
        _r("Showed Sympathy. Gain One PP.", pp=1),
        _r("Console Bereaved. Gain One IP & PP.", pp=1, ip=1),
        _r("Brought Beautiful Flowers. Gain Two PP.", pp=2),
        _r("Delivered Moving Eulogy. Gain Three PP.", pp=3),
        _r("Promised Vengeance. Gain Four PP.", pp=4),
    ]),
)

# ---------------------------------------------------------------------------
# 1.17 Effects of Unresolved Political Problems (optional, §38)
# ---------------------------------------------------------------------------

UNRESOLVED_PROBLEM_TURNS: Final = 3  # after three consecutive unresolved turns; cumulative, until resolved

UNRESOLVED_PROBLEM_EFFECTS: Final[dict[str, dict[str, Any]]] = {
    "banking_crisis": {"item": "a", "code": "no_ip_spending",
                       "text": "No player may spend IP next turn."},
    "economic_crisis": {"item": "b", "code": "all_players_lose_ip", "amount": 1,
                        "text": "Each player loses One IP at the start of next turn."},
    "agriculture_crisis": {"item": "c", "code": "force_crown_event", "event": "famine",
                           "text": "Next Crown Event automatically Famine."},
    "natural_disaster": {"item": "d", "code": "force_crown_event", "event": "plague",
                         "text": "Next Crown Event automatically Plague."},
    "international_incident": {"item": "e", "code": "force_political_problem", "problem": "foreign_war",
                               "text": "Next Crown Event automatically One Political Problem, and it is "
                                       "Foreign War."},
    "foreign_war": {"item": "f", "code": "war_with_all", "countries": COUNTRIES,
                    "text": "Fandonia at war with every country next turn."},
    "townsmen_unrest": {"item": "g", "code": "force_political_problem", "problem": "peasant_unrest",
                        "text": "Next Crown Event automatically One Political Problem, and it is "
                                "Peasant Unrest."},
    "treason_trials": {"item": "h", "code": "two_accused", "edition": "errata",
                       "text": "Two characters are accused of wrongdoing: roll two dice counts; reroll a PC; "
                               "reroll if the second equals the first.",
                       "errata": "ES only (printed as item h of Fandonian Support)"},
}

# ---------------------------------------------------------------------------
# 1.18 Activities Chart (activity n is §13.4.n)
# ---------------------------------------------------------------------------


def _a(n: int, key: str, name: str, required: str, modifiers: tuple[str, ...] = (), **extra: Any) -> dict:
    d: dict[str, Any] = {"n": n, "key": key, "name": name, "rule": f"§13.4.{n}",
                         "required": required, "modifiers": modifiers}
    d.update(extra)
    return d


ACTIVITIES_CHART: Final[tuple[dict[str, Any], ...]] = (
    _a(1, "acquire_title", "Acquire A Title", "Title Table cost"),
    _a(2, "fill_vacant_office", "Fill A Vacant Office", "Three IP", cost_ip=3),
    _a(3, "become_monarchs_counselor", "Become A Monarch's Counselor", "Monarch's Counselor card"),
    _a(4, "court_favor", "Court The Favor Of A FARC", "a FARC",
       ("Treachery -2 (one card, any one player)", "Favor counter +5")),
    _a(5, "render_pardon", "Render A Pardon", "Pardon card"),
    _a(6, "announce_amnesty", "Announce An Amnesty", "Amnesty card"),
    _a(7, "create_henchman", "Create A Henchman", "Henchman card"),
    _a(8, "assassination", "Conduct An Assassination Attempt", "Intrigue counter and Assassination card",
       ("extra Assassination +2 (unlimited)", "Treachery -2 (one)", "Informer +2 or -2 (one)",
        "Personal Guards -2 (non-Office-Holder target)", "Palace Guards +2 or -2 (Office Holder or RC target)",
        "Monarch is target -1")),
    _a(9, "expose_scandal", "Expose A Scandal", "Scandal counter",
       ("Informer -1 (unlimited, exposer)", "Informer +1 (unlimited, object)")),
    _a(10, "escape", "Escape", "Escape card, or Prison Guards (prisoner), or Port Guards (hiding)",
       ("Prison Guards negates prison escape (one)", "Port Guards negates hiding escape (one)"),
       errata_en_misprint="EN chart prints 'Escape Event Guard'"),
    _a(11, "extradite", "Extradite A Wrongdoer", "Extradition card"),
    _a(12, "intrigue_card", "Intrigue An Opponent's Card", "Intrigue counter or Intrigue card"),
    _a(13, "recruit", "Recruit Characters", "character's Loyalty counter and enough PP"),
    _a(14, "recruit_by_treachery", "Recruit A Character By Treachery", "Intrigue counter and Treachery card"),
    _a(15, "seduce", "Seduce A Character", "Intrigue counter and female PC or FAC",
       ("Informer negates (one)", "Treachery negates (one)")),
    _a(16, "hold_wedding", "Hold A Wedding", "successful proposal"),
    _a(17, "prestige", "Consult The Prestige Tables", "some tables have IP costs",
       ("previous modifiers on same table (max +-2)", "bought +1 (one, use once)")),
    _a(18, "travel", "Travel",
       "PC/FAC not banished, imprisoned, in hiding; not to/from a country at war (row lost in OCR; from §13.4.18)"),
    _a(19, "draw", "Draw A Counter Or Card", "One IP", cost_ip=1),
)

# ---------------------------------------------------------------------------
# 1.19 Event Cards Chart
# ---------------------------------------------------------------------------


def _e(n: int, key: str, name: str, effects: str, footnote: str = "", illegal: bool = False) -> dict:
    return {"n": n, "key": key, "name": name, "effects": effects, "footnote": footnote,
            "illegal_1981": illegal}


EVENT_CARDS_CHART: Final[tuple[dict[str, Any], ...]] = (
    _e(1, "down_with_the_king", "DOWN WITH THE KING",
       "if drawn from a hand, player accused of wrongdoing, wrongdoing die +2", "never discarded", True),
    _e(2, "support", "Support Cards", "added to a player's Usurpation Rating",
       "discarded only if the player loses the usurpation attempt it was used in"),
    _e(3, "monarchs_counselor", "Monarch's Counselor", "any one character becomes a Monarch's Counselor",
       "discarded if the FAC becomes EAC or NC or dies (by §14.2.4 also if he takes an office, A37)"),
    _e(4, "pardon", "Pardon", "returns one character who is banished, in prison, or in hiding to normal",
       "rules text §13.4.5/§14.5.4 prevails: banished, imprisoned, or a wrongdoer (A37)"),
    _e(5, "amnesty", "Amnesty", "returns all characters who are banished, in prison, or in hiding to normal",
       "rules text §13.4.6/§14.5.5 prevails: banished, imprisoned, or wrongdoers (A37)"),
    _e(6, "henchman", "Henchman", "any one character becomes a henchman",
       "chart: discarded if the FAC becomes EAC or NC, dies, or takes an office; by §14.2.4 'takes an office' "
       "belongs to Monarch's Counselor (A37)"),
    _e(7, "intrigue", "Intrigue",
       "use as an Intrigue counter; or as Assassination, Treachery, Informer, Escape or Alibi; accused if drawn",
       illegal=True),
    _e(8, "assassination", "Assassination",
       "allows an assassination attempt; accused if drawn; +2 for each additional card", illegal=True),
    _e(9, "personal_guards", "Personal Guards", "-2 Assassination Table"),
    _e(10, "palace_guards", "Palace Guards", "+2 or -2 Assassination Table"),
    _e(11, "treachery", "Treachery",
       "negates seduction; recruit by treachery; -2 Assassination; -2 Royal Favor; +-1 duel; -1 Interrogation; "
       "accused if drawn", illegal=True),
    _e(12, "informer", "Informer", "negates seduction; +-2 Assassination; +-1 Hearing; +-1 Trial; +-1 Scandal"),
    _e(13, "escape", "Escape", "one character in hiding in Fandonia or in prison escapes abroad"),
    _e(14, "prison_guards", "Prison Guards",
       "one prisoner escapes abroad; negates escape from prison; +-2 Interrogation"),
    _e(15, "port_guards", "Port Guards", "one character in hiding escapes abroad; negates escape from hiding"),
    _e(16, "extradition", "Extradition", "returns one wrongdoer in hiding to trial in Fandonia"),
    _e(17, "evidence", "Evidence", "+1 Hearing; +1 Trial"),
    _e(18, "alibi", "Alibi", "-3 Hearing; -1 Trial"),
    _e(19, "royal_alignment", "Royal Alignment", "make the RC a FARC",
       "chart: discarded if the FAC becomes EAC or NC, dies, or takes an office; governed by §14.2.5 (A37)"),
    _e(20, "extra_activity", "Extra Activity", "one extra activity this turn"),
)

# ---------------------------------------------------------------------------
# 1.20 Dice procedures embedded in the rules text
# ---------------------------------------------------------------------------


def _d(key: str, name: str, rule: str, roll: str, outcome: str, modifiers: str = "",
       errata: str = "", table: str | None = None) -> dict:
    return {"key": key, "name": name, "rule": rule, "roll": roll, "outcome": outcome,
            "modifiers": modifiers, "errata": errata, "table": table}


DICE_PROCEDURES: Final[tuple[dict[str, Any], ...]] = (
    _d("first_player", "First player", "§5", "each player 2 dice, dice count", "highest count is first player",
       errata="", table=None),
    _d("monarch_support", "Monarch's Support", "§3.10, §32.4", "2d sum x10", "20-120"),
    _d("problem_resolution", "Problem resolution", "§7.5", "1d",
       "< Minister's Ability -> resolved; natural 6 fails",
       "listed PC/FAC ministers +-1; FARC Monarch +-1; crisis +1", "+ bribed NC Office Holder +-1",
       "political_problems"),
    _d("royal_death", "Royal Death", "§8.4.1", "dice count", "RC with that Death Number dies; reroll if dead",
       table="ROYAL_DEATH"),
    _d("crown_scandal", "Crown Scandal", "§8.4.6", "dice count", "character with that ID is object"),
    _d("plague", "Plague", "§8.4.7", "two different dice counts",
       "both die; reroll PCs and characters abroad", "",
       "deaths of 11-44/56-66 now permanent (ES §31.3)"),
    _d("random_office_fill", "Random office fill", "§6.1.2", "dice count",
       "that character fills office; reroll if ineligible"),
    _d("duel_opponent", "Duel opponent", "§19.7", "dice count", "rerolls per §19.7.1-19.7.4", "",
       "reroll self; 56-66 EAC -> §19.4"),
    _d("duel", "Duel", "§19.8", "1d each, simultaneous", "< Dueling Rating kills opponent",
       "Carousing +1; Treachery +-1 (one per player)"),
    _d("kill_in_duel", "Kill in duel", "§19.10", "1d", "1 -> accused of wrongdoing"),
    _d("wrongdoing", "Wrongdoing", "§23.2", "1d", "< Status -> innocent; >= or natural 6 -> hearing",
       "DWTK +2 only", "+ bribe amount (ES §13.4.20)"),
    _d("hearing", "Hearing", "§26", "2d sum",
       "< Status -> innocent; else trial (NC/FAC interrogated first)",
       "Evidence +1 each, none played -1; Alibi -3 each; Informer +-1 each", "+ bribe amount"),
    _d("interrogation", "Interrogation", "§27", "2d sum", "table T1.7",
       "Treachery -1 (one); Prison Guards +-2 (one)", table="interrogation"),
    _d("trial", "Trial", "§28", "2d sum", "table T1.8",
       "Judge FAC +-5; Evidence +1 each, none -3; Alibi -1 each; Informer +-1 each", table="trial"),
    _d("judge_selection", "Judge selection", "§28.2", "1d", "1-3 1st Judge (46), 4-6 2nd Judge (51)",
       "MoJ PC/FAC chooses (not when MoJ on trial)"),
    _d("seduction", "Seduction", "§13.4.15", "1d", "< Seduction Rating -> male becomes FAC",
       "Treachery or Informer negates", "natural 6: seducer becomes the opponent's EAC"),
    _d("proposal", "Proposal", "§18.4", "1d",
       "3-6 accepted; 2 refused; 1 refused and proposee becomes NC/NRC",
       "Romance modifier; proposing to Anne +1 (clamp to 1..6, A5)", "Anne -1"),
    _d("prison_death", "Prison death", "§30.10", "2d sum", "11-12 dies", "", "pay One IP: -2"),
    _d("royal_favor", "Royal Favor", "§13.4.4", "2d sum", "table T1.6", "Treachery -2 (one); Favor +5",
       "henchman no longer protects", "royal_favor"),
    _d("assassination", "Assassination", "§13.4.8", "2d sum", "table T1.4", "see T1.4",
       "Any Activity + card: +2", "assassination"),
    _d("scandal", "Scandal", "§22", "2d sum", "table T1.5",
       "Informer -1 each (exposer), +1 each (object's owner)", table="scandal"),
    _d("counseling", "Counseling", "§15.7", "2d sum", "table T1.13", "listed PC/FAC +-1; FARC Monarch +-1",
       "crisis -1; bribe +-1", "counseling_results"),
    _d("court_ball", "Court Ball", "§8.4.4", "2d sum", "table T1.3", "own cumulative (max +2)",
       "free counsel threshold 9", "court_ball"),
    _d("prestige", "Prestige", "§13.4.17", "2d sum", "tables T1.14", "own cumulative +-2; bought +1",
       "Marriage opt.: roll twice", "prestige"),
    _d("deliberate_incompetence", "Deliberate incompetence (opt.)", "§38", "1d", "6 -> Minister discharged",
       "Informer +1 (one)"),
    _d("jane_seduces_rc", "Jane seduces RC (opt.)", "§38 RI 1a", "2d sum", "> RC Status -> FARC"),
    _d("female_seduces_rc", "Female seduces RC (opt.)", "§38 RI 1b", "1d + Seduction Rating",
       "> Status -> FARC; = nothing; < accused", "", "also gains the RC's Royal Alignment card"),
    _d("henchman_seduces", "Male henchman seduces (opt.)", "§38 RI 4", "1d",
       "> female's Status -> FAC; else accused"),
    _d("bribe_taken", "Bribe taken (ES)", "ES §13.4.20", "1d",
       "> amount (1-6) -> gain IP; <= -> accused, +amount to wrongdoing and hearing", "", "errata edition only"),
    _d("bribe_offered", "Bribe offered (ES)", "ES §13.4.20", "1d",
       "<= amount -> accepted (IP paid); > amount and <6 -> refused; 6 -> NC and briber accused, +amount",
       "", "errata edition only"),
    _d("privateer", "Privateer (ES)", "ES unnumbered", "table missing", "not implementable (ruling R2)",
       "", "errata edition: excluded by ruling R2"),
    _d("counselor_influence", "Counselor Influence (ES)", "ES unnumbered", "2d sum, table missing",
       "not implementable (ruling R2)", "", "errata edition: excluded by ruling R2"),
    _d("persecution", "Persecution (ES)", "ES §25.5-25.9", "undefined", "not implementable (ruling R2)",
       "Ambassador FAC +-1; Informer", "errata edition: excluded by ruling R2"),
)

# ---------------------------------------------------------------------------
# Registry of every range-keyed dice table
# ---------------------------------------------------------------------------

DICE_TABLES: Final[dict[str, dict[str, Any]]] = {
    "crown_events": CROWN_EVENTS,
    "court_ball": COURT_BALL,
    "assassination": ASSASSINATION,
    "scandal": SCANDAL,
    "royal_favor": ROYAL_FAVOR,
    "interrogation": INTERROGATION,
    "trial": TRIAL,
    "political_problems": POLITICAL_PROBLEMS,
    "foreign_war": FOREIGN_WAR,
    "counseling_results": COUNSELING_RESULTS,
    "fandonian_support": FANDONIAN_SUPPORT,
    "emissary": EMISSARY,
    "pc_advantage": PC_ADVANTAGE,
    "clemency": CLEMENCY,
    "charity": CHARITY,
    "funeral": FUNERAL,
    **{f"prestige_{k}": t for k, t in PRESTIGE_TABLES.items()},
}


# ---------------------------------------------------------------------------
# Numbers that an edition or an optional rule changes (read through ``ruleset.Ruleset``)
# ---------------------------------------------------------------------------
HAND_LIMIT: Final = 12  # §14.2.1
HAND_LIMIT_SHORTER: Final = 15  # §38 Shorter Game c (ES b)
#: §38 Shorter Game e (ES d): RCs removed at the beginning of the game.
SHORTER_E_REMOVED: Final[tuple[str, ...]] = ("alfred", "catherine", "almery", "phillip")
START_IP_PP: Final = (2, 10)  # §3.8: (IP, PP) to start the game with
SHORTER_A_START: Final = (10, 25)  # §38 Shorter Game a: Ten IP and Twenty-five PP
START_CARDS: Final = 9  # §3.9
START_CARDS_SHORTER: Final = 12  # §38 Shorter Game c
ACTIVITIES_PER_TURN: Final = 2  # §13.1
ACTIVITIES_PER_TURN_SHORTER: Final = 3  # §38 Shorter Game d
NO_PROBLEM_BONUS: Final = 5  # §32.2 (1981)
ERRATA_NO_PROBLEM_BONUS: Final = 10  # ES §7.9 (D13)
#: ES §7.9 (D13): the errata bonus needs one of these Crown Events results.
ERRATA_BONUS_CROWN_EVENTS: Final = frozenset({"court_ball", "intrigue"})
#: Errata (D20, ES §8.4.4): a free counsel on a Court Ball roll of 9 or more (1981: 8, the table).
ERRATA_FREE_COUNSEL_MIN: Final = 9
#: Errata (D21, ES §8.4.4): a player whose PC is banned loses 2 PP at every Court Ball.
ERRATA_BANNED_PP: Final = 2
FARC_MONARCH_BONUS: Final = 10  # ES §36.10.6 (D84): 10 PP and 10 IP
#: D3, D4 (ES §2.1.4): all four Foreign Support cards are 1dx3 / 1dx4 in the errata edition
FOREIGN_SUPPORT_ERRATA: Final = (3, 4)
PP_PRICE: Final = 5  # §35.8: One PP for Five IP
PP_PRICE_ERRATA: Final = 2  # D81 (ES §35.8): one PP for two IP
#: D25, ruling R3/A20: IP per title step, by the title left (the errata female steps cost 2, 3, 4, 5).
TITLE_COST: Final[dict[str, int]] = {row["from"]: row["cost_ip"] for row in TITLE_TABLE}
TITLE_COST_ERRATA: Final[dict[str, int]] = {**TITLE_COST, **{row["from"]: row["cost_ip"] for row in TITLE_TABLE_ERRATA_FEMALE}}
