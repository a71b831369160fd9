"""The concrete model's contact law (docs/concrete.md) driven by the law tester.

Run:  PYTHONPATH=python /usr/bin/python3 examples/concrete_law_test.py [OUTDIR]

Two ConcreteMat spheres (r = 1 mm, k_N = 30 GPa, k_T/k_N = 0.2, c_T0 = 3 MPa,
tan(phi) = 0.8, eps_0 = 1e-4), made cohesive at their first touch.

1. The yield surface (the path of the law tester example of the model's
   author): compress to sigma_N = -20 MPa; shear with the normal displacement
   held, elastic up to the logarithmic surface (4.01 MPa); then open in the
   normal direction with the shear held: the shear stress follows the
   surface, logarithmic in compression, straight (slope -tan(phi)) in
   tension, down to zero as damage takes the cohesion. Relative ductility 5.
   Figure OUTDIR/concrete-yield-surface.png (shear against normal stress,
   with the surface drawn from the law's own formula).
2. Cycles of normal strain (relative ductility 30): tension past the peak
   (damage: the unloading goes back along the secant to the origin), into
   compression (full stiffness: cracks close), beyond the onset of
   compressive plasticity (hardening line), back into tension (the plastic
   strain stays, so the contact is in tension at a compressive total strain),
   Figure OUTDIR/concrete-cycles.png and the record OUTDIR/concrete-cycles.csv.
"""
import sys

import numpy as np

import grit

out = sys.argv[1] if len(sys.argv) > 1 else "out"
r = 1e-3
A = np.pi * r * r  # the contact area: force = A sigma
L = 2 * r  # the reference length: strain = (uN - uN0) / L


def pair(rel_ductility):
    scene = grit.Scene(dt=5e-8)
    mat = grit.ConcreteMat(young=30e9, kt_div_kn=0.2, sigma_t=3e6, tan_phi=0.8, eps_crack_onset=1e-4,
                           rel_ductility=rel_ductility)
    a = scene.add(grit.Sphere((0, 0, 0), r, mat=mat))
    b = scene.add(grit.Sphere((2 * r, 0, 0), r, mat=mat))
    assert scene.pair_law(mat, mat) == "cpm"
    return scene, (a, b)


# ---- 1. the yield surface ------------------------------------------------------
scene, ids = pair(5)
v = 5e-3  # m/s of relative motion
tester = grit.LawTester(scene, ids, ab_weight=0.5, record_every=20, stages=[
    grit.Stage((-v, 0, 0, 0, 0, 0), "vvvvvv", until=f"f[0] <= {-2e7 * A!r}"),   # sigma_N = -20 MPa
    grit.Stage((0, v, 0, 0, 0, 0), "vvvvvv", until=f"u[1] >= {3e-3 * L!r}"),    # shear, eps_T past the plateau
    grit.Stage((v, 0, 0, 0, 0, 0), "vvvvvv", until=f"uN >= {1e-3 * L!r}"),      # open to eps_N = 1e-3
])
steps = tester.run(400000)
rec = tester.record
c = rec["contact"] > 0
sn, st = rec["f0"][c] / A, np.hypot(rec["f1"][c], rec["f2"][c]) / A
stage = rec["stage"][c]
plateau = st[stage == 1].max()
print(f"yield surface: {steps} steps; compressed to {sn[stage == 0].min() / 1e6:.3f} MPa, shear plateau "
      f"{plateau / 1e6:.4f} MPa (the log surface at -20 MPa: 4.0115 MPa)")
assert abs(plateau - 4.0115024857e6) < 0.01e6
# the surface of the undamaged contact, from the law's own parameters (docs/concrete.md)
cT, tphi, Y0 = 3e6, 0.8, 0.1
s = np.linspace(-2.05e7, cT / tphi, 400)
surf = np.where(s > 0, cT - s * tphi, cT * (1 + Y0 * tphi * np.log(1 - np.minimum(s, 0) / (cT * Y0))))
opening = np.where(stage == 2)[0]
# on the surface while the cohesion is intact: up to the tensile peak (then damage takes the cohesion)
peak = opening[np.argmax(sn[opening])]
intact = np.zeros_like(c[c])
intact[opening[opening < peak]] = True
ref = np.interp(sn[intact], s, surf)
err = np.max(np.abs(st[intact] - ref)) / cT
print(f"  opening with the shear held: |sigma_T - surface| <= {err:.1e} of c_T0 up to the tensile peak "
      f"({sn[peak] / 1e6:.3f} MPa), then the cohesion softens to 0")
assert err < 1e-3, err  # the drawn surface is interpolated on 400 points

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6.4, 4.4))
ax.plot(s / 1e6, surf / 1e6, color="0.6", lw=5, alpha=0.5, label="yield surface (intact, log + lin)")
for k, (name, col) in enumerate((("1 compress", "tab:blue"), ("2 shear", "tab:orange"),
                                  ("3 open, shear held", "tab:green"))):
    m = stage == k
    ax.plot(sn[m] / 1e6, st[m] / 1e6, color=col, lw=1.5, label=f"stage {name}")
ax.set_xlabel("normal stress sigma_N [MPa] (tension > 0)")
ax.set_ylabel("|shear stress| [MPa]")
ax.set_title("concrete contact law: the path traces the yield surface")
ax.legend(fontsize=8)
ax.grid(alpha=0.3)
fig.tight_layout()
import os

os.makedirs(out, exist_ok=True)
fig.savefig(f"{out}/concrete-yield-surface.png", dpi=110)
plt.close(fig)

# ---- 2. cycles in the normal direction -------------------------------------------
scene, ids = pair(30)
eps_path = [(+3e-4, "tension past the peak"), (-1e-3, "unload, compress"), (+1e-4, "reload"),
            (-5e-3, "compress beyond eps_soft"), (-3e-3, "unload"), (+4e-4, "pull: tension at the plastic strain"),
            (0.0, "back")]
rate = 2e-3  # m/s relative normal velocity
stages, e0 = [], 0.0
for e1, _ in eps_path:
    sign = 1.0 if e1 > e0 else -1.0
    op = ">=" if sign > 0 else "<="
    stages.append(grit.Stage((sign * rate, 0, 0, 0, 0, 0), "vvvvvv", until=f"uN {op} {e1 * L!r}"))
    e0 = e1
tester = grit.LawTester(scene, ids, ab_weight=0.5, record_every=10, stages=stages)
steps = tester.run(2000000)
rec = tester.record
c = rec["contact"] > 0
eps, sig = rec["u0"][c] / L, rec["f0"][c] / A
kN = 30e9
# checks: the peak is k_N eps_0, compression never damages, the hardening line
assert abs(sig.max() - 3e6) < 0.01e6, sig.max()
hard = (eps < -3.2e-3) & (np.abs(np.gradient(eps)) > 0)
line = kN * (-3e-3 + 0.3 * (eps[hard] + 3e-3))
print(f"cycles: {steps} steps; peak {sig.max() / 1e6:.3f} MPa (k_N eps_0 = 3 MPa); most compressive "
      f"{sig.min() / 1e6:.1f} MPa at eps {eps[np.argmin(sig)]:.2e} (the hardening line: "
      f"{kN * (-3e-3 + 0.3 * (eps[np.argmin(sig)] + 3e-3)) / 1e6:.1f} MPa)")
assert abs(sig.min() - kN * (-3e-3 + 0.3 * (eps[np.argmin(sig)] + 3e-3))) < 0.02 * abs(sig.min())
tension_at_compression = (eps < -1e-4) & (sig > 1e5)
print(f"  after the plastic compaction: tension at a compressive total strain in {tension_at_compression.sum()} rows")
assert tension_at_compression.any()
tester.save(f"{out}/concrete-cycles.csv")
fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
for ax, zoom in zip(axes, (False, True)):
    ax.plot(eps * 1e3, sig / 1e6, lw=1.2)
    ax.axhline(0, color="0.5", lw=0.5)
    ax.axvline(0, color="0.5", lw=0.5)
    ax.set_xlabel("normal strain eps_N [1e-3]")
    ax.grid(alpha=0.3)
    if zoom:
        ax.set_xlim(-1.6, 0.5)
        ax.set_ylim(-4, 4)
        ax.set_title("tension: damage, secant unloading (zoom)")
    else:
        ax.set_ylabel("normal stress sigma_N [MPa] (tension > 0)")
        ax.set_title("cycles: plasticity in compression")
fig.tight_layout()
fig.savefig(f"{out}/concrete-cycles.png", dpi=110)
print("wrote", f"{out}/concrete-yield-surface.png", f"{out}/concrete-cycles.png", f"{out}/concrete-cycles.csv")
