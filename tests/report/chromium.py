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

__all__ = ["CHROMIUM", "FLAGS", "Browser", "read_back", "timeline_shot"]

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


def _high(fd: int) -> int:
    """``fd`` moved to a number above 9, so that none of the pipe's ends is 3 or 4."""
    import fcntl

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Browser:
    """One headless Chromium with one page (a context manager)."""

    def __init__(self, profile: Path, *, width: int = 1100, height: int = 900) -> None:
        assert CHROMIUM is not None
        to_browser, self._write = (_high(fd) for fd in os.pipe())
        self._read, from_browser = (_high(fd) for fd in os.pipe())

        # The child's fds 3 and 4 are the pipe's ends: moved from numbers above both.
        def plumb() -> None:
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        command = [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "--remote-debugging-pipe",
            "about:blank",
        ]
        self._process = subprocess.Popen(
            command,
            preexec_fn=plumb,  # noqa: PLW1509 (two dup2 calls, nothing that takes a lock)
            pass_fds=(3, 4),  # kept open once plumb has put the pipe's ends there
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


#: Reads back what a page shows of one timeline (its id is the script's argument).
READ_BACK = """
(function (ident) {
  var timeline = document.getElementById(ident);
  var hits = Array.prototype.slice.call(timeline.querySelectorAll(".hit"));
  return {
    open: timeline.open,
    hits: hits.map(function (hit) {
      var box = hit.getBoundingClientRect();
      return {
        at: hit.getAttribute("data-at"),
        step: hit.closest("[data-step]").getAttribute("data-step"),
        flag: (hit.querySelector(".flag") || {textContent: ""}).textContent,
        shown: box.height > 0 && box.width > 0,
        outline: getComputedStyle(hit).outlineStyle
      };
    }),
    marked: Array.prototype.map.call(
      timeline.querySelectorAll("[data-hit]"),
      function (step) { return step.getAttribute("data-step"); })
  };
})
"""


def read_back(browser: Browser, ident: str) -> dict[str, object]:
    """What the page shows of the timeline ``ident``: whether it is open, and each
    highlighted element with the step holding it."""
    found = browser.evaluate(f"{READ_BACK}({json.dumps(ident)})")
    assert isinstance(found, dict)
    return found


def timeline_shot(browser: Browser, ident: str, *, height: int = 1300) -> bytes:
    """The failing check's row and its opened timeline down to its first highlighted
    element, as PNG (the sticky filter bar hidden)."""
    box = browser.evaluate(
        f"""(function () {{
          document.getElementById("filters").hidden = true;
          var timeline = document.getElementById({json.dumps(ident)});
          var row = timeline.closest("tr").previousElementSibling || timeline;
          var hit = timeline.querySelector(".hit") || timeline;
          var top = row.getBoundingClientRect().top + window.scrollY - 8;
          var flag = hit.querySelector(".flag") || hit;
          var bottom = flag.getBoundingClientRect().bottom + window.scrollY + 12;
          return {{top: top, bottom: bottom, width: document.body.scrollWidth}};
        }})()"""
    )
    assert isinstance(box, dict)
    top = max(float(box["bottom"]) - height, float(box["top"]))
    tall = min(float(box["bottom"]) - top, height)
    return browser.screenshot({"x": 0, "y": top, "width": float(box["width"]), "height": tall})


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.report.chromium REPORT.html TIMELINE-ID OUT.png``: the picture
    of one timeline that docs/reading-a-standing-report.md shows."""
    import sys
    import tempfile

    page, ident, out = argv if argv is not None else sys.argv[1:]
    with tempfile.TemporaryDirectory() as profile, Browser(Path(profile)) as browser:
        browser.open(Path(page).resolve().as_uri() + f"#{ident}")
        Path(out).write_bytes(timeline_shot(browser, ident))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
