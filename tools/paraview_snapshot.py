"""Render the last frame of a grit run with ParaView: spheres, force chains, box.

    xvfb-run -a pvbatch tools/paraview_snapshot.py OUT_DIR [IMAGE.png]

Opens OUT_DIR/particles.pvd, contacts.pvd and shapes.pvd with ParaView's
own readers, draws the spheres as glyphs scaled by their radius, the contacts
as tubes whose radius and colour follow the normal force fn (the force
chains), the walls and other shapes translucent, and saves a PNG (default
OUT_DIR/snapshot.png). Prints the number of spheres and contacts ParaView
read. Needs the Debian packages paraview (pvbatch) and xvfb (Debian's
ParaView renders through X); docs/output.md gives the same steps for the
ParaView window.
"""
import os
import sys

from paraview.simple import (CellDatatoPointData, ColorBy, GetActiveViewOrCreate, GetAnimationScene, Glyph,
                             OpenDataFile, Render, ResetCamera, SaveScreenshot, Show, Tube, UpdatePipeline)

out = sys.argv[1]
image = sys.argv[2] if len(sys.argv) > 2 else os.path.join(out, "snapshot.png")
particles = OpenDataFile(os.path.join(out, "particles.pvd"))
contacts = OpenDataFile(os.path.join(out, "contacts.pvd"))
shapes = OpenDataFile(os.path.join(out, "shapes.pvd"))
scene = GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
t = particles.TimestepValues[-1] if particles.TimestepValues else 0.0
for src in (particles, contacts, shapes):
    UpdatePipeline(time=t, proxy=src)
n_spheres = particles.GetDataInformation().GetNumberOfPoints()
n_contacts = contacts.GetDataInformation().GetNumberOfCells()
fn_range = contacts.CellData["fn"].GetRange() if n_contacts else (0.0, 0.0)
print(f"paraview: t = {t:g} s: {n_spheres} spheres, {n_contacts} contacts, fn in [{fn_range[0]:.3g}, {fn_range[1]:.3g}] N")

view = GetActiveViewOrCreate("RenderView")
view.ViewSize = [1200, 900]
view.ViewTime = t
glyph = Glyph(Input=particles, GlyphType="Sphere")
glyph.ScaleArray = ["POINTS", "radius"]
glyph.OrientationArray = ["POINTS", "No orientation array"]
glyph.ScaleFactor = 2.0
glyph.GlyphMode = "All Points"
gd = Show(glyph, view)
ColorBy(gd, None)
gd.DiffuseColor = [0.85, 0.85, 0.8]
gd.Opacity = 0.08
if n_contacts:
    # the tube's radius follows a point scalar: give each line end its fn
    tube = Tube(Input=CellDatatoPointData(Input=contacts))
    tube.Scalars = ["POINTS", "fn"]
    tube.VaryRadius = "By Scalar"
    tube.Radius = 0.05 * particles.PointData["radius"].GetRange()[1]
    tube.RadiusFactor = 10.0
    td = Show(tube, view)
    ColorBy(td, ("POINTS", "fn"))
    td.RescaleTransferFunctionToDataRange(True)
    td.SetScalarBarVisibility(view, True)
for name, src in (("glyphs", glyph), ("tubes", tube if n_contacts else None)):
    if src is not None:
        UpdatePipeline(time=t, proxy=src)
        print(f"paraview: {name}: {src.GetDataInformation().GetNumberOfPoints()} points")
bd = Show(shapes, view)
ColorBy(bd, None)
bd.DiffuseColor = [0.6, 0.6, 0.7]
bd.Opacity = 0.15
view.CameraPosition = [1, -2.5, 1.2]
view.CameraFocalPoint = [0, 0, 0]
view.CameraViewUp = [0, 0, 1]
ResetCamera(view)
Render(view)
SaveScreenshot(image, view, ImageResolution=[1200, 900])
print(f"paraview: wrote {image}")
