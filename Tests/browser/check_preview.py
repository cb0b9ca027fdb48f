#!/usr/bin/env python3
"""`animc preview` in a real browser (headless Chromium), against `animc eval`.

For every example, the page is opened at several frame times; the state the page
reports (each layer's composed matrix, effective opacity and animated values) must
equal `animc eval --format json` to 1e-6. The follow-path airplane's box must be
centred where the runtime puts it, the splash's screenshots must show the colours the
runtime gives at known pixels, and a name made of markup must stay text.

usage: check_preview.py ANIMC OUTPUT_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png import pixel, read_png  # noqa: E402

ANIMC, OUT = sys.argv[1], sys.argv[2]
BROWSER = next((b for b in ("chromium-headless-shell", "chromium", "chromium-browser") if shutil.which(b)), None)
if BROWSER is None:
    sys.exit("no Chromium found (install chromium-headless-shell)")
WINDOW = "--window-size=900,800"
failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


def browser(*args):
    return subprocess.run([BROWSER, "--no-sandbox", "--disable-gpu", "--hide-scrollbars", WINDOW,
                           "--virtual-time-budget=3000", *args],
                          capture_output=True, text=True, timeout=120).stdout


def page_state(page, t):
    dom = browser("--dump-dom", "file://%s#t=%s&state" % (os.path.abspath(page), t))
    m = re.search(r'<script type="application/json" id="animc-state">(.*?)</script>', dom, re.S)
    if not m:
        fail("%s at %s: the page reported no state" % (page, t))
        return None, dom
    return json.loads(m.group(1)), dom


def close(a, b, tolerance=1e-6):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, tolerance) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) <= tolerance
    return a == b


os.makedirs(OUT, exist_ok=True)
examples = sorted(f[:-5] for f in os.listdir("examples") if f.endswith(".anim"))
for name in examples:
    page = os.path.join(OUT, name + ".html")
    subprocess.run([ANIMC, "preview", "examples/%s.anim" % name, "-o", page], check=True, capture_output=True)
    first, _ = page_state(page, "0")
    if first is None:
        continue
    frames = first["frames"]
    # The first and last frames and two between, as times the page and eval share.
    picked = sorted({0, frames["count"] // 3, 2 * frames["count"] // 3, frames["count"] - 1})
    for t in (repr(round(frames["start"] + f / frames["fps"], 9)) for f in picked):
        got, _ = page_state(page, t)
        if got is None:
            continue
        want = json.loads(subprocess.run([ANIMC, "eval", "examples/%s.anim" % name, "--at", t, "--format", "json"],
                                         check=True, capture_output=True, text=True).stdout)["samples"][0]
        if not close(got["state"]["time"], want["time"], 1e-9):
            fail("%s: the page is at %s s, asked for %s" % (name, got["state"]["time"], t))
        shown = {layer["id"]: layer for layer in got["state"]["layers"]}
        for layer in want["layers"]:
            mine = shown.get(layer["id"])
            if mine is None:
                fail("%s at %s: layer %s missing from the page" % (name, t, layer["id"]))
                continue
            for key in ("matrix", "opacity"):
                if not close(mine[key], layer[key]):
                    fail("%s at %s: %s %s is %s in the page, %s in eval" % (name, t, layer["id"], key, mine[key], layer[key]))
            for key, value in layer.get("values", {}).items():
                if key in mine["values"] and not close(mine["values"][key], value):
                    fail("%s at %s: %s.%s is %s in the page, %s in eval" % (name, t, layer["id"], key, mine["values"][key], value))
    print("ok", name)

# The airplane of follow-path at 1 s, centred where the runtime puts its position.
got, _ = page_state(os.path.join(OUT, "follow-path.html"), "1")
if got:
    x, y, w, h = got["boxes"]["airplane"]
    centre = (x + w / 2, y + h / 2)
    if abs(centre[0] - 97.300) > 0.5 or abs(centre[1] - 75.660) > 0.5:
        fail("follow-path at 1 s: the airplane is centred at %s, not (97.300, 75.660)" % (centre,))
    else:
        print("ok follow-path airplane centred at (%.3f, %.3f)" % centre)

# The splash at three times: the background where no layer draws, and at the logo's
# centre the colour `animc eval` gives the square drawn there.
splash = os.path.join(OUT, "splash.html")
for t in ("0.3", "1", "2.9"):
    shot = os.path.join(OUT, "splash-%s.png" % t)
    browser("--screenshot=%s" % shot, "file://%s#t=%s" % (os.path.abspath(splash), t))
    got, _ = page_state(splash, t)
    if got is None or not os.path.exists(shot):
        fail("splash at %s: no screenshot" % t)
        continue
    image = read_png(shot)
    left, top = got["stage"]
    square = json.loads(subprocess.run([ANIMC, "eval", "examples/splash.anim", "--at", t, "--layer", "logo.square", "--format", "json"],
                                       check=True, capture_output=True, text=True).stdout)["samples"][0]["layers"][0]
    colour = square["values"].get("backgroundColor")
    if colour is None:
        colour = [1, 1, 1, 1]  # not animated: the white it is declared with
    # (21, 24): where the tiles (drawn now that their picture is in examples/assets) leave
    # the background showing at these three times, a 5 x 5 patch of it in `animc render`;
    # (5, 5) is on a tile's outline at 1 s.
    expected = {(21, 24): (15, 78, 101), (187.5, 333.5): tuple(round(c * 255) for c in colour[:3])}
    for (x, y), rgb in expected.items():
        seen = pixel(image, left + x, top + y)
        if any(abs(a - b) > 3 for a, b in zip(seen, rgb)):
            fail("splash at %s s: pixel (%s, %s) is %s, expected %s" % (t, x, y, seen, rgb))
    print("ok splash screenshot at %s s" % t)

# A stroked ring as the mask of a red disc: the page shows the disc where the mask
# draws (its stroke, radius 30 ± 5), not inside the ring's outline, as Core Animation.
ring = os.path.join(OUT, "ring-mask.html")
subprocess.run([ANIMC, "preview", "Tests/AnimcDriverTests/Fixtures/preview/ring-mask.anim", "-o", ring], check=True, capture_output=True)
shot = os.path.join(OUT, "ring-mask.png")
browser("--screenshot=%s" % shot, "file://%s#t=0.5" % os.path.abspath(ring))
got, _ = page_state(ring, "0.5")
if got is None or not os.path.exists(shot):
    fail("ring mask: no screenshot")
else:
    image = read_png(shot)
    left, top = got["stage"]
    expected = {(50, 50): (255, 255, 255), (80, 50): (255, 0, 0), (50, 20): (255, 0, 0), (94, 50): (255, 255, 255)}
    bad = [(xy, pixel(image, left + xy[0], top + xy[1]), rgb) for xy, rgb in expected.items()
           if any(abs(a - b) > 3 for a, b in zip(pixel(image, left + xy[0], top + xy[1]), rgb))]
    if bad:
        fail("ring mask: pixels %s" % bad)
    else:
        print("ok a stroked mask masks by its stroke")

# A name made of markup is text in the page.
hostile = os.path.join(OUT, "hostile.html")
subprocess.run([ANIMC, "preview", "Tests/AnimcDriverTests/Fixtures/preview/hostile.anim", "-o", hostile], check=True, capture_output=True)
got, dom = page_state(hostile, "0")
if "<img" in dom or "onerror=alert(1)&gt;" not in dom:
    fail("hostile: the image name was not kept as text")
else:
    print("ok hostile names stay text")


def served_page_follows_edits():
    """`preview --serve`: after a save the open page shows the new frames (its state is
    `animc eval` of the edited file) without reloading; an error shows the diagnostics
    over the last good frames; the fix hides them again."""
    from devtools import DevTools, save, serve
    work = tempfile.mkdtemp(prefix="animc-served-")
    source = os.path.join(work, "splash.anim")
    original = open("examples/splash.anim").read()
    shutil.copy("examples/splash.anim", source)
    server, port = serve(ANIMC, source)
    if server is None:
        return fail("served page: the server did not start: " + port)
    browser = DevTools()
    try:
        browser.open("http://127.0.0.1:%d/#t=1" % port)
        browser.evaluate("window.__sameDocument = true; 0")
        wait = ("window.__next = new Promise((done) => document.addEventListener('animc-update', "
                "() => done(animc.version), { once: true })); 0")
        for name, text in (("an edit of every tile", original.replace("let rippleMagnitude = 0.025", "let rippleMagnitude = 0.04")),
                           ("an error", original.replace("let L = 21 ", "let L = 21 +")),
                           ("the fix", original.replace("let rippleMagnitude = 0.025", "let rippleMagnitude = 0.04"))):
            browser.evaluate(wait)
            save(source, text)
            browser.evaluate("window.__next", timeout=20)
            if browser.evaluate("window.__sameDocument === true") is not True:
                fail("served page, %s: the page reloaded instead of updating" % name)
            shown = browser.evaluate("document.getElementById('diagnostics').hidden ? '' : document.getElementById('diagnostics').textContent")
            if (name == "an error") != bool(shown):
                fail("served page, %s: diagnostics shown: %r" % (name, shown[:80]))
            got = browser.evaluate("animc.seek(1); JSON.stringify(animc.state())")
            edited = os.path.join(work, "edited.anim")
            open(edited, "w").write(original.replace("let rippleMagnitude = 0.025", "let rippleMagnitude = 0.04"))
            want = json.loads(subprocess.run([ANIMC, "eval", edited, "--at", "1", "--format", "json"],
                                             check=True, capture_output=True, text=True).stdout)["samples"][0]
            mine = {layer["id"]: layer for layer in json.loads(got)["layers"]}
            bad = [layer["id"] for layer in want["layers"]
                   if layer["id"] not in mine or not close(mine[layer["id"]]["matrix"], layer["matrix"])
                   or not close(mine[layer["id"]]["opacity"], layer["opacity"])]
            if bad:
                fail("served page, %s: layers %s differ from eval" % (name, bad[:5]))
            else:
                print("ok served page after %s" % name)
    finally:
        browser.close()
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


served_page_follows_edits()

if failures:
    sys.exit("%d browser check(s) failed" % len(failures))
print("all browser checks passed")
