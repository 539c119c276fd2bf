"""``random-v1``: uniform over the legal actions."""

from __future__ import annotations

import random
from typing import Any

from .base import Agent, register


class RandomAgent(Agent):
    id = "random-v1"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, view: Any, legal: list[int], infoset: Any = None) -> int:
        return self.rng.choice(legal)


register("random-v1", RandomAgent)
