"""Matches between nobles: the rated tournament runner (``tournament``: seat rotation, duplicate seeds,
ratings; ``python -m fandonia_env.tournament``)."""
