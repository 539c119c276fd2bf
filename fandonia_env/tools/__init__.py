"""Tools every command shares: the command-line options and argument types, the progress bar and the
optional-extra check (``cli``), and the mypyc build of the engine (``compile``,
``python -m fandonia_env.compile``)."""
