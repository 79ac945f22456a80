"""One gateway, one session: its resolved config, client, state, actions and live link.

A session is opened as a unit (``GatewaySession.open``) and closed as a unit (``aclose``: the
client, the live link, and their tasks). The app holds the current one; switching gateway
opens the new session and closes the old, so nothing of the old gateway (its socket, its key,
its events) outlives the switch. The command line opens sessions with ``live=False``. No
Textual here.

    open(config) ──▶ use: client calls, actions update the state, follow_live(instance)
                         │                       (the live link is made on first follow)
    switch ──▶ open(new config) ; old.aclose()   (client closed, socket closed, tasks ended)
    quit   ──▶ aclose()
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    import httpx

    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.files.config import ResolvedConfig
    from gateway_tui.core.live import LiveEvent, LiveLink
    from gateway_tui.core.services import Actions
    from gateway_tui.core.state import AppState

ArrivalListener = Callable[["GatewaySession"], None]
StatusListener = Callable[["GatewaySession", bool, "str | None"], None]
FALLBACK_URL = "http://127.0.0.1"


class GatewaySession:
    """Everything of one gateway. Build it with ``open``; end it with ``aclose``."""

    def __init__(
        self,
        config: ResolvedConfig,
        client: GatewayClient,
        state: AppState,
        actions: Actions,
        *,
        live: bool,
        live_url: str | None = None,
    ) -> None:
        self.config = config
        self.client = client
        self.state = state
        self.actions = actions
        self.live_allowed = live
        self.live_url = live_url
        self.link: LiveLink | None = None
        self._link_task: asyncio.Task[None] | None = None
        self.closed = False
        # Told when live events wait (take them with ``take_live``) and when the link's state
        # changes; each is handed the session, so a listener can tell an old one from the next.
        self.on_live_arrival: ArrivalListener = lambda session: None
        self.on_live_status: StatusListener = lambda session, live, why: None
        self.on_live_error: Callable[[BaseException], None] = lambda error: None

    @classmethod
    def open(
        cls,
        config: ResolvedConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        live: bool = True,
        clock: Callable[[], datetime] = datetime.now,
        live_url: str | None = None,
    ) -> GatewaySession:
        """A session for ``config``'s gateway. A URL or key that cannot be used is not an
        error: it is dropped, said in ``config.problems``, and the session has no gateway
        (the app then asks for another)."""
        from gateway_tui.core.services import Actions
        from gateway_tui.core.state import AppState

        config, client = _client(config, transport)
        state = AppState(clock)
        client.subscribe(state.record_call)
        actions = Actions(client, state)
        if live and config.url:
            actions.chats.restore_marks()  # the "new" markers of the last run (the app's)
        return cls(config, client, state, actions, live=live, live_url=live_url)

    # --- live events -----------------------------------------------------------------------------

    def follow_live(self, instance: str) -> bool:
        """Receive ``instance``'s events over the gateway's socket (the link is made on first
        use, in the running loop); False when this session has none to give."""
        if self.closed or not self.live_allowed:
            return False
        if not self.config.is_complete or not self.config.url:
            return False
        if self.link is None:
            from gateway_tui.core.live import LiveLink

            key = self.config.api_key.get_secret_value() if self.config.api_key else ""
            client = self.client
            self.link = LiveLink(
                self.live_url or self.config.url,
                key,
                lambda: self.on_live_arrival(self),
                lambda live, why: self.on_live_status(self, live, why),
                is_v2=lambda: client.line_known and client.dialect.global_live_events,
            )
            # A task of its own, not a worker: it lasts as long as the session.
            self._link_task = asyncio.get_running_loop().create_task(self._run_link(self.link))
        self.link.follow(instance)
        return True

    def follows(self, instance: str) -> bool:
        return self.link is not None and instance in self.link.instances

    def live_for(self, instance: str) -> bool:
        """Whether ``instance``'s events come over this session's socket now."""
        return not self.closed and self.link is not None and self.link.live_for(instance)

    def take_live(self) -> list[LiveEvent]:
        """The events that arrived since the last take (none once closed)."""
        if self.closed or self.link is None:
            return []
        return self.link.take()

    async def _run_link(self, link: LiveLink) -> None:
        try:
            await link.run()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - a bug of ours: reported, polling goes on
            self.on_live_error(error)

    # --- closing -----------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the live link (its sockets and tasks) and the client. Called twice: once."""
        if self.closed:
            return
        self.closed = True
        if self.live_allowed:
            self.actions.chats.save_marks()  # the "new" markers the last events left
        # Nothing told after this: the app has moved on to another session.
        self.on_live_arrival = lambda session: None
        self.on_live_status = lambda session, live, why: None
        if self.link is not None:
            self.link.stop()
        if self._link_task is not None:
            self._link_task.cancel()
            # Closing: the link's end is ours; a failure of it has nobody left to tell.
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._link_task
        await self.client.aclose()

    async def __aenter__(self) -> GatewaySession:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _client(
    config: ResolvedConfig, transport: httpx.AsyncBaseTransport | None
) -> tuple[ResolvedConfig, GatewayClient]:
    """The client for ``config``; a URL or key that cannot be used is dropped into problems."""
    import httpx

    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.client_factory import client_for

    url = config.url or FALLBACK_URL
    try:
        httpx.URL(url)
    except (httpx.InvalidURL, ValueError):
        # Validation agrees with httpx, but a URL must never end the app: ask for another.
        problem = _("The gateway URL cannot be used: its host name is not valid")
        config = dataclasses.replace(config, url=None, problems=[*config.problems, problem])
        url = FALLBACK_URL
    try:
        return config, client_for(config, url=url, transport=transport)
    except GatewayError as error:
        # A key that cannot travel in a header (a newline in it, say): ask for another.
        problem = _("The API key cannot be used: {problem}").format(problem=error.summary)
        config = dataclasses.replace(config, api_key=None, problems=[*config.problems, problem])
        return config, client_for(config, url=url, api_key="", transport=transport)
