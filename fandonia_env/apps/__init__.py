"""The front ends people run: the terminal game (``play``), the line-protocol bot (``bot``), the main job
(``demo``) and the speed benchmark (``bench``); each runs as ``python -m fandonia_env.NAME``."""
