"""Silo discharge against Beverloo's correlation: `grit run silo` for several orifice diameters.

Run:  PYTHONPATH=python /usr/bin/python3 examples/silo_beverloo.py [OUTDIR] [--small]
Each run fills a square flat-bottomed silo 17.5 sphere diameters wide from its inlet, lets the bed settle, opens a
round orifice of D = 5 ... 9 sphere diameters in its floor (at 4 diameters the orifice clogs after a few dozen
spheres, as frictional spheres do) and measures the steady discharge rate (the slope of the
deleted mass over 10-90 % of it, `discharge.csv`). Beverloo's correlation W = C rho_b sqrt(g) (D - k d)^(5/2),
with the bulk density rho_b each run measured, is drawn beside it with the usual C = 0.58, k = 1.5, and with C and k
fitted to grit's rates. Writes OUTDIR/silo-beverloo.csv and .png (docs/silo.md shows them). OUTDIR defaults to
out/. --small: two orifices in a narrower, lower silo, a quick check of the script (not the study).
"""
import pathlib
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import grit  # noqa: E402
from grit.__main__ import program  # noqa: E402

args = [a for a in sys.argv[1:] if a != "--small"]
small = "--small" in sys.argv[1:]
out = pathlib.Path(args[0] if args else "out")
out.mkdir(parents=True, exist_ok=True)
exe = program()
if exe is None:
    sys.exit("silo_beverloo.py: no grit program found (build it first: cmake --build build)")

d = 0.004  # sphere diameter (radius 2 mm, radii within +-10 %)
if small:
    ratios, common = [5.0, 6.0], dict(width=0.04, fill_height=0.03, rate=3, settle=0.12, time=0.42)
else:
    ratios, common = [5.0, 6.0, 7.0, 8.0, 9.0], dict(width=0.07, fill_height=0.04, rate=3, settle=0.1, time=0.6)

rows = []
for r in ratios:
    D = r * d
    run_dir = out / f"silo-D{r:g}d"
    cmd = [exe, "run", "silo", f"orifice={D}", "radius=0.002", "vtk_every=-1", "progress=0", "threads=1",
           f"out={run_dir}"] + [f"{k}={v}" for k, v in common.items()]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{res.stderr}")
    rho = float(re.search(r"bulk density ([0-9.e+-]+) kg/m\^3 \(bed", res.stdout).group(1))
    rate = float(re.search(r"measured ([0-9.e+-]+) kg/s", res.stdout).group(1))
    balance = float(re.search(r"balance error ([0-9.e+-]+)", res.stdout).group(1))
    dis = {k.split("[")[0]: v for k, v in grit.read_csv(run_dir / "discharge.csv").items()}
    count = int(dis["count_0"][-1])
    print(f"D = {r:g} d: {count} spheres out, {rate:.4g} kg/s, bulk density {rho:.4g} kg/m^3, "
          f"energy balance {balance:.2g}")
    assert count > 50 and np.all(np.diff(dis["mass_0"]) >= 0), "the discharge must flow and never fall"
    assert abs(balance) < 0.01, f"energy balance error {balance}"
    rows.append((D, rho, rate, count))

D, rho, rate, count = (np.array(c) for c in zip(*rows))
g = 9.81


def beverloo(C, k, D=D, rho=rho):
    return C * rho * np.sqrt(g) * np.clip(D - k * d, 0, None) ** 2.5


# C and k fitted: W^(2/5) is linear in D, (C rho sqrt g)^(2/5) (D - k d), with rho nearly constant
y = (rate / (rho * np.sqrt(g))) ** 0.4
slope, icpt = np.polyfit(D, y, 1)
C_fit, k_fit = slope ** 2.5, -icpt / slope / d
ref = beverloo(0.58, 1.5)
print(f"Beverloo C = 0.58, k = 1.5: grit / Beverloo = {', '.join(f'{x:.2f}' for x in rate / ref)}")
print(f"fitted: C = {C_fit:.3f}, k = {k_fit:.2f}")
if not small:
    assert np.all(np.diff(rate) > 0), "the rate must grow with the orifice"
    assert np.all((rate / ref > 0.6) & (rate / ref < 1.5)), "grit's rates and Beverloo's must agree within 0.6-1.5"

grit.write_csv(out / "silo-beverloo.csv", ["D", "D_over_d", "bulk_density", "rate", "beverloo", "count"],
               zip(D, D / d, rho, rate, ref, count))
fig, ax = plt.subplots(figsize=(5.5, 4))
Ds = np.linspace(D.min() * 0.9, D.max() * 1.05, 100)
ax.plot(D / d, rate * 1e3, "o", label="grit run silo (Hertz-Mindlin)")
ax.plot(Ds / d, beverloo(0.58, 1.5, Ds, rho.mean()) * 1e3, "-", label="Beverloo, C = 0.58, k = 1.5")
ax.plot(Ds / d, beverloo(C_fit, k_fit, Ds, rho.mean()) * 1e3, "--", label=f"fit, C = {C_fit:.2f}, k = {k_fit:.2f}")
ax.set_xlabel("orifice diameter D / sphere diameter d")
ax.set_ylabel("discharge rate [g/s]")
ax.set_title("Silo discharge: grit against Beverloo's correlation")
ax.legend()
fig.tight_layout()
fig.savefig(out / "silo-beverloo.png", dpi=120)
print(f"wrote {out / 'silo-beverloo.png'}")
