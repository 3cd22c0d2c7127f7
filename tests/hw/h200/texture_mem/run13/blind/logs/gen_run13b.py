#!/usr/bin/env python3
"""run13b cases (helper tpt16, issue 10): a blind test of the 16-byte point rule found on run13
(src/mem/texture/request.rs, Splitter::point16_wavefronts and tag_set_2d16), on random lanes.

Writes CASES (tex13_probe.cu's input) and, with DIR, DIR/launches.txt and DIR/arrays.txt as the
probe writes them. Seeded (random.Random(20261203)); all launches point-sampled f32x4:
  r3l_*: 3D 64^3, one quad, 2 to 4 active lanes at random texels of a 16 x 16 x 4 window;
  r3g_*: 3D, one quad, 4 lanes anywhere;
  r2l_*: 2D 64 x 64, one quad, 2 to 4 lanes in a 16 x 16 window; r2b_*: the same in the
      256 x 256 2D array; r2g_*: 2D 64 x 64, 4 lanes anywhere;
  w3_*, w2_*: whole warps of random lanes in a 16 x 16 (x 4) window.
"""
import random
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import gen_run13 as g  # noqa: E402

g.LAUNCHES.clear()
R = random.Random(20261203)


def quad(name, arr, n, wx, wy, wz, lanes=4):
    pts = {}
    active = sorted(R.sample(range(4), n)) if lanes == 4 else list(range(lanes))
    for l in active:
        pts[l] = (R.randrange(wx), R.randrange(wy), R.randrange(wz))
    g.launch(name, arr, pts)


for k in range(40):
    quad(f"r3l_{k:02d}", "f32x4_64", R.choice([2, 3, 4, 4]), 16, 16, 4)
for k in range(20):
    quad(f"r3g_{k:02d}", "f32x4_64", 4, 64, 64, 64)
for k in range(40):
    quad(f"r2l_{k:02d}", "f32x4_2d", R.choice([2, 3, 4, 4]), 16, 16, 1)
for k in range(10):
    quad(f"r2b_{k:02d}", "f32x4_2d256", R.choice([2, 4]), 16, 16, 1)
for k in range(20):
    quad(f"r2g_{k:02d}", "f32x4_2d", 4, 64, 64, 1)
for k in range(10):
    quad(f"w3_{k:02d}", "f32x4_64", 32, 16, 16, 4, lanes=32)
    quad(f"w2_{k:02d}", "f32x4_2d", 32, 16, 16, 1, lanes=32)

if __name__ == "__main__":
    g.main()
