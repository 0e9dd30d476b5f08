"""A small fake of Discord on 127.0.0.1 for the bot's process: REST under /api/v10 and a gateway."""

# It knows just what logging in, syncing the commands, slash commands, DMs and their buttons,
# and threads of the channel need, and records every request. Anything else gets a
# Discord-shaped 404 and is marked unknown, so that a route the bot starts to need shows up in
# the test's assertions instead of passing unnoticed.
# With several shards it takes one gateway connection per shard, as Discord does: a server's
# events go to the shard ``(server id >> 22) % shards``, and DMs to shard 0.

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

API = "/api/v10"
#: On shard 1 of 2 ((id >> 22) % 2), so that a two-shard run has the server on the second shard.
GUILD_ID = 900000000000000001
CHANNEL_ID = 900000000000000002
#: View Channels, Send Messages, Attach Files, Read Message History, Create Public Threads and
#: Send Messages in Threads, as the README's invite.
INVITE_PERMISSIONS = 309237746688
BOT_ID = 900000000000000003
PLAYER_ID = 900000000000000004
#: Where ``FakeDiscord.commands`` keeps the commands synced globally rather than to a server.
GLOBAL_COMMANDS = 0
#: View Channel, Send Messages, Embed Links, Attach Files, Read Message History, External Emojis,
#: Create Public Threads, Send Messages in Threads.
APP_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18) | (1 << 35) | (1 << 38)
)
#: A plain member: View Channel, Send Messages, Use Application Commands.
PLAYER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 31)
#: An admin: a plain member with Manage Server.
ADMIN_PERMISSIONS = PLAYER_PERMISSIONS | (1 << 5)
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Gateway opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
DISPATCH, HEARTBEAT, IDENTIFY, HELLO, HEARTBEAT_ACK = 0, 1, 2, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
#: How long a heartbeat's acknowledgement takes, as over a network.
ACK_DELAY_S = 0.05
#: The request's JSON payload (or a multipart request's payload_json), read once by the recorder.
PAYLOAD: web.RequestKey[Any] = web.RequestKey("payload")


@dataclass(frozen=True, slots=True)
class Call:
    """One REST request as the fake received it; ``path`` is relative to /api/v10."""

    method: str
    path: str
    payload: Any
    authorization: str | None
    known: bool
    #: The names of a multipart request's files.
    files: tuple[str, ...] = ()
    #: The error status the fake answered instead of doing it (see `FakeDiscord.refuse`), or 0.
    refused: int = 0
    #: When it came (``time.monotonic()``).
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class SentInteraction:
    """An interaction the fake pushed through the gateway, and the bot's callback to it."""

    id: int
    token: str
    callback: Call
    #: The shard whose gateway connection the interaction went through.
    shard: int


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": None,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


def _member(user: dict[str, Any], permissions: int | None = None) -> dict[str, Any]:
    member: dict[str, Any] = {
        "user": user,
        "roles": [],
        "nick": None,
        "joined_at": _now(),
        "deaf": False,
        "mute": False,
        "flags": 0,
    }
    if permissions is not None:
        member["permissions"] = str(permissions)
    return member


def _custom_ids(message: dict[str, Any]) -> list[str]:
    """The custom ids of a message's buttons and menus."""
    return [
        item["custom_id"]
        for row in message["components"]
        for item in row.get("components", [])
        if "custom_id" in item
    ]


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only when the content type is exactly application/json;
    # aiohttp's json_response would add "; charset=utf-8".
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


def _option_type(value: str | int | bool) -> int:
    """A slash command option's type as Discord sends it: 5 boolean, 4 integer, 3 string."""
    if isinstance(value, bool):
        return 5
    return 4 if isinstance(value, int) else 3


def _refusal(status: int) -> web.Response:
    """Discord's answer when it will not do a request now: rate limited (429), or failing."""
    if status == 429:
        # discord.py takes a 429 without a Via header for Cloudflare's ban and does not retry.
        response = _json(
            {"message": "You are being rate limited.", "retry_after": 0.01, "global": False},
            status=429,
        )
        response.headers["Via"] = "1.1 google"
        return response
    return _json({"message": f"{status}: Discord is having trouble", "code": 0}, status=status)


class FakeDiscord:
    """Discord's REST API and gateway for one bot, one server and its channel (with the threads
    the bot opens in it), one player and any other people a test adds (`add_person`)."""

    def __init__(self, token: str, *, shards: int = 1) -> None:
        self.token = token
        #: The shards /gateway/bot recommends, and by which the server's shard is found.
        self.shard_count = shards
        self.calls: list[Call] = []
        #: The last identify received, and each shard's connection and identify.
        self.identify: dict[str, Any] | None = None
        self.sockets: dict[int, web.WebSocketResponse] = {}
        self.identified: dict[int, dict[str, Any]] = {}
        self.gateway_query: dict[str, str] = {}
        self.heartbeats = 0
        #: The commands each server (GLOBAL_COMMANDS: everywhere) was last synced with, as the fake
        #: returned them (with ids).
        self.commands: dict[int, list[dict[str, Any]]] = {}
        #: Each interaction sent, and its original response, by token.
        self.interactions: dict[str, dict[str, Any]] = {}
        self.originals: dict[str, dict[str, Any]] = {}
        #: Every message the bot posted or edited, as last shown, by id.
        self.messages: dict[str, dict[str, Any]] = {}
        #: Each person's DM channel, once the bot opened it, by user id.
        self.dm_channels: dict[int, dict[str, Any]] = {}
        #: The threads the bot opened in the channel, by id.
        self.threads: dict[int, dict[str, Any]] = {}
        self.bot_user = _user(BOT_ID, "Pyramid Poker", bot=True)
        self.player = _user(PLAYER_ID, "ann")
        #: Everyone who may use the bot, by id: the player and those `add_person` added.
        self.people: dict[int, dict[str, Any]] = {PLAYER_ID: self.player}
        self._ids = itertools.count(910000000000000000)
        self._sequence = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        #: Requests (method, path) left unanswered until `release`, to catch the bot mid-wait.
        self._held: set[tuple[str, str]] = set()
        self._released = asyncio.Event()
        #: Requests (method, path pattern) answered with an error status until `recover`.
        self._refused: dict[tuple[str, str], int] = {}
        #: Frames on their way (a heartbeat's acknowledgement).
        self._sending: set[asyncio.Task[None]] = set()

    # ----- life cycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(middlewares=[self._record])
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        routes = (
            ("GET", "/users/@me", self._users_me),
            ("GET", "/gateway/bot", self._gateway_bot),
            ("GET", "/oauth2/applications/@me", self._application),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._sync_commands),
            ("PUT", "/applications/{app}/commands", self._sync_commands),
            ("POST", "/interactions/{id}/{token}/callback", self._callback),
            ("GET", "/webhooks/{app}/{token}/messages/@original", self._get_original),
            ("PATCH", "/webhooks/{app}/{token}/messages/@original", self._edit_original),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._edit_followup),
            ("POST", "/channels/{channel}/messages", self._channel_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_channel_message),
            ("POST", "/users/@me/channels", self._open_dm),
            ("POST", "/channels/{channel}/threads", self._open_thread),
        )
        for method, path, handler in routes:
            app.router.add_route(method, API + path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        """Close the gateway connections and stop listening."""
        self.release()
        for socket in self.sockets.values():
            if not socket.closed:
                await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        """Where the bot's REST requests go (DISCORD_API_URL)."""
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        """Where the bot's gateway connection goes (DISCORD_GATEWAY_URL)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def hold(self, method: str, path: str) -> None:
        """Leave this request unanswered (recorded, though) until `release`."""
        self._held.add((method, path))

    def release(self) -> None:
        """Answer the held requests."""
        self._released.set()

    def refuse(self, method: str, path: str, *, status: int) -> None:
        """Answer requests whose path matches ``path`` (an fnmatch pattern) with ``status`` until
        `recover`: a 5xx as Discord's servers fail, or 429 as its rate limit answers (with a
        short ``retry_after``, so that discord.py's own five tries are spent at once)."""
        self._refused[(method, path)] = status

    def recover(self) -> None:
        """Answer every request again."""
        self._refused.clear()

    def refusals(self, method: str, path: str) -> int:
        """How many requests with this method and path were refused."""
        return sum(1 for c in self.calls if (c.method, c.path) == (method, path) and c.refused)

    def posted(self, channel_id: int, start: str) -> list[dict[str, Any]]:
        """The messages the bot posted in the channel whose text starts with ``start``."""
        return [
            message
            for message in self.messages.values()
            if message["channel_id"] == str(channel_id) and message["content"].startswith(start)
        ]

    @property
    def dm_channel(self) -> dict[str, Any] | None:
        """The player's DM channel, once the bot opened it."""
        return self.dm_channels.get(PLAYER_ID)

    def add_person(self, user_id: int, name: str) -> dict[str, Any]:
        """Another member of the server, who may type commands, press buttons and get DMs."""
        self.people[user_id] = _user(user_id, name)
        return self.people[user_id]

    def dm_of(self, channel_id: int) -> int | None:
        """Whose DM channel this is, if it is one."""
        return next((u for u, c in self.dm_channels.items() if int(c["id"]) == channel_id), None)

    # ----- what the tests ask ------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[FakeDiscord], bool]) -> None:
        """Return once ``predicate(self)`` holds; it is checked after every request and frame."""
        async with self._changed:
            await self._changed.wait_for(lambda: predicate(self))

    async def wait_for_call(self, method: str, path: str) -> Call:
        """The first recorded request with this method and path, once it has arrived."""
        await self.wait_for(lambda fake: fake.find(method, path) is not None)
        found = self.find(method, path)
        assert found is not None
        return found

    def find(self, method: str, path: str) -> Call | None:
        """The first recorded request with this method and path, if any."""
        return next((c for c in self.calls if c.method == method and c.path == path), None)

    def unknown_calls(self) -> list[Call]:
        """The requests the fake had no route for."""
        return [call for call in self.calls if not call.known]

    def shard_of(self, guild_id: int) -> int:
        """The shard whose connection gets the server's events (Discord's rule)."""
        return (guild_id >> 22) % self.shard_count

    def buttons(self) -> list[tuple[dict[str, Any], str]]:
        """The custom id of every button and menu of the bot's messages, each with its message
        as last shown, oldest first."""
        return [(m, custom_id) for m in self.messages.values() for custom_id in _custom_ids(m)]

    async def table_create(self, game: str) -> SentInteraction:
        """The player types ``/table create game:<game>``; wait for the bot's callback."""
        return await self.command("table", "create", game=game)

    async def command(
        self,
        name: str,
        subcommand: str,
        *,
        user: int = PLAYER_ID,
        permissions: int = PLAYER_PERMISSIONS,
        **options: str | int | bool,
    ) -> SentInteraction:
        """The player (or ``user``, a member with these ``permissions``) types
        ``/<name> <subcommand> option:value ...`` in the server's channel; wait for the bot's
        callback."""
        command_id = next(
            (int(c["id"]) for c in self.commands.get(GUILD_ID, []) if c["name"] == name),
            next(self._ids),
        )
        typed = [
            {"type": _option_type(value), "name": key, "value": value}
            for key, value in options.items()
        ]
        data = {
            "id": str(command_id),
            "name": name,
            "type": 1,
            "guild_id": str(GUILD_ID),
            "options": [{"type": 1, "name": subcommand, "options": typed}],  # 1: subcommand
        }
        # 2: application command
        return await self._interact(2, data, CHANNEL_ID, user=user, permissions=permissions)

    async def click(
        self, message: dict[str, Any], custom_id: str, *, user: int | None = None
    ) -> SentInteraction:
        """The player (or ``user``) presses the button ``custom_id`` of a message the bot
        posted (in the server's channel, one of its threads, or by DM: there its owner does);
        wait for the bot's callback."""
        assert custom_id in _custom_ids(message), f"no button {custom_id!r} on {message}"
        data = {"custom_id": custom_id, "component_type": 2}  # 2: button
        channel_id = int(message["channel_id"])
        presser = user or self.dm_of(channel_id) or PLAYER_ID
        return await self._interact(3, data, channel_id, message=message, user=presser)

    async def _interact(
        self,
        kind: int,
        data: dict[str, Any],
        channel_id: int,
        *,
        message: dict[str, Any] | None = None,
        user: int = PLAYER_ID,
        permissions: int = PLAYER_PERMISSIONS,
    ) -> SentInteraction:
        # A server's interactions come on its shard's connection, a DM's on shard 0's.
        in_server = channel_id == CHANNEL_ID or channel_id in self.threads
        shard = self.shard_of(GUILD_ID) if in_server else 0
        # A bot that was stopped connects again before it gets anything.
        await self.wait_for(lambda fake: shard in fake.sockets and not fake.sockets[shard].closed)
        interaction_id, token = next(self._ids), f"interaction-token-{next(self._ids)}"
        person = self.people[user]
        where: dict[str, Any]
        if in_server:
            where = {
                "guild_id": str(GUILD_ID),
                "channel": self.threads.get(channel_id) or self._channel(),
                "member": _member(person, permissions),
                "guild_locale": "en-US",
                "authorizing_integration_owners": {"0": str(GUILD_ID)},
                "context": 0,  # a server
            }
        else:
            dm = self.dm_channels.get(user)
            assert dm is not None and int(dm["id"]) == channel_id, "not this person's DM"
            where = {"channel": dm, "user": person, "context": 1}  # bot DM
        payload = {
            "id": str(interaction_id),
            "application_id": str(BOT_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": str(channel_id),
            **where,
            "app_permissions": str(APP_PERMISSIONS),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if message is not None:
            payload["message"] = message
        self.interactions[token] = payload
        await self._dispatch(self.sockets[shard], "INTERACTION_CREATE", payload)
        callback = await self.wait_for_call(
            "POST", f"/interactions/{interaction_id}/{token}/callback"
        )
        return SentInteraction(interaction_id, token, callback, shard)

    # ----- REST ---------------------------------------------------------------------------------

    @web.middleware
    async def _record(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        if not request.path.startswith(API + "/"):
            response: web.StreamResponse = await handler(request)
            return response
        payload: Any = None
        files: tuple[str, ...] = ()
        if request.content_type == "application/json":
            payload = await request.json()
        elif request.content_type == "multipart/form-data":
            form = await request.post()
            text = form.get("payload_json")
            payload = json.loads(text) if isinstance(text, str) else None
            files = tuple(f.filename for f in form.values() if isinstance(f, web.FileField))
        known = request.match_info.route.handler != self._unknown
        path = request.path.removeprefix(API)
        refused = next(
            (
                status
                for (method, pattern), status in self._refused.items()
                if method == request.method and fnmatch.fnmatchcase(path, pattern)
            ),
            0,
        )
        call = Call(
            request.method,
            path,
            payload,
            request.headers.get("Authorization"),
            known,
            files,
            refused,
            time.monotonic(),
        )
        request[PAYLOAD] = payload
        self.calls.append(call)
        if (call.method, call.path) in self._held:
            await self._notify()
            await self._released.wait()
        response = _refusal(refused) if refused else await handler(request)
        await self._notify()
        return response

    async def _unknown(self, request: web.Request) -> web.Response:
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    async def _users_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        return _json(self.bot_user)

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(BOT_ID),
                "name": "Pyramid Poker",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.player,
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
            }
        )

    async def _sync_commands(self, request: web.Request) -> web.Response:
        # A server's commands, or the global ones (kept under GLOBAL_COMMANDS).
        guild_id = int(request.match_info.get("guild", GLOBAL_COMMANDS))
        where = {"guild_id": str(guild_id)} if guild_id != GLOBAL_COMMANDS else {}
        commands = [
            {
                **command,
                "id": str(next(self._ids)),
                "application_id": str(BOT_ID),
                **where,
                "version": "1",
            }
            for command in request[PAYLOAD]
        ]
        self.commands[guild_id] = commands
        return _json(commands)

    async def _callback(self, request: web.Request) -> web.Response:
        payload = request[PAYLOAD]
        interaction_id, token = request.match_info["id"], request.match_info["token"]
        data = payload.get("data") or {}
        flags = data.get("flags", 0)
        kind = payload["type"]
        if kind == 5:  # deferred: Discord shows "thinking…" until the bot edits the original
            flags |= LOADING
        interaction = self.interactions[token]
        original = self._message(
            int(interaction["channel_id"]), data, author=self.bot_user, flags=flags
        )
        self.originals[token] = original
        return _json(
            {
                "interaction": {
                    "id": interaction_id,
                    "type": interaction["type"],
                    "response_message_id": original["id"],
                    "response_message_loading": bool(flags & LOADING),
                    "response_message_ephemeral": bool(flags & EPHEMERAL),
                },
                "resource": {"type": kind, "message": original},
            }
        )

    async def _get_original(self, request: web.Request) -> web.Response:
        original = self.originals.get(request.match_info["token"])
        if original is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        return _json(original)

    async def _edit_original(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        original = self.originals.get(token)
        if original is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        payload = request[PAYLOAD]
        edited = {
            **original,
            **{key: payload[key] for key in ("content", "embeds", "components") if key in payload},
            "flags": original["flags"] & ~LOADING,
            "edited_timestamp": _now(),
        }
        edited["content"] = edited["content"] or ""
        self.originals[token] = self.messages[edited["id"]] = edited
        return _json(edited)

    async def _followup(self, request: web.Request) -> web.Response:
        channel_id = int(self.interactions[request.match_info["token"]]["channel_id"])
        return _json(self._message(channel_id, request[PAYLOAD], author=self.bot_user))

    async def _edit_followup(self, request: web.Request) -> web.Response:
        channel_id = int(self.interactions[request.match_info["token"]]["channel_id"])
        message_id = request.match_info["message"]
        payload = request[PAYLOAD]
        return _json(
            self._message(channel_id, payload, author=self.bot_user, message_id=message_id)
        )

    async def _channel_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id not in self._channels():
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        return _json(self._message(channel_id, request[PAYLOAD], author=self.bot_user))

    async def _edit_channel_message(self, request: web.Request) -> web.Response:
        """A message the bot posted in a channel, edited (a lobby that loses its buttons)."""
        known = self.messages.get(request.match_info["message"])
        if known is None or known["channel_id"] != request.match_info["channel"]:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        payload = request[PAYLOAD]
        edited = {
            **known,
            **{key: payload[key] for key in ("content", "embeds", "components") if key in payload},
            "edited_timestamp": _now(),
        }
        edited["content"] = edited["content"] or ""
        self.messages[edited["id"]] = edited
        return _json(edited)

    async def _open_dm(self, request: web.Request) -> web.Response:
        recipient = int(request[PAYLOAD]["recipient_id"])
        if recipient not in self.people:
            return _json({"message": "Unknown User", "code": 10013}, status=404)
        if recipient not in self.dm_channels:
            self.dm_channels[recipient] = {
                "id": str(next(self._ids)),
                "type": 1,  # DM
                "last_message_id": None,
                "recipients": [self.people[recipient]],
            }
        return _json(self.dm_channels[recipient])

    async def _open_thread(self, request: web.Request) -> web.Response:
        """A public thread of the channel, without a starting message (as a tournament's
        table gets); the server's connection hears of it as Discord tells it."""
        if int(request.match_info["channel"]) != CHANNEL_ID:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        payload = request[PAYLOAD]
        if payload.get("type", 11) != 11:  # 11: public thread
            return _json({"message": "Missing Permissions", "code": 50013}, status=403)
        thread = {
            "id": str(next(self._ids)),
            "type": 11,
            "guild_id": str(GUILD_ID),
            "parent_id": str(CHANNEL_ID),
            "owner_id": str(BOT_ID),
            "name": payload["name"],
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": payload.get("auto_archive_duration", 1440),
                "archive_timestamp": _now(),
                "locked": False,
            },
        }
        self.threads[int(thread["id"])] = thread
        socket = self.sockets.get(self.shard_of(GUILD_ID))
        if socket is not None and not socket.closed:
            await self._dispatch(socket, "THREAD_CREATE", {**thread, "newly_created": True})
        return _json(thread, status=201)

    def _channels(self) -> set[int]:
        dms = [int(dm["id"]) for dm in self.dm_channels.values()]
        return {CHANNEL_ID, *self.threads, *dms}

    def _message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        *,
        author: dict[str, Any],
        flags: int = 0,
        message_id: str | None = None,
    ) -> dict[str, Any]:
        """A message the bot posted (or edited), kept in ``messages``."""
        message = {
            "id": message_id or str(next(self._ids)),
            "type": 0,
            "channel_id": str(channel_id),
            # A DM's messages have no server.
            **(
                {"guild_id": str(GUILD_ID)}
                if channel_id == CHANNEL_ID or channel_id in self.threads
                else {}
            ),
            "author": author,
            "content": payload.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [],
            "pinned": False,
            "flags": flags | payload.get("flags", 0),
        }
        self.messages[message["id"]] = message
        return message

    # ----- gateway ------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.gateway_query = dict(request.query)
        # Plain text JSON frames: discord.py asks for zlib-stream but only inflates binary frames.
        await socket.send_json({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        async for frame in socket:
            if frame.type is not WSMsgType.TEXT:
                break
            message = json.loads(frame.data)
            if message["op"] == HEARTBEAT:
                self.heartbeats += 1
                # Acknowledged a network's moment later, as Discord's is: discord.py notes the
                # beat's sending after its write returns, and an answer that came first would
                # read as a whole interval late ("Can't keep up ... 41.3s behind").
                self._later(socket, {"op": HEARTBEAT_ACK})
            elif message["op"] == IDENTIFY:
                identify = message["d"]
                shard = identify.get("shard", [0, 1])[0]
                await self._ready(socket, shard)
                self.sockets[shard], self.identified[shard] = socket, identify
                self.identify = identify
            await self._notify()
        # The bot went (stopped, or killed): nothing more goes to this connection.
        for shard, open_socket in list(self.sockets.items()):
            if open_socket is socket:
                del self.sockets[shard]
        await self._notify()
        return socket

    async def _ready(self, socket: web.WebSocketResponse, shard: int) -> None:
        """The shard's READY, then a GUILD_CREATE for the server if it is on this shard."""
        here = self.shard_of(GUILD_ID) == shard
        await self._dispatch(
            socket,
            "READY",
            {
                "v": 10,
                "user": self.bot_user,
                "guilds": [{"id": str(GUILD_ID), "unavailable": True}] if here else [],
                "session_id": f"fake-session-{shard}",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(BOT_ID), "flags": 0},
                "shard": [shard, self.shard_count],
            },
        )
        if not here:
            return
        await self._dispatch(
            socket,
            "GUILD_CREATE",
            {
                "id": str(GUILD_ID),
                "name": "Poker Club",
                "owner_id": str(PLAYER_ID),
                "unavailable": False,
                "member_count": 2,
                "large": False,
                "joined_at": _now(),
                # What the README's invite grants (View Channels, Send Messages, Attach Files,
                # Read Message History): with none, the bot's catch-up on connecting closes a
                # table opened before it as one in a channel it can no longer post in.
                "roles": [
                    {
                        "id": str(GUILD_ID),
                        "name": "@everyone",
                        "permissions": str(INVITE_PERMISSIONS),
                        "position": 0,
                    }
                ],
                "channels": [self._channel()],
                "members": [_member(self.bot_user)],
                # The active threads, as Discord lists them to a bot that connects.
                "threads": list(self.threads.values()),
                "emojis": [],
                "stickers": [],
                "features": [],
                "voice_states": [],
                "presences": [],
            },
        )

    def _channel(self) -> dict[str, Any]:
        return {
            "id": str(CHANNEL_ID),
            "type": 0,  # text
            "guild_id": str(GUILD_ID),
            "name": "pyramid",
            "position": 0,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "permission_overwrites": [],
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }

    def _later(self, socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        async def send() -> None:
            await asyncio.sleep(ACK_DELAY_S)
            with contextlib.suppress(ConnectionError, RuntimeError):  # the bot went meanwhile
                if not socket.closed:
                    await socket.send_json(frame)

        task = asyncio.get_running_loop().create_task(send())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _dispatch(self, socket: web.WebSocketResponse, event: str, data: Any) -> None:
        await socket.send_json({"op": DISPATCH, "t": event, "s": next(self._sequence), "d": data})

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()
