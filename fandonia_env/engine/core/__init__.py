"""The engine's core (issue 29): the state, the decision-point machine, the RNG, chance, errors,
the registries and the action catalogue.  It imports only ``engine.data`` below it."""
