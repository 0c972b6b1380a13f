"""Test-wide settings: hypothesis runs without per-example deadlines (a loaded CI machine must
not turn a slow example into a failure) and derandomized, so every run tries the same cases."""

from hypothesis import settings

settings.register_profile("grognard", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("grognard")
