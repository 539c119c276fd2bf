"""One character card (``Character``); ``state`` re-exports it.

A module of its own so that the compiled engine makes it a native class: the rules read its
fields everywhere, and mypyc reads a native class's field straight from the object (a plain
class's through the attribute protocol).  Copy-on-write after ``GameState.clone()`` is kept by
the state (``GameState.wchar``), not by the character (``docs/engine.md``, "Copy-on-write
characters")."""

from __future__ import annotations

import operator
from dataclasses import MISSING, dataclass, fields
from typing import Any, Final


@dataclass(slots=True, eq=False, init=False)
class Character:
    """One card of the Nobles or Royalty Deck and everything placed on it.

    Read it as ``state.chars[cid].field``; write it only through ``state.wchar(cid).field = v``:
    after ``GameState.clone()`` both states share their characters, and ``wchar`` gives the
    writing state a copy of its own first."""

    cid: str
    owner: int | None = None  # faction it belongs to (PC, FAC or FARC); None = neutral
    is_pc: bool = False
    titles: int = 0  # titles acquired above the printed one (§13.4.1)
    fixed_status: int | None = None  # Status 8 of §18.10/§31.7, Status of a former non-RC King/Queen
    location: str = "fandonia"  # "fandonia" or a country key (§20)
    hiding: bool = False  # §24
    banished: bool = False  # §29 (location is the country of banishment)
    imprisoned: bool = False  # §30
    awaiting_execution: bool = False  # §28.6.4, §31.6 (also imprisoned)
    wrongdoer: bool = False  # §23.5: sent to a hearing/interrogation/trial and not cleared
    dead: bool = False  # RCs: removed from the game (§31.2); PCs: card face-down (§31.5)
    office: str | None = None  # §16
    henchman_card: str | None = None  # §17: card id of the Henchman card under it
    counselor_card: str | None = None  # §13.4.3: card id of the Monarch's Counselor card
    alignment_card: str | None = None  # §14.5.19: Royal Alignment card a FARC sits on
    spouse: str | None = None  # §18
    consort: bool = False  # non-RC King/Queen (§18.10)
    banned: bool = False  # banned from Court Balls (§8.4.4)
    loyalty_counter: bool = False  # its Loyalty counter lies on the card (§11.3)
    situation_turns: int = 0  # turns spent banished / imprisoned so far (§29.9, §30.10)
    hid_turn: int = -1  # turn it went into or came out of hiding (§24.2)
    travel_turn: int = -1  # turn it last travelled (§20.1)
    proposal_turn: int = -1  # turn it last proposed or was proposed to (§18.4.3)
    engaged_to: str | None = None  # accepted proposal awaiting a wedding (§18.4.7)
    suicide: bool = False  # will die at the end of all Player Turns (§29.9, §30.10)
    escaped: bool = False  # an escaped prisoner in hiding (§24.10, §30.6)
    pending_justice: str | None = None  # suspended by a war (§7.10.1, A61): accuse/accuse_dwtk/hearing/trial
    failed_problem: bool = False  # a Minister who failed a problem may not travel (§20.3)

    def __init__(self, cid: str = "",
                 owner: int | None = None,
                 is_pc: bool = False,
                 titles: int = 0,
                 fixed_status: int | None = None,
                 location: str = "fandonia",
                 hiding: bool = False,
                 banished: bool = False,
                 imprisoned: bool = False,
                 awaiting_execution: bool = False,
                 wrongdoer: bool = False,
                 dead: bool = False,
                 office: str | None = None,
                 henchman_card: str | None = None,
                 counselor_card: str | None = None,
                 alignment_card: str | None = None,
                 spouse: str | None = None,
                 consort: bool = False,
                 banned: bool = False,
                 loyalty_counter: bool = False,
                 situation_turns: int = 0,
                 hid_turn: int = -1,
                 travel_turn: int = -1,
                 proposal_turn: int = -1,
                 engaged_to: str | None = None,
                 suicide: bool = False,
                 escaped: bool = False,
                 pending_justice: str | None = None,
                 failed_problem: bool = False) -> None:
        # written out: the dataclass's own __init__ stays interpreted Python in the compiled engine
        # (about 0.7 µs a character); every parameter has a default, so a native class's __new__
        # may run it without arguments; tests/test_cow.py checks it and copy() against the fields
        self.cid = cid
        self.owner = owner
        self.is_pc = is_pc
        self.titles = titles
        self.fixed_status = fixed_status
        self.location = location
        self.hiding = hiding
        self.banished = banished
        self.imprisoned = imprisoned
        self.awaiting_execution = awaiting_execution
        self.wrongdoer = wrongdoer
        self.dead = dead
        self.office = office
        self.henchman_card = henchman_card
        self.counselor_card = counselor_card
        self.alignment_card = alignment_card
        self.spouse = spouse
        self.consort = consort
        self.banned = banned
        self.loyalty_counter = loyalty_counter
        self.situation_turns = situation_turns
        self.hid_turn = hid_turn
        self.travel_turn = travel_turn
        self.proposal_turn = proposal_turn
        self.engaged_to = engaged_to
        self.suicide = suicide
        self.escaped = escaped
        self.pending_justice = pending_justice
        self.failed_problem = failed_problem

    def copy(self) -> Character:
        # every field is an immutable scalar: one positional constructor call
        return Character(self.cid, self.owner, self.is_pc, self.titles, self.fixed_status,
                         self.location, self.hiding, self.banished, self.imprisoned, self.awaiting_execution,
                         self.wrongdoer, self.dead, self.office, self.henchman_card, self.counselor_card,
                         self.alignment_card, self.spouse, self.consort, self.banned, self.loyalty_counter,
                         self.situation_turns, self.hid_turn, self.travel_turn, self.proposal_turn, self.engaged_to,
                         self.suicide, self.escaped, self.pending_justice, self.failed_problem)

    def __eq__(self, other: object) -> bool:
        """Field by field (the class has no other state)."""
        if isinstance(other, Character):
            return char_values(self) == char_values(other)
        return NotImplemented

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy by value: the positional constructor (a native class has no __dict__)
        return Character, char_values(self)


CHAR_FIELDS: Final = tuple(f.name for f in fields(Character))
char_values = operator.attrgetter(*CHAR_FIELDS)  # all fields of a Character, as a tuple
assert all(f.default_factory is MISSING for f in fields(Character)), \
    "Character fields must be immutable scalars (Character.copy shares values)"
