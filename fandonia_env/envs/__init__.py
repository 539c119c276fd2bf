"""The environments: the PettingZoo AEC environments ``fandonia_v0`` and ``fandonia_v1``, the Gymnasium
``FandoniaGymEnv`` (``gym_env``) and what they share (``common``: action checks, illegal-move modes,
``reset(options=...)``).  Users import them as ``fandonia_env.fandonia_v1`` etc."""
