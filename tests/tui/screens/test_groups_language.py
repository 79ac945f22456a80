"""The groups area in Portuguese and Spanish (issue 35): the groups screen's errors, the
participants screen, the group dialogs, group administration, labels and the chat dialogs say
their sentences in the chosen language, counts as plurals and numbers the locale's way."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from gateway_tui.core.api.errors import InvalidRequest, Problem, error_for_response
from gateway_tui.core.api.group_models import ParticipantsUpdate
from gateway_tui.core.api.models import GroupSummary
from gateway_tui.core.api.resources.groups import _member_problems
from gateway_tui.core.api.validation import parse_invite_numbers
from gateway_tui.core.group_admin import GroupNotFound, find_group, numbers_to_add, outcomes
from gateway_tui.demo.server import DemoServer
from gateway_tui.tui.screens.chat_labels import LabelPickerScreen
from gateway_tui.tui.screens.chat_modals import ProfileScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.group_admin_modals import GroupSettingsScreen, OutcomesScreen
from gateway_tui.tui.screens.group_modals import explain_group_error, invite_check_text
from tests.data import BAKERY_JID, WAR_ROOM
from tests.navigation import open_chats, open_groups, open_invite, open_participants
from tests.support import make_app, make_config, screen_text, wait_for

SIZE = (140, 40)


# --- the groups screen ----------------------------------------------------------------------


@pytest.mark.in_process
async def test_groups_screen_says_not_connected_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_groups(app, pilot, "onboarding")  # status close
        await wait_for(
            pilot,
            lambda: "A instância onboarding não está conectada (status: close)" in screen_text(app),
        )
        assert "As operações de grupo precisam de uma instância conectada" in screen_text(app)
        assert "is not connected" not in screen_text(app)


@pytest.mark.in_process
async def test_groups_screen_says_not_connected_in_spanish(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_groups(app, pilot, "onboarding")
        await wait_for(
            pilot,
            lambda: "La instancia onboarding no está conectada (estado: close)" in screen_text(app),
        )


# --- the participants screen ----------------------------------------------------------------


@pytest.mark.in_process
async def test_participants_screen_in_portuguese_with_its_numbers(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_participants(app, pilot)
        await wait_for(pilot, lambda: "1.024 participantes" in screen_text(app))
        text = screen_text(app)
        assert "Link de convite" in text and "não buscado" in text
        assert "◆ admin" in text and "· membro" in text
        assert "1,024" not in text and "Invite link" not in text


@pytest.mark.in_process
async def test_participants_screen_in_spanish(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_participants(app, pilot)
        await wait_for(pilot, lambda: "Enlace de invitación" in screen_text(app))
        assert "participantes" in screen_text(app) and "· miembro" in screen_text(app)


# --- the group dialogs ----------------------------------------------------------------------


def test_invite_numbers_ready_are_a_plural_in_portuguese(language):
    language("pt_BR")
    one = invite_check_text(parse_invite_numbers("4915112340001"), attempted=False).plain
    two = invite_check_text(
        parse_invite_numbers("4915112340001\n4915112340002\n4915112340001"), attempted=False
    ).plain
    assert one.startswith("✓ 1 número pronto: +49")
    assert two.startswith("✓ 2 números prontos: +49")
    assert "1 duplicado removido" in two


@pytest.mark.in_process
async def test_invite_dialog_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await open_invite(app, pilot)
        text = screen_text(app)
        assert "Enviar o convite do grupo" in text
        assert "Números — um por linha" in text
        app.screen.query_one("#invite-numbers", TextArea).insert("4915112340001\n4915112340002")
        await wait_for(pilot, lambda: "2 números prontos" in screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "✓ Convite enviado para 2 números" in screen_text(app))
        assert "Link enviado: https://chat.whatsapp.com/" in screen_text(app)


def test_group_errors_explained_in_spanish(language):
    language("es")
    refused = error_for_response(
        404,
        {"status": 404, "error": "Not Found", "response": {"message": ["Revoke error"]}},
        method="PUT",
        path="/group/revokeInviteCode/sales-eu",
    )
    title, advice = explain_group_error(refused, operation="revoke", instance="sales-eu")
    assert title == "El código de invitación no se revocó — el código antiguo sigue funcionando"
    assert advice.startswith("Solo los admins del grupo pueden revocar el código: ")
    before = InvalidRequest(
        [Problem("subject", "too long")], method="POST", path="/group/create/sales-eu"
    )
    assert explain_group_error(before, operation="create", instance="sales-eu")[1] == (
        "No se envió nada al gateway."
    )


# --- group administration --------------------------------------------------------------------


@pytest.mark.in_process
async def test_promote_confirmation_and_outcomes_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_participants(app, pilot)  # the big group: many plain members
        plain = [p for p in screen.table.visible_rows if not p.is_admin][:2]
        assert len(plain) == 2
        for participant in plain:
            assert screen.table.move_cursor_to_key(participant.id)
            await pilot.press("space")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        text = screen_text(app)
        assert "Tornar participantes admins" in text  # the dialog's title
        assert "2 participantes de EU Sales" in text and "vão virar admins:" in text
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, OutcomesScreen))
        assert "Tornar admin: 2 de 2 viraram admins" in screen_text(app)
        assert "feito" in screen_text(app)


@pytest.mark.in_process
async def test_group_settings_dialog_in_spanish(app_for, language):
    language("es")
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await open_participants(app, pilot, WAR_ROOM)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, GroupSettingsScreen))
        text = screen_text(app)
        assert "Ajustes del grupo" in text and "Solo los admins envían mensajes" in text
        assert "Mensajes temporales" in text


def test_numbers_to_add_and_outcomes_in_portuguese(language):
    language("pt_BR")
    one = numbers_to_add("4915112340001\n4915112340001", [])
    assert one.summary() == "1 para adicionar, 1 duplicado removido"
    two = numbers_to_add("4915112340001, 4915112340001, 4915112340001", [])
    assert two.summary() == "1 para adicionar, 2 duplicados removidos"
    answer = ParticipantsUpdate.model_validate(
        {"updateParticipants": [{"status": "403", "jid": "4915112340001@s.whatsapp.net"}]}
    )
    said = outcomes(["4915112340001", "4915112340002"], answer)
    assert [o.reason for o in said] == [
        "não permitido (configurações de privacidade da pessoa, ou não está no WhatsApp)",
        "sem resposta para este número",
    ]


def test_group_names_and_client_refusals_in_portuguese(language):
    language("pt_BR")
    groups = [
        GroupSummary(id="1@g.us", subject="Vendas"),
        GroupSummary(id="2@g.us", subject="Vendas"),
    ]
    with pytest.raises(GroupNotFound, match="2 grupos se chamam 'Vendas'"):
        find_group(groups, "Vendas")
    with pytest.raises(GroupNotFound, match="você quis dizer 'Vendas'"):
        find_group(groups, "vendas")
    assert [p.message for p in _member_problems([])] == ["informe pelo menos um número"]


# --- labels and the chat dialogs ------------------------------------------------------------


async def test_label_picker_and_labels_note_in_portuguese(language):
    language("pt_BR")
    with DemoServer(api_version="2.3.7") as server:
        app = make_app(make_config(server))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_chats(app, pilot)
            await wait_for(
                pilot,
                lambda: "etiquetas aplicadas em outro lugar não são listadas" in screen_text(app),
            )
            await wait_for(pilot, lambda: screen.table.cursor_row is not None)
            await pilot.press("b")
            await wait_for(pilot, lambda: isinstance(app.screen, LabelPickerScreen))
            assert "Etiquetas de " in screen_text(app)
            assert "enter aplica ou remove" in screen_text(app)


@pytest.mark.in_process
async def test_profile_card_in_portuguese(app_for, language):
    language("pt_BR")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chats(app, pilot)
        assert screen.table.move_cursor_to_key(BAKERY_JID)
        await pilot.pause()
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await wait_for(pilot, lambda: "✓ conta comercial" in screen_text(app))
        text = screen_text(app)
        assert "Perfil comercial" in text and "Descrição" in text and "Empresa" in text
