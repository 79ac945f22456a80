"""Before the first send: is the instance there, and open?

A typo (``--instance nope``) or a closed instance would otherwise spend the recipients: each
call refused, recorded, and the stop rule firing only after several. One call to
``fetchInstances`` says it before anyone is tried.
"""

from __future__ import annotations

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.models import InstanceStatus
from gateway_tui.core.text.i18n import _


class InstanceNotReady(Exception):
    """The campaign cannot start from this instance; the message says why and what to do."""

    def __init__(self, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing  # no such instance (else: there, but not open)


async def check_instance(client: GatewayClient, instance: str) -> None:
    """Raise InstanceNotReady unless ``instance`` exists and is open (GatewayError when the
    gateway cannot be asked)."""
    instances = await client.instances.fetch()
    found = next((item for item in instances if item.instance_name == instance), None)
    if found is None:
        names = sorted(item.instance_name for item in instances)
        listed = ", ".join(names[:10]) + (" …" if len(names) > 10 else "")
        said = (
            _("the gateway has no instance {instance} (its instances: {listed}); nothing was sent")
            if names
            else _("the gateway has no instance {instance} (it has none); nothing was sent")
        )
        raise InstanceNotReady(said.format(instance=repr(instance), listed=listed), missing=True)
    if found.status_kind is not InstanceStatus.OPEN:
        raise InstanceNotReady(
            _(
                "instance {instance} is not connected (its state: {state}); connect it (pair a "
                "phone), then start again; nothing was sent"
            ).format(instance=instance, state=found.status)
        )


async def instance_problem(client: GatewayClient, instance: str) -> str:
    """Why the campaign cannot start from ``instance`` ("" when it can), in plain words."""
    from gateway_tui.core.campaign.runner import plain_error

    try:
        await check_instance(client, instance)
    except InstanceNotReady as exc:
        return str(exc)
    except GatewayError as error:
        return _("cannot ask the gateway about instance {instance}: {error}").format(
            instance=instance, error=plain_error(error)
        )
    return ""
