"""Headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe), with the standard library only: for checks and benchmarks
that watch a live page (the served preview), where --dump-dom is not enough."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

BROWSER = next((b for b in ("chromium-headless-shell", "chromium", "chromium-browser") if shutil.which(b)), None)


class DevTools:
    """The DevTools protocol over --remote-debugging-pipe: JSON messages ended by NUL,
    the browser reading fd 3 and writing fd 4."""

    def __init__(self):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # The child gets the pipe ends at fds 3 and 4.
        def setup():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        if BROWSER is None:
            raise RuntimeError("no Chromium found (install chromium-headless-shell)")
        self.process = subprocess.Popen(
            [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--window-size=900,800",
             "about:blank"],
            preexec_fn=setup, pass_fds=(3, 4, to_browser_r, from_browser_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self, wanted_id, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if message.get("id") == wanted_id:
                    if "error" in message:
                        raise RuntimeError(message["error"])
                    return message["result"]
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self.buffer += chunk

    def call(self, method, params=None, session=True, timeout=30):
        return self.receive(self.send(method, params, session), timeout)

    def evaluate(self, expression, timeout=30):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                           timeout=timeout)
        return result.get("result", {}).get("value")

    def open(self, url):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Page.navigate", {"url": url})
        for _ in range(200):
            if self.evaluate("document.documentElement.getAttribute('data-ready')") == "true":
                return
            time.sleep(0.05)
        raise TimeoutError("the page did not load")

    def close(self):
        self.process.kill()
        self.process.wait()




def save(path, text):
    """As editors save: a temporary file beside it, renamed over it."""
    directory = os.path.dirname(path)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=".save-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(temporary, path)


def serve(animc, source):
    """`animc preview SOURCE --serve` on a free port: the process and its port, or None
    (with what it said) when it did not start. Its messages are read from then on, so
    it never blocks on a full pipe."""
    server = subprocess.Popen([animc, "preview", source, "--serve", "--port", "0"], stderr=subprocess.PIPE, text=True)
    banner = ""
    while "/ (" not in banner:
        line = server.stderr.readline()
        if not line:
            server.wait()
            return None, banner
        banner += line
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
    return server, int(re.search(r"127\.0\.0\.1:(\d+)/", banner).group(1))
