"""Law test of Kuhn's refined linear-frictional law: sliding that turns a corner.

Run:  PYTHONPATH=python /usr/bin/python3 examples/law_test_kuhn.py [OUTDIR]
Two spheres (r = 0.5 m, E = 1e7 Pa, kt/kn = 0.2, tan(phi) = 0.5), normal held
after a compression, are sheared along local y until they slide, then along
local z: the tangential force must turn from y to z while staying on the
friction limit. The same path is run with law=kuhn (the force turns in closed
form within each step, R3) and law=idealelpl (radial return), and both
tangential force paths are drawn against the Coulomb circle
(OUTDIR/law-kuhn-turn.png, with the difference of the two forces beside),
and the tester's own figures for the Kuhn run (OUTDIR/law-kuhn-{dofs,cone}.png,
record law-kuhn.csv). At this time step the two laws differ by a few newtons
out of 20 kN: Kuhn's refinements matter for large increments per step.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import grit  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "out"
r, E, tan_phi = 0.5, 1e7, 0.5


def test(law):
    scene = grit.Scene(dt=1e-3, track_energy=True)
    mat = grit.FrictMat(young=E, density=1000, kt_div_kn=0.2, tan_phi=tan_phi, law=law)
    a = scene.add(grit.Sphere((0, 0, 0), r, mat=mat))
    b = scene.add(grit.Sphere((2 * r, 0, 0), r, mat=mat))
    tester = grit.LawTester(scene, (a, b), ab_weight=0.5, record_every=5, stages=[
        grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until="uN < -0.005"),    # compress
        grit.Stage((0, 0.01, 0, 0, 0, 0), "vvvvvv", until="u[1] >= 0.02"),    # shear along y into sliding
        grit.Stage((0, 0, 0.01, 0, 0, 0), "vvvvvv", until="u[2] >= 0.03"),    # then along z: the force turns
    ])
    tester.run(100000)
    return scene, tester


results = {law: test(law) for law in ("idealelpl", "kuhn")}
fig, (ax, axd) = plt.subplots(1, 2, figsize=(12.5, 5.8))
style = {"idealelpl": dict(lw=4, color="tab:orange", alpha=0.5), "kuhn": dict(lw=1, color="tab:blue")}
for law, (scene, tester) in results.items():
    rec = tester.record
    c = rec["contact"] > 0
    ratio = np.hypot(rec["f1"][c], rec["f2"][c]) / (tan_phi * -rec["f0"][c])
    print(f"{law:9s}: plastic dissipation {scene.energy['plast']:.3f} J, max |f_t| / (tan(phi) |f_n|) = "
          f"{np.nanmax(ratio):.15f}")
    assert np.nanmax(ratio) <= 1 + 1e-12, f"{law}: outside the friction cone"
    assert scene.energy["plast"] > 0
    ax.plot(rec["f1"][c], rec["f2"][c], label=f"law={law}", **style[law])
rk, ri = results["kuhn"][1].record, results["idealelpl"][1].record
n = min(len(rk["step"]), len(ri["step"]))
turn = (rk["stage"][:n] == 2) & (ri["stage"][:n] == 2)
for j, name in ((1, "f1 (local y)"), (2, "f2 (local z)")):
    axd.plot(rk["u2"][:n][turn], (rk[f"f{j}"] - ri[f"f{j}"])[:n][turn], label=f"{name}: kuhn - idealelpl")
axd.set_xlabel("shear displacement along z, u2 [m]")
axd.set_ylabel("force difference [N]")
axd.set_title("while turning: Kuhn minus IdealElPl")
axd.grid(alpha=0.3)
axd.legend(fontsize="small")
fn = -results["kuhn"][1].record["f0"][-1]
phi = np.linspace(0, 2 * np.pi, 200)
ax.plot(tan_phi * fn * np.cos(phi), tan_phi * fn * np.sin(phi), "k--", lw=0.8,
        label=f"Coulomb limit tan(phi) |f_n| = {tan_phi * fn:.0f} N")
ax.set_xlabel("tangential force f1 (local y) [N]")
ax.set_ylabel("tangential force f2 (local z) [N]")
ax.set_aspect("equal")
ax.grid(alpha=0.3)
ax.legend(fontsize="small", loc="lower left")
ax.set_title("shear along y into sliding, then along z")
fig.tight_layout()
os.makedirs(out, exist_ok=True)
fig.savefig(f"{out}/law-kuhn-turn.png", dpi=110)
kuhn = results["kuhn"][1]
kuhn.save(f"{out}/law-kuhn.csv")
print("wrote", f"{out}/law-kuhn-turn.png", *kuhn.plot(f"{out}/law-kuhn.png", tan_phi=tan_phi,
                                                        title="Kuhn's law: compress, shear along y, then z"))
