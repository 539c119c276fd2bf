"""The engine's face (issue 29): ``Game``, the position builder, the views and information sets,
the invariants, playthroughs.  It imports every layer below it."""
