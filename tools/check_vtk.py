#!/usr/bin/python3
"""Check the VTK output of a grit run the way ParaView would read it.

    check_vtk.py DIR [--stats FILE] [--particles N] [--bodies N] [--require-vtk]

Every .pvd index in DIR is parsed; every file it lists must exist and be a
well-formed VTK XML PolyData file whose arrays (text, base64, or base64 of
zlib-compressed blocks) have the
declared number of tuples, whose cells index existing points, and whose
timesteps increase; no contact but a cohesive concrete bond (law cpm,
cohesive) carries tension in fn. With --stats, the number of contacts in each frame must
equal the `contacts` column of the run's stats.csv at that step; with
--particles, every particles frame must hold N spheres; with --bodies, every
shapes frame must draw N particles that are neither spheres nor boundaries
(capsules, ellipsoids: shape codes 4 and 5), each as a closed surface of
triangles. If the VTK Python
module is installed (Debian: python3-vtk9), every file is also read with
vtkXMLPolyDataReader and its arrays compared with the XML ones.
Prints one line per problem and exits 1 if there is any.
"""
import argparse
import zlib
import base64
import csv
import math
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

TYPES = {"Float64": ("d", 8), "Float32": ("f", 4), "Int64": ("q", 8), "Int32": ("i", 4), "UInt8": ("B", 1)}
# the cells of each section: how many points one may have
CELL_POINTS = {"Verts": (1, 1), "Lines": (2, 2), "Polys": (3, 4), "Strips": (3, 3)}

problems = []
# the law code of the concrete model in the contacts' `law` array (its place in GRIT_LAWS, include/grit/law.h)
LAW_CPM = 3


def problem(msg):
    problems.append(msg)
    print("check_vtk: " + msg, file=sys.stderr)


def decode(da, order, where, zlib_blocks=False):
    """Values of a DataArray as a flat list."""
    typ, fmt = da.get("type"), da.get("format")
    if typ not in TYPES:
        problem(f"{where}: unknown type {typ}")
        return []
    code, size = TYPES[typ]
    text = da.text or ""
    if fmt == "ascii":
        conv = float if code in "fd" else int
        vals = [conv(t) for t in text.split()]
        # a Float32 array holds the values as single precision, however many digits the text has
        return list(struct.unpack(f"{len(vals)}f", struct.pack(f"{len(vals)}f", *vals))) if code == "f" else vals
    if fmt != "binary":
        problem(f"{where}: unsupported format {fmt}")
        return []
    text = "".join(text.split())
    if zlib_blocks:
        # compressor="vtkZLibDataCompressor": a base64 stream of the header (number of blocks, block size, size
        # of a partial last block, the compressed size of each block; UInt64), then one of the blocks
        (nb,) = struct.unpack(order + "Q", base64.b64decode(text[:32])[:8])
        hlen = 4 * ((8 * (3 + nb) + 2) // 3)
        head = struct.unpack(order + "Q" * (3 + nb), base64.b64decode(text[:hlen])[:8 * (3 + nb)])
        z = base64.b64decode(text[hlen:]) if nb else b""
        raw, at = b"", 0
        for c in head[3:]:
            raw += zlib.decompress(z[at:at + c])
            at += c
        want = (nb - 1) * head[1] + (head[2] or head[1]) if nb else 0
        if len(raw) != want:
            problem(f"{where}: zlib header says {want} bytes, found {len(raw)}")
            return []
        return list(struct.unpack(order + code * (len(raw) // size), raw))
    # one base64 stream: the UInt64 byte count, then the data
    raw = base64.b64decode(text)
    (nbytes,) = struct.unpack(order + "Q", raw[:8])
    raw = raw[8:]
    if nbytes != len(raw):
        problem(f"{where}: header says {nbytes} bytes, found {len(raw)}")
        return []
    return list(struct.unpack(order + code * (nbytes // size), raw))


def read_vtp(path):
    """(n_points, n_cells, {section/name: (ncomp, values)}) from the XML."""
    root = ET.parse(path).getroot()
    where = os.path.basename(path)
    if root.tag != "VTKFile" or root.get("type") != "PolyData":
        problem(f"{where}: not a VTK PolyData file")
        return 0, 0, {}
    order = "<" if root.get("byte_order", "LittleEndian") == "LittleEndian" else ">"
    if root.get("header_type", "UInt32") != "UInt64":
        problem(f"{where}: expected header_type UInt64")
    pieces = root.findall("PolyData/Piece")
    if len(pieces) != 1:
        problem(f"{where}: {len(pieces)} pieces, expected 1")
        return 0, 0, {}
    piece = pieces[0]
    npts = int(piece.get("NumberOfPoints"))
    counts = {sec: int(piece.get("NumberOf" + sec, "0")) for sec in CELL_POINTS}
    ncells = sum(counts.values())
    arrays = {}
    for section in ("Points", "PointData", "CellData", *CELL_POINTS):
        for da in piece.findall(section + "/DataArray"):
            ncomp = int(da.get("NumberOfComponents", "1"))
            vals = decode(da, order, f"{where} {da.get('Name')}", root.get("compressor") == "vtkZLibDataCompressor")
            arrays[section + "/" + da.get("Name")] = (ncomp, vals)
            if section in CELL_POINTS:
                continue
            want = npts if section in ("Points", "PointData") else ncells
            if len(vals) != want * ncomp:
                problem(f"{where}: {section} array {da.get('Name')} has {len(vals)} values, expected {want} x {ncomp}")
            if any(isinstance(v, float) and not math.isfinite(v) for v in vals):
                problem(f"{where}: {section} array {da.get('Name')} holds NaN or infinity")
    if "Points/Points" not in arrays:
        problem(f"{where}: no Points")
    for sec, (lo, hi) in CELL_POINTS.items():
        conn = arrays.get(sec + "/connectivity", (1, []))[1]
        offs = arrays.get(sec + "/offsets", (1, []))[1]
        if len(offs) != counts[sec]:
            problem(f"{where}: {len(offs)} {sec} offsets for NumberOf{sec}={counts[sec]}")
        prev = 0
        for i, o in enumerate(offs):
            if not lo <= o - prev <= hi:
                problem(f"{where}: {sec} cell {i} has {o - prev} points")
                break
            prev = o
        if offs and offs[-1] != len(conn):
            problem(f"{where}: {sec} offsets end at {offs[-1]}, connectivity has {len(conn)}")
        if conn and (min(conn) < 0 or max(conn) >= npts):
            problem(f"{where}: {sec} connectivity outside [0, {npts})")
    return npts, ncells, arrays


BODY_SHAPES = (4, 5)  # grit_shape_type: capsule, ellipsoid


def check_bodies(name, arrays, want):
    """The shapes frame draws `want` capsules and ellipsoids, each a closed triangle surface."""
    ids = arrays.get("CellData/id", (1, []))[1]
    shape = arrays.get("CellData/shape", (1, []))[1]
    conn = arrays.get("Polys/connectivity", (1, []))[1]
    offs = arrays.get("Polys/offsets", (1, []))[1]
    if len(ids) != len(offs) or len(shape) != len(offs):
        problem(f"{name}: id and shape arrays do not have one value per polygon")
        return
    edges = {}
    prev = 0
    for i, o in enumerate(offs):
        if shape[i] in BODY_SHAPES:
            cell = conn[prev:o]
            if len(cell) != 3:
                problem(f"{name}: polygon {i} of particle {ids[i]} is not a triangle")
                return
            for k in range(3):
                e = (min(cell[k], cell[(k + 1) % 3]), max(cell[k], cell[(k + 1) % 3]))
                edges.setdefault(ids[i], {}).setdefault(e, 0)
                edges[ids[i]][e] += 1
        prev = o
    if len(edges) != want:
        problem(f"{name}: {len(edges)} capsules and ellipsoids drawn, expected {want}")
    for pid, es in edges.items():
        if any(c != 2 for c in es.values()):
            problem(f"{name}: the surface of particle {pid} is not closed (an edge not shared by two triangles)")
            break


def check_with_vtk(path, npts, ncells, arrays):
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

    r = vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    where = os.path.basename(path)
    if r.GetErrorCode() or g.GetNumberOfPoints() != npts or g.GetNumberOfCells() != ncells:
        problem(f"{where}: VTK reads {g.GetNumberOfPoints()} points, {g.GetNumberOfCells()} cells "
                f"(XML says {npts}, {ncells})")
        return
    for key, (ncomp, vals) in arrays.items():
        section, name = key.split("/")
        if section == "Points":
            got = vtk_to_numpy(g.GetPoints().GetData()) if npts else []
        elif section in ("PointData", "CellData"):
            data = g.GetPointData() if section == "PointData" else g.GetCellData()
            a = data.GetArray(name)
            if a is None:
                problem(f"{where}: VTK does not see array {name}")
                continue
            got = vtk_to_numpy(a)
        else:
            continue
        flat = [float(v) for v in getattr(got, "ravel", lambda: got)()]
        if flat != [float(v) for v in vals]:
            problem(f"{where}: VTK reads different values of {name}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--stats")
    ap.add_argument("--particles", type=int)
    ap.add_argument("--bodies", type=int)
    ap.add_argument("--require-vtk", action="store_true")
    a = ap.parse_args()
    try:
        import vtkmodules.vtkIOXML  # noqa: F401

        have_vtk = True
    except ImportError:
        have_vtk = False
        if a.require_vtk:
            problem("the VTK Python module is not installed (Debian: python3-vtk9)")
    contacts_at = {}
    if a.stats:
        with open(a.stats) as f:
            for row in csv.DictReader(f):
                contacts_at[int(row["step"])] = int(row["contacts"])
    pvds = sorted(p for p in os.listdir(a.dir) if p.endswith(".pvd"))
    if pvds != ["contacts.pvd", "particles.pvd", "shapes.pvd"]:
        problem(f"{a.dir}: expected contacts.pvd, particles.pvd, shapes.pvd, found {pvds}")
    frames = 0
    for pvd in pvds:
        root = ET.parse(os.path.join(a.dir, pvd)).getroot()
        sets = root.findall("Collection/DataSet")
        if not sets:
            problem(f"{pvd}: no frames")
        times = [float(d.get("timestep")) for d in sets]
        if times != sorted(times) or len(set(times)) != len(times):
            problem(f"{pvd}: timesteps do not increase")
        for d in sets:
            path = os.path.join(a.dir, d.get("file"))
            if not os.path.exists(path):
                problem(f"{pvd}: lists missing file {d.get('file')}")
                continue
            before = len(problems)
            npts, ncells, arrays = read_vtp(path)
            frames += 1
            step = int(re.search(r"_(\d+)\.vtp$", path).group(1))
            if pvd == "contacts.pvd":
                if npts != 2 * ncells:
                    problem(f"{d.get('file')}: {npts} points for {ncells} contact lines")
                if step in contacts_at and contacts_at[step] != ncells:
                    problem(f"{d.get('file')}: {ncells} contacts, stats CSV says {contacts_at[step]}")
                fn = arrays.get("CellData/fn", (1, []))[1]
                law = arrays.get("CellData/law", (1, [0] * len(fn)))[1]
                cohesive = arrays.get("CellData/cohesive", (1, [0] * len(fn)))[1]
                # a cohesive concrete contact (a bond) carries tension until it cracks; no other contact may
                bad = [k for k, v in enumerate(fn) if v < 0 and not (law[k] == LAW_CPM and cohesive[k])]
                if bad:
                    problem(f"{d.get('file')}: negative normal force (tension) in fn of {len(bad)} contact(s) that are "
                            f"not concrete bonds (first: contact {bad[0]}, law {law[bad[0]]}, fn {fn[bad[0]]})")
            if pvd == "particles.pvd" and a.particles is not None and npts != a.particles:
                problem(f"{d.get('file')}: {npts} particles, expected {a.particles}")
            if pvd == "shapes.pvd" and a.bodies is not None:
                check_bodies(d.get("file"), arrays, a.bodies)
            if have_vtk and len(problems) == before:  # VTK may crash on what the XML checks found
                check_with_vtk(path, npts, ncells, arrays)
    leftovers = [p for p in os.listdir(a.dir) if p.endswith(".tmp") or p.endswith(".partial")]
    if leftovers:
        problem(f"{a.dir}: temporary files left: {leftovers}")
    how = "XML parser and VTK " + __import__("vtk").vtkVersion.GetVTKVersion() if have_vtk else \
        "XML parser only (VTK Python module not installed)"
    print(f"check_vtk: {frames} files in {len(pvds)} series checked with the {how}: "
          f"{'OK' if not problems else str(len(problems)) + ' problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
