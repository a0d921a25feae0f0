"""A small DevTools-protocol client for headless Chromium over
--remote-debugging-pipe (file descriptors 3 and 4, NUL-terminated JSON):
no websocket, no package beyond python3. One browser, one page; load a file
at a window width, evaluate an expression in it, collect its console
messages, exceptions and log errors, take a PNG screenshot.

    with Browser("/usr/bin/chromium") as b:
        b.load("/tmp/page.html", width=1400)
        value = b.evaluate("document.title")
        b.problems  # ["console error: ...", ...] since the last load
"""
import base64
import json
import os
import subprocess
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars"]


class Browser:
    def __init__(self, path, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="lg-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child_fds():  # the browser reads commands on fd 3 and writes replies on fd 4
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [path, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={self.profile.name}", "about:blank"],
            pass_fds=(3, 4, to_chrome_r, from_chrome_w), preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.problems = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_chrome, self.from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        self.profile.cleanup()

    def _read_message(self):
        import select
        while b"\0" not in self.buffer:
            ready, _, _ = select.select([self.from_chrome], [], [], self.timeout)
            if not ready:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def _note(self, event):
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.problems.append(f"console {params.get('type')}: {text}")
        elif method == "Runtime.exceptionThrown":
            self.problems.append("exception: " + params["exceptionDetails"].get("text", ""))
        elif method == "Log.entryAdded":
            entry = params["entry"]
            self.problems.append(f"log {entry.get('level')}: {entry.get('text')} {entry.get('url', '')}".strip())
        self.events.append(event)

    def call(self, method, session=False, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._note(reply)

    def _wait_for(self, method):
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method:
                    del self.events[: i + 1]
                    return event
            self.events.clear()
            self._note(self._read_message())

    def load(self, path, width, height=900):
        """Opens file `path` in a window `width` px wide; problems restart."""
        self.problems = []
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        self.events.clear()
        self.call("Page.navigate", session=True, url="file://" + os.path.abspath(path))
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluate: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, out, full_page=False):
        """Writes the window (or the whole page's height) as PNG to `out`."""
        params = {"format": "png"}
        if full_page:
            size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True, clip={"x": 0, "y": 0, "width": size[0], "height": size[1],
                                                             "scale": 1})
        data = self.call("Page.captureScreenshot", session=True, **params)["data"]
        with open(out, "wb") as f:
            f.write(base64.b64decode(data))
