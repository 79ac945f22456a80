"""The binding table the command line checks [keys] with (core/files/app_facts.py) is the app's:
generated from the real screens, and committed. After changing a binding, regenerate it with
``python -m gateway_tui.tui.binding_table``."""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES

from gateway_tui.core.files import app_facts
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.binding_table import TABLE_PATH, render, table
from gateway_tui.tui.screens.instances import InstancesScreen


def test_the_committed_table_matches_the_bindings():
    assert TABLE_PATH.read_text(encoding="utf-8") == render()


def test_the_table_holds_every_screen_and_the_apps_bindings():
    facts = table()
    assert facts["BINDINGS"] == app_facts.BINDINGS
    for binding in InstancesScreen.BINDINGS:
        assert binding.id in app_facts.SCREENS["InstancesScreen"]
        assert app_facts.BINDINGS[binding.id] == (binding.key, binding.description)
    for binding in GatewayApp.BINDINGS:
        assert binding.id in app_facts.SCREENS["InstancesScreen"]
    assert set(app_facts.THEMES) == set(BUILTIN_THEMES)
