"""``flagbridge serve`` in a real browser: Debian's headless Chromium, driven over the DevTools protocol.

The page is opened at the token address, its screen is captured, and what the
browser's websocket received is read back (the terminal is drawn on a canvas,
so the text is checked there): the side's own ship, never the enemy's armor.
Every path without the token is refused with 403, the websocket included.

The test needs ``/usr/bin/chromium`` (``apt-get install -y chromium``). ``.ci/run``
installs it and sets ``FLAGBRIDGE_REQUIRE_BROWSER=1``, so in CI a missing browser
fails the test rather than letting it pass unlooked. On a developer's fresh machine
without Chromium (the README's test command) it is skipped, saying how to install it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
from pathlib import Path

import aiohttp
import pytest

from tui.serve import REFUSED, start

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "saves" / "demo-megatraveller.toml"
CHROMIUM = os.environ.get("FLAGBRIDGE_CHROMIUM", "/usr/bin/chromium")
TOKEN = "test-token-0123456789"
#: Where the screenshot is kept when asked (FLAGBRIDGE_SCREENSHOT=path); the README shows one such.
SHOT = os.environ.get("FLAGBRIDGE_SCREENSHOT", "")


def chromium() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        why = f"the browser test needs Chromium at {CHROMIUM} (Debian: apt-get install -y chromium)"
        if os.environ.get("FLAGBRIDGE_REQUIRE_BROWSER"):
            pytest.fail(why)
        pytest.skip(why)
    return found


class DevTools:
    """Just enough of the Chrome DevTools protocol: send a command, wait for its answer."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.events: list[dict] = []  # notifications read while waiting for an answer

    async def call(self, method: str, **params) -> dict:
        self.next_id += 1
        mine = self.next_id
        await self.ws.send_json({"id": mine, "method": method, "params": params})
        async for msg in self.ws:
            data = json.loads(msg.data)
            if "method" in data:
                self.events.append(data)
            if data.get("id") == mine:
                if "error" in data:
                    raise AssertionError(f"{method}: {data['error']}")
                return data.get("result", {})
        raise AssertionError(f"{method}: the browser closed the connection")

    def websocket_text(self) -> str:
        """What the page's websocket received from the served app, escape sequences taken out."""
        raw = b""
        for event in self.events:
            if event["method"] == "Network.webSocketFrameReceived":
                frame = event["params"]["response"]
                data = frame["payloadData"]
                raw += base64.b64decode(data) if frame.get("opcode") == 2 else data.encode()
        return re.sub(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]", "", raw.decode("utf-8", "replace"))

    async def evaluate(self, expression: str):
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")


async def _browser(tmp_path: Path):
    proc = await asyncio.create_subprocess_exec(
        chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--remote-debugging-port=0", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,800",
        "about:blank", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    while True:
        line = (await asyncio.wait_for(proc.stderr.readline(), 30)).decode()
        if not line:
            raise AssertionError("chromium exited before it listened for DevTools")
        found = re.search(r"DevTools listening on (ws://\S+)", line)
        if found:
            return proc, found.group(1)


async def test_served_view_in_chromium_and_a_request_without_the_token_refused(tmp_path):
    save = tmp_path / "fight.toml"
    save.write_text(DEMO.read_text())
    runner, port = await start(save, "imperial", "127.0.0.1", 0, TOKEN)
    proc = None
    try:
        async with aiohttp.ClientSession() as http:
            for bare in ("/", "/ws", "/static/js/textual.js", "/wrong-token/", f"/{TOKEN[:-1]}/"):
                async with http.get(f"http://127.0.0.1:{port}{bare}") as resp:
                    assert resp.status == 403, bare
                    assert await resp.text() == REFUSED
            proc, browser_ws = await _browser(tmp_path)
            devtools_port = browser_ws.split(":")[2].split("/")[0]
            async with http.get(f"http://127.0.0.1:{devtools_port}/json/list") as resp:
                page = next(t for t in await resp.json() if t["type"] == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws)
                await tools.call("Page.enable")
                await tools.call("Network.enable")
                await tools.call("Page.navigate", url=f"http://127.0.0.1:{port}/{TOKEN}/")
                # The page shows the terminal once the app's first bytes arrive (class -first-byte on body).
                for _ in range(300):
                    if await tools.evaluate("document.body && document.body.classList.contains('-first-byte')"):
                        break
                    await asyncio.sleep(0.1)
                else:
                    raise AssertionError("the served view never sent its first screen to the browser")
                await asyncio.sleep(2.5)  # the app paints after it connects, then the page fades it in
                shot = base64.b64decode((await tools.call("Page.captureScreenshot", format="png"))["data"])
                assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 20_000  # a painted screen, not a blank page
                (tmp_path / "served.png").write_bytes(shot)
                # What reached the browser: the Imperial side's own ship in full, the corsair as detected,
                # never the corsair's armor (AV 30) the referee's console shows.
                received = tools.websocket_text()
                assert "Vigilance 400t comp 3 AV 40" in received and "detected (roughly there)" in received
                assert "AV 30" not in received and "Type P corsair" not in received
                if SHOT:
                    Path(SHOT).write_bytes(shot)
    finally:
        if proc is not None:
            proc.kill()
            await proc.wait()
        await runner.cleanup()


async def test_serve_command_prints_its_token_address_and_stops_on_ctrl_c(tmp_path):
    """`flagbridge serve` as the game master runs it: the printed address opens the page, the same
    host and port without the token are refused, and Ctrl+C stops it cleanly."""
    import signal
    import sys

    save = tmp_path / "fight.toml"
    save.write_text(DEMO.read_text())
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "serve", str(save), "--side", "corsairs", "--port", "0",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        printed = []
        while not any(line.startswith("Open: ") for line in printed):
            line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
            assert line, f"serve exited: {printed} {(await proc.stderr.read()).decode()}"
            printed.append(line.strip())
        assert printed[0] == f"Serving Corsairs: the players' view of {save} (read-only)"
        url = next(line for line in printed if line.startswith("Open: "))[len("Open: "):]
        found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/([A-Za-z0-9_-]{20,})/", url)
        assert found, url
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as resp:
                assert resp.status == 200 and "textual" in (await resp.text()).lower()
            async with http.get(f"http://127.0.0.1:{found.group(1)}/") as resp:
                assert resp.status == 403
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
