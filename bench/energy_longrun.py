#!/usr/bin/env python3
"""Long-run energy balance (a benchmark, not a test): a bed of spheres in a box of walls, settled under gravity
without damping, stepped --steps times (default 10^6) with track_energy; prints the balance error
(total - initial) / sum |entries| every --every steps, for a frictionless bed (everything elastic: the error is
the integrator's) and a frictional one (friction work booked as plast). A regression in the energy books shows
as a drift here long before a test sees it.

    GRIT_LIB=build/libgrit.so PYTHONPATH=python /usr/bin/python3 bench/energy_longrun.py [--steps N] [--n 200]
"""
import argparse
import time

import numpy as np

import grit


def bed(n, tan_phi, seed=1):
    s = grit.Scene(gravity=(0, 0, -9.81), damping=0.0, dt_safety=0.3, track_energy=True)
    m = grit.FrictMat(density=2600, young=1e7, tan_phi=tan_phi)
    L = 0.04
    s.add([grit.Wall(0, axis="z", sense=1, mat=m), grit.Wall(0, axis="x", sense=1, mat=m),
           grit.Wall(L, axis="x", sense=-1, mat=m), grit.Wall(0, axis="y", sense=1, mat=m),
           grit.Wall(L, axis="y", sense=-1, mat=m)])
    k = int(np.ceil(np.sqrt(n / 4)))
    g = np.mgrid[0:k, 0:k, 0:int(np.ceil(n / k / k))].reshape(3, -1).T[:n]
    rng = np.random.default_rng(seed)
    pos = (g + 0.5) * (L / k) + rng.uniform(-2e-4, 2e-4, g.shape)
    s.add_spheres(pos, L / k * 0.4, mat=m)
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=10**6)
    ap.add_argument("--every", type=int, default=10**5)
    ap.add_argument("--n", type=int, default=200)
    a = ap.parse_args()
    for name, tan_phi in (("frictionless", 0.0), ("frictional", 0.5)):
        s = bed(a.n, tan_phi)
        t0 = time.perf_counter()
        print(f"{name}: {a.n} spheres, dt {s.critical_dt * 0.3:.3g} s")
        worst = 0.0
        for k in range(a.every, a.steps + 1, a.every):
            s.run(a.every)
            e = s.energy.rel_error
            worst = max(worst, abs(e))
            print(f"  step {k:>8}  t {s.time:.4g} s  total {s.energy.total:.6g} J  balance error {e:+.3e}")
        print(f"  largest |balance error| {worst:.3e}; {a.steps / (time.perf_counter() - t0):.0f} steps/s")


if __name__ == "__main__":
    main()
