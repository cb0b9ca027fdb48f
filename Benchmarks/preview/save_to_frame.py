#!/usr/bin/env python3
"""Save-to-frame of `animc preview --serve`, in a real browser.

Serves a copy of an example, opens it in headless Chromium (driven over the DevTools
protocol on a pipe, so nothing but the standard library is needed), then saves edits
the way editors do (write a temporary file, rename it over the source) and times each
save until the page has drawn the new frames: the page's `animc-update` event, then
two animation frames (the first runs before the paint, the second after it).

usage: save_to_frame.py ANIMC [EXAMPLE] [--saves N]
  EXAMPLE defaults to examples/splash.anim; each edit below is saved N times (20),
  alternating with the original text.
"""
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "browser"))
from devtools import DevTools, save, serve  # noqa: E402

ANIMC = sys.argv[1]
EXAMPLE = next((a for a in sys.argv[2:] if not a.startswith("--") and not a.isdigit()), "examples/splash.anim")
SAVES = int(sys.argv[sys.argv.index("--saves") + 1]) if "--saves" in sys.argv else 20

# Edits of the splash: one that changes the logo's layers, one that changes all 135
# tiles (the component every tile is made from), one that breaks the file.
EDITS = {
    "examples/splash.anim": [
        ("logo radius (a few layers)", "let r = 37.5 ", "let r = 39.5 "),
        ("ripple size (135 tiles)", "let rippleMagnitude = 0.025", "let rippleMagnitude = 0.04"),
        ("an error (frames kept, diagnostics shown)", "let L = 21 ", "let L = 21 +"),
    ],
}


def main():
    work = tempfile.mkdtemp(prefix="animc-save-to-frame-")
    source = os.path.join(work, os.path.basename(EXAMPLE))
    original = open(EXAMPLE).read()
    shutil.copy(EXAMPLE, source)
    # Images beside an example are looked up in its assets/ folder.
    assets = os.path.join(os.path.dirname(EXAMPLE), "assets")
    if os.path.isdir(assets):
        shutil.copytree(assets, os.path.join(work, "assets"))
    server, port = serve(ANIMC, source)
    if server is None:
        sys.exit("animc preview --serve did not start: " + port)
    browser = DevTools()
    try:
        browser.open("http://127.0.0.1:%d/" % port)
        size = browser.evaluate("document.documentElement.outerHTML.length")
        print("page: %s, %.2f MB of HTML" % (EXAMPLE, size / 1e6))
        for name, old, new in EDITS.get(EXAMPLE, []):
            assert old in original, old
            times = []
            for k in range(2 * SAVES):
                text = original.replace(old, new) if k % 2 == 0 else original
                # Listen first, then save, then wait for the frame.
                browser.evaluate("window.__next = new Promise((done) => document.addEventListener('animc-update', "
                                 "() => requestAnimationFrame(() => requestAnimationFrame(() => done(animc.version))), "
                                 "{ once: true })); 0")
                start = time.perf_counter()
                save(source, text)
                browser.evaluate("window.__next", timeout=10)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            p50, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
            print("  %-45s p50 %6.1f ms  p95 %6.1f ms  best %6.1f ms  (%d saves)" % (name, p50, p95, times[0], len(times)))
    finally:
        browser.close()
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
