"""The engine's bookkeeping as declared records (issue 29): every key of a decision's public
context, of the Player Turn's and the game turn's bookkeeping, and of the game-long ``misc``,
with its type, in one place.  They are ``TypedDict``s: plain dicts at run time, so the save
format is unchanged, and mypy checks every read and write of a key against them
(``tests/test_records.py`` also runs mypy on the engine and checks every context a game asks
against ``DECISION_CONTEXTS``).  ``face/invariants.py`` checks a loaded game's values against the
same declarations.  A new key is declared here first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypedDict


class DecisionContext(TypedDict, total=False):
    """The public context of a pending decision (``machine.ask(..., ctx)``): what the observation
    encoders and the front ends show.  Nothing hidden from the other players but what the
    deciding player may know.  ``DECISION_CONTEXTS`` says which keys each decision kind carries."""

    activity: str  # the activity (§13.4) or free action the decision belongs to
    activities_left: int  # activities left this Player Turn (§13.1)
    amount: int  # the size of a modifier or card effect (§2.3)
    assassin: str  # the assassin character (§21)
    avoid_cost_ip: int | None  # IP that would buy off a duel (ruling R12)
    blackmailer_rel: int  # the blackmailer, as a seat relative to the decider
    bought: bool  # a +1 on the Prestige Table already bought (§13.4.17)
    card: str  # a card type
    cid: str  # a character
    cost: int  # IP an office costs
    counsel: int  # the counsel chosen (1-based index in its table, §15)
    deceased: str  # the character whose funeral it is (§38 Funerals)
    done: list[str]  # activities done this Player Turn
    duellists: list[str]  # the two duellists (§19)
    event: str  # a Crown Event (§8)
    farc: str  # the FARC being courted (§13.4.4)
    free: bool  # a free counsel (ES §15, Court Ball)
    hand_size: int  # cards in a victim's hand (Intrigue, Blackmail)
    hiding: bool  # the character is in hiding (§24)
    host: int  # the seat holding the wedding
    left: int  # how many are still to choose (discards, offices)
    minister: str  # the minister of a problem (§7)
    mod: int  # the modifier of a Prestige roll
    office: str  # an office (§6, §16)
    over: int  # cards over the hand limit (§14.2.1)
    pairs: list[list[str]]  # couples a wedding may marry (§18.5)
    phase: str  # the phase of the game turn (§4)
    player: int  # a player (a seat)
    pp: int  # PP over the limit (§35.5)
    problem: str  # a political problem (§7)
    proposee: str  # the character proposed to (§18.4)
    proposer: str  # the proposing character (§18.4)
    rating: int  # the Usurpation Rating so far (§36.4)
    remaining: list[str]  # Crown Events still to resolve in an order the first player picks
    required: int | str  # what must be given up (PP, §35.5) or who must fight (§19.3)
    result: str  # a table result being applied
    role: str  # the part in a duel (fighter...)
    roll: str  # the roll a modifier or card window belongs to
    rule: str  # the rule in play (§ number, D-item)
    seducer: str  # the seducing character (§13.4.15)
    side: str  # usurper or defender (§36)
    source: str  # what started a duel (counter, court ball, carousing, prestige)
    spouse: str  # the spouse being married (§38 Marriage)
    table: str  # a table (Prestige, counsel, Court Ball...)
    target: str | int | None  # the target character (or seat / nothing where the kind says so)
    usurper: str  # the usurping character (§36)
    victim: int  # the victim's seat (Intrigue, §8.4.3)
    victim_rel: int  # the victim, as a seat relative to the decider
    why: str  # why the decision is asked


#: decision kind -> the keys of ``DecisionContext`` its context may carry (docs/actions.md lists them)
DECISION_CONTEXTS: Final[dict[str, tuple[str, ...]]] = {
    "assassin": ("activity",),
    "assassination_card": ("activity",),
    "assassination_target": ("activity", "assassin"),
    "banish_country": ("target",),
    "blackmail_choice": ("hand_size", "victim_rel"),
    "blackmail_keep": ("card",),
    "blackmail_pay": ("blackmailer_rel",),
    "bribe_amount": ("rule", "target"),
    "bribe_demand": ("rule",),
    "bribe_offerer": ("rule", "target"),
    "bribe_target": ("rule",),
    "card_sign": ("amount", "card", "roll"),
    "card_window": ("duellists", "roll"),
    "choose_draw": ("why",),
    "choose_judge": ("target",),
    "clemency_ask": ("target",),
    "counsel_choice": ("table",),
    "counsel_counselor": ("counsel", "table", "target"),
    "counsel_prevent": ("player", "table"),
    "counsel_table": ("free",),
    "counsel_target": ("counsel", "table"),
    "counselor_character": ("activity",),
    "court_ball_ban": ("table",),
    "court_ball_designate": ("result", "table"),
    "crown_intrigue": ("hand_size", "victim", "victim_rel"),
    "crown_order": ("event", "remaining"),
    "death_discard": ("left",),
    "declare_modifier": ("amount", "roll", "why"),
    "dissolve_char": ("office", "phase"),
    "dissolve_government": ("phase",),
    "dissolve_office": ("left", "phase"),
    "draw_choice": ("activity",),
    "duel_card_target": ("duellists", "roll"),
    "duel_fighter": ("avoid_cost_ip", "required", "role", "rule", "source"),
    "emissary_character": ("activity",),
    "emissary_country": ("activity", "target"),
    "escape_card": ("activity", "target"),
    "escape_country": ("activity", "target"),
    "escape_hide_choice": ("target",),
    "escape_target": ("activity",),
    "extradite_intrigue": ("activity", "target"),
    "extradite_target": ("activity",),
    "extradition_veto": ("activity", "target"),
    "fandonian_support_card": ("activity",),
    "farc_pardon": ("activity",),
    "favor_farc": ("activity",),
    "favor_henchman": ("activity", "farc"),
    "favor_through_henchman": ("activity", "farc"),
    "fill_office_char": ("activity", "office"),
    "fill_office_office": ("activity",),
    "foreign_support_country": ("activity",),
    "funeral_attend": ("deceased", "rule"),
    "halt": (),
    "hand_limit_discard": ("over",),
    "hearing_hiding": ("hiding", "target"),
    "henchman_character": ("activity",),
    "hide_char": (),
    "hide_from_hearing": ("hiding", "target"),
    "intrigue_grant": ("activity",),
    "intrigue_victim": ("activity",),
    "marriage_spouse": ("rule", "spouse", "table"),
    "mourning_discard": ("left",),
    "office_fill": ("cost", "office"),
    "office_select": ("phase",),
    "pardon_target": ("activity",),
    "pc_advantage_office": ("table",),
    "pc_advantage_table": ("table",),
    "pp_limit_lose": ("pp", "required"),
    "prestige_designate": ("result", "rule", "why"),
    "prestige_roll_again": ("mod", "rule", "table"),
    "prestige_table": ("activity", "bought"),
    "prison_death_pay": ("target",),
    "problem_leave_unresolved": ("minister", "problem"),
    "problem_order": ("phase",),
    "propose_proposee": ("proposer", "rule"),
    "propose_proposer": ("rule",),
    "propose_use_auto": ("proposee", "proposer", "rule"),
    "recruit_character": ("activity",),
    "ri_elope": ("proposee", "proposer", "rule"),
    "ri_elope_romance": ("rule", "table"),
    "royal_alignment": (),
    "scandal_target": ("activity",),
    "seduce_target": ("activity", "seducer"),
    "seducer": ("activity",),
    "suicide_char": (),
    "sweet_charity": ("table",),
    "title_character": ("activity",),
    "travel_character": ("activity",),
    "travel_destination": ("activity", "cid"),
    "treachery_card": ("activity", "target"),
    "treachery_target": ("activity",),
    "turn_main": ("activities_left", "done"),
    "unhide_abroad": ("target",),
    "unhide_char": (),
    "use_any_activity": ("activity",),
    "usurp_farc": ("activity",),
    "usurp_support": ("activity", "rating", "side", "usurper"),
    "voluntary_discard": (),
    "wedding_attend": ("host", "rule"),
    "wedding_pair": ("pairs", "rule"),
}


class PlayerTurn(TypedDict, total=False):
    """``GameState.pt``: the current Player Turn's bookkeeping (§10-§13); empty between turns."""

    player: int  # whose Player Turn it is
    done: list[str]  # activity keys done (§13.1)
    extra: int  # extra activities granted (Extra Activity card, counters)
    no_more: bool  # no more activities this turn
    restricted: bool  # PC banished, imprisoned or in hiding (§13.1)
    imprisoned: bool  # PC imprisoned (§30.3)
    any_activity: int  # 'Any Activity' counters left (§12.3.1)
    intrigue: int  # Intrigue grants left: counter or Prestige free intrigue (§12.3.3)
    scandal: int  # scandal grants left
    favor: bool  # a 'Favor' Opportunity counter was revealed this turn (§12.3)
    waiver: bool  # this activity is done through Any Activity: requirements waived (A42)
    bought_mod: bool  # a Prestige modifier bought this turn
    proposals: list[list[str]]  # proposals made this turn (§18.4)
    counselled: bool  # counsel given this turn (§15)
    free: list[str]  # activity keys granted as free additional activities (T1.14.11 note 3)
    free_used: int  # free additional activities used (they do not count in done)
    auto_proposal: int  # Prestige 'Proposal Automatically Accepted' grants left (§18.4.5)
    bought_used: bool  # the bought Prestige modifier was used
    prestige_table: str  # the Prestige Table being consulted


class TurnState(TypedDict, total=False):
    """``GameState.tstate``: this game turn's bookkeeping (reset by ``new_turn``).  Besides these
    keys it holds ``restricted_<seat>`` flags (``restricted_key``): a PC not in a normal situation
    at some time of this turn (§13.1), written and read through ``mark_restricted`` / ``was_restricted``."""

    aborted: bool  # the turn was cut short (mourning, §9.4)
    auto_proposal: dict[str, int]  # seat -> automatic proposals granted this turn
    blackmail_paid: list[list[int]]  # [player, victim] pairs who paid blackmail
    bribe_accepted: list[str]  # characters who accepted a bribe (ES §13.4.20)
    bribe_offered: list[int]  # seats who offered a bribe
    bribe_taken: list[int]  # seats who took a bribe
    clemency_asked: list[str]  # '<seat>:<cid>': who was asked for clemency for whom (§38 Clemency)
    counsel_ban_logged: bool  # 'no counseling this turn' was logged once (public)
    counsel_prevented_by: list[int]  # seats who prevented counsel (§38 Counselor Powers)
    crown_events: list[str]  # this turn's Crown Events (§8)
    crown_problems: list[str]  # problems raised this turn by the Crown Events (§8.4.5)
    ip_spent: dict[str, int]  # seat -> IP spent this turn
    ip_start: dict[str, int]  # seat -> IP at the start of the turn
    offices_passed: list[str]  # offices no one filled this Office Phase
    pp_check: list[int]  # (old saves only: nothing writes it since ruling R15)
    prestige_grants: dict[str, dict[str, int]]  # seat -> grants from the Prestige Tables
    problems_attempted: list[str]  # problems attempted this turn (§7)
    titled: list[str]  # characters given a title this turn


class Misc(TypedDict, total=False):
    """``GameState.misc``: game-long bookkeeping of the errata and optional rules."""

    bribe_hearing: dict[str, int]  # cid -> a bribe paid for his next hearing (ES §13.4.20)
    bribery_bought: dict[str, dict[str, int]]  # cid -> {"p", "turn"}: bought by a bribe
    chance_script: dict[str, list[str]]  # ``chance.script``'s queues (tests and chance nodes)
    death_removed: list[str]  # characters permanently removed (D77, Shorter Game b), in order
    emissary: dict[str, str]  # cid -> the country he is an emissary to (§38)
    justice_fate: dict[str, str]  # cid -> the proceedings (hearing / trial) a fugitive escaped (ES §24)
    unres_no_ip_turn: int  # the turn in which no IP may be spent (§38 unresolved Banking Crisis a)


class EffectParams(TypedDict, total=False):
    """``effects.Ctx.params``: the arguments a table's row gives its effects (``rules/effects.py``)."""

    attendees: list[str]  # the characters attending a Court Ball (§8.4.4)
    attends: Callable[[Any, str], bool]  # (state, cid) -> still attending (rules.court.attends)
    check_dead: bool  # a counsel's effect on a character dead meanwhile does nothing
    clemency: bool  # §38 Clemency: a banishment or execution becomes imprisonment
    counselor: str | None  # the counselor giving counsel (§15)
    duel_check_pc: bool  # a Prestige duel checks the PC can fight
    duel_source: str  # what started a duel (court_ball, carousing, prestige)
    effect: dict[str, Any]  # a counsel's effect (its row of the Counseling table)
    exposer: int | None  # the seat exposing a scandal (§22)
    hm: list[str]  # henchmen who may be designated (filled by the designation effect)
    mod: int  # the Prestige roll's modifier
    own: bool  # the roll is the player's own (in his own turn)
    substitute: bool  # counsel given by a substitute counselor (§15)
    table: str  # the Prestige Table
    target: str | int  # the target character, or a seat (a card taken from a hand, §14.2.7)
    then: tuple[str, dict[str, Any]] | None  # the step that follows the row (Clemency)
    total: int  # the row's total


class EffectFlags(TypedDict, total=False):
    """``effects.Ctx.flags``: what the effects of a row tell the chapter that applied it."""

    dies: bool  # the interrogated character dies (§27)
    duel_ignored: bool  # the duel could not be fought (the PC cannot fight, Prestige)


def restricted_key(p: int) -> str:
    """The ``tstate`` key of seat ``p``'s 'not in a normal situation this turn' flag (§13.1)."""
    return f"restricted_{p}"


def mark_restricted(tstate: TurnState, p: int) -> None:
    tstate[restricted_key(p)] = True  # type: ignore[literal-required]


def was_restricted(tstate: TurnState, p: int) -> bool:
    return bool(tstate.get(restricted_key(p)))  # type: ignore[misc]
