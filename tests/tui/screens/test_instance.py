"""One instance's screen: its details and its settings, written and read back."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from gateway_tui.core.api.models import Instance, InstanceSettings
from gateway_tui.tui.screens.confirm import ConfirmScreen, PromptScreen
from gateway_tui.tui.screens.instance import InstanceScreen, details_table, setting_prompt
from gateway_tui.tui.screens.instances import InstancesScreen
from tests.support import notices, screen_text, wait_for


def loaded(app) -> bool:
    return isinstance(app.screen, InstancesScreen) and bool(app.state.instances.value)


INSTANCE = "sales-eu"
SIZE = (140, 40)


def test_the_wa_business_callback_is_not_called_the_webhook() -> None:
    instance = Instance.model_validate(
        {
            "instanceName": "evo-a",
            "status": "close",
            "integration": {"webhook_wa_business": "http://g/webhook/whatsapp/evo-a"},
        }
    )
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(details_table(instance))
    text = console.export_text()
    assert "WA Business callback" in text and "http://g/webhook/whatsapp/evo-a" in text
    assert "Webhook URL" not in text


async def test_toggle_setting_writes_and_rereads(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: app.state.settings_of("sales-eu").value is not None)
        assert isinstance(app.screen, InstanceScreen)
        before = demo_server.state.instances["sales-eu"].settings["reject_call"]
        await pilot.press("space")  # first setting: reject_call
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_for(
            pilot, lambda: demo_server.state.instances["sales-eu"].settings["reject_call"] != before
        )
        await wait_for(
            pilot, lambda: app.state.settings_of("sales-eu").value.reject_call is (not before)
        )


async def test_settings_write_reads_not_supported_on_a_gateway_without_it(app_for, demo_server):
    demo_server.faults.add("missing_route", method="POST", path_prefix="/settings/set")
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: loaded(app))
        app.open_instance("sales-eu")
        await wait_for(pilot, lambda: app.state.settings_of("sales-eu").value is not None)
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: "editing not supported here" in screen_text(app))
        assert any("Not supported here" in line for line in notices(app))
        assert not any("failed" in line for line in notices(app))  # not reported as an error
        await pilot.press("space")  # asks no more: says it is not supported
        await pilot.pause()
        assert isinstance(app.screen, InstanceScreen)


@pytest.mark.in_process
async def test_the_call_reply_has_a_name_and_can_be_edited(app_for, demo_server):
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance(INSTANCE)
        await wait_for(pilot, lambda: app.state.settings_of(INSTANCE).value is not None)
        await pilot.pause()
        assert isinstance(app.screen, InstanceScreen)
        text = screen_text(app)
        assert "Reply to rejected calls" in text and "msg_call:" not in text
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("ctrl+u", *"Busy, call later", "enter")
        await wait_for(
            pilot,
            lambda: (
                demo_server.state.instances[INSTANCE].settings["msg_call"] == "Busy, call later"
            ),
        )
        await wait_for(pilot, lambda: "Busy, call later" in screen_text(app))


@pytest.mark.in_process
def test_a_ticked_setting_colours_only_its_box():
    settings = InstanceSettings(reject_call=True)
    prompt: Text = setting_prompt("reject_call", settings)
    assert str(prompt.style) == ""
    label_at = prompt.plain.index("Reject")
    assert all(span.end <= label_at for span in prompt.spans if "green" in str(span.style))
