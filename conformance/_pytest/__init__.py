"""The suite as a pytest plugin (loaded only when ``--rttool-impl`` is given)."""
