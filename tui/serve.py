"""``flagbridge serve``: the players' screen in a browser, for the table's TV or the players' phones.

textual-serve runs ``flagbridge watch`` for each browser that connects and
relays its screen. Its ``Server`` has no way to ask for a password, so the
routes are laid out here with its own public handlers (``handle_index``,
``handle_websocket``, ``handle_download``) under a random token in the path:
``http://HOST:PORT/TOKEN/``. A request whose path does not start with the
token is refused (403) before any handler runs, the page, its scripts and the
websocket alike; the token is compared in constant time. Other devices on the
network therefore see nothing without the URL the game master hands out.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import shlex
import sys
from pathlib import Path

from engine.errors import FlagbridgeError

from .watch import side_picture

REFUSED = "flagbridge serve: this address needs the token printed when the server started\n"


def new_token() -> str:
    return secrets.token_urlsafe(18)


def watch_command(path: Path, side: str) -> str:
    """The shell command textual-serve runs per browser: this Python's ``flagbridge watch``."""
    return " ".join(shlex.quote(p) for p in (sys.executable, "-m", "tui.cli", "watch",
                                              str(Path(path).resolve()), "--side", side))


def build_app(path: Path, side: str, token: str, title: str = "Flagbridge"):
    """The aiohttp application: textual-serve's handlers under ``/TOKEN/``, and nothing else."""
    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.server import Server

    server = Server(watch_command(path, side), title=title)
    expected = token.encode()

    @web.middleware
    async def token_gate(request: web.Request, handler):
        first = request.path.split("/", 2)[1] if request.path.startswith("/") else ""
        if not hmac.compare_digest(first.encode(), expected):
            raise web.HTTPForbidden(text=REFUSED)
        return await handler(request)

    async def index(request: web.Request):
        # The page names the websocket and scripts by full URL: build it from the address the browser used
        # (the page has no await before it reads this, so two browsers cannot cross).
        server.public_url = f"{request.scheme}://{request.host}"
        return await server.handle_index(request)

    async def to_index(request: web.Request):
        raise web.HTTPFound(f"/{token}/")

    app = web.Application(middlewares=[token_gate])
    aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(server.templates_path))
    app.add_routes([
        web.get(f"/{token}", to_index),
        web.get(f"/{token}/", index, name="index"),
        web.get(f"/{token}/ws", server.handle_websocket, name="websocket"),
        web.get(f"/{token}/download/{{key}}", server.handle_download, name="download"),
        web.static(f"/{token}/static", server.statics_path, name="static"),
    ])
    return app


async def start(path: Path, side: str, host: str, port: int, token: str):
    """Listen on ``host:port`` (0: any free port); returns the runner and the port taken."""
    from aiohttp import web

    runner = web.AppRunner(build_app(path, side, token), handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    addresses = runner.addresses  # (host, port, ...) per socket: the port the system gave when 0 was asked
    taken = addresses[0][1] if addresses else port
    return runner, taken


def url_for(host: str, port: int, token: str) -> str:
    shown = host if host not in ("", "0.0.0.0", "::") else "THIS-MACHINE"
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/{token}/"


def run_serve(path: Path, side: str, host: str, port: int) -> int:
    """Check the save and side (one-line error), then serve until Ctrl+C."""
    first = side_picture(path, side)
    token = new_token()

    async def main() -> None:
        runner, taken = await start(path, side, host, port, token)
        print(f"Serving {first.view.name}: the players' view of {path} (read-only)")
        print(f"Open: {url_for(host, taken, token)}")
        if host in ("", "0.0.0.0", "::"):
            print("  (THIS-MACHINE: this computer's address on the network)")
        print("Ctrl+C stops the server.", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    if not 0 <= port <= 65535:
        raise FlagbridgeError(f"--port: expected 0 to 65535, got {port}")
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # the port is taken, the host unknown or not this machine's (socket.gaierror too)
        raise FlagbridgeError(f"cannot serve on {host or 'every address'}, port {port}: "
                              f"{exc.strerror or exc}") from None
    return 0
