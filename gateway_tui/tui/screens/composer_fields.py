"""The composer's fields, what the line under the form says about each, and where a problem goes.

Plain data and functions (no widgets): the problem mapping is shared by the checks of the draft
and by the gateway's refusals, so both land next to the same field.
"""

from __future__ import annotations

import re

from gateway_tui.core.api.dialects import Dialect
from gateway_tui.core.api.errors import GatewayError, Problem
from gateway_tui.core.api.validation import (
    BUTTON_TEXT_LIMIT,
    FOOTER_LIMIT,
    LIST_DESCRIPTION_LIMIT,
    LIST_TITLE_LIMIT,
    ROW_DESCRIPTION_LIMIT,
    TITLE_LIMIT,
)
from gateway_tui.core.draft import Draft
from gateway_tui.core.text.i18n import N_, _

# key, label, Draft attribute, placeholder (label and placeholder in English: ``_()`` where drawn)
HEADER_FIELDS: tuple[tuple[str, str, str, str], ...] = (
    (
        "recipient",
        N_("Recipient"),
        "recipient",
        N_("international digits, e.g. 4915123456789, or a group JID"),
    ),
    ("title", N_("Title"), "title", N_("the bold first line")),
    ("description", N_("Description"), "description", N_("the message text")),
    ("button", N_("Button text"), "button_text", N_("opens the list, e.g. See the menu")),
    ("footer", N_("Footer"), "footer", N_("optional small print")),
)


def placeholder_for(key: str, placeholder: str, line: Dialect) -> str:
    """A header field's placeholder on a gateway of ``line`` (what it requires differs), in the
    current language (``placeholder`` is HEADER_FIELDS' English one)."""
    if key == "footer" and line.footer_required:
        return _("small print under the message (required on {line})").format(line=line.label)
    if key == "description" and not line.description_required:
        return _("the message text (optional on {line})").format(line=line.label)
    return _(placeholder)


# The header fields with a WhatsApp length limit: a counter beside each.
FIELD_LIMITS = {
    "title": LIST_TITLE_LIMIT,
    "description": LIST_DESCRIPTION_LIMIT,
    "button": BUTTON_TEXT_LIMIT,
    "footer": FOOTER_LIMIT,
}
FIELD_ATTRS = {key: attr for key, _label, attr, _hint in HEADER_FIELDS} | {"delay": "delay"}
ROW_PARTS = {"title": "title", "desc": "description", "id": "row_id"}
PRESENCE_NOTE = N_("only takes effect with a delay")
PRESENCE_NOT_SENT = N_("2.x sends none: typing shows during a delay")
# What the line under the form says about the field under the cursor (English: ``field_hint``
# says it in the current language, with the field's limit).
FIELD_HINTS = {
    "recipient": N_(
        "Recipient: international number with its country code (digits; + and "
        "spaces are dropped), or a group JID …@g.us"
    ),
    "title": N_("Title: the bold first line of the message (WhatsApp shows {limit})"),
    "description": N_("Description: the message text under the title (WhatsApp shows {limit})"),
    "button": N_("Button text: the button that opens the list (WhatsApp shows {limit} characters)"),
    "footer": N_("Footer: optional small print under the message (WhatsApp shows {limit})"),
    "delay": N_(
        "Delay: whole milliseconds the gateway waits before sending — the request "
        "stays open that long"
    ),
    "presence": N_(
        "Presence: what the recipient sees during the delay — only takes effect with a delay"
    ),
    "section": N_(
        "Section title: shown above its rows in the opened list (WhatsApp shows {limit})"
    ),
    "row-title": N_("Row title: one choice in the list (WhatsApp shows {limit} characters)"),
    "row-desc": N_("Row description: under the row's title (WhatsApp shows {limit} characters)"),
    "row-id": N_(
        "rowId: what a reply names when this row is picked — follows the title until you edit it"
    ),
}
_HINT_LIMITS = {
    "title": LIST_TITLE_LIMIT,
    "description": LIST_DESCRIPTION_LIMIT,
    "button": BUTTON_TEXT_LIMIT,
    "footer": FOOTER_LIMIT,
    "section": TITLE_LIMIT,
    "row-title": TITLE_LIMIT,
    "row-desc": ROW_DESCRIPTION_LIMIT,
}


def field_hint(key: str) -> str:
    """The line under the form for the field ``key``, in the current language ("" for none)."""
    hint = FIELD_HINTS.get(key)
    if hint is None:
        return ""
    limit = _HINT_LIMITS.get(key)
    return _(hint).format(limit=limit) if limit is not None else _(hint)


# Where a problem about a request field is shown (the ids of the error lines).
_TOP_TARGETS = {
    "number": "recipient",
    "recipient": "recipient",
    "title": "title",
    "description": "description",
    "buttonText": "button",
    "footerText": "footer",
    "delay": "options",
    "presence": "options",
    "options": "options",
    "sections": "sections",
}
_SECTION_PATH = re.compile(r"^sections\[(\d+)\](?:\.rows\[(\d+)\])?(?:\.(\w+))?$")
_FIELD_PREFIX = re.compile(r"^(?:instance\.)?(?:listMessage\.|options\.)?")
# A line of the server's body validation: `<path> <what is wrong>`.
_SERVER_LINE = re.compile(
    r"^(?P<path>(?:instance|listMessage|options|number)[\w.\[\]]*)\s+(?P<rest>.+)$"
)
_REQUIRES = re.compile(r'^requires property "(?P<name>[^"]+)"')
_NOT_EMPTY = re.compile(r'^The "(?P<name>[^"]+)" cannot be empty$')
# Lines of the real server's schema that name no path (the schema's "description").
_KNOWN_LINES = {"Enter a value in milliseconds": "delay", "Invalid format": "number"}
# The words before a problem on a row (rowId is the request's own name: never translated).
_SUBFIELD_LABEL = {"title": N_("title"), "description": N_("description")}


def field_of(path: str) -> str:
    """A request path as the composer names fields: "listMessage.sections[0]" → "sections[0]"."""
    field = _FIELD_PREFIX.sub("", path, count=1)
    return "number" if field == "instance" else field


def target_of(field: str, draft: Draft) -> tuple[str, str]:
    """The error line a problem about ``field`` goes to, and the label to put before it."""
    field = field_of(field)
    if field in _TOP_TARGETS:
        return f"err-{_TOP_TARGETS[field]}", ""
    match = _SECTION_PATH.match(field)
    if match is None:
        return "err-general", ""
    s_index, r_index, sub = int(match[1]), match[2], match[3]
    if s_index >= len(draft.sections):
        return "err-sections", ""
    section = draft.sections[s_index]
    if r_index is None:
        prefix = _("title") + ": " if sub == "title" else ""
        return f"err-sec-{section.uid}", prefix
    if int(r_index) >= len(section.rows):
        return f"err-sec-{section.uid}", ""
    if sub in _SUBFIELD_LABEL:
        prefix = _(_SUBFIELD_LABEL[sub]) + ": "
    else:
        prefix = "rowId: " if sub == "rowId" else ""
    return f"err-row-{section.rows[int(r_index)].uid}", prefix


def server_problems(error: GatewayError) -> list[Problem]:
    """The gateway's refusal, tied to fields wherever its text names one.

    Covers the body-validation form (``[["listMessage.sections[0] requires property …"]]``),
    the property form, and numbers that are not on WhatsApp. Lines that name no field come back
    with field "" (shown under the form).
    """
    absent = [_("{number} is not on WhatsApp").format(number=n) for n in error.not_on_whatsapp]
    problems = [Problem("number", line) for line in absent]
    problems += [Problem(field_of(p.field), p.message) for p in error.problems]
    # The error's own lines say it too (in English, or in the reader's language): said once.
    said = {f"{n} is not on WhatsApp" for n in error.not_on_whatsapp} | set(absent)
    said |= {f"{p.field}: {p.message}" for p in error.problems}
    for line in error.messages:
        if line in said:
            continue
        if line in _KNOWN_LINES:
            problems.append(Problem(_KNOWN_LINES[line], line))
            continue
        if match := _NOT_EMPTY.match(line):
            name = match["name"]
            problems.append(Problem(name if name in _TOP_TARGETS else "", line))
            continue
        if match := _SERVER_LINE.match(line):
            path = match["path"]
            field = field_of(path)
            if required := _REQUIRES.match(match["rest"]):
                # "<path> requires property "x"": the field is x, inside <path>.
                inside = "" if path in ("instance", "listMessage", "options") else field
                field = f"{inside}.{required['name']}" if inside else required["name"]
            problems.append(Problem(field, line))
            continue
        problems.append(Problem("", line))
    return problems
