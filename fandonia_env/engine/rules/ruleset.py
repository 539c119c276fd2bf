"""One :class:`Ruleset` per (edition, optional switches): every rule that differs between the
1981 and the errata editions (ruling R1) or that an optional switch (§38) turns on, answered
under its own name (issue 12 item 1).

Chapter code asks ``rs = ruleset(state)`` and reads ``rs.<rule>``: a bool for a rule that is
on or off, a number or a table where the editions print different values, or the name of a
hook (``registry.HOOKS``) where they run a different procedure.  It never asks
``options.errata``/``options.opt`` nor reads ``config["edition"]``/``config["optional"]``
itself (``tests/test_ruleset.py`` scans the sources).

The ruleset is derived from ``state.config`` and never saved; :func:`ruleset` builds it once
per (edition, frozenset of switches) (``functools.cache``, i.e. ``lru_cache(maxsize=None)``).
It is frozen (slots): assigning an attribute raises, and it is hashable.

A new optional rule plugs in with three edits: its switch in ``options.OPTIONAL_RULES``, an
attribute here (named after the rule, with its § / D-number in a comment, set in
:meth:`Ruleset._build`), and ``ruleset(state).<attribute>`` where the chapter applies it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Final

from ..core.options import EDITIONS, OPTIONAL_RULES
from ..data import components as C
from ..data import tables as T

#: The attributes that only name the ruleset (not rules).
IDENTITY: Final = ("edition", "optional")
#: The attributes derived from the rules (tables made once per ruleset, not rules of their own).
DERIVED: Final = ("printed_statuses",)
#: the hook of an optional activity or free action that is not part of the game (its legality check)
NOT_IN_THIS_GAME: Final = "not_in_this_game"
#: D95 (ES §38 Funerals): the errata Funeral Table (T1.16), whose Fell Into Grave (row 5) loses One PP, not One IP
FUNERAL_D95: Final[dict[str, Any]] = {**T.FUNERAL, "rows": tuple(
    (lo, hi, {**row, "pp": -1, "ip": 0, "text": "Fell Into Grave. Lose One PP (errata, D95)."} if lo == 5 else row)
    for lo, hi, row in T.FUNERAL["rows"])}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules of one game.  Tables (dicts) are left out of the hash, not of equality."""

    edition: str  # "1981" or "errata" (ruling R1)
    optional: tuple[str, ...]  # the switches on, in catalogue order (options.OPTIONAL_RULES)

    # -- set-up (§3) and the components printed (§2) --------------------------------------
    opportunity_ids: tuple[str, ...]  # D6 (ES §2.2.2): the edition's 24 Opportunity counters
    pc_deck_3_to_6: tuple[str, ...]  # D10, D11, R3/A22: PCs dealt with 3-6 players (2: PC_DECK)
    status_overrides: dict[str, int] = field(hash=False)  # D1, D2 (ES §2.1.1, §2.1.2): printed Status
    title_overrides: dict[str, str] = field(hash=False)  # D2 (ES §2.1.2): printed female titles
    two_player_female: tuple[str, int] | None  # D11 (ES §3.1.1): every female a Condesa S3 with 2 players
    female_titles: tuple[str, ...]  # D25, R3/A20 (ES §13.4.1): the female title ladder
    title_cost: dict[str, int] = field(hash=False)  # D25 (ES §13.4.1): IP per title step, by title left
    counselor_card_status: int  # D28, A18 (ES §13.4.3, §14.5.3): Status the Monarch's Counselor card adds
    illegal_cards: frozenset[str]  # D19 (ES §8.4.3, §14.2.7): card types illegal when intrigued
    intrigue_substitutes: bool  # §14.5.7 (1981 only, D45): an Intrigue card played as another card
    famine_boosted_support: str  # D18, A23 (ES §8.4.2): the Support cards Famine boosts (log text)
    hand_limit: int  # §14.2.1; §38 Shorter Game c
    start_cards: int  # §3.9; §38 Shorter Game c
    start_ip_pp: tuple[int, int]  # §3.8; §38 Shorter Game a
    rcs_removed_at_start: tuple[str, ...]  # §38 Shorter Game e
    activities_per_turn: int  # §13.1; §38 Shorter Game d
    pc_advantages: bool  # §38 Beginning PC Advantages
    pp_price: int  # §35.8; D81 (ES §35.8): IP per PP bought
    foreign_support_values: tuple[int, int] | None  # D3, D4 (ES §2.1.4): Foreign Support 1dx3 / 1dx4
    famine_support_cards: frozenset[str] | None  # D18, A23 (ES §8.4.2): the cards Famine boosts (None: §14.5.2)
    crisis_boosts_support: bool  # D80, A53 (ES §33.4): every Support card boosted in a crisis
    setup_ops: tuple[str, ...]  # §38 Beginning PC Advantages: the operations run once the set-up (§3) is done

    # -- activities (§13) ------------------------------------------------------------------
    counselor_may_be_henchman: bool  # D29 (ES §13.4.7, §14.5.6); with D27: not imprisoned/banished/hiding
    counselor_card_lost_away_from_court: bool  # D27 (ES §13.4.3, §14.2.4, §29.3, §30.4)
    henchman_courted_farc_may_become_nrc: bool  # D52 (ES §17.2.4)
    farc_monarch_out_of_romance: bool  # D83 (ES §36.10.5): a FARC Monarch is never courted nor married
    sweet_charity: bool  # §38 Sweet Charity
    foreign_support: bool  # §38 Gaining Foreign Support
    fandonian_support: bool  # §38 Gaining Fandonian Support
    emissaries: bool  # §38 Emissaries
    blackmail: bool  # §38 Blackmail
    blackmail_dwtk_redrawn: bool  # D94 (ES §38 Blackmail): a drawn DWTK card is returned, another drawn
    bribery: bool  # D42, D43 (ES §13.4.20, A27): take bribes, bribe a NC Office Holder
    abdication: bool  # §38 Abdication
    # procedures chosen here (issue 29): the hooks (``registry.HOOKS``) and operations that apply
    turn_start_ops: tuple[str, ...]  # §38 Sweet Charity: operations run at the start of a Player Turn (after registry.TURN_START)
    foreign_support_legal_hook: str  # §38 Gaining Foreign Support: the activity's legality check (else "not_in_this_game")
    fandonian_support_legal_hook: str  # §38 Gaining Fandonian Support: the activity's legality check
    emissary_legal_hook: str  # §38 Emissaries: the activity's legality check
    take_bribe_legal_hook: str  # D42 (ES §13.4.20): the free action's legality check (1981: "not_in_this_game")
    offer_bribe_legal_hook: str  # D43, A27 (ES §13.4.20): the free action's legality check (1981: "not_in_this_game")
    intrigue_hook: str  # §38 Blackmail: a player who may intrigue a card from a hand draws it (§14.2.2) or may blackmail
    blackmail_dwtk_hook: str  # D94 (ES §38 Blackmail): a drawn DWTK card stays, its owner accused (§14.2.8), or is redrawn
    counselor_candidates_hook: str  # D27, D29 (ES §13.4.3, §14.5.6): who may become a Monarch's Counselor
    nc_in_hiding_ops: tuple[str, ...]  # D64 (ES §24.7): operations run when a character in hiding becomes a NC/NRC
    fandonia_return_ops: tuple[str, ...]  # D62 (ES §20.8): operations run when a character travels back to Fandonia

    # -- seduction, romance, marriage (§13.4.15, §18, §38 Romantic Intrigue) ----------------
    romantic_intrigue: bool  # §38 Romantic Intrigue
    seducers_hook: str  # registry hook listing a player's seducers: 1981 §13.4.15, or RI
    seduce_targets_hook: str  # registry hook listing a seducer's targets: 1981 §13.4.15, or RI
    seduction_hook: str  # registry hook running a seduction: 1981 §13.4.15, or ES (D35-D37) / RI
    seducer_out_hook: str  # D35 (ES §13.4.15): the hook saying who cannot seduce now (1981: only the dead)
    proposal_lock_hook: str  # D56 (ES §18.4.6): the hook saying whether an engagement keeps one out of proposals
    married_recruitment_hook: str | None  # RI 2: who joins when a married character is recruited
    married_treachery_hook: str | None  # RI 2: the negation window of that recruitment
    seduction_six_backfires: bool  # D36, A33 (ES §13.4.15): a natural 6 hands the seductress over
    seduced_nc_loyalty_counter: bool  # D37 (ES §13.4.15): the log line of the Loyalty counter placed
    seduced_nrc_takes_alignment_card: bool  # D88 (ES §38 RI 1b)
    male_seducers_may_seduce_female_rcs: bool  # D90 (ES §38 RI 4)
    treachery_negates_ri_seductions: bool  # D91 (ES §38 RI): RI 1a, 1b and 4 too
    informer_negates_married_treachery: bool  # D89 (1981 RI 2: Treachery or Informer; ES: Treachery)
    seduction_failure_accused: bool  # D92, ES §38 RI note (optional)
    anne_proposal_penalty: int  # D55 (ES §18.4.4): -1 proposing to Princess Anne
    automatic_proposal_at_once: bool  # D40 (ES §13.4.16): designate it at once or lose it
    wedding_host_rolls: bool  # D38, D39 (ES §13.4.16): the host rolls, twice if his PC marries
    marriage: bool  # D97, ES §38 Matrimonio (optional)
    court_ball_marriage_hook: str | None  # D97: the hook replacing a Court Ball roll
    prestige_marriage_hook: str | None  # D97: the hook replacing a Prestige table roll
    accepted_proposal_six_ops: tuple[str, ...]  # §38 Romantic Intrigue 3, A5: operations run on a natural 6 of an accepted proposal
    guest_auto_proposal_hook: str  # D40 (ES §13.4.16): an automatic proposal won outside one's Player Turn: kept, or used at once
    ri_seduction_negating_cards: tuple[str, ...]  # D91 (ES §38 RI): the cards negating a RI 1a, 1b or 4 seduction (1981: none)
    seduction_success_hooks: tuple[str, ...]  # D37, D88, §38 Romantic Intrigue 5: what follows a seduction (romantic_intrigue)
    seduction_failure_hooks: tuple[str, ...]  # §38 Romantic Intrigue 6, 5; D36, A33: what follows a failed §13.4.15 seduction

    # -- political problems, offices, crown (§6-§9, §32) -----------------------------------
    no_problem_bonus: int  # §32.2 (5); D13 (ES §7.9): 10
    no_problem_bonus_crown_events: frozenset[str] | None  # D14, A8: the results that earn it (None: any)
    war_expels_from_country: bool  # D16 (ES §7.10.4, §7.10.6): war expels characters abroad
    unresolved_problems: bool  # §38 Effects of Unresolved Political Problems
    unresolved_problems_effect_h: bool  # D87: effect h (errata text)
    deliberate_incompetence: bool  # §38 Deliberate Incompetence
    government_dissolution: bool  # D85: the FARC Monarch's player may dissolve the government
    wrongdoer_abroad_no_office: bool  # D62 (ES §20.8): a wrongdoer living abroad holds no office
    banned_pc_court_ball_pp: int  # D21 (ES §8.4.4): PP lost by a banned PC's player at a Court Ball
    court_ball_free_counsel_min: int | None  # D20 (ES §8.4.4): least roll for a free counsel (None: table)
    farc_monarch_bonus: int  # D84, A34 (ES §36.10.6): PP and IP when a FARC becomes Monarch
    farc_monarch_outside_pp_total: bool  # D84 (ES §36.10.6); ruling R16: 1981 counts him (§35.4, A17)
    no_problem_bonus_hook: str  # §32.2; D13, D14, A8 (ES §7.9): the hook awarding the no-problem bonus
    war_expulsion_hook: str  # §7.10.1; D15, D16 (ES §7.10.4, §7.10.6): the hook run when a war begins
    stuck_minister_hook: str  # §7.10.6; D16 (ES §7.10.6): the hook for a Minister at war who must attempt
    recalled_from_war: str  # §7.10.4; D15 (ES §7.10.4): why a recalled Ambassador leaves a country at war (log)
    deliberately_unresolved_ops: tuple[str, ...]  # §7.4; §38 Deliberate Incompetence: the ops that follow
    unresolved_problem_effects: dict[str, dict[str, Any]] = field(hash=False)  # §38 (T1.17); D87: item h errata only

    # -- counsel (§15) ---------------------------------------------------------------------
    counsel_in_crisis: bool  # D79, A24 (ES §33.2.4): counsel allowed in a crisis, at -1
    crown_problem_tables_counselled: bool  # ruling R13 (1981): this turn's Crown problems' tables
    henchmen_counsel: bool  # §15.3 (1981); D48, D51, A25: ES "henchmen cannot be used to counsel"
    free_counsel_counter: bool  # D7, A26: the Free Counsel Opportunity counter
    counselor_powers: bool  # §38 Additional Monarch's Counselor Powers
    open_tables_hook: str  # §15.4: ruling R13 (1981) or D49 (ES §15.4): the hook listing the open tables
    stand_ins_hook: str  # §15.3, §17.2.2; D48, D51, A25: the hook listing the henchmen standing in
    counsel_extraditable_hook: str  # §25, §15.7; D66, D74 (ES §25.1, §25.12): whom Extradition counsel names
    counsel_stated_hook: str  # §15.7; §38 Additional Monarch's Counselor Powers: the hook once a table is stated
    problem_sign_hooks: tuple[str, ...]  # §38 Additional Monarch's Counselor Powers: signs on problem rolls
    counselor_leaves_court_hook: str  # D27 (ES §13.4.3, §14.2.4, §29.3, §30.4): a counselor away from court

    # -- justice and death (§20-§31) -------------------------------------------------------
    nc_may_not_hide: bool  # D64 (ES §24.7): a NC may not hide
    wrongdoers_live_abroad: bool  # D62 (ES §20.8, §25.10): wrongdoers may live openly abroad
    fugitive_flees_between_countries: bool  # D71 (ES §25.9): a fugitive abroad escapes to another country
    fugitive_fate_remembered: bool  # D72 (ES §25.10): a fugitive's hearing or trial awaits him
    es_extradition: bool  # D66, D69, D74 (ES §25): the errata extradition procedures (hiding.py)
    extraditable_hook: str  # §25 / D66, D74 (ES §25.1, §25.12): the hook saying who may be extradited
    banishment_impossible_imprisons: bool  # D75 (ES §29.1): at war with every country: imprisoned
    prison_death_bought_off: bool  # D76 (ES §30.10): One IP for -2 on the prison death roll
    clemency: bool  # §38 Clemency
    clemency_pardons_any_wrongdoer: bool  # D93 (ES §38 Clemency)
    death_without_heir: str | None  # D77 (ES §31.3) or §38 Shorter Game b (D98): the rule that removes
    #   a dead noble from the game for good (its name, for the log), None: every noble has an heir
    heirs_kept: frozenset[str]  # D78 (ES §31.4): the nobles who keep an heir all the same
    funerals: bool  # §38 Funerals
    funeral_grave_loses_pp: bool  # D95 (ES §38 Funerals): Fell Into Grave loses One PP
    funeral_table: dict[str, Any] = field(hash=False)  # §38 Funerals (T1.16); D95 (ES §38 Funerals)
    escape_kind_hook: str  # §13.4.10; D71 (ES §25.9): the hook saying who may escape, and from where
    escaped_hook: str  # §13.4.10; D62, D64, D71 (ES §20.8, §24.7, §25.9): the hook of a successful escape
    extradite_hook: str  # §25; D66-D74 (ES §25): the hook run once the Extradition card is played
    unhideable_hook: str  # §24.8, §7.10.1; D62 (ES §20.8): the hook saying who may come out of hiding
    unhidden_wrongdoer_hook: str  # §24.8; D62 (ES §20.8): the hook for a wrongdoer out of hiding
    abroad_turn_start_hook: str  # D62, A31 (ES §20.8): the hook at the turn start of a PC living abroad
    prison_death_hook: str  # §30.10; D76 (ES §30.10): the hook making a prison death roll
    printed_statuses: dict[int, dict[str, int]] = field(hash=False)  # derived (§2, D1, D2, D11): players -> printed Statuses

    # -- look-ups ---------------------------------------------------------------------------
    def pc_deck(self, players: int) -> tuple[str, ...]:
        """The PCs dealt (§3.1): with two players always ``PC_DECK`` (D11)."""
        return self.pc_deck_3_to_6 if players > 2 else C.PC_DECK

    def printed_status(self, cid: str, players: int) -> int:
        """The Status printed on ``cid``'s card (D1, D2, D11)."""
        return C.printed_status_in(cid, self.status_overrides, self.two_player_female, players)

    def printed_title(self, cid: str, players: int) -> str:
        """The title printed on noble ``cid``'s card (D2, D11)."""
        return C.printed_title_in(cid, self.title_overrides, self.two_player_female, players)

    def rules(self) -> dict[str, Any]:
        """The attributes that decide rules (everything but the edition and the switches)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in IDENTITY + DERIVED}

    # -- building ---------------------------------------------------------------------------
    @staticmethod
    def for_config(config: dict[str, Any]) -> Ruleset:
        """The ruleset of a game config (or of a player's view's ``rules``)."""
        return _cached(config["edition"], frozenset(config["optional"]))

    @staticmethod
    def _build(edition: str, optional: frozenset[str]) -> Ruleset:
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r}; allowed: {list(EDITIONS)}")
        on = tuple(k for k in OPTIONAL_RULES if k in optional)  # make_config validated them
        es = edition == "errata"

        def o(name: str) -> bool:
            assert name in OPTIONAL_RULES, name
            return name in on

        ri = o("romantic_intrigue")
        status_overrides = C.STATUS_BY_EDITION[edition]
        two_player_female = C.TWO_PLAYER_FEMALE_BY_EDITION[edition]
        printed = {n: {cid: C.printed_status_in(cid, status_overrides, two_player_female, n)
                       for cid in (*C.NOBLES, *C.ROYALS)} for n in range(2, 7)}
        return Ruleset(
            edition=edition,
            optional=on,
            opportunity_ids=C.OPPORTUNITY_IDS_BY_EDITION[edition],
            pc_deck_3_to_6=C.ERRATA_PC_DECK if es else C.PC_DECK,
            status_overrides=status_overrides,
            title_overrides=C.TITLE_BY_EDITION[edition],
            two_player_female=two_player_female,
            female_titles=C.FEMALE_TITLES_BY_EDITION[edition],
            title_cost=T.TITLE_COST_ERRATA if es else T.TITLE_COST,
            counselor_card_status=2 if es else 0,
            illegal_cards=C.ILLEGAL_CARDS_ERRATA if es else C.ILLEGAL_CARDS,
            intrigue_substitutes=not es,
            famine_boosted_support=("Trade Guild, Merchant and Peasant" if es
                                    else "Trade Guild, Merchant and Army"),
            hand_limit=T.HAND_LIMIT_SHORTER if o("shorter_c") else T.HAND_LIMIT,
            start_cards=T.START_CARDS_SHORTER if o("shorter_c") else T.START_CARDS,
            start_ip_pp=T.SHORTER_A_START if o("shorter_a") else T.START_IP_PP,
            rcs_removed_at_start=T.SHORTER_E_REMOVED if o("shorter_e") else (),
            activities_per_turn=T.ACTIVITIES_PER_TURN_SHORTER if o("shorter_d") else T.ACTIVITIES_PER_TURN,
            pc_advantages=o("pc_advantages"),
            pp_price=T.PP_PRICE_ERRATA if es else T.PP_PRICE,
            foreign_support_values=T.FOREIGN_SUPPORT_ERRATA if es else None,
            famine_support_cards=C.FAMINE_SUPPORT_ERRATA if es else None,
            crisis_boosts_support=es,
            setup_ops=("pc_advantages",) if o("pc_advantages") else (),
            counselor_may_be_henchman=es,
            counselor_card_lost_away_from_court=es,
            henchman_courted_farc_may_become_nrc=es,
            farc_monarch_out_of_romance=es,
            sweet_charity=o("sweet_charity"),
            foreign_support=o("foreign_support"),
            fandonian_support=o("fandonian_support"),
            emissaries=o("emissaries"),
            blackmail=o("blackmail"),
            blackmail_dwtk_redrawn=es,
            bribery=es,
            abdication=o("abdication"),
            turn_start_ops=("sweet_charity",) if o("sweet_charity") else (),
            foreign_support_legal_hook="foreign_support_legal" if o("foreign_support") else NOT_IN_THIS_GAME,
            fandonian_support_legal_hook="fandonian_support_legal" if o("fandonian_support") else NOT_IN_THIS_GAME,
            emissary_legal_hook="emissary_legal" if o("emissaries") else NOT_IN_THIS_GAME,
            take_bribe_legal_hook="take_bribe_legal" if es else NOT_IN_THIS_GAME,
            offer_bribe_legal_hook="offer_bribe_legal" if es else NOT_IN_THIS_GAME,
            intrigue_hook="blackmail_offered" if o("blackmail") else "intrigue_card_drawn",
            blackmail_dwtk_hook="blackmail_dwtk_redrawn" if es else "blackmail_dwtk_stays",
            counselor_candidates_hook="counselor_candidates_es" if es else "counselor_candidates_1981",
            nc_in_hiding_ops=("justice_d64_unhide",) if es else (),
            fandonia_return_ops=("justice_es_enter_fandonia",) if es else (),
            romantic_intrigue=ri,
            seducers_hook="ri_seducers" if ri else "seducers_1981",
            seduce_targets_hook=("ri_seduce_targets_d90" if es else "ri_seduce_targets") if ri else "seduce_targets_1981",
            seduction_hook="ri_seduce_start" if es or ri else "seduce_1981",
            seducer_out_hook="seducer_away_d35" if es else "seducer_dead",
            proposal_lock_hook="engagement_lock_d56" if es else "no_engagement_lock",
            married_recruitment_hook="ri_married_joining" if ri else None,
            married_treachery_hook="ri_married_treachery" if ri else None,
            seduction_six_backfires=es,
            seduced_nc_loyalty_counter=es,
            seduced_nrc_takes_alignment_card=es,
            male_seducers_may_seduce_female_rcs=es,
            treachery_negates_ri_seductions=es,
            informer_negates_married_treachery=not es,
            seduction_failure_accused=o("seduction_failure_accused"),
            anne_proposal_penalty=1 if es else 0,
            automatic_proposal_at_once=es,
            wedding_host_rolls=es,
            marriage=o("marriage"),
            court_ball_marriage_hook="marriage_ball" if o("marriage") else None,
            prestige_marriage_hook="marriage_prestige" if o("marriage") else None,
            accepted_proposal_six_ops=("ri_elope_offer",) if ri else (),
            guest_auto_proposal_hook="auto_proposal_at_once" if es else "auto_proposal_kept",
            ri_seduction_negating_cards=("treachery",) if es else (),
            seduction_success_hooks=(("d37_loyalty_counter", "d88_alignment_card") if es else ()) + (
                ("ri5_hand_shown",) if ri else ()),
            seduction_failure_hooks=(("ri6_married_seductress", "ri5_married_eac") if ri else ()) + (
                ("d36_seductress_conquered",) if es else ()),
            no_problem_bonus=T.ERRATA_NO_PROBLEM_BONUS if es else T.NO_PROBLEM_BONUS,
            no_problem_bonus_crown_events=T.ERRATA_BONUS_CROWN_EVENTS if es else None,
            war_expels_from_country=es,
            unresolved_problems=o("unresolved_problems"),
            unresolved_problems_effect_h=es,
            deliberate_incompetence=o("deliberate_incompetence"),
            government_dissolution=es,
            wrongdoer_abroad_no_office=es,
            banned_pc_court_ball_pp=T.ERRATA_BANNED_PP if es else 0,
            court_ball_free_counsel_min=T.ERRATA_FREE_COUNSEL_MIN if es else None,
            farc_monarch_bonus=T.FARC_MONARCH_BONUS if es else 0,
            farc_monarch_outside_pp_total=es,
            no_problem_bonus_hook="no_problem_bonus_d13" if es else "no_problem_bonus_32_2",
            war_expulsion_hook="expel_at_war" if es else "nothing",
            stuck_minister_hook="minister_expelled_d16" if es else "nothing",
            recalled_from_war=("expelled: the country is at war with Fandonia, ES §7.10.4" if es
                               else "no longer stuck there: recalled, §7.10.4"),
            deliberately_unresolved_ops=("incompetence_roll",) if o("deliberate_incompetence") else (),
            unresolved_problem_effects=(T.UNRESOLVED_PROBLEM_EFFECTS if es else
                                        {k: e for k, e in T.UNRESOLVED_PROBLEM_EFFECTS.items()
                                         if e.get("edition") != "errata"}),
            counsel_in_crisis=es,
            crown_problem_tables_counselled=not es,
            henchmen_counsel=not es,
            free_counsel_counter=es,
            counselor_powers=o("counselor_powers"),
            open_tables_hook="open_tables_d49" if es else "open_tables_r13",
            stand_ins_hook="no_stand_ins" if es else "henchmen_stand_in",
            counsel_extraditable_hook="extraditable_es" if es else "counsel_extraditable_1981",
            counsel_stated_hook="counsel_prevention" if o("counselor_powers") else "ask_counsel",
            problem_sign_hooks=("counselor_problem_signs",) if o("counselor_powers") else (),
            counselor_leaves_court_hook="counselor_card_discarded" if es else "nothing",
            nc_may_not_hide=es,
            wrongdoers_live_abroad=es,
            fugitive_flees_between_countries=es,
            fugitive_fate_remembered=es,
            es_extradition=es,
            extraditable_hook="extraditable_es" if es else "extraditable_1981",
            banishment_impossible_imprisons=es,
            prison_death_bought_off=es,
            clemency=o("clemency"),
            clemency_pardons_any_wrongdoer=es and o("clemency"),
            death_without_heir="ES §31.3" if es else ("§38 Shorter Game b" if o("shorter_b") else None),
            heirs_kept=C.FUNCTIONARIES if es else frozenset(),
            funerals=o("funerals"),
            funeral_grave_loses_pp=es,
            funeral_table=FUNERAL_D95 if es else T.FUNERAL,
            escape_kind_hook="escape_kind_d71" if es else "escape_kind_1981",
            escaped_hook="escaped_es" if es else "escaped_1981",
            extradite_hook="extradite_es" if es else "extradite_1981",
            unhideable_hook="unhideable_d62" if es else "unhideable_1981",
            unhidden_wrongdoer_hook="unhidden_d62" if es else "unhidden_1981",
            abroad_turn_start_hook="one_activity_abroad" if es else "nothing",
            prison_death_hook="prison_death_d76" if es else "prison_death_1981",
            printed_statuses=printed,
        )


@cache  # functools.lru_cache(maxsize=None): one Ruleset per (edition, switches)
def _cached(edition: str, optional: frozenset[str]) -> Ruleset:
    return Ruleset._build(edition, optional)


def ruleset_for(edition: str, optional: Any) -> Ruleset:
    """The ruleset of an edition and its switches (a player's view: ``rules``)."""
    return _cached(edition, frozenset(optional))


def ruleset(state: Any) -> Ruleset:
    """The ruleset of ``state``'s game (derived from ``state.config``, never saved): the scan's
    while ``queries.open_scan`` has one open on ``state``, else the one ``state.rules`` remembers
    when the config still names it (compared by value: a config changed in place is never
    answered stale).  Kept on the state, never in the module: games in other threads never
    share an answer (issue 26)."""
    scan = state.scan
    if scan is not None:
        return scan[6]
    cfg = state.config
    edition = cfg["edition"]
    optional = cfg["optional"]
    last = state.rules
    if last is not None and edition == last[0] and optional == last[1]:
        return last[2]
    rs = _cached(edition, frozenset(optional))
    state.rules = (edition, list(optional), rs)
    return rs
