"""Before a campaign: ask the gateway which numbers are on WhatsApp, in batches.

Only an open instance can answer (a real server says 500 otherwise). Group and other JIDs are
not asked about: they are not phone numbers.
"""

from __future__ import annotations

from collections.abc import Callable

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.validation import is_digits
from gateway_tui.core.campaign.recipients import RecipientList

CHECK_BATCH = 50  # numbers per whatsappNumbers call


async def numbers_not_on_whatsapp(
    client: GatewayClient,
    instance: str,
    recipients: RecipientList,
    on_batch: Callable[[int, int], None] | None = None,
) -> set[str]:
    """The recipients' numbers the gateway says are not on WhatsApp. Raises GatewayError."""
    numbers = [r.number for r in recipients.recipients if is_digits(r.number)]
    missing: set[str] = set()
    for start in range(0, len(numbers), CHECK_BATCH):
        batch = numbers[start : start + CHECK_BATCH]
        answers = await client.contacts.whatsapp_numbers(instance, batch)
        answered = {answer.number or answer.jid.split("@", 1)[0]: answer for answer in answers}
        missing.update(
            number for number in batch if not getattr(answered.get(number), "exists", True)
        )
        if on_batch is not None:
            on_batch(min(start + CHECK_BATCH, len(numbers)), len(numbers))
    return missing
