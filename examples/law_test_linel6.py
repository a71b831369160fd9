"""Law test of LinEl6 (linear elastic in all six DoFs): a closed loading cycle in every DoF.

Run:  PYTHONPATH=python /usr/bin/python3 examples/law_test_linel6.py [OUTDIR]
Two spheres (r = 0.5 m, E = 1e7 Pa, kt/kn = 0.2) with the six-DoF elastic law
(char_len = 0.1 m): the tester compresses the contact to uN = -5 mm, then
takes each other DoF out and back (shear 5 mm, rotations 0.02 rad) with the
remaining DoFs held, and finally unloads the normal. Every force-displacement
path is a line through the origin whose slope is the DoF's stiffness (kn,
kt, kt, then kn / char_len for twist and kt / char_len for bending, as the
law defines them, docs/law-tester.md), and the work done on the contact comes
back: the cycle is closed.
Writes OUTDIR/law-linel6.csv and OUTDIR/law-linel6-{dofs,cone}.png.
"""
import sys

import numpy as np

import grit

out = sys.argv[1] if len(sys.argv) > 1 else "out"
r, E = 0.5, 1e7
scene = grit.Scene(dt=1e-3, track_energy=True, char_len=0.1)  # char_len: a parameter of the law linel6
mat = grit.FrictMat(young=E, density=1000, kt_div_kn=0.2, law="linel6")
a = scene.add(grit.Sphere((0, 0, 0), r, mat=mat))
b = scene.add(grit.Sphere((2 * r, 0, 0), r, mat=mat))


def move(j, rate):
    v = [0.0] * 6
    v[j] = rate
    return tuple(v)


stages = [grit.Stage(move(0, -0.01), "vvvvvv", until="uN < -0.005")]
for j, (amp, rate) in enumerate([(0.005, 0.01), (0.005, 0.01), (0.02, 0.04), (0.02, 0.04), (0.02, 0.04)], 1):
    stages += [grit.Stage(move(j, rate), "vvvvvv", until=f"u[{j}] >= {amp}"),
               grit.Stage(move(j, -rate), "vvvvvv", until=f"u[{j}] <= 0")]
stages.append(grit.Stage(move(0, 0.01), "vvvvvv", until="uN >= 0"))
tester = grit.LawTester(scene, (a, b), ab_weight=0.5, record_every=5, stages=stages)
steps = tester.run(100000)
rec = tester.record
c = rec["contact"] > 0
print(f"{steps} steps, {len(stages)} stages")
names = ["normal", "shear y", "shear z", "twist", "bending y", "bending z"]
for j in range(6):
    moving = c & (np.abs(rec[f"u{j}"]) > 1e-4)
    slope = rec[f"f{j}"][moving] / rec[f"u{j}"][moving]
    k = rec[f"k{j}"][moving]
    print(f"  {names[j]:9s}: f/u = {np.median(slope):.6e}, stiffness k{j} = {np.median(k):.6e}, "
          f"max |f/u / k - 1| = {np.max(np.abs(slope / k - 1)):.1e}")
    assert np.max(np.abs(slope / k - 1)) < 1e-3, f"DoF {j} is not linear elastic"
work = rec["work"][c]
print(f"work on the contact: max {np.max(work):.4g} J, at the end {work[-1]:.3g} J; "
      f"stored elastic energy at the end {scene.energy['elast']:.3g} J")
assert abs(work[-1]) < 1e-3 * np.max(work), "the cycle did not return the work"
tester.save(f"{out}/law-linel6.csv")
print("wrote", *tester.plot(f"{out}/law-linel6.png", title="LinEl6: a closed cycle in each of the six DoFs"))
