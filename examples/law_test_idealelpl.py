"""Law test of IdealElPl (linear elastic, Coulomb friction): compress, shear, unload.

Run:  PYTHONPATH=python /usr/bin/python3 examples/law_test_idealelpl.py [OUTDIR]
Two spheres (r = 0.5 m, E = 1e7 Pa, kt/kn = 0.2, tan(phi) = 0.5) driven by the
law tester in contact-local coordinates (Woo's LawTester), in the three
stages of the law-tester example of Woo's documentation:
  1. compress at 0.01 m/s until uN < -5 mm;
  2. shear at 0.01 m/s, normal displacement held, until u_t = 20 mm: elastic
     (f_t = kt u_t) up to the Coulomb limit tan(phi) |f_n|, then sliding;
  3. unload in the normal sense at 1e-4 m/s until the contact breaks: the
     shear force follows the shrinking friction limit down to zero.
Stage 3 is run twice: with the shear held ('vvvvvv', the figures
OUTDIR/law-idealelpl-{dofs,cone}.png and the record law-idealelpl.csv), and
as Woo's example writes it, with the shear free ('v.....'): the pair then
oscillates tangentially, always inside the cone.
"""
import sys

import numpy as np

import grit

out = sys.argv[1] if len(sys.argv) > 1 else "out"
r, E, tan_phi = 0.5, 1e7, 0.5
kn = E * np.pi * r / 2  # two equal spheres: E A / (r + r) with A = pi r^2
kt = 0.2 * kn


def test(unload_whats):
    scene = grit.Scene(dt=1e-3, track_energy=True)
    mat = grit.FrictMat(young=E, density=1000, kt_div_kn=0.2, tan_phi=tan_phi)
    a = scene.add(grit.Sphere((0, 0, 0), r, mat=mat))
    b = scene.add(grit.Sphere((2 * r, 0, 0), r, mat=mat))
    tester = grit.LawTester(scene, (a, b), ab_weight=0.5, record_every=10, stages=[
        grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until="uN < -0.005"),
        grit.Stage((0, 0.01, 0, 0, 0, 0), "vvvvvv", until="u[1] >= 0.02"),
        grit.Stage((1e-4, 0, 0, 0, 0, 0), unload_whats, until="not C"),
    ])
    steps = tester.run(200000)
    return tester, steps


tester, steps = test("vvvvvv")
rec = tester.record
c = rec["contact"] > 0
fn, ft = -rec["f0"][c], np.hypot(rec["f1"][c], rec["f2"][c])
stage = rec["stage"][c]
ut_slip = tan_phi * kn * 0.005 / kt
print(f"shear held while unloading: {steps} steps; sliding starts at u_t = {ut_slip * 1e3:.2f} mm "
      f"(tan(phi) kn |uN| / kt)")
elastic = (stage == 1) & (rec["u1"][c] < 0.99 * ut_slip)
elastic_err = np.max(np.abs(rec["f1"][c][elastic] - kt * rec["u1"][c][elastic])) / np.max(ft[elastic])
print(f"  stage 2, elastic part: max |f_t - kt u_t| / max f_t = {elastic_err:.1e} (the force on A drags it along)")
unload = (stage == 2) & (fn > 0)
print(f"  stage 3: max |f_t / (tan(phi) f_n) - 1| = {np.max(np.abs(ft[unload] / (tan_phi * fn[unload]) - 1)):.1e}")
tester.save(f"{out}/law-idealelpl.csv")
print("wrote", *tester.plot(f"{out}/law-idealelpl.png", tan_phi=tan_phi,
                            title="IdealElPl: compress, shear, unload with the shear held"))
assert np.all(ft <= tan_phi * fn * (1 + 1e-12) + 1e-9), "outside the friction cone"
assert elastic_err < 1e-9, "the elastic shear stiffness is not kt"
assert np.max(np.abs(ft[unload] / (tan_phi * fn[unload]) - 1)) < 1e-9, "unloading does not follow the cone"

free, steps = test("v.....")
rec = free.record
c = rec["contact"] > 0
ratio = np.hypot(rec["f1"][c], rec["f2"][c]) / (tan_phi * -rec["f0"][c])
print(f"shear free while unloading (as in Woo's example): {steps} steps; max |f_t| / (tan(phi) |f_n|) = "
      f"{np.nanmax(ratio):.15f}")
assert np.nanmax(ratio) <= 1 + 1e-12, "outside the friction cone"
