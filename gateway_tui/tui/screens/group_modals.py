"""The dialogs of the participants screen (subject, invite, CSV export) and how group errors read.

Subject and invite dialogs run their gateway call themselves (they are GatewayScreens), so a
refusal is shown inside the dialog, where the user can fix the input and try again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Static, TextArea

from gateway_tui.core.api.errors import (
    BadRequest,
    GatewayError,
    InvalidRequest,
    NotFound,
    RefusedIn200,
    ServerError,
)
from gateway_tui.core.api.models import GroupInviteResult
from gateway_tui.core.api.validation import (
    SUBJECT_LIMIT,
    InviteNumbers,
    check_invite_description,
    check_subject,
    parse_invite_numbers,
)
from gateway_tui.core.text.formatting import format_number
from gateway_tui.core.text.i18n import N_, _, ngettext, number
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.form_modal import FormModal
from gateway_tui.tui.widgets.length_counter import LengthCounter
from gateway_tui.tui.widgets.status_panel import error_advice
from gateway_tui.tui.widgets.styled import styled
from gateway_tui.tui.widgets.text_input import TextInput

_R = TypeVar("_R")

# What each group operation is, for "… failed" wording (translated where shown: ``_()``).
OPERATIONS = {
    "groups": N_("Listing the groups"),
    "participants": N_("Reading the participants"),
    "invite": N_("Fetching the invite code"),
    "revoke": N_("Revoking the invite code"),
    "subject": N_("Changing the subject"),
    "send_invite": N_("Sending the invite"),
    "add": N_("Adding participants"),
    "settings": N_("Saving the group's settings"),
    "leave": N_("Leaving the group"),
    "create": N_("Creating the group"),
}
THE_CALL = N_("The call")
GROUP_JID_ADVICE = N_(
    "A group JID is digits, optionally -digits, then @g.us (e.g. 120363012345678901@g.us)."
)


def operation_words(operation: str) -> str:
    """What ``operation`` is, in the current language ("Reading the participants")."""
    return _(OPERATIONS.get(operation, THE_CALL))


def _not_admin() -> str:
    return _("this instance is probably not an admin of the group")


def _not_member() -> str:
    return _("the group may not exist, or this instance is not a member of it")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def explain_group_error(
    error: GatewayError,
    *,
    operation: str,
    instance: str,
    instance_status: str | None = None,
    url: str | None = None,
    retry_key: str | None = None,
    connect_key: str | None = None,
) -> tuple[str, str]:
    """A plain-words title and advice for a failed group call (the server's lines come apart)."""
    if error.outcome_unknown:
        # A write that timed out or lost its connection may have happened all the same.
        return (
            _("{what}: no answer — outcome unknown").format(what=operation_words(operation)),
            _(
                "The gateway may have done it: check before retrying "
                "(nothing is resent on its own)."
            ),
        )
    lines = " ".join(error.messages)
    lowered = lines.casefold()
    if error.instance_not_connected or _refused_for_status(error, instance_status):
        if instance_status:
            title = _("The instance {instance} is not connected (status: {status})").format(
                instance=instance, status=instance_status
            )
        else:
            title = _("The instance {instance} is not connected").format(instance=instance)
        return (title, _connect_advice(connect_key, retry_key))
    # The reasons WhatsApp gives, when the server passes them on.
    why = _not_admin() if "not-authorized" in lowered else None
    why = _not_member() if "item-not-found" in lowered else why
    if isinstance(error, NotFound):
        if "no participants" in lowered:
            return (
                _("No participants: the gateway cannot read this group"),
                _cap(why or _not_member()),
            )
        if "no invite code" in lowered:
            return (
                _("No invite code for this group"),
                _("Only group admins can see the invite code: {why}.").format(
                    why=why or _not_admin()
                ),
            )
        if "revoke error" in lowered:
            return (
                _("The invite code was not revoked — the old code still works"),
                _("Only group admins can revoke the code: {why}.").format(why=why or _not_admin()),
            )
        if "no send invite" in lowered:
            return (
                _("The invite was not sent"),
                _(
                    "The gateway gives no reason: the instance must be an admin of the group, "
                    "and every number must be on WhatsApp."
                ),
            )
    # (A refusal in a 2xx answer, "send: false", is no 400 about the group id.)
    if (
        isinstance(error, BadRequest)
        and not isinstance(error, RefusedIn200)
        and (operation in ("participants", "invite", "revoke") or "group" in lowered)
    ):
        return (_("The gateway refused the group id"), _(GROUP_JID_ADVICE))
    if isinstance(error, InvalidRequest):
        return (
            f"{error.not_done}: " + "; ".join(error.messages),
            _("Nothing went to the gateway."),
        )
    if operation == "subject" and isinstance(error, ServerError):
        return (
            _("The subject was not changed"),
            _cap(why) + "."
            if why
            else _(
                "This instance is probably not an admin of the group, or the group may not "
                "exist, or this instance is not a member of it."
            ),
        )
    title, advice = error_advice(error, url, retry_key=retry_key)
    return (
        _("{what} failed: {reason}").format(what=operation_words(operation), reason=title),
        advice,
    )


def _connect_advice(connect_key: str | None, retry_key: str | None) -> str:
    """How to connect the instance and try again, naming the keys there are."""
    if connect_key and retry_key:
        return _(
            "Group calls need a connected instance (status open): connect it with "
            "{connect_key} on its screen, then press {retry_key}."
        ).format(connect_key=connect_key, retry_key=retry_key)
    if connect_key:
        return _(
            "Group calls need a connected instance (status open): connect it with "
            "{connect_key} on its screen, then try again."
        ).format(connect_key=connect_key)
    if retry_key:
        return _(
            "Group calls need a connected instance (status open): connect it (scan its QR "
            "code), then press {retry_key}."
        ).format(retry_key=retry_key)
    return _(
        "Group calls need a connected instance (status open): connect it (scan its QR code), "
        "then try again."
    )


def explain_on(
    screen: GatewayScreen, instance: str, error: GatewayError, operation: str, **keys: str | None
) -> tuple[str, str]:
    """``explain_group_error`` for ``screen``: the instance's known status, the gateway's URL
    and the key that connects an instance (``keys``: ``retry_key``, the key that tries again)."""
    from gateway_tui.tui.screens.instance import InstanceScreen

    found = screen.state.instance(instance)
    return explain_group_error(
        error,
        operation=operation,
        instance=instance,
        instance_status=found.status if found else None,
        url=screen.gateway_app.gateway_url,
        connect_key=screen.key_on(InstanceScreen, "instance.connect"),
        **keys,
    )


def _refused_for_status(error: GatewayError, instance_status: str | None) -> bool:
    """A session failure of an instance the app knows is not open.

    Some answers carry no reason at all (sendInvite: 404 "No send invite"), but the status
    tells. Validation errors, unknown routes and unknown instances come before the session
    is touched, so they keep their own explanation.
    """
    if instance_status in (None, "open") or error.status is None or error.status < 404:
        return False
    if error.problems or "does not exist" in " ".join(error.messages):
        return False
    return not (isinstance(error, NotFound) and error.route_missing)


def problem_text(
    title: str,
    advice: str,
    error: GatewayError | None = None,
    *,
    show_lines: bool = False,
    lines_key: str | None = None,
) -> Text:
    """✕ title, advice, and either the server's lines or how to see them (never markup)."""
    text = Text("✕ ", style="bold red")
    text.append(title, style="bold")
    if advice:
        text.append("\n")
        text.append(advice)
    if error is not None:
        if show_lines:
            for line in error.details():
                text.append("\n  ")
                text.append(line, style="dim")
        elif lines_key:
            text.append("\n")
            text.append(
                _("{key} shows the gateway's own lines").format(key=lines_key),
                style="dim italic",
            )
    return text


def dialog_keys(
    submit_id: str,
    submit_says: str,
    cancel_id: str,
    cancel_says: str = "Cancel",
    *,
    enter: bool = False,
) -> list[Binding]:
    """A dialog's two keys: ctrl+s submits (before a field takes it), escape cancels.
    ``enter``: a one-field dialog's enter submits too, named first (help and the button say
    it); on a focused button it presses that button (FormModal.action_enter)."""
    first = [Binding("enter", "enter", submit_says, id=submit_id, priority=True)] if enter else []
    return [
        *first,
        Binding("ctrl+s", "submit", submit_says, id=submit_id, priority=True),
        Binding("escape", "cancel", cancel_says, id=cancel_id),
    ]


def dialog_buttons(
    screen: GatewayScreen,
    submit: tuple[str, str, str],
    cancel: tuple[str, str, str],
    *,
    variant: Literal["primary", "error"] = "primary",
    disabled: bool = False,
) -> ComposeResult:
    """The row under a dialog's form, each button naming its key: ``submit`` and ``cancel``
    are (label, binding id, button id)."""
    with Horizontal(classes="dialog-buttons"):
        label, binding, button = submit
        yield Button(
            f"{label} ({screen.key_for(binding)})", variant=variant, id=button, disabled=disabled
        )
        label, binding, button = cancel
        yield Button(f"{label} ({screen.key_for(binding)})", id=button)


def numbers_label() -> str:
    """The label over a box of numbers to add or invite."""
    return _("Numbers — one per line or separated by commas, with country code")


def numbers_ready(text: Text, numbers: list[str], sentence: str) -> None:
    """``✓ 3 to add: +55 …, …`` (the first six numbers, formatted) appended to ``text``;
    ``sentence`` is the translated line (``ngettext``) with ``{n}`` and ``{numbers}``."""
    shown = [format_number(n) for n in numbers[:6]]
    listed = ", ".join(shown) + (" …" if len(numbers) > 6 else "")
    line = Text("✓ " + sentence.format(n=number(len(numbers)), numbers=listed))
    start = line.plain.find(listed) if listed else -1
    line.stylize("green", 0, start if start >= 0 else len(line))
    text.append_text(line)


class GroupModal(FormModal[_R]):
    """A dialog about one group that reads the state and runs gateway calls."""

    def __init__(self, instance: str, group_jid: str) -> None:
        super().__init__()
        self.instance = instance
        self.group_jid = group_jid

    # The binding that tries again in this dialog (its save or send), named by error advice.
    RETRY_ID: str | None = None

    def _explain(self, error: GatewayError, operation: str) -> Text:
        retry_key = self.key_for(self.RETRY_ID) if self.RETRY_ID else None
        title, advice = explain_on(self, self.instance, error, operation, retry_key=retry_key)
        # In a dialog there is room: the server's lines are shown right away.
        return problem_text(title, advice, error, show_lines=True)


class SubjectScreen(GroupModal[str | None]):
    """`s`: the new subject, prefilled with the current one; dismisses with the new subject."""

    HELP_TITLE = N_("Change the subject")
    RETRY_ID = "subject.save"
    NOTE_ID = "subject-error"
    SUBMIT_BUTTON = "subject-save"
    # Enter saves (on a focused button it presses that button): help and the button name
    # the key that saves, and ctrl+s still does.
    BINDINGS = dialog_keys("subject.save", N_("Save the subject"), "subject.cancel", enter=True)

    def __init__(self, instance: str, group_jid: str, current: str) -> None:
        super().__init__(instance, group_jid)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="subject-dialog", classes="dialog"):
            yield Static(Text(_("Change the group subject"), style="bold"), classes="dialog-title")
            yield Static(
                Text(
                    _("{group} on {instance}").format(group=self.group_jid, instance=self.instance),
                    style="dim",
                )
            )
            with Horizontal(classes="subject-line"):
                yield Label(_("Subject"))
                yield LengthCounter(SUBJECT_LIMIT, hard=True, id="subject-count")
            yield TextInput(
                value=self.current,
                placeholder=_("the group's name"),
                select_on_focus=False,
                id="subject-input",
            )
            yield Static(id="subject-error", classes="field-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    _("Save ({key})").format(key=self.key_for("subject.save")),
                    variant="primary",
                    id="subject-save",
                )
                yield Button(
                    _("Cancel ({key})").format(key=self.key_for("subject.cancel")),
                    id="subject-cancel",
                )

    def on_mount(self) -> None:
        self.query_one("#subject-input", Input).focus()
        self.query_one("#subject-count", LengthCounter).show(self.current.strip())

    @property
    def value(self) -> str:
        return self.query_one("#subject-input", Input).value

    def on_input_changed(self, event: Input.Changed) -> None:
        # Checked as you type: a line about the text before this keystroke must not stay.
        event.stop()
        self.query_one("#subject-count", LengthCounter).show(event.value.strip())
        if self.busy:
            return
        # An empty field is said only when saving; a subject too long, at once.
        problems = check_subject(event.value) if event.value.strip() else []
        self.say(Text("✕ " + problems[0].message, style="red") if problems else Text())

    def submit(self) -> None:
        if self.busy:
            return
        problems = check_subject(self.value)
        if problems:
            self.say(Text("✕ " + problems[0].message, style="red"))
            return
        subject = self.value.strip()
        if subject == self.current:
            self.say(Text(_("That is the current subject already: nothing to change."), "yellow"))
            return
        self.submit_call(
            self.actions.groups.update_group_subject(self.instance, self.group_jid, subject),
            what=operation_words("subject"),
            working=_("Saving…"),
            on_done=lambda _result: self.dismiss(subject),
            explain=lambda error: self._explain(error, "subject"),
            group="subject",
        )


# The numbers box may hold anything pasted: the dialog lists a few problems, each on one line.
INVITE_PROBLEMS_SHOWN = 6
INVITE_LINE_WIDTH = 90


def _clip(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def invite_check_text(parsed: InviteNumbers, *, attempted: bool) -> Text:
    """What the numbers box holds: the numbers ready to send and every invalid line."""
    text = Text()
    if parsed.numbers:
        count = len(parsed.numbers)
        numbers_ready(
            text,
            parsed.numbers,
            ngettext("{n} number ready: {numbers}", "{n} numbers ready: {numbers}", count),
        )
    if parsed.duplicates_removed:
        removed = parsed.duplicates_removed
        text.append("\n" + duplicates_removed(removed), style="dim")
    for problem in parsed.problems[:INVITE_PROBLEMS_SHOWN]:
        # Before a send attempt an empty box is a hint, not an error.
        style = "red" if attempted or problem.field != "numbers" else "dim"
        line = _clip(f"✕ {problem}" if style == "red" else problem.message, INVITE_LINE_WIDTH)
        text.append(f"\n{line}", style=style)
    if len(parsed.problems) > INVITE_PROBLEMS_SHOWN:
        more = len(parsed.problems) - INVITE_PROBLEMS_SHOWN
        text.append(
            "\n"
            + ngettext("… and {n} more line to fix", "… and {n} more lines to fix", more).format(
                n=number(more)
            ),
            style="red" if attempted else "dim",
        )
    if attempted and parsed.problems:
        text.append("\n" + _("Fix the lines above: nothing was sent."), style="bold red")
    return text


def duplicates_removed(n: int) -> str:
    """``2 duplicates removed``, in the current language."""
    return ngettext("{n} duplicate removed", "{n} duplicates removed", n).format(n=number(n))


def default_invite_description(subject: str | None) -> str:
    """What the description box starts with: sendInvite refuses an empty description."""
    if subject:
        return _("Join the group “{subject}” on WhatsApp:").format(subject=subject)
    return _("Join our WhatsApp group:")


class InviteScreen(GroupModal[GroupInviteResult | None]):
    """`n`: numbers (one per line or comma-separated) and a description; shows the URL sent."""

    HELP_TITLE = N_("Send the group invite")
    RETRY_ID = "invite.send"
    NOTE_ID = "invite-result"
    SUBMIT_BUTTON = "invite-send"
    BINDINGS = dialog_keys("invite.send", N_("Send the invite"), "invite.cancel", N_("Close"))

    def __init__(self, instance: str, group_jid: str, subject: str | None = None) -> None:
        super().__init__(instance, group_jid)
        self.subject = subject
        self.result: GroupInviteResult | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-dialog", classes="dialog"):
            yield Static(Text(_("Send the group invite"), style="bold"), classes="dialog-title")
            # The form scrolls on a short terminal; the buttons under it stay in view.
            with VerticalScroll(id="invite-form", can_focus=False):
                yield Static(Text(self.subject or self.group_jid, style="dim"))
                yield Label(numbers_label())
                yield TextArea(id="invite-numbers", soft_wrap=True)
                yield Static(id="invite-check", classes="field-error")
                yield Label(_("Description — sent above the link; the gateway requires one"))
                yield TextInput(
                    default_invite_description(self.subject),
                    placeholder=_("a line above the link"),
                    # A suggestion: typing replaces it, an arrow key keeps it for editing.
                    select_on_focus=True,
                    id="invite-description",
                )
                yield Static(id="invite-result", classes="field-error")
            yield from dialog_buttons(
                self,
                (_("Send"), "invite.send", "invite-send"),
                (_("Close"), "invite.cancel", "invite-close"),
            )

    def on_mount(self) -> None:
        self.query_one("#invite-numbers", TextArea).focus()
        self._check(attempted=False)
        self._fit(self.app.size.height)

    def on_resize(self, _event: events.Resize) -> None:
        self._fit(self.app.size.height)

    def _fit(self, height: int) -> None:
        """The form gets what the terminal leaves beside the dialog's frame, title and buttons
        (the dialog's max-height is 90%): on 24 rows it scrolls, the buttons stay in view."""
        frame = 2 + 2 + 2 + 3  # border, padding, title, buttons
        self.query_one("#invite-form").styles.max_height = max(4, height * 9 // 10 - frame)

    @property
    def numbers_text(self) -> str:
        return self.query_one("#invite-numbers", TextArea).text

    def _check(self, *, attempted: bool) -> InviteNumbers:
        parsed = parse_invite_numbers(self.numbers_text)
        self.query_one("#invite-check", Static).update(
            invite_check_text(parsed, attempted=attempted)
        )
        return parsed

    def say(self, text: Text | str) -> None:
        super().say(text)
        if text.plain if isinstance(text, Text) else text:
            # Below the fold on a short terminal: brought into view.
            result = self.query_one(f"#{self.NOTE_ID}", Static)
            self.call_after_refresh(result.scroll_visible, animate=False)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._check(attempted=False)

    def cancel_result(self) -> GroupInviteResult | None:
        return self.result  # closing after a send tells the screen what was sent

    def submit(self) -> None:
        if self.busy:
            return
        parsed = self._check(attempted=True)
        if parsed.problems:
            self.say(Text())
            # What to fix, in view on a short terminal (not the field's top, as a focus would).
            self.query_one("#invite-numbers", TextArea).focus(scroll_visible=False)
            check = self.query_one("#invite-check", Static)
            self.call_after_refresh(check.scroll_visible, animate=False)
            return
        description_input = self.query_one("#invite-description", Input)
        description = description_input.value
        if problems := check_invite_description(description):
            self.say(
                Text(
                    _("✕ {problem}: nothing was sent.").format(problem=problems[0].message),
                    style="red",
                )
            )
            description_input.focus()
            return

        def sent(result: GroupInviteResult) -> None:
            self.result = result
            count = len(parsed.numbers)
            text = Text(
                ngettext(
                    "✓ Invite sent to {n} number", "✓ Invite sent to {n} numbers", count
                ).format(n=number(count)),
                style="bold green",
            )
            url = result.invite_url or _("(the gateway did not say)")
            text.append("\n")
            text.append_text(styled(_("Link sent: {url}"), url=(url, "bold")))
            close, send = self.key_for("invite.cancel"), self.key_for("invite.send")
            text.append(
                "\n"
                + _("{close} closes · change the numbers and {send} to send again").format(
                    close=close, send=send
                ),
                "dim",
            )
            self.say(text)

        self.submit_call(
            self.actions.groups.send_group_invite(
                self.instance, self.group_jid, parsed.numbers, description
            ),
            what=operation_words("send_invite"),
            working=ngettext(
                "Sending to {n} number…", "Sending to {n} numbers…", len(parsed.numbers)
            ).format(n=number(len(parsed.numbers))),
            on_done=sent,
            explain=lambda error: self._explain(error, "send_invite"),
            group="invite",
        )


def resolve_export_path(raw: str, cwd: Path | None = None) -> Path:
    """The file a typed path means: ``~`` expanded, relative to the working directory."""
    path = Path(raw.strip()).expanduser()
    return path if path.is_absolute() else (cwd or Path.cwd()) / path


def _path_problem(path: Path, *, folder: bool = True) -> str | None:
    """Why no file can be written at ``path`` (None when it can be tried); with ``folder``
    False, a folder that does not exist (yet: the user may be typing its name) is no problem.

    Typed names may hold anything: a NUL byte or a name longer than the file system allows
    makes the checks themselves fail, and that must read as a reason, not stop the app.
    """
    try:
        if path.is_dir():
            return _("that is a folder: add a file name")
        if folder and not path.parent.is_dir():
            return _("the folder {folder} does not exist").format(folder=path.parent)
    except ValueError:  # a NUL byte
        return _("a file name cannot hold that character (NUL)")
    except OSError as error:
        return error.strerror or str(error)
    return None


class ExportScreen(FormModal[Path | None]):
    """Asks where to write the CSV; never overwrites a file without asking first.

    ``write(path, overwrite)`` writes the file and returns how many rows it wrote; it must
    refuse to replace an existing file unless ``overwrite`` (FileExistsError).
    """

    HELP_TITLE = N_("Export to CSV")
    NOTE_ID = "export-preview"
    SUBMIT_BUTTON = "export-save"
    BINDINGS = dialog_keys("export.save", N_("Export"), "export.cancel", enter=True)

    def __init__(self, default_path: str, what: str, write: Callable[[Path, bool], int]) -> None:
        super().__init__()
        self._default = default_path
        self._what = what
        self._write = write

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog", classes="dialog"):
            yield Static(
                Text(_("Export participants to CSV"), style="bold"), classes="dialog-title"
            )
            yield Static(Text(self._what))
            yield Label(_("File"))
            yield TextInput(value=self._default, select_on_focus=False, id="export-path")
            yield Static(id="export-preview", classes="field-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    _("Export ({key})").format(key=self.key_for("export.save")),
                    variant="primary",
                    id="export-save",
                )
                yield Button(
                    _("Cancel ({key})").format(key=self.key_for("export.cancel")),
                    id="export-cancel",
                )

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()
        self._preview()

    @property
    def raw_path(self) -> str:
        return self.query_one("#export-path", Input).value

    def _preview(self) -> None:
        if not self.raw_path.strip():
            self.say(Text(_("Enter a file name."), style="dim"))
            return
        path = resolve_export_path(self.raw_path)
        text = styled(_("Writes {path}"), path=(_clip(str(path), 200), "bold"))
        problem = _path_problem(path, folder=False)
        if problem is not None:
            text.append(f"\n✕ {problem}", style="red")
        elif path.exists():
            text.append(
                "\n" + _("⚠ the file exists: you will be asked before it is replaced"), "yellow"
            )
        self.say(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._preview()

    def submit(self) -> None:
        if not self.raw_path.strip():
            self.say(Text("✕ " + _("Enter a file name."), style="red"))
            return
        path = resolve_export_path(self.raw_path)
        problem = _path_problem(path)
        if problem is not None:
            self.say(Text(_clip(f"✕ {problem[:1].upper()}{problem[1:]}.", 300), style="red"))
        elif path.exists():
            self._ask_overwrite(path)
        else:
            self._write_to(path, overwrite=False)

    def _ask_overwrite(self, path: Path) -> None:
        body = styled(
            _("The file {path} exists. Replace it with the export?"), path=(str(path), "bold")
        )
        self.app.push_screen(
            ConfirmScreen(_("Replace the file?"), body, confirm_label=_("Replace")),
            lambda yes: self._write_to(path, overwrite=True) if yes else self._preview(),
        )

    def _write_to(self, path: Path, *, overwrite: bool) -> None:
        try:
            self._write(path, overwrite)
        except FileExistsError:  # created since we looked: ask, never replace silently
            self._ask_overwrite(path)
            return
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            said = _("✕ Could not write {path}: {reason}").format(path=path, reason=reason)
            self.say(Text(_clip(said, 300), style="red"))
            return
        self.dismiss(path)
