"""What a decision asks and what each choice does and to whom: the prompt (``prompt``, ``PROMPTS``) and
the options' label, detail, rule and confirmation (``option_words``, ``decision_words``), from one
seat's view.

Part of ``fandonia_env.words`` (``fandonia_env.wording`` re-exports the public names).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..engine.core.actions import NAME
from ..engine.data import components as C
from ..engine.data.tables import (
    CLEMENCY,
    COUNSELING_TABLES,
    FUNERAL,
    PRESTIGE_TABLES,
)
from ..engine.rules.rule_queries import (
    best_usurpation,
    pp_price,
    support_multiplier,
    usurpation_chance,
    usurpers,
)
from .glossary import ACTIVITY_WORDS, COUNTER_WORDS, FREE_WORDS, OFFICE_WORDS, card_words
from .names import (
    a_an,
    cap,
    card_name,
    char_brief,
    char_name,
    clean,
    country_name,
    he,
    his,
    key_words,
    next_title,
    office_name,
    pct,
    player_words,
    rule_of,
    table_name,
)
from .odds import assassination_odds, p_2d6, prestige_mod, prestige_risk, table_row
from .preview import preview_words

#: what the module offers the rest of the package (``fandonia_env.words`` re-exports it)
__all__ = [
    "CHAR_VERBS", "KIND_RULES", "PASS_WORDS", "PROMPTS", "YES_NO", "decision_words", "option_words", "prompt"
]

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
    return _CROWN_WORDS.get(ev, key_words(ev))


def _usurp_prompt(w: _W) -> str:
    u = w.c("usurper")
    if w.ctx.get("side") == "monarch":
        return (f"Your royal Monarch is being challenged by {u}'s usurpation: add Support cards to the "
                f"defence (the attacker's rating is {w.ctx.get('rating', 'known')}), or stop.")
    return f"You are usurping the throne with {u}: add Support cards one at a time, then roll."


def _duel_prompt(w: _W) -> str:
    if w.ctx.get("required"):
        s = f"A duel must be fought ({key_words(w.ctx.get('source', 'a challenge'))}): {w.c('required')} would fight"
        if w.ctx.get("avoid_cost_ip"):
            s += f" unless you pay {w.ctx['avoid_cost_ip']} IP"
        return s + ", or choose who stands in."
    return f"You must fight a duel ({key_words(w.ctx.get('source', 'a challenge'))}): choose who fights."


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
    "blackmail_choice": lambda w: (f"Blackmail {w.p(w.rel('victim_rel'))} (1 IP, or you take a card from "
                                   "their hand), or just take a card?"),
    "blackmail_pay": lambda w: (f"{cap(w.p(w.rel('blackmailer_rel')))} blackmails you: pay 1 IP, or let "
                                "them draw a card from your hand?"),
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
    "suicide_char": lambda w: "Which of your captive characters takes their own life?",
    "prison_death_pay": lambda w: (f"{w.c('target')} may die in prison (a roll of 11-12): pay 1 IP to make "
                                   "that impossible?"),
    "pc_advantage_table": lambda w: "Your PC's advantage: +1 on which Prestige Table?",
    "pc_advantage_office": lambda w: "Your PC's advantage: put your PC in which office?",
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
        return f"Decide: {key_words(d['kind'])}."
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
    "suicide_char": "{c} takes their own life", "usurp_farc": "Usurp the throne with {c}",
    "farc_pardon": "Pardon {c}", "pp_limit_lose": "Give up {c}: your PP no longer cover your faction",
}

#: kind -> (yes label, no label)
YES_NO: Final[dict[str, tuple[str, str]]] = {
    "use_any_activity": ("Use the Any Activity counter", "Do it the normal way"),
    "favor_through_henchman": ("A henchman courts {farc}", "Your PC courts {farc}"),
    "intrigue_grant": ("Use your Intrigue counter", "No"),
    "clemency_ask": ("Ask for clemency for {target}", "Do not ask"),
    "counsel_prevent": ("Stop the counsel (their turn ends)", "Let the counsel go on"),
    "crown_order": ("Deal with it now", "Deal with another one first"),
    "crown_intrigue": ("Take a card", "Leave their hand alone"),
    "funeral_attend": ("Attend the funeral", "Stay away"),
    "prestige_roll_again": ("Roll again", "Keep this result"),
    "escape_hide_choice": ("{target} hides there", "{target} lives openly abroad"),
    "unhide_abroad": ("{target} stays abroad openly", "{target} goes home to face justice"),
    "extradite_intrigue": ("Add your Intrigue counter", "Extradite without Intrigue"),
    "extradition_veto": ("Veto the extradition", "Let it happen"),
    "dissolve_government": ("Dissolve the government", "Keep the government"),
    "blackmail_choice": ("Blackmail them", "Just take a card"),
    "blackmail_pay": ("Pay 1 IP", "Refuse: they draw a card from your hand"),
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


def _confirm(title: str, odds: float | None, lose: str, chance: str | None = None) -> dict[str, Any]:
    return {"title": title, "odds": None if odds is None else round(float(odds), 4), "lose": lose,
            "chance": chance}


_PC_DEATH: Final = ("your PC dies (you lose half your PP and IP and your whole hand; your PC's heir enters after "
                    "a while)")


def _usurp_lose(cid: str) -> str:
    royal = "" if cid == "thomas" else f" and {char_name(cid)} is killed too"
    return f"If it fails, {_PC_DEATH}{royal}, and every Support card you played is lost."


def _prestige_confirm(view: dict[str, Any], table: str, mod: int | None = None) -> dict[str, Any] | None:
    m = prestige_mod(view, table) if mod is None else mod
    risk = prestige_risk(table, m)
    if risk <= 0:
        return None
    name = table_name(table)
    return _confirm(f"Roll on the {name} Table?", None,
                    f"With your modifier {m:+d}, a roll has about {pct(risk)} chance of a bad row that makes your "
                    "PC or a henchman fight a duel, face a scandal or go before justice (a duel or a trial can "
                    "cost a life).")


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
        nt = next_title(cid, c, v)
        if nt:
            detail = f"{char_name(cid)} becomes {nt[0]} for {nt[1]} IP; {his(cid)} Status rises by 1."
    elif kind == "assassination_target" and v.get("monarch") == cid:  # the attempt was confirmed when chosen
        detail = f"The Monarch is harder to reach: {pct(assassination_odds(True))} before the others' cards."
    elif kind == "usurp_farc":
        odds = usurpation_chance(v, w.me, cid)
        detail = f"{pct(odds)} to succeed with every Support card you hold played."
        confirm = _confirm(f"Usurp the throne with {char_name(cid)}?", odds, _usurp_lose(cid))
    elif kind == "duel_fighter":
        rating = C.NOBLES[cid].dueling if cid in C.NOBLES else None
        chance = None
        if rating:
            detail = (f"Duelling rating {rating}: {he(cid)} kills {his(cid)} opponent on a die roll under {rating} "
                      f"({pct((rating - 1) / 6)}); the opponent is drawn afterwards.")
            chance = (f"{pct((rating - 1) / 6)} that {char_name(cid)}'s own roll kills the opponent (a roll under "
                      f"{rating}); the opponent, drawn afterwards, rolls too.")
        who = "your PC" if c["is_pc"] else char_name(cid)
        lose = f"{char_name(cid)} may be killed." + (f" If so, {_PC_DEATH}." if c["is_pc"] else "")
        confirm = _confirm(f"Send {who} to fight the duel?", None, lose, chance)
    elif kind == "suicide_char":
        confirm = _confirm(f"{char_name(cid)} takes {his(cid)} own life?", 0.0,
                           f"{char_name(cid)} dies" + (f": {_PC_DEATH}." if c["is_pc"] else "."))
    elif kind == "pp_limit_lose":
        detail = (f"A married noble who leaves dies; others become neutral. Your PP: {ctx.get('pp', '?')}, "
                  f"needed: {ctx.get('required', '?')}.")
    elif kind == "recruit_character":
        detail = f"{char_name(cid)} joins your faction; your PP must cover {his(cid)} Status {v['status'][cid]}."
    return {"label": label, "detail": detail, "confirm": confirm}


def _rule_of_action(a: int) -> dict[str, Any]:
    """The rule the catalogue names for action ``a``, if any (it overrides the decision kind's)."""
    rule = rule_of(_describe(a))
    return {"rule": rule} if rule else {}


def _activity_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    key = n[4:]
    label, detail = ACTIVITY_WORDS.get(key, (clean(key_words(key)).capitalize(), None))
    out: dict[str, Any] = {"label": label, "detail": detail, **_rule_of_action(a)}
    if key == "assassinate":
        odds = assassination_odds()
        out["confirm"] = _confirm("Attempt an assassination?", odds,
                                  "Your Assassination card is spent; on a bad roll the assassin is caught and faces "
                                  "justice (a trial can end in execution).")
    return out


def _free_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    key = n[5:]
    label, detail = FREE_WORDS.get(key, (clean(key_words(key)).capitalize(), None))
    out: dict[str, Any] = {"label": label, "detail": detail, **_rule_of_action(a)}
    v = w.v
    if key == "buy_pp":
        out["label"] = f"Buy 1 PP for {pp_price(v)} IP"
    elif key == "usurp":
        cid, odds = best_usurpation(v, w.me)
        cands = usurpers(v, w.me)
        cid = cid or (cands[0] if cands else "thomas")
        out["label"] = f"Usurp the throne (best chance {pct(odds)}, with {char_name(cid)})"
        out["confirm"] = _confirm(f"Attempt to usurp the throne of {char_name(v.get('monarch'))}?", odds,
                                  _usurp_lose(cid))
    elif key == "abdicate":
        out["confirm"] = _confirm("Abdicate?", None, "Your royal leaves the throne and your alliance; the count "
                                                     "toward victory ends.")
    elif key == "suicide":
        out["confirm"] = _confirm("End a captive's life?", None, "The character you then choose dies.")
    return out


def _character_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    r = _char_option(w, n[5:], kind)
    return {"label": r["label"], "detail": r["detail"], "confirm": r["confirm"]}


def _yes_no_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    yes, no = YES_NO.get(kind, ("Yes", "No"))
    fmt = {"farc": w.c("farc"), "target": w.c("target"), "spouse": w.c("spouse")}
    out: dict[str, Any] = {"label": (yes if n == "yes" else no).format(**fmt)}
    if n == "yes":
        out["confirm"], out["detail"] = _yes_risk(w, kind)
    return out


def _pass_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    label, detail = PASS_WORDS.get(kind, ("Pass", None))
    out: dict[str, Any] = {"label": label, "detail": detail}
    ctx = w.ctx
    if kind == "duel_fighter" and ctx.get("avoid_cost_ip"):
        out["label"] = f"Pay {ctx['avoid_cost_ip']} IP: no duel is fought"
    elif kind == "usurp_support":
        if ctx.get("side") == "monarch":
            out["label"] = "Add no more cards: roll the defence"
        else:
            cid = str(ctx.get("usurper") or "thomas")
            odds = usurpation_chance(w.v, w.me, cid, with_hand=False)
            out["label"] = f"Roll the usurpation now ({pct(odds)} with the cards played)"
            out["confirm"] = _confirm(f"Roll the usurpation with {char_name(cid)}?", odds, _usurp_lose(cid))
    return out


def _intrigue_as_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    t = n[len("play_intrigue_as_"):]
    return {"label": f"Play an Intrigue card as {card_name(t)}", "detail": card_words(t), "rule": "§14.5.7"}


def _play_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    label, detail = _play_label(w, n[5:])
    return {"label": label, "detail": detail}


def _discard_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    t = n[8:]
    return {"label": f"Discard {card_name(t)}", "detail": card_words(t)}


def _sign_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    amt = w.ctx.get("amount") or 1
    if kind == "card_sign":
        return {"label": f"Up: +{amt} on the {w.roll()}" if n == "sign_plus" else f"Down: -{amt} on the {w.roll()}"}
    return {"label": f"Add {amt} to the {w.roll()}" if n == "sign_plus" else f"Subtract {amt} from the {w.roll()}"}


def _office_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    o = n[7:]
    on = office_name(o)
    label = {"office_select": f"Fill {on} next", "fill_office_office": f"Fill the office {on}",
             "dissolve_office": f"Appoint a new {on}",
             "pc_advantage_office": f"Put your PC in the office {on}"}.get(kind, on)
    detail = OFFICE_WORDS.get(o)
    holder = next((cid for cid, c in w.v["chars"].items() if c["office"] == o), None)
    if holder and kind == "pc_advantage_office":
        detail = f"{char_name(holder)} gives the office up."
    return {"label": label, "detail": detail}


def _prestige_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    t = n[9:]
    T = PRESTIGE_TABLES[t]
    if kind == "pc_advantage_table":
        return {"label": f"+1 on the {T['name']} Table"}
    cost = int(T.get("cost_ip") or 0)
    m = prestige_mod(w.v, t)
    return {"label": f"Roll on the {T['name']} Table" + (f" ({cost} IP)" if cost else ""),
            "detail": f"Your modifier on this table: {m:+d}.", "confirm": _prestige_confirm(w.v, t, m)}


def _counsel_table_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    return {"label": f"Counsel on {table_name(n[len('counsel_table_'):])}"}


def _counsel_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    i = int(n[8:])
    cs = COUNSELING_TABLES.get(str(w.ctx.get("table")), {}).get("counsels", [])
    if 0 < i <= len(cs):
        return {"label": f"Counsel {i}: {clean(cs[i - 1]['text'])}", "detail": clean(cs[i - 1]["effect_text"]) or None}
    return {"label": f"Counsel number {i}"}


def _country_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    cn = country_name(n[8:])
    return {"label": {"banish_country": f"Banish him to {cn}", "escape_country": f"Flee to {cn}",
                      "travel_destination": f"Go to {cn}", "foreign_support_country": f"Ask {cn} for support",
                      "emissary_country": f"Send the emissary to {cn}"}.get(kind, cn)}


def _player_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    v = w.v
    seat = (w.me + int(n[11:])) % int(v["n_players"])
    pl = v["players"][seat]
    who = player_words(v, seat)
    return {"label": {"intrigue_victim": f"Take a card from {who}'s hand ({pl['hand_size']} cards)"}.get(kind, who)}


def _draw_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    what = n[5:]
    return {"label": {"loyalty": "Draw a Loyalty counter", "opportunity": "Draw an Opportunity counter",
                      "event": "Draw an Event card"}.get(what, f"Draw {key_words(what)}"),
            "detail": {"loyalty": COUNTER_WORDS["Loyalty counter"], "opportunity": COUNTER_WORDS["Opportunity counter"],
                       "event": "A card for your hand."}.get(what)}


def _problem_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    return {"label": f"Deal with {table_name(n[8:])} next"}


def _amount_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    k = int(n[7:])
    if kind != "bribe_demand":
        return {"label": f"Offer {k} IP"}
    return {"label": f"Demand {k} IP",
            "confirm": _confirm(f"Demand a bribe of {k} IP?", (6 - k) / 6,
                                "If the die does not beat the bribe, your PC gets nothing and is accused of "
                                "wrongdoing (a hearing or a trial may follow).")}


def _support_option(w: _W, a: int, n: str, kind: str) -> dict[str, Any]:
    t = n[len("fandonian_support_"):]
    return {"label": f"Seek the {card_name(t)} card", "detail": card_words(t)}


#: (does the action's name match, its words), the first match wins
_OPTION_WORDS: Final[tuple[tuple[Callable[[str], bool], Callable[[_W, int, str, str], dict[str, Any]]], ...]] = (
    (lambda n: n.startswith("act_"), _activity_option),
    (lambda n: n.startswith("free_"), _free_option),
    (lambda n: n.startswith("char_"), _character_option),
    (lambda n: n in ("yes", "no"), _yes_no_option),
    (lambda n: n == "pass", _pass_option),
    (lambda n: n.startswith("play_intrigue_as_"), _intrigue_as_option),
    (lambda n: n.startswith("play_"), _play_option),
    (lambda n: n.startswith("discard_"), _discard_option),
    (lambda n: n in ("sign_plus", "sign_minus"), _sign_option),
    (lambda n: n.startswith("office_"), _office_option),
    (lambda n: n.startswith("prestige_"), _prestige_option),
    (lambda n: n.startswith("counsel_table_"), _counsel_table_option),
    (lambda n: n.startswith("counsel_") and n[8:].isdigit(), _counsel_option),
    (lambda n: n.startswith("country_"), _country_option),
    (lambda n: n.startswith("player_rel_"), _player_option),
    (lambda n: n.startswith("draw_"), _draw_option),
    (lambda n: n.startswith("problem_"), _problem_option),
    (lambda n: n.startswith("amount_"), _amount_option),
    (lambda n: n.startswith("fandonian_support_"), _support_option),
)


def _action_option(w: _W, a: int) -> dict[str, Any]:
    """label, detail, rule, confirm of action ``a`` in this decision."""
    n = NAME[a]
    kind = w.d["kind"]
    out: dict[str, Any] = {"label": None, "detail": None, "rule": KIND_RULES.get(kind), "confirm": None}
    words = next((f for match, f in _OPTION_WORDS if match(n)), None)
    if words is None:
        out["label"] = clean(_describe(a))
    else:
        out.update(words(w, a, n, kind))
    return {"id": a, "name": n, **out}


def _describe(a: int) -> str:
    from ..engine.core.actions import describe

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
        risk = p_2d6(lambda t: "scandal" in table_row(FUNERAL, t).get("special", ()), 0, FUNERAL["lo"], FUNERAL["hi"])
        return _confirm("Attend the funeral?", None,
                        f"About {pct(risk)} chance of a faux pas that puts your PC before the Scandal Table; "
                        "other rows cost or win a few PP or IP."), None
    if kind == "clemency_ask":
        cid = ctx.get("target")
        mine = isinstance(cid, str) and cid in v["chars"] and v["chars"][cid]["owner"] == w.me
        good = p_2d6(lambda t: table_row(CLEMENCY, t).get("verdict") in ("pardoned", "new_trial"))
        bad = p_2d6(lambda t: table_row(CLEMENCY, t).get("verdict") == "executed")
        detail = f"{pct(good)} for a pardon or a new trial, {pct(bad)} that he is executed at once."
        if mine:
            return _confirm(f"Ask for clemency for {char_name(cid)}?", good,
                            f"On a 2 or 3 ({pct(bad)}) the Monarch has {char_name(cid)} executed at once."), detail
        return None, detail
    return None, None


def option_words(view: dict[str, Any], decision: dict[str, Any], a: int) -> dict[str, Any]:
    """``{id, name, label, detail, rule, confirm}`` of option ``a`` of the seat's decision."""
    return _action_option(_W(view, decision), a)


def decision_words(view: dict[str, Any], decision: dict[str, Any] | None = None,
                   preview: dict[int, dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The seat's decision for people: ``{kind, ctx, prompt, options: [{id, name, label, detail, rule,
    confirm}]}`` (None when the seat has no decision).  With the engine's ``preview`` of the decision
    (``engine/face/preview.py``), each option gains ``preview`` (``preview_words``) and, when it has no
    confirmation of its own, the preview's (its worst outcome loses a character, a royal or half the PP)."""
    d = decision if decision is not None else view.get("decision")
    if not d:
        return None
    w = _W(view, d)
    options = [_action_option(w, a) for a in d["options"]]
    if preview is not None:
        for o in options:
            rec = preview.get(o["id"])
            if rec is None:
                continue
            o["preview"] = preview_words(rec, view)
            if o["confirm"] is None and o["preview"]["confirm"] is not None:
                o["confirm"] = {**o["preview"]["confirm"], "title": f"{o['label']}?"}
    return {"kind": d["kind"], "ctx": d.get("ctx") or {}, "prompt": prompt(view, d), "options": options}
