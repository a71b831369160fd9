"""Render a frame of a grit run with mixed shapes in ParaView: every particle as its shape.

    xvfb-run -a pvbatch tools/paraview_shapes.py OUT_DIR [IMAGE.png] [--frame K]

Opens OUT_DIR/particles.pvd and shapes.pvd with ParaView's own readers and
draws the spheres as sphere glyphs scaled by their radius, capsules and
ellipsoids as their tessellated surfaces (the shapes series), coloured by
shape, and the boundaries (walls, facets: an STL hopper) translucent. The
camera frames the facets (a hopper) down to the lowest particle, or without
facets the capsules and ellipsoids (walls are cut to the scene's box and
would make the picture tiny). Frame K (default: the last; negative counts
from the end). Prints what ParaView read: the number of spheres and of
surface cells per shape. Needs ParaView (pvbatch) and, for Debian's build,
an X server (xvfb-run). docs/cli.md shows the same steps for the window.
"""
import os
import sys

from paraview.simple import (ColorBy, GetActiveViewOrCreate, GetAnimationScene, GetColorTransferFunction, Glyph,
                             OpenDataFile, Render, SaveScreenshot, Show, Threshold, UpdatePipeline)

SHAPES = ["Sphere", "Wall", "Facet", "InfCylinder", "Capsule", "Ellipsoid", "Rod"]

args = [a for a in sys.argv[1:] if not a.startswith("--frame")]
frame = -1
for a in sys.argv[1:]:
    if a.startswith("--frame"):
        frame = int(a.split("=", 1)[1]) if "=" in a else int(sys.argv[sys.argv.index(a) + 1])
out = args[0]
image = args[1] if len(args) > 1 and not args[1].lstrip("-").isdigit() else os.path.join(out, "shapes.png")
particles = OpenDataFile(os.path.join(out, "particles.pvd"))
shapes = OpenDataFile(os.path.join(out, "shapes.pvd"))
GetAnimationScene().UpdateAnimationUsingDataTimeSteps()
tv = particles.TimestepValues
times = [float(x) for x in tv] if hasattr(tv, "__len__") else [float(tv or 0.0)]
t = times[frame]
for src in (particles, shapes):
    UpdatePipeline(time=t, proxy=src)
n_spheres = particles.GetDataInformation().GetNumberOfPoints()


def shape_range(lo, hi):
    th = Threshold(Input=shapes)
    th.Scalars = ["CELLS", "shape"]
    th.LowerThreshold, th.UpperThreshold = lo, hi
    UpdatePipeline(time=t, proxy=th)
    return th


counts = {}
for k, name in enumerate(SHAPES):
    if k == 0:
        continue
    n = shape_range(k, k).GetDataInformation().GetNumberOfCells()
    if n:
        counts[name] = n
print(f"paraview: t = {t:g} s: {n_spheres} spheres; surface triangles (quads for walls): " +
      ", ".join(f"{k} {v}" for k, v in counts.items()))

view = GetActiveViewOrCreate("RenderView")
view.ViewSize = [1000, 1000]
view.ViewTime = t
view.OrientationAxesVisibility = 0
lut = GetColorTransferFunction("shape")
lut.InterpretValuesAsCategories = 1
lut.Annotations = sum(([str(k), SHAPES[k]] for k in range(len(SHAPES))), [])
lut.IndexedColors = [0.85, 0.85, 0.8, 0.5, 0.5, 0.5, 0.6, 0.6, 0.7, 0.5, 0.5, 0.5, 0.9, 0.45, 0.2, 0.25, 0.55, 0.85,
                     0.5, 0.5, 0.5]
if n_spheres:
    glyph = Glyph(Input=particles, GlyphType="Sphere")
    glyph.ScaleArray = ["POINTS", "radius"]
    glyph.OrientationArray = ["POINTS", "No orientation array"]
    glyph.ScaleFactor = 2.0
    glyph.GlyphMode = "All Points"
    glyph.GlyphType.ThetaResolution = 16
    glyph.GlyphType.PhiResolution = 12
    gd = Show(glyph, view)
    ColorBy(gd, None)
    gd.DiffuseColor = [0.85, 0.85, 0.8]
bodies = shape_range(3, 6)  # infinite cylinders, capsules, ellipsoids, rods
bd = Show(bodies, view)
ColorBy(bd, ("CELLS", "shape"))
bd.LookupTable = lut
bd.SetScalarBarVisibility(view, False)
facets = shape_range(2, 2)
fd = Show(facets, view)
ColorBy(fd, None)
fd.DiffuseColor = [0.6, 0.6, 0.75]
fd.Opacity = 0.25
walls = shape_range(1, 1)
wd = Show(walls, view)
ColorBy(wd, None)
wd.DiffuseColor = [0.55, 0.5, 0.45]
# frame the facets (the hopper) down to the lowest particle; without facets
# the capsules and ellipsoids (spheres and bodies may roll far away)
frame_src = facets if "Facet" in counts else (bodies if counts.keys() - {"Wall"} else particles)
bounds = list(frame_src.GetDataInformation().GetBounds())
for src in (bodies, particles):
    if src.GetDataInformation().GetNumberOfPoints():
        bounds[4] = min(bounds[4], src.GetDataInformation().GetBounds()[4])
c = [(bounds[2 * i] + bounds[2 * i + 1]) / 2 for i in range(3)]
size = max(bounds[2 * i + 1] - bounds[2 * i] for i in range(3))
Render(view)  # the first render resets the camera: set it afterwards
view.CameraFocalPoint = c
view.CameraPosition = [c[0] + 1.1 * size, c[1] - 1.6 * size, c[2] + 0.7 * size]
view.CameraViewUp = [0, 0, 1]
Render(view)
SaveScreenshot(image, view, ImageResolution=[1000, 1000])
print(f"paraview: wrote {image}")
