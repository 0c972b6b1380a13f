"""Issue 22: the CLI finds each rule package's commands through the ``grognard.commands`` entry
points (cli/__init__.py ``offered``) and imports a package's command modules only when one of its
commands runs: ``--version`` and the CLI's own commands import no rule package."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer

from grognard.cli import LAZY, build_app, offered

RULES = ("europa", "third_reich", "eurofront")

PROBE = """
import sys
from grognard.cli import main
main(sys.argv[1:])
print(" ".join(sorted({m.split(".")[1] for m in sys.modules if m.startswith("grognard.")})))
"""


def _rule_packages_imported(*args: str) -> set[str]:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return set(r.stdout.splitlines()[-1].split()) & set(RULES)


def test_the_hook_offers_each_rule_package_s_commands():
    hooked = offered()
    assert hooked and not set(hooked) & set(LAZY)
    # each entry point's function registers the top-level command its name says
    for word, target in hooked.items():
        assert target.split(".")[1] in RULES, target
        command = typer.main.get_command(build_app([word]))
        assert word in command.commands, word  # type: ignore[attr-defined]


@pytest.mark.parametrize("args", [["--version"], ["roll", "2d6", "--seed", "1", "--json"]])
def test_the_cli_s_own_commands_import_no_rule_package(args):
    assert _rule_packages_imported(*args) == set()


def test_a_package_s_command_imports_that_package_only():
    """``grognard WORD ...`` imports only the package whose entry point offers WORD."""
    for word, target in offered().items():
        package = target.split(".")[1]
        assert _rule_packages_imported(word, "--help") == {package}, word
