"""The glossary: labels and plain explanations of activities, free actions, cards, counters, offices,
titles and terms (``HELP``, served at ``GET /help``).

Part of ``fandonia_env.words`` (``fandonia_env.wording`` re-exports the public names).
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.data import components as C
from ..engine.data.tables import (
    PROBLEMS,
)
from .names import card_name, char_name, country_name

#: what the module offers the rest of the package (``fandonia_env.words`` re-exports it)
__all__ = [
    "ACTIVITY_WORDS", "BASICS", "CARD_WORDS", "COUNTER_WORDS", "FREE_WORDS", "HELP", "OFFICE_WORDS", "TERM_WORDS",
    "TITLE_WORDS", "card_words"
]

# ---------------------------------------------------------------------------
# Activities, free actions, cards, counters: labels and plain explanations
# ---------------------------------------------------------------------------

#: activity key -> (label, detail)
ACTIVITY_WORDS: Final[dict[str, tuple[str, str]]] = {
    "acquire_title": ("Buy a title", "Pay IP to move one of your nobles a step up the ladder of titles; "
                                     "each step adds 1 to that noble's Status."),
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
                                       "if your PP cover that character's Status."),
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
                                  "a roll against the Monarch's side decide. A failure kills your PC."),
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
    "Loyalty counter": "Names one noble. Holding it lets you recruit that noble (if neutral and your PP cover the "
                       "noble's Status).",
    "Opportunity counter": ("A one-turn chance, drawn each turn: Any Activity, Extra Activity, Intrigue, Scandal, Favor, "
                           "Duel, Gout, Gain One IP or Free Counsel (open one you hold to read it)."),
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
        bits.append(f"adds {off.bonus} to the holder's Status" if off.bonus else "adds nothing to the holder's Status")
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
    "PC": "Player character: the noble who is you. If your PC dies, the PC's heir takes over after a while and "
          "you lose half your PP and your cards.",
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
    "Thomas (the Pretender)": "A royal claimant outside the line of succession: any player without a royal ally "
                              "of their own may usurp with Thomas, who adds only half a die.",
    "Reign countdown": "A royal ally who takes the throne must keep it three full turns after that turn; then its "
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


#: the few words a newcomer needs before the first move, shown as text on the play and spectator pages
#: (``GET /help``'s ``basics``): how to win and the terms the race for the throne uses
BASICS: Final[dict[str, Any]] = {
    "how_to_win": ("Put one of your royal allies on the throne and keep it there: take the crown from the Monarch "
                   "by a usurpation, then hold it for three full turns after the turn you took it. Each Player "
                   "Turn, do activities (recruit, win titles and offices, counsel the Monarch, gather Support "
                   "cards) to grow a faction strong enough to usurp. A failed usurpation kills your PC."),
    "terms": [
        ("PP", "Prestige Points: your standing. Your PP must cover the Status of your faction, or characters "
               "leave you; you lose half of them when your PC dies."),
        ("IP", "Influence Points: the money of the court, spent on titles, offices, tables and bribes."),
        ("Status", "A character's weight at court (titles and offices raise it). A faction's Status counts in "
                   "a usurpation; the race adds it up per player."),
        ("Faction", "Your PC (the noble who is you) and the nobles and royals aligned with you. A royal ally "
                    "is your candidate for the throne."),
        ("Thomas (the Pretender)", "A royal claimant outside the line of succession: any player without a "
                                   "royal ally may usurp with him, but he adds only half a die."),
        ("Support cards", "Event cards (Army, Navy, Peasant Support...) that each add dice to a usurpation. "
                          "Cards in another player's hand are hidden: you see them only when played."),
    ],
}


def _help() -> dict[str, Any]:
    cards: dict[str, str] = {}
    for k, t in C.CARD_TYPES.items():
        cards[t.name] = card_words(k)
    counters = dict(COUNTER_WORDS)
    offices = {C.OFFICES[k].name: v for k, v in OFFICE_WORDS.items()}
    return {"cards": cards, "counters": counters, "offices": offices, "titles": dict(TITLE_WORDS),
            "terms": dict(TERM_WORDS), "basics": {"how_to_win": BASICS["how_to_win"],
                                                  "terms": [list(t) for t in BASICS["terms"]]}}


#: ``GET /help``: plain explanations of cards, counters, offices, titles and terms, and the basics.
HELP: Final[dict[str, Any]] = _help()
