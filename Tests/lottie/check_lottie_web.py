#!/usr/bin/env python3
"""Plays Lottie exports in lottie-web (Airbnb's reference web player) and compares with animc.

For each .anim file: `animc build --target lottie`, and `--target baked` at twice the
composition's fps, so that the baked frames are the export's whole and half frames.
A page loads lottie-web 5.13.0's SVG renderer in headless Chromium, stops at every whole
and half frame (`goToAndStop(frame, true)`), and reads each layer's group from the DOM:
its matrix to the stage (`getCTM`), its opacity (the product of the `opacity` of it and
its ancestors, 0 when a group is not displayed) and, for a shape layer's background
rect, its size. For every layer whose plane animc draws without perspective (layers in
perspective are exported as fitted planes, W0805, and skipped, as are the layers used
as masks; a layer turned in 3D without perspective is checked):

- the centre of its bounds must be where animc's composed matrix puts it: within 0.5 px
  at whole frames and 2 px at half frames (players draw between frames; a Lottie track
  must not jump or slide where animc does not);
- its opacity within 0.01 (0.02 at half frames);
- a background rect's size what animc's bounds are, within 0.5 px.

lottie-web is not part of the project: it is read from ../shared/oracles/lottie-web/
beside the checkout (or LOTTIE_WEB). When it is absent the check says so and exits 0.

Usage: check_lottie_web.py ANIMC OUT_DIR FILE.anim...
Exits 1 on any mismatch.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from check_players import baked_value, export_and_bake, pixel_differs, pixel_probes, series  # noqa: E402

LOTTIE_JS = os.environ.get("LOTTIE_WEB", os.path.join(os.path.dirname(ROOT), "shared", "oracles", "lottie-web", "lottie.js"))
BROWSER = next((b for b in ("chromium-headless-shell", "chromium", "chromium-browser") if shutil.which(b)), None)

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><script src="file://%(lottie)s"></script></head>
<body style="margin:0"><div id="stage" style="width:%(w)dpx;height:%(h)dpx"></div>
<script id="doc" type="application/json">%(doc)s</script>
<script>
const doc = JSON.parse(document.getElementById("doc").textContent);
const anim = lottie.loadAnimation({container: document.getElementById("stage"), renderer: "svg",
                                   loop: false, autoplay: false, animationData: doc});
const names = doc.layers.map((l) => l.ln);
const out = [];
function opacityOf(el) {
  let o = 1;
  for (let e = el; e && e.tagName !== "svg"; e = e.parentNode) {
    if (e.style && e.style.display === "none") return 0;
    if (e.getAttribute && e.getAttribute("display") === "none") return 0;
    const a = e.getAttribute && e.getAttribute("opacity");
    if (a !== null && a !== undefined && a !== "") o *= parseFloat(a);
    if (e.style && e.style.opacity !== "") o *= parseFloat(e.style.opacity);
  }
  return o;
}
for (let k = 0; k < %(count)d; k++) {
  const frame = k / 2;
  anim.goToAndStop(frame, true);
  const layers = {};
  for (const ln of names) {
    const el = document.getElementById(ln);
    if (!el) continue;
    const m = el.getCTM();
    const rect = el.querySelector(".animc-background");
    let size = null;
    if (rect) {
      const b = rect.getBBox();
      size = [b.width, b.height];
    }
    layers[ln] = {m: m ? [m.a, m.b, m.c, m.d, m.e, m.f] : null, o: opacityOf(el), size: size};
  }
  out.push(layers);
}
const s = document.createElement("script");
s.type = "application/json";
s.id = "result";
s.textContent = JSON.stringify(out);
document.body.appendChild(s);
</script></body></html>
"""


def is_projected(m):
    """Whether the layer's plane is seen in perspective: then no affine Lottie transform
    is exact (W0805). Without perspective, a layer turned in 3D is still an affine image
    of its plane, which the export must match."""
    return abs(m[3]) > 1e-9 or abs(m[7]) > 1e-9 or abs(m[15] - 1) > 1e-9


SHOT = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><script src="file://%(lottie)s"></script></head>
<body style="margin:0;background:#ffffff"><div id="stage" style="width:%(w)dpx;height:%(h)dpx"></div>
<script>
const anim = lottie.loadAnimation({container: document.getElementById("stage"), renderer: "svg",
                                   loop: false, autoplay: false, animationData: %(doc)s});
anim.goToAndStop(%(frame)s, true);
</script></body></html>
"""


def check_pixels(path, doc, out, name):
    """The pixel probes of `path` (check_players.pixel_probes) in lottie-web's screenshot."""
    probes = pixel_probes(path)
    if not probes:
        return 0
    sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
    from png import pixel, read_png
    failures = 0
    for frame, points in sorted(probes.items()):
        page, shot = os.path.join(out, f"{name}-{frame}.html"), os.path.join(out, f"{name}-{frame}.png")
        with open(page, "w") as f:
            f.write(SHOT % {"lottie": os.path.abspath(LOTTIE_JS), "w": int(doc["w"]), "h": int(doc["h"]),
                            "doc": json.dumps(doc).replace("<", "\\u003c"), "frame": frame})
        subprocess.run([BROWSER, "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
                        f"--window-size={int(doc['w'])},{int(doc['h'])}", "--virtual-time-budget=5000",
                        f"--screenshot={shot}", "file://" + os.path.abspath(page)], capture_output=True, timeout=120)
        if not os.path.exists(shot):
            print(f"FAIL {name} frame {frame}: no screenshot")
            failures += 1
            continue
        image = read_png(shot)
        for x, y, rgb in points:
            seen = pixel(image, x, y)
            if pixel_differs(seen, rgb):
                failures += 1
                print(f"FAIL {name} frame {frame}: pixel ({x}, {y}) is {seen}, expected {rgb}")
    return failures


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    if not os.path.exists(LOTTIE_JS):
        print(f"check_lottie_web: lottie-web is not at {LOTTIE_JS}: skipped")
        return 0
    if BROWSER is None:
        print("check_lottie_web: no Chromium found (install chromium-headless-shell)", file=sys.stderr)
        return 2
    animc, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    failures, checked, worst = 0, 0, 0.0
    for path in files:
        name = os.path.basename(path)[:-5]
        _, _, doc, baked = export_and_bake(animc, path, out, name)
        # Ids for the DOM: lottie-web gives a layer's group the id in `ln`.
        for i, layer in enumerate(doc["layers"]):
            layer["ln"] = f"animc-layer-{i}"
            for shape in layer.get("shapes", []):
                if shape.get("nm") == "background":
                    shape["cl"] = "animc-background"
        by_name = {}
        for i, layer in enumerate(doc["layers"]):
            by_name.setdefault(layer["nm"], []).append((i, layer))
        count = min(2 * int(round(doc["op"] - doc["ip"])) + 1, baked["frameCount"])
        page = os.path.join(out, f"{name}.lottie-web.html")
        text = json.dumps(doc).replace("<", "\\u003c")
        with open(page, "w") as f:
            f.write(PAGE % {"lottie": os.path.abspath(LOTTIE_JS), "w": int(doc["w"]), "h": int(doc["h"]),
                            "doc": text, "count": count})
        dom = subprocess.run([BROWSER, "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                              "--virtual-time-budget=60000", "--dump-dom", "file://" + os.path.abspath(page)],
                             capture_output=True, text=True, timeout=600).stdout
        m = re.search(r'<script type="application/json" id="result">(.*?)</script>', dom, re.S)
        if not m:
            failures += 1
            print(f"FAIL {name}: lottie-web reported nothing (see {page})")
            continue
        frames = json.loads(m.group(1))
        for layer in baked["layers"]:
            lid = layer["id"]
            if layer["isMask"] or lid not in by_name:
                continue
            index, lottie_layer = by_name[lid][0]
            if lottie_layer.get("td"):
                continue
            for k, shown in enumerate(frames):
                got = shown.get(f"animc-layer-{index}")
                m4 = series(layer["matrix"], k)
                if got is None or got["m"] is None or is_projected(m4):
                    continue
                half = k % 2 == 1
                bx, by, bw, bh = baked_value(layer, "bounds", k)
                # The bounds' corners and centre, where animc's matrix puts them and where
                # lottie-web's does: in a Lottie image layer the bounds are the asset's
                # pixels, elsewhere the layer's own coordinates.
                if lottie_layer["ty"] == 2:
                    asset = next(a for a in doc["assets"] if a["id"] == lottie_layer["refId"])
                    local = [(0, 0), (asset["w"], 0), (0, asset["h"]), (asset["w"], asset["h"]), (asset["w"] / 2, asset["h"] / 2)]
                else:
                    local = [(bx, by), (bx + bw, by), (bx, by + bh), (bx + bw, by + bh), (bx + bw / 2, by + bh / 2)]
                points = [(bx, by), (bx + bw, by), (bx, by + bh), (bx + bw, by + bh), (bx + bw / 2, by + bh / 2)]
                a, b, c, d, e, f = got["m"]
                off, detail = 0.0, ""
                for (px, py), (lx, ly) in zip(points, local):
                    ex, ey = px * m4[0] + py * m4[4] + m4[12], px * m4[1] + py * m4[5] + m4[13]
                    gx, gy = a * lx + c * ly + e, b * lx + d * ly + f
                    if math.hypot(gx - ex, gy - ey) >= off:
                        off, detail = math.hypot(gx - ex, gy - ey), f"({gx:.2f}, {gy:.2f}) vs ({ex:.2f}, {ey:.2f})"
                opacity = series(layer["opacity"], k)
                checked += 1
                where = f"{name} '{lid}' frame {k / 2:g}"
                problems = []
                visible = opacity > 0.005 and got["o"] > 0.005
                if visible:
                    worst = max(worst, off if half else 0)
                    if off > (2 if half else 0.5):
                        problems.append(f"bounds {off:.2f} px off: {detail}")
                if abs(got["o"] - opacity) > (0.02 if half else 0.01):
                    problems.append(f"opacity {got['o']:.4f} vs {opacity:.4f}")
                if visible and got["size"] is not None and lottie_layer["ty"] == 4:
                    sw, sh = got["size"]
                    if abs(sw - bw) > 0.5 or abs(sh - bh) > 0.5:
                        problems.append(f"background {sw:.2f} x {sh:.2f} vs {bw:.2f} x {bh:.2f}")
                if problems:
                    failures += 1
                    if failures <= 200:
                        print(f"FAIL {where}: " + "; ".join(problems))
        failures += check_pixels(path, doc, out, name)
        print(f"{name}: {count} whole and half frames in lottie-web")
    print(f"{checked} layer samples checked in lottie-web, {failures} failures; worst half-frame offset {worst:.2f} px")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
