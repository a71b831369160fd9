#!/usr/bin/env python3
"""grit run silo beside LIGGGHTS 3.8 on the same silo: the same geometry (the facets of the silo's sides,
its floor with the 48-segment orifice and the plug, written as STL meshes for LIGGGHTS), the same Hertz-Mindlin
material (Young's modulus, Poisson's ratio, restitution, friction, density), time step, Verlet skin,
filling (the inlet's box, mass rate and downward velocity, and as many spheres as grit's inlet poured;
LIGGGHTS draws the radii from five equal-number classes spanning grit's uniform range) and opening time. Prints and records, per code and seed: the
discharge rate (the least-squares slope of the discharged mass over 10-90 % of it, as grit's summary), the
bulk density is grit's only, the CPU time of the whole run and its particle-steps per second.

    /usr/bin/python3 bench/silo_liggghts.py --grit build-native/grit [--liggghts liggghts] [--seeds 1,2,3]
        [--csv bench/results/MACHINE-silo.csv --machine NAME] [key=value ...  (grit run silo parameters)]

Both codes run on one core (threads=1, OMP_NUM_THREADS=1; LIGGGHTS serial). The two fillings are random in
different ways, so the rates are compared over seeds, not bed for bed.
"""
import argparse
import datetime
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HOLE_N = 48  # app/pre_silo.c


def silo_params(extra):
    """grit run silo's defaults (app/pre_silo.c), overridden by key=value arguments."""
    p = dict(width=0.05, orifice=0.02, fill_height=0.05, radius=0.002, spread=0.1, rate=2.0, settle=0.1,
             young=5e6, density=2600.0, tan_phi=0.5, restitution=0.5, time=0.6, poisson=0.25)
    for kv in extra:
        k, v = kv.split("=", 1)
        p[k] = float(v)
    return p


def on_square(w, phi):
    c, s = math.cos(phi), math.sin(phi)
    t = 0.5 * w / max(abs(c), abs(s))
    return (0.5 * w + t * c, 0.5 * w + t * s, 0.0)


def silo_triangles(p):
    """The silo's facets as app/pre_silo.c makes them: four sides, the floor around the hole; and the plug."""
    w, d, b = p["width"], p["orifice"], p["radius"] * (1 + p["spread"])
    top = p["fill_height"] + 8.8 * b
    h = top + 2 * b
    c = [(0, 0, 0), (w, 0, 0), (w, w, 0), (0, w, 0), (0, 0, h), (w, 0, h), (w, w, h), (0, w, h)]
    tris = []
    for q in ((0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)):
        tris.append((c[q[0]], c[q[1]], c[q[2]]))
        tris.append((c[q[0]], c[q[2]], c[q[3]]))
    for k in range(HOLE_N):
        p0, p1 = 2 * math.pi * k / HOLE_N, 2 * math.pi * (k + 1) / HOLE_N
        h0 = (0.5 * w + 0.5 * d * math.cos(p0), 0.5 * w + 0.5 * d * math.sin(p0), 0.0)
        h1 = (0.5 * w + 0.5 * d * math.cos(p1), 0.5 * w + 0.5 * d * math.sin(p1), 0.0)
        tris.append((h0, on_square(w, p0), on_square(w, p1)))
        tris.append((h0, on_square(w, p1), h1))
    hp = min(d + 4 * b, w) / 2
    o = 0.5 * w
    plug = [((o - hp, o - hp, 0), (o + hp, o - hp, 0), (o + hp, o + hp, 0)),
            ((o - hp, o - hp, 0), (o + hp, o + hp, 0), (o - hp, o + hp, 0))]
    return tris, plug, top, h


def write_stl(path, tris):
    with open(path, "w") as f:
        f.write("solid grit\n")
        for t in tris:
            f.write(" facet normal 0 0 0\n  outer loop\n")
            for v in t:
                f.write("   vertex %.17g %.17g %.17g\n" % v)
            f.write("  endloop\n endfacet\n")
        f.write("endsolid grit\n")


def slope_10_90(rows):
    """Least-squares slope of mass against time over the rows between 10 % and 90 % of the final mass."""
    final = rows[-1][1]
    sel = [(t, m) for t, m in rows if 0.1 * final <= m <= 0.9 * final]
    n = len(sel)
    if n < 3:
        return float("nan")
    mt = sum(t for t, _ in sel) / n
    mm = sum(m for _, m in sel) / n
    return sum((t - mt) * (m - mm) for t, m in sel) / sum((t - mt) ** 2 for t, _ in sel)


def prime_from(n):
    """The first prime >= n (LIGGGHTS wants prime seeds above 10000)."""
    def prime(k):
        return k > 1 and all(k % d for d in range(2, int(math.isqrt(k)) + 1))
    while not prime(n):
        n += 1
    return n


def cpu_children():
    r = os.times()
    return r.children_user + r.children_system


def run_grit(exe, p, extra, seed, work):
    out = os.path.join(work, "grit-%d" % seed)
    args = [exe, "run", "silo", "out=" + out, "threads=1", "vtk_every=-1", "progress=0", "seed=%d" % seed] + extra
    env = dict(os.environ, OMP_NUM_THREADS="1")
    c0 = cpu_children()
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    cpu = cpu_children() - c0
    if r.returncode != 0:
        sys.exit("grit failed: " + r.stdout[-2000:] + r.stderr[-2000:])
    txt = r.stdout
    dt = float(re.search(r"steps of dt = ([0-9.e+-]+) s", txt).group(1))
    steps = int(re.search(r"steps\s+(\d+) of dt", txt).group(1))
    # the spheres poured: those left at the end and those the outlet deleted
    n = int(re.search(r"Sphere (\d+)", txt).group(1)) + int(re.search(r"outlet 0\s+(\d+) particles", txt).group(1))
    rate = float(re.search(r"discharge\s+([0-9.e+-]+) kg/s", txt).group(1))
    rho_b = float(re.search(r"bulk density ([0-9.e+-]+) kg/m\^3", txt).group(1))
    skin = float(re.search(r"Verlet distance ([0-9.e+-]+) m", txt).group(1))
    t_open = float(re.search(r"the orifice opens at t = ([0-9.e+-]+) s", txt).group(1))
    mass = []
    with open(os.path.join(out, "discharge.csv")) as f:
        next(f)
        for line in f:
            c = line.split(",")
            mass.append((float(c[1]), float(c[2])))
    return dict(code="grit", seed=seed, spheres=n, steps=steps, dt=dt, rate=rate, rate_recomputed=slope_10_90(mass),
                bulk_density=rho_b, cpu=cpu, skin=skin, t_open=t_open)


LIGGGHTS_IN = """# the silo of grit run silo (bench/silo_liggghts.py writes this file)
atom_style granular
atom_modify map array
boundary f f f
newton off
communicate single vel yes
units si
processors 1 1 1
region domain block {xlo} {xhi} {xlo} {xhi} {zlo} {zhi} units box
create_box 1 domain
neighbor {skin} bin
neigh_modify delay 0
fix m1 all property/global youngsModulus peratomtype {young}
fix m2 all property/global poissonsRatio peratomtype {poisson}
fix m3 all property/global coefficientRestitution peratomtypepair 1 {restitution}
fix m4 all property/global coefficientFriction peratomtypepair 1 {tan_phi}
pair_style gran model hertz tangential history
pair_coeff * *
timestep {dt}
fix gravi all gravity 9.81 vector 0.0 0.0 -1.0
fix silo all mesh/surface file {silo_stl} type 1
fix plug all mesh/surface file {plug_stl} type 1
fix walls all wall/gran model hertz tangential history mesh n_meshes 2 meshes silo plug
{templates}
fix pdd all particledistribution/discrete 32452843 {nclass} {classes}
region insreg block 0 {w} 0 {w} {fill_height} {top} units box
fix ins all insert/rate/region seed {seed} distributiontemplate pdd nparticles {nparticles} massrate {rate} insert_every {every} overlapcheck yes all_in yes vel constant 0.0 0.0 -0.5 region insreg
fix integr all nve/sphere
variable m atom mass*(z>={zcut})
compute mtot all reduce sum v_m
variable t equal time
variable mt equal c_mtot
variable n equal atoms
thermo_style custom step atoms c_mtot cpu
thermo_modify lost ignore norm no
thermo 2000
fix pr all print {save_every} "${{t}} ${{mt}} ${{n}}" file {mass_file} screen no
run {n_open}
# the plug drops 2 m at 200 m/s (grit drops its facets 2 m at once; one wall/gran fix must hold all meshes
# here, so it cannot be removed); the mass counted is the mass above the floor minus two radii, as grit's
# outlet deletes what falls below it
fix drop all move/mesh mesh plug linear 0.0 0.0 -200.0
run {n_drop}
unfix drop
run {n_rest}
"""


def run_liggghts(exe, p, g, seed, work):
    """LIGGGHTS on grit's silo with grit's time step, skin and opening time (from grit's run g)."""
    d = os.path.join(work, "liggghts-%d" % seed)
    os.makedirs(d, exist_ok=True)
    tris, plug, top, h = silo_triangles(p)
    write_stl(os.path.join(d, "silo.stl"), tris)
    write_stl(os.path.join(d, "plug.stl"), plug)
    a, b = p["radius"] * (1 - p["spread"]), p["radius"] * (1 + p["spread"])
    ncls = 5
    radii = [a + (b - a) * (k + 0.5) / ncls for k in range(ncls)]  # equal numbers: mass fractions ~ r^3
    wsum = sum(r ** 3 for r in radii)
    primes = [15485863, 15485867, 49979687, 49979693, 67867967]
    templates = "\n".join("fix pts%d all particletemplate/sphere %d atom_type 1 density constant %r radius constant %r"
                          % (k, primes[k], p["density"], r) for k, r in enumerate(radii))
    classes = " ".join("pts%d %r" % (k, r ** 3 / wsum) for k, r in enumerate(radii))
    dt = g["dt"]
    n_total = g["steps"]
    n_open = int(round(g["t_open"] / dt))
    n_drop = int(math.ceil(0.01 / dt))
    w = p["width"]
    inp = LIGGGHTS_IN.format(
        xlo=-0.2 * w, xhi=1.2 * w, zlo=-2.5, zcut=-2 * b, zhi=h + 0.2 * w, skin=g["skin"], young=p["young"],
        poisson=p["poisson"], restitution=p["restitution"], tan_phi=p["tan_phi"], dt=dt,
        silo_stl=os.path.join(d, "silo.stl"), plug_stl=os.path.join(d, "plug.stl"), templates=templates,
        nclass=ncls, classes=classes, w=w, fill_height=p["fill_height"], top=top, seed=prime_from(86028121 + 1000 * seed),
        nparticles=g["spheres"], rate=p["rate"], every=5,  # small batches: LIGGGHTS places the largest first and drops the rest of a batch that does not fit
         save_every=82,
        mass_file=os.path.join(d, "mass.txt"), n_open=n_open, n_drop=n_drop, n_rest=n_total - n_open - n_drop)
    path = os.path.join(d, "silo.in")
    with open(path, "w") as f:
        f.write(inp)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    c0 = cpu_children()
    # unbuffered: LIGGGHTS aborts through MPI on an error, which loses buffered output (the message)
    r = subprocess.run(["stdbuf", "-o0", "-e0", exe, "-in", path, "-log", os.path.join(d, "log.liggghts")],
                       capture_output=True, text=True, env=env, cwd=d)
    cpu = cpu_children() - c0
    if r.returncode != 0:
        sys.exit("LIGGGHTS failed: " + r.stdout[-3000:] + r.stderr[-2000:])
    rows = []
    with open(os.path.join(d, "mass.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            t, m, n = line.split()
            rows.append((float(t), float(m), int(float(n))))
    m_in = max(m for _, m, _ in rows)
    n_in = max(n for _, _, n in rows)
    out = [(t, m_in - m) for t, m, _ in rows if t >= g["t_open"]]
    return dict(code="liggghts", seed=seed, spheres=n_in, steps=n_total, dt=dt, rate=slope_10_90(out),
                rate_recomputed=float("nan"), bulk_density=float("nan"), cpu=cpu, skin=g["skin"], t_open=g["t_open"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grit", required=True)
    ap.add_argument("--liggghts", default="liggghts")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--csv")
    ap.add_argument("--machine", default="unknown")
    ap.add_argument("params", nargs="*", help="grit run silo key=value")
    a = ap.parse_args()
    p = silo_params(a.params)
    extra = list(a.params)
    if "poisson" in p and not any(k.startswith("poisson=") for k in extra):
        pass  # grit's HertzMat default, 0.25: not a silo parameter
    rows = []
    with tempfile.TemporaryDirectory() as work:
        work = os.environ.get("SILO_WORK", work)
        for seed in [int(s) for s in a.seeds.split(",")]:
            g = run_grit(a.grit, p, extra, seed, work)
            lg = run_liggghts(a.liggghts, p, g, seed, work)
            for r in (g, lg):
                r["psps"] = r["spheres"] * r["steps"] / r["cpu"]
                rows.append(r)
                print("%-8s seed %d: %4d spheres, %d steps of %.4g s, discharge %.5f kg/s, CPU %.2f s, "
                      "%.3g particle-steps/s" % (r["code"], seed, r["spheres"], r["steps"], r["dt"], r["rate"],
                                                 r["cpu"], r["psps"]), flush=True)
    for code in ("grit", "liggghts"):
        rs = [r["rate"] for r in rows if r["code"] == code]
        cs = [r["cpu"] for r in rows if r["code"] == code]
        m = sum(rs) / len(rs)
        sd = math.sqrt(sum((x - m) ** 2 for x in rs) / max(1, len(rs) - 1))
        print("%-8s discharge mean %.5f kg/s (sd %.5f over %d seeds), CPU mean %.2f s" % (code, m, sd, len(rs),
                                                                                          sum(cs) / len(cs)))
    g = [r for r in rows if r["code"] == "grit"]
    lg = [r for r in rows if r["code"] == "liggghts"]
    print("grit / LIGGGHTS: discharge %.3f, CPU time %.3f (grit %.2fx faster)" % (
        sum(r["rate"] for r in g) / sum(r["rate"] for r in lg), sum(r["cpu"] for r in g) / sum(r["cpu"] for r in lg),
        sum(r["cpu"] for r in lg) / sum(r["cpu"] for r in g)))
    if a.csv:
        new = not os.path.exists(a.csv)
        with open(a.csv, "a") as f:
            if new:
                f.write("machine,date,code,seed,spheres,steps,dt,discharge_kg_s,bulk_density,cpu_s,"
                        "particle_steps_per_s,params\n")
            day = datetime.date.today().isoformat()
            for r in rows:
                f.write("%s,%s,%s,%d,%d,%d,%.6g,%.6g,%.6g,%.4g,%.4g,%s\n" % (
                    a.machine, day, r["code"], r["seed"], r["spheres"], r["steps"], r["dt"], r["rate"],
                    r["bulk_density"], r["cpu"], r["psps"], " ".join(a.params)))


if __name__ == "__main__":
    main()
