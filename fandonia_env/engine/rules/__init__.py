"""The rules vocabulary (issue 29): the Ruleset of a game (editions and optional rules), its options,
the effects interpreter, queries and rule queries, roll windows, and the steps several chapters
share (``situation``, ``court``, ``turn_steps``, ``marriage``).  It imports the core and the data,
never a chapter."""
