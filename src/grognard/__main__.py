"""``python -m grognard``: the command line."""

from grognard.cli import entry

entry()
