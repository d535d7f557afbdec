"""A headless Chromium driven over its DevTools pipe: open a page, evaluate a script in
it, capture part of it as PNG.  Only the standard library: the protocol is JSON
messages ended by a NUL byte on file descriptors 3 (to the browser) and 4 (from it).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from types import TracebackType

__all__ = ["CHROMIUM", "FLAGS", "Browser"]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: No network, no first-run work, no sandbox (the tests may run as root).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


class Browser:
    """One headless Chromium with one page (a context manager)."""

    def __init__(self, profile: Path, *, width: int = 1100, height: int = 900) -> None:
        assert CHROMIUM is not None
        to_browser, self._write = os.pipe()
        self._read, from_browser = os.pipe()
        # The child's fds 3 and 4 are the pipe's ends, whatever numbers they have here.
        os.set_inheritable(to_browser, True)
        os.set_inheritable(from_browser, True)
        script = f'exec 3<&{to_browser} 4>&{from_browser}; exec "$@"'
        command = [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "--remote-debugging-pipe",
            "about:blank",
        ]
        self._process = subprocess.Popen(
            ["sh", "-c", script, "sh", *command],
            pass_fds=(to_browser, from_browser),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0
        self._session = ""
        target = self._call("Target.createTarget", url="about:blank")["targetId"]
        attached = self._call("Target.attachToTarget", targetId=target, flatten=True)
        self._session = str(attached["sessionId"])
        self._call("Page.enable")
        self._call("Runtime.enable")

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the browser."""
        os.close(self._write)
        os.close(self._read)
        self._process.terminate()
        try:
            self._process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def _message(self, deadline: float) -> dict[str, object]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, object] = json.loads(raw)
        return message

    def _call(self, method: str, *, timeout: float = 60, **params: object) -> dict[str, object]:
        self._next += 1
        request: dict[str, object] = {"id": self._next, "method": method, "params": params}
        if self._session:
            request["sessionId"] = self._session
        os.write(self._write, json.dumps(request).encode("utf-8") + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            message = self._message(deadline)
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result = message.get("result")
                return result if isinstance(result, dict) else {}

    def open(self, url: str, *, timeout: float = 60) -> None:
        """Load ``url`` and wait for its load event."""
        self._call("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while self.evaluate("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load in time")
            time.sleep(0.05)

    def evaluate(self, expression: str) -> object:
        """The JSON value of ``expression`` evaluated in the page."""
        found = self._call("Runtime.evaluate", expression=expression, returnByValue=True)
        result = found.get("result")
        return result.get("value") if isinstance(result, dict) else None

    def screenshot(self, clip: dict[str, float]) -> bytes:
        """The part of the page ``clip`` (x, y, width, height in CSS pixels) as PNG."""
        shot = self._call(
            "Page.captureScreenshot",
            format="png",
            captureBeyondViewport=True,
            clip={**clip, "scale": 1},
        )
        return base64.b64decode(str(shot["data"]))
