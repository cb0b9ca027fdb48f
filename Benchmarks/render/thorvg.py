#!/usr/bin/env python3
"""animc's renderer against ThorVG's software renderer on the same frame, interleaved.

    python3 Benchmarks/render/thorvg.py [ROUNDS]

Build first: swift build -c release --product animc-bench --product animc. Needs
thorvg-python (PyPI). The splash at t = 1 s, 375 × 667: animc renders it from the scene
state (`animc-bench render --frames-only`, the scene evaluated beforehand), ThorVG from
the Lottie export (`animc build --target lottie`) with the frame set and updated before
the clock starts, so both time drawing only. Rounds alternate the two, 20 frames each;
the figure is the median per frame over all rounds, each round's first frame (which
warms caches and allocates, in both) left out.
"""
import os, statistics, subprocess, sys, tempfile, time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
BENCH, ANIMC = ".build/release/animc-bench", ".build/release/animc"
import thorvg_python as tvg  # noqa: E402

lottie = os.path.join(tempfile.mkdtemp(), "splash.json")
subprocess.run([ANIMC, "build", "examples/splash.anim", "--target", "lottie", "-o", lottie], check=True, capture_output=True)
data = open(lottie, "rb").read()
engine = tvg.Engine()
canvas = tvg.SwCanvas(engine)
canvas.set_target(375, 667, cs=tvg.Colorspace.ARGB8888)
anim = tvg.LottieAnimation(engine)
picture = anim.get_picture()
assert picture.load_data(data, "lottie", None, True) == tvg.Result.SUCCESS
canvas.add(picture)
anim.set_frame(60.0)  # 1 s at 60 fps

animc, thorvg = [], []
for _ in range(ROUNDS):
    out = subprocess.run([BENCH, "render", "--frames-only", "20"], check=True, capture_output=True, text=True).stdout
    # One number a line; the first frame of a round warms caches and allocates, in both.
    animc += [float(x) for x in out.splitlines() if x.replace(".", "", 1).isdigit()][1:]
    for k in range(20):
        canvas.update()
        start = time.perf_counter()
        canvas.draw(True)
        canvas.sync()
        if k > 0:
            thorvg.append((time.perf_counter() - start) * 1000)
print("| splash frame, 375 × 667 | animc %.2f ms | ThorVG %.2f ms | %d frames each, interleaved |"
      % (statistics.median(animc), statistics.median(thorvg), len(animc)))
