#!/usr/bin/env python3
"""animc's image encoders read by other decoders.

    python3 Tests/render/check_encoders.py ANIMC OUT_DIR

- Pillow decodes every PNG the encoder wrote (Tests/AnimcRenderTests/Fixtures/encoded, kept
  current by `swift test`) to exactly the corpus pixels it was made from (Fixtures/png/*.rgba).
- Chromium decodes them too (WebCodecs' ImageDecoder, unpremultiplied RGBA), exactly.
- `animc render --gif` and `--apng` of two examples play in Chromium (ImageDecoder) and in
  Pillow with the frame count and the per-frame delays the command reported.

Needs Pillow and chromium-headless-shell; exits 1 on a failure.
"""
import base64, json, os, re, subprocess, sys
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "browser"))
from devtools import DevTools  # noqa: E402

ANIMC, OUT = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "AnimcRenderTests", "Fixtures")
failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


def chromium_decode(files):
    """{name: {"frames": n, "durations": [µs...], "first": base64 RGBA of frame 0}} by ImageDecoder."""
    entries = []
    for name, path, mime in files:
        with open(path, "rb") as f:
            entries.append({"name": name, "mime": mime, "data": base64.b64encode(f.read()).decode()})
    page = os.path.join(OUT, "decode.html")
    with open(page, "w") as f:
        f.write("""<!doctype html><body><script>
const entries = %s;
window.decodeAll = async () => {
  const out = {};
  for (const e of entries) {
    try {
      const bytes = Uint8Array.from(atob(e.data), (c) => c.charCodeAt(0));
      const decoder = new ImageDecoder({ data: bytes, type: e.mime, premultiplyAlpha: "none", colorSpaceConversion: "none" });
      await decoder.tracks.ready;
      await decoder.completed;
      const n = decoder.tracks.selectedTrack.frameCount, durations = [];
      let first = "";
      for (let i = 0; i < n; i++) {
        const { image } = await decoder.decode({ frameIndex: i });
        durations.push(image.duration);
        if (i === 0) {
          const rgba = new Uint8Array(image.codedWidth * image.codedHeight * 4);
          await image.copyTo(rgba, { format: "RGBA" });
          let s = ""; for (const b of rgba) s += String.fromCharCode(b);
          first = btoa(s);
        }
        image.close();
      }
      out[e.name] = { frames: n, durations, first };
    } catch (err) { out[e.name] = { error: String(err) }; }
  }
  return JSON.stringify(out);
};
document.documentElement.setAttribute("data-ready", "true");
</script>""" % json.dumps(entries))
    browser = DevTools()
    try:
        browser.open("file://" + os.path.abspath(page))
        result = browser.evaluate("decodeAll()", timeout=180)
    finally:
        browser.close()
    if not result:
        fail("Chromium reported nothing (ImageDecoder missing?)")
        return {}
    return json.loads(result)


os.makedirs(OUT, exist_ok=True)
encoded = sorted(f[:-4] for f in os.listdir(os.path.join(FIXTURES, "encoded")) if f.endswith(".png"))
if not encoded:
    fail("no encoded PNGs in Fixtures/encoded")
files = []
for name in encoded:
    path = os.path.join(FIXTURES, "encoded", name + ".png")
    want = open(os.path.join(FIXTURES, "png", name + ".rgba"), "rb").read()
    got = Image.open(path).convert("RGBA").tobytes()
    if got != want:
        fail("Pillow decodes encoded/%s.png to other pixels than written" % name)
    else:
        print("ok Pillow decodes encoded/%s.png exactly" % name)
    files.append((name, path, "image/png"))

# Animations: what the command writes, with the frame counts and rates it reports.
animations = []
for example, fps_gif, fps_apng in (("ripple", 50, 60), ("plane", 50, 60)):
    for kind in ("gif", "apng"):
        out = os.path.join(OUT, "%s.%s" % (example, "gif" if kind == "gif" else "apng.png"))
        report = subprocess.run([ANIMC, "render", "examples/%s.anim" % example, "--" + kind, out],
                                capture_output=True, text=True, check=True).stderr
        m = re.search(r"(\d+) frames .* at ([0-9.]+) fps", report)
        frames, fps = int(m.group(1)), float(m.group(2))
        animations.append((example, kind, out, frames, fps))
        files.append(("%s-%s" % (example, kind), out, "image/gif" if kind == "gif" else "image/png"))

decoded = chromium_decode(files)
for name in encoded:
    d = decoded.get(name, {})
    want = open(os.path.join(FIXTURES, "png", name + ".rgba"), "rb").read()
    got = base64.b64decode(d.get("first", ""))
    if "error" in d or len(got) != len(want):
        fail("Chromium cannot decode encoded/%s.png (%s)" % (name, d.get("error", "a wrong size")))
        continue
    # Chromium keeps decoded pixels premultiplied whatever ImageDecoder is asked (its
    # image buffers are), so a partly transparent pixel comes back through c·a/255 and
    # back: within what that rounding loses, 255/(2a) + 1. Opaque and clear pixels exactly.
    worst = 0
    for i in range(0, len(want), 4):
        a = want[i + 3]
        if a == 0:
            continue
        allowed = 0 if a == 255 else 255 / (2 * a) + 1
        for c in range(3):
            if abs(got[i + c] - want[i + c]) > allowed:
                worst = max(worst, abs(got[i + c] - want[i + c]))
        if got[i + 3] != a:
            worst = max(worst, 256)
    if worst:
        fail("Chromium decodes encoded/%s.png to other pixels than written (off by %d)" % (name, worst))
    else:
        print("ok Chromium decodes encoded/%s.png as written" % name)

for example, kind, path, frames, fps in animations:
    d = decoded.get("%s-%s" % (example, kind), {})
    if "error" in d:
        fail("%s %s: Chromium cannot decode it: %s" % (example, kind, d["error"]))
        continue
    if d["frames"] != frames:
        fail("%s %s: Chromium sees %d frames, animc wrote %d" % (example, kind, d["frames"], frames))
    # GIF delays are hundredths that add up to the frame times; APNG's are exact.
    if kind == "gif":
        want = [(round((n + 1) * 100 / fps) - round(n * 100 / fps)) * 10000 for n in range(frames)]
    else:
        # Chromium keeps an APNG delay in whole milliseconds.
        want = [int(1000 / fps) * 1000] * frames
    if any(abs(a - b) > 1 for a, b in zip(d["durations"], want)):
        fail("%s %s: Chromium's frame durations %s… are not %s…" % (example, kind, d["durations"][:4], want[:4]))
    im = Image.open(path)
    if getattr(im, "n_frames", 1) != frames:
        fail("%s %s: Pillow sees %d frames, animc wrote %d" % (example, kind, im.n_frames, frames))
    if not failures:
        print("ok %s %s: %d frames at %s fps in Chromium and Pillow" % (example, kind, frames, fps))

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("the encoders' files decode everywhere as written")
