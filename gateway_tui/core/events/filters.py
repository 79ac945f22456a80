"""Which events the monitor shows and exports: by event, instance, chat and text."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gateway_tui.core.events.record import EventRecord, setting_name
from gateway_tui.core.events.summary import chat_of, summarize


@dataclass(frozen=True)
class EventFilter:
    """Empty fields let everything through. ``events`` take either form (``messages.upsert``
    or ``MESSAGES_UPSERT``); ``chat`` and ``text`` are found case-insensitively, ``text`` in
    the summary and anywhere in the data."""

    events: frozenset[str] = frozenset()
    instances: frozenset[str] = frozenset()
    chat: str = ""
    text: str = ""

    @classmethod
    def of(
        cls,
        events: Iterable[str] = (),
        instances: Iterable[str] = (),
        chat: str = "",
        text: str = "",
    ) -> EventFilter:
        return cls(
            frozenset(setting_name(e.strip()) for e in events if e.strip()),
            frozenset(i.strip() for i in instances if i.strip()),
            chat.strip().lower(),
            text.strip().lower(),
        )

    @classmethod
    def parse(cls, typed: str) -> EventFilter:
        """What a user types: ``event:messages.upsert instance:sales-eu chat:4917 words``
        (each field may list values with commas; what has no field is text)."""
        fields: dict[str, list[str]] = {"event": [], "instance": [], "chat": []}
        words = []
        for token in typed.split():
            name, colon, value = token.partition(":")
            if colon and name.lower() in fields and value:
                fields[name.lower()] += [v for v in value.split(",") if v]
            else:
                words.append(token)
        return cls.of(
            fields["event"], fields["instance"], " ".join(fields["chat"]), " ".join(words)
        )

    @property
    def empty(self) -> bool:
        return not (self.events or self.instances or self.chat or self.text)

    def matches(self, record: EventRecord) -> bool:
        if self.events and setting_name(record.event) not in self.events:
            return False
        if self.instances and record.instance not in self.instances:
            return False
        if self.chat and self.chat not in chat_of(record).lower():
            return False
        if self.text:
            if self.text in summarize(record).lower() or self.text in record.event.lower():
                return True
            raw = json.dumps(record.data, ensure_ascii=False, default=str).lower()
            return self.text in raw
        return True

    def apply(self, records: Iterable[EventRecord]) -> Iterator[EventRecord]:
        return (record for record in records if self.matches(record))

    def describe(self) -> str:
        """The filter in words ("" when empty)."""
        from gateway_tui.core.text.i18n import _

        parts = []
        either = f" {_('or')} "
        if self.events:
            parts.append(_("event {names}").format(names=either.join(sorted(self.events))))
        if self.instances:
            parts.append(_("instance {names}").format(names=either.join(sorted(self.instances))))
        if self.chat:
            parts.append(_("chat ~ {chat}").format(chat=self.chat))
        if self.text:
            parts.append(_("text ~ {text}").format(text=self.text))
        return ", ".join(parts)
