#!/usr/bin/python3
"""Write the hopper of `grit run hopper` as a binary STL file (millimetres).

    make_hopper_stl.py [OUT.stl] [--segments N] [--ascii]

A round funnel: a cone from the outlet (radius 18 mm at z = 0) up to radius
55 mm at z = 60 mm (58 degrees from the horizontal), and above it a vertical
collar of the same radius up to z = 130 mm. Each of the N segments around
the axis (default 24) is two triangles on the cone and two on the collar;
the normals point inwards (grit ignores them: facets are two-sided). Writes
examples/data/hopper.stl of the source tree by default; the committed file
is what this script writes with the defaults.
"""
import argparse
import math
import pathlib
import struct

R_OUT, R_TOP, Z_CONE, Z_TOP = 18.0, 55.0, 60.0, 130.0  # mm


def triangles(segments):
    """The hopper's triangles as lists of three (x, y, z) vertices."""
    rings = [(R_OUT, 0.0), (R_TOP, Z_CONE), (R_TOP, Z_TOP)]
    tris = []
    for k in range(segments):
        a0, a1 = 2 * math.pi * k / segments, 2 * math.pi * (k + 1) / segments
        for (r0, z0), (r1, z1) in zip(rings, rings[1:]):
            p00 = (r0 * math.cos(a0), r0 * math.sin(a0), z0)
            p01 = (r0 * math.cos(a1), r0 * math.sin(a1), z0)
            p10 = (r1 * math.cos(a0), r1 * math.sin(a0), z1)
            p11 = (r1 * math.cos(a1), r1 * math.sin(a1), z1)
            # clockwise seen from outside: normals towards the axis
            tris += [(p00, p10, p01), (p01, p10, p11)]
    return tris


def normal(t):
    u = [t[1][i] - t[0][i] for i in range(3)]
    v = [t[2][i] - t[0][i] for i in range(3)]
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    s = math.sqrt(sum(c * c for c in n))
    return tuple(c / s for c in n)


def write_binary(path, tris):
    header = b"grit hopper (tools/make_hopper_stl.py), mm".ljust(80, b" ")
    with open(path, "wb") as f:
        f.write(header + struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<12fH", *normal(t), *t[0], *t[1], *t[2], 0))


def write_ascii(path, tris):
    with open(path, "w") as f:
        f.write("solid hopper\n")
        for t in tris:
            f.write(" facet normal %.6g %.6g %.6g\n  outer loop\n" % normal(t))
            for p in t:
                f.write("   vertex %.6f %.6f %.6f\n" % p)
            f.write("  endloop\n endfacet\n")
        f.write("endsolid hopper\n")


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default=str(root / "examples" / "data" / "hopper.stl"))
    ap.add_argument("--segments", type=int, default=24)
    ap.add_argument("--ascii", action="store_true", help="ASCII STL instead of binary")
    a = ap.parse_args()
    if a.segments < 3:
        ap.error("--segments must be at least 3")
    tris = triangles(a.segments)
    pathlib.Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    (write_ascii if a.ascii else write_binary)(a.out, tris)
    print(f"wrote {a.out}: {len(tris)} triangles ({'ASCII' if a.ascii else 'binary'}, mm)")


if __name__ == "__main__":
    main()
