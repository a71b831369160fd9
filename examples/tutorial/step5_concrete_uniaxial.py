"""Tutorial step 5: a concrete specimen pulled and crushed -- the uniaxial test (docs/tutorial.md).

    PYTHONPATH=python python3 examples/tutorial/step5_concrete_uniaxial.py [--out DIR] [--small]

A dense packing cut to a dog bone, bonded as concrete (ConcreteMat, the law cpm), is pulled until it breaks,
then built again and crushed. Prints Young's modulus, Poisson's ratio and the strengths; writes
DIR/step5-specimen.csv (the packing: `grit run uniax packing=...` takes it), DIR/step5-curves.csv and
DIR/step5-curves.png.
"""
import argparse
import os

import numpy as np

import grit
import grit.pack
import grit.plot
import grit.uniax

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--out", default="tutorial-out", help="folder for the files (made if missing)")
ap.add_argument("--small", action="store_true", help="a 114-sphere specimen loaded fast (the test suite uses it)")
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)

# ---- the specimen: a periodic cell compacted to a dense packing, tiled and cut to a dog bone (hyperboloid)
if args.small:
    cell = grit.pack.dense(n=150, radius=0.002, tan_phi=0.5463, pressure=3.33e5, seed=1)
    region = grit.pack.Region(shape="hyperboloid", length=0.04, outer_radius=0.012, waist_radius=0.009)
    rates = dict(rate_tension=2, rate_compression=-10)  # strain rates [1/s]: fast, for a quick look
else:
    cell = grit.pack.dense(n=2000, radius=0.0035, tan_phi=0.5463, pressure=3.33e5, seed=1)
    region = grit.pack.Region(shape="hyperboloid")  # 15 cm long, 7.5 cm across, the waist 5.1 cm
    rates = {}  # the defaults, slow enough for a quasi-static test
bone = cell.clip(region)
bone.save(f"{args.out}/step5-specimen.csv")
print(f"specimen: {len(bone.radii)} spheres cut from a cell of {len(cell.radii)} (solid fraction "
      f"{cell.solid_fraction:.3f})")

# ---- the test: ConcreteMat's young (30 GPa) is the contacts' modulus; the specimen's E comes out of the
# packing and the bonds (grit run calibrate finds the parameters for a target E, nu, f_t, f_c, G_f)
concrete = grit.ConcreteMat(young=30e9)
res = grit.uniax.run(bone, concrete, region=region, **rates)
print(f"E = {res['young'] / 1e9:.1f} GPa, nu = {res['poisson']:.3f}, f_t = {res['ft'] / 1e6:.2f} MPa, "
      f"f_c = {res['fc'] / 1e6:.1f} MPa (f_c / f_t = {res['fc'] / res['ft']:.1f}); "
      f"stopped: tension {res['stop_tension']}, compression {res['stop_compression']}")

# ---- the curves as CSV (the layout of `grit run uniax`'s curves.csv) and their figure
t, c = res["tension"], res["compression"]
rows = [[0, run, e, s] for run, curve in ((1, t), (2, c)) for e, s in zip(curve["strain"], curve["stress"])]
csv = f"{args.out}/step5-curves.csv"
grit.write_csv(csv, ["confinement", "run", "strain", "stress"], rows, units={"confinement": "Pa", "stress": "Pa"})
(png,) = grit.plot.plot_file(csv)
print(f"wrote {args.out}/step5-specimen.csv, {csv} and {png}")

# ---- checks: a concrete-like response -- stiff, much stronger in compression than in tension
assert 10e9 < res["young"] < 80e9, res["young"]
assert 0 < res["poisson"] < 0.4, res["poisson"]
assert res["ft"] > 0 and res["fc"] > 3 * res["ft"], (res["ft"], res["fc"])
assert res["stop_tension"] in ("fall", "strain") and abs(np.nanmax(t["stress"]) - res["ft"]) < 0.05 * res["ft"]
