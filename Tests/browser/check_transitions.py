#!/usr/bin/env python3
"""States and transitions against Chromium's own animation engine (issue 53).

Two references that do not depend on animc, each driven with the same taps as an
event script and sampled at the same times as `animc eval --events --format json`:

- additive: UIKit's model stacks one additive animation per transition; Web
  Animations does the same with one effect per event, `composite: 'add'`, `fill:
  'forwards'` (the deltas below are read off the fixture's states by hand);
- reverse: CSS Transitions' reversing of an interrupted transition, shortened by how
  far it had come; Chromium's transitions are paused and seeked to each tap's time
  before the style changes, so the reversal reads the progress the tap sees.

usage: check_transitions.py ANIMC
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ANIMC = sys.argv[1]
BROWSER = next((b for b in ("chromium-headless-shell", "chromium", "chromium-browser") if shutil.which(b)), None)
if BROWSER is None:
    sys.exit("no Chromium found (install chromium-headless-shell)")
FIXTURES = "Tests/AnimcBackendTests/Fixtures/interaction"
TIMES = [k / 50 for k in range(0, 101)]  # 0 .. 2 s
failures = []


def browser_run(script):
    """Runs `script` (which leaves a JSON string in `window.result`) in a page, returns it."""
    page = """<!doctype html><html><body><div id="el" style="position:absolute; width:10px; height:10px"></div>
<script>%s
const out = document.createElement('pre'); out.id = 'result'; out.textContent = JSON.stringify(result); document.body.append(out);
</script></body></html>""" % script
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
        f.write(page)
        path = f.name
    try:
        dom = subprocess.run([BROWSER, "--no-sandbox", "--disable-gpu", "--virtual-time-budget=2000", "--dump-dom",
                              "file://" + path], capture_output=True, text=True, timeout=120).stdout
    finally:
        os.unlink(path)
    m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    if not m:
        sys.exit("the page reported nothing")
    return json.loads(m.group(1))


def animc_values(fixture, events, key):
    out = subprocess.run([ANIMC, "eval", os.path.join(FIXTURES, fixture), "--events", events, "--layer", "knob",
                          "--property", key, "--format", "json", "--at", ",".join(str(t) for t in TIMES)],
                         capture_output=True, text=True, check=True).stdout
    return [sample["layers"][0]["values"][key] for sample in json.loads(out)["samples"]]


def compare(name, expected, actual, tolerance):
    worst = max(abs(a - b) for a, b in zip(expected, actual))
    print("%s: %d samples, largest difference %.3g" % (name, len(expected), worst))
    if worst > tolerance:
        for t, a, b in zip(TIMES, expected, actual):
            if abs(a - b) > tolerance:
                failures.append("%s at %s s: animc %s, Chromium %s" % (name, t, a, b))
                break


# Additive: eased-toggle.anim's knob.position is (20, 50) off and (80, 40) on; taps at
# 0.2 s (off -> on, 0.5 s easeInEaseOut) and 0.5 s (on -> off, 0.3 s cubic(0.2, 0.8, 0.3, 1)).
additive = browser_run("""
const el = document.getElementById('el');
el.style.marginLeft = '20px';
const effects = [[200, 500, 'cubic-bezier(0.42, 0, 0.58, 1)', 60], [500, 300, 'cubic-bezier(0.2, 0.8, 0.3, 1)', -60]];
const animations = effects.map(([delay, duration, easing, delta]) => el.animate(
  [{marginLeft: '0px'}, {marginLeft: delta + 'px'}], {delay, duration, easing, fill: 'forwards', composite: 'add'}));
const result = %s.map(t => {
  animations.forEach(a => { a.pause(); a.currentTime = t * 1000; });
  return parseFloat(getComputedStyle(el).marginLeft);
});
""" % json.dumps(TIMES))
compare("additive (Web Animations, composite add)", animc_values("eased-toggle.anim", "tap@0.2s, tap@0.5s", "position.x"), additive, 1e-5 * 60)

# Reverse: toggle-reverse.anim's knob.position.x is 0 off and 100 on, each way 1 s
# easeInEaseOut, reverse; taps at 0, 0.3, 0.4 and 0.9 s.
taps = [0, 0.3, 0.4, 0.9]
reverse = browser_run("""
const taps = %s;
function valueAt(t) {
  const old = document.getElementById('el'); const el = old.cloneNode(); old.replaceWith(el);
  el.style.transition = 'margin-left 1s cubic-bezier(0.42, 0, 0.58, 1)';
  el.style.marginLeft = '0px';
  getComputedStyle(el).marginLeft;
  let on = false;
  const started = new Map();
  for (const tap of taps.filter(x => x <= t)) {
    // Every running transition at the tap's time, then the style change.
    for (const a of el.getAnimations()) { a.pause(); a.currentTime = (tap - started.get(a)) * 1000; }
    on = !on;
    el.style.marginLeft = on ? '100px' : '0px';
    getComputedStyle(el).marginLeft;
    for (const a of el.getAnimations()) { if (!started.has(a)) { started.set(a, tap); a.pause(); a.currentTime = 0; } }
  }
  for (const a of el.getAnimations()) { a.pause(); a.currentTime = Math.max(0, (t - started.get(a)) * 1000); }
  return parseFloat(getComputedStyle(el).marginLeft);
}
const result = %s.map(valueAt);
""" % (json.dumps(taps), json.dumps(TIMES)))
compare("reverse (CSS transitions)", animc_values("toggle-reverse.anim", ", ".join("tap@%ss" % t for t in taps), "position.x"), reverse, 1e-5 * 100)

if failures:
    for f in failures:
        print("FAIL", f)
    sys.exit(1)
print("transitions agree with Chromium")
