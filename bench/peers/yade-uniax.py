# -*- coding: utf-8 -*-
"""Run Yade's own examples/concrete/uniax.py (Debian package yade 2023.02a) headless, unchanged, and
record its curves and CPU time (docs/concrete.md, "Uniaxial test and calibration").

    PACKING=packing.csv OUTJSON=yade.json OMP_NUM_THREADS=1 yade -n -x -j1 bench/peers/yade-uniax.py

The example is exec'd as shipped (UNIAX= another path). Two things are wrapped around it:
* with PACKING set, pack.randomDensePack returns that packing (grit's packing.csv, x,y,z,r) instead of
  compacting its own, so that both codes strain the same spheres;
* the example leaves its loop running and returns (it expects the GUI or yade-batch to keep the process
  alive); this driver waits until the example's own stop rule has saved its plot data the second time
  (plot.saveGnuplot, after compression), then writes OUTJSON: spheres, cross-section, time step, the CPU
  time of the two runs (process time from the start of tension to the end of compression) and the curves
  (eps, sigma, i, t as recorded by the example).
"""
import json
import os
import sys
import time

from yade import pack, plot

done = {"t": None}
_save = plot.saveGnuplot


def _saved(*a, **k):
    done["t"] = time.time()
    try:
        return _save(*a, **k)
    except Exception as e:  # gnuplot files are not needed
        return str(e)


plot.saveGnuplot = _saved
if os.environ.get("PACKING"):
    def _from_file(*a, **k):
        sp = SpherePack()
        for line in open(os.environ["PACKING"]):
            if line.startswith("#") or line.startswith("x"):
                continue
            x, y, z, r = map(float, line.split(","))
            sp.add((x, y, z), r)
        return sp

    pack.randomDensePack = _from_file
t0 = time.process_time()
exec(open(os.environ.get("UNIAX", "/usr/share/doc/yade/examples/concrete/uniax.py")).read())
t1 = time.process_time()  # the set-up is done; the tension run has started
info = {"spheres": len(O.bodies), "area": crossSectionArea, "neg": len(negIds), "pos": len(posIds), "dt": O.dt,
        "cpu_setup": t1 - t0}
while done["t"] is None:
    time.sleep(0.05)
O.wait()
info["cpu"] = time.process_time() - t1
info["data"] = {k: [float(x) for x in v] for k, v in plot.data.items() if k in ("eps", "sigma", "i", "t")}
json.dump(info, open(os.environ.get("OUTJSON", "yade-uniax.json"), "w"))
print("yade-uniax: %d spheres, CPU %.2f s" % (len(O.bodies), info["cpu"]))
sys.stdout.flush()
os._exit(0)
