"""Smoke test: the package imports and the CLI answers --version."""

from grognard import __version__
from grognard.cli import main


def test_version(capsys):
    assert main(["--version"]) == 0
    assert __version__ in capsys.readouterr().out
