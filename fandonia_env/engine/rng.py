"""The game's random number generator: plain data, seedable, scriptable.

Chance is resolved inside the engine (dice, shuffles, random draws) by this
generator, never by the global ``random`` or ``numpy.random`` modules, and only
through ``chance.py``, which names each draw and describes its outcomes (in a
``chance="explicit"`` game a draw inside the machine takes the outcome chosen at a
chance node instead: ``docs/engine.md``, "Chance nodes").  Its whole
state is two integers, so cloning and JSON round-trips are exact and cheap.

The generator is PCG32 (O'Neill, 2014; the ``pcg32_random_r`` reference).

**The dice seam for tests.**  ``rng.script_dice([3, 5, 6])`` queues die faces;
every die the engine rolls (``d6``) takes the next queued face before it falls
back to the generator, so a test can reach any row of any table from any
position.  The queue is part of the state and survives clone/JSON.  Draws from
the piles and random picks are scripted by ``chance.script`` (their queues are
kept in ``state.misc``).
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005


class RNG:
    __slots__ = ("state", "inc", "scripted")
    state: int
    inc: int
    scripted: list[int]

    def __init__(self, seed: int = 0, stream: int = 54, raw: tuple[int, int, list[int]] | None = None) -> None:
        """Seeded by ``seed`` and ``stream``; or, with ``raw`` = (state, inc, scripted), exactly that
        generator (copies and saved games: the seed is then ignored)."""
        if raw is not None:
            self.state, self.inc, self.scripted = raw
            return
        self.state = 0
        self.inc = ((stream << 1) | 1) & _MASK64
        self.scripted = []
        self._next32()
        self.state = (self.state + (seed & _MASK64)) & _MASK64
        self._next32()

    def _next32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (unbiased, by rejection)."""
        if n <= 0:
            raise ValueError(f"below() needs n > 0, got {n}")
        threshold = (1 << 32) % n
        while True:
            r = self._next32()
            if r >= threshold:
                return r % n

    def d6(self) -> int:
        """One die, 1-6: the next scripted face if any (the test seam), else random."""
        if self.scripted:
            face = self.scripted.pop(0)
            return face
        return self.below(6) + 1

    def script_dice(self, faces: list[int]) -> None:
        """Queue die faces (1-6) that the next dice rolled will show, in order."""
        for f in faces:
            if not isinstance(f, int) or not 1 <= f <= 6:
                raise ValueError(f"a scripted die face must be an int 1-6, got {f!r}")
        self.scripted.extend(faces)

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> RNG:
        return RNG(0, 0, (self.state, self.inc, list(self.scripted)))

    def to_json(self) -> dict:
        return {"state": str(self.state), "inc": str(self.inc), "scripted": list(self.scripted)}

    @classmethod
    def from_json(cls, d: dict) -> RNG:
        return cls(0, 0, (int(d["state"]), int(d["inc"]), [int(x) for x in d["scripted"]]))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RNG)
            and self.state == other.state
            and self.inc == other.inc
            and self.scripted == other.scripted
        )
