"""Test-wide settings: hypothesis runs without per-example deadlines (a loaded CI machine must
not turn a slow example into a failure) and derandomized, so every run tries the same cases."""

from hypothesis import settings

settings.register_profile("grognard", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("grognard")


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="tests/fuzz: the long run (10,000 generated inputs per input kind).")
    parser.addoption("--fuzz-examples", type=int, default=10_000,
                     help="tests/fuzz with --fuzz-long: generated inputs per input kind.")
    parser.addoption("--fuzz-report", default=None,
                     help="tests/fuzz: write the count of inputs tried per kind to this JSON file.")
