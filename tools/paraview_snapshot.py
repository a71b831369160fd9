"""Render the last frame of a grit run, without a window: spheres, force chains, box.

    python3 tools/paraview_snapshot.py OUT_DIR [IMAGE.png]
    pvpython tools/paraview_snapshot.py OUT_DIR [IMAGE.png]   (ParaView's Python carries the same VTK)

Reads the last frame of OUT_DIR/particles.pvd, contacts.pvd and shapes.pvd
with VTK's XML readers (those of ParaView), draws the spheres translucent at
their radius, the contacts as tubes whose radius and colour follow the normal
force fn (the force chains), the walls and other shapes translucent, and saves
a PNG (default OUT_DIR/snapshot.png), as the steps of docs/output.md do in the
ParaView window. Prints the time, the number of spheres and contacts read and
the range of fn.

Needs VTK's Python modules: Debian's python3-vtk9 (or ParaView's pvpython).
Debian's VTK draws through X, so without a display (DISPLAY unset) the script
runs itself again under `xvfb-run -a` (Debian's xvfb), which gives it a
virtual one (up to 3 tries, for X servers started at the same moment); a VTK built for EGL or OSMesa renders without either.
"""
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET


def last_frame(pvd):
    """(time, path) of the last dataset of a .pvd series; None if the series has none."""
    sets = ET.parse(pvd).getroot().iter("DataSet")
    frames = [(float(d.get("timestep", 0)), os.path.join(os.path.dirname(pvd), d.get("file"))) for d in sets]
    return max(frames, key=lambda f: f[0]) if frames else None


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = argv[1]
    image = argv[2] if len(argv) > 2 else os.path.join(out, "snapshot.png")
    try:
        from vtkmodules import vtkRenderingFreeType, vtkRenderingOpenGL2  # noqa: F401 (the OpenGL and text backends)
        from vtkmodules.vtkFiltersCore import vtkCellDataToPointData, vtkGlyph3D, vtkTubeFilter
        from vtkmodules.vtkFiltersSources import vtkSphereSource
        from vtkmodules.vtkIOImage import vtkPNGWriter
        from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
        from vtkmodules.vtkRenderingAnnotation import vtkScalarBarActor
        from vtkmodules.vtkCommonCore import vtkLookupTable
        from vtkmodules.vtkRenderingCore import (vtkActor, vtkPolyDataMapper, vtkRenderer, vtkRenderWindow,
                                                 vtkWindowToImageFilter)
    except ImportError as e:
        print(f"paraview_snapshot: VTK's Python modules are missing ({e}): install Debian's python3-vtk9 "
              "(apt-get install python3-vtk9), or run this script with ParaView's pvpython", file=sys.stderr)
        return 2
    window = vtkRenderWindow()
    on_x = window.GetClassName() == "vtkXOpenGLRenderWindow"
    if on_x and not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            print("paraview_snapshot: no display (DISPLAY is unset) and this VTK draws through X: install Debian's "
                  "xvfb (apt-get install xvfb) and the script runs itself under xvfb-run", file=sys.stderr)
            return 2
        # xvfb-run -a races with X servers started at the same moment (tests in parallel): a display number
        # of its own, and up to 3 tries when the server did not start
        for attempt in range(3):
            r = subprocess.run([xvfb, "-a", "-n", str(100 + os.getpid() % 800 + 10 * attempt), sys.executable,
                                os.path.abspath(argv[0]), *argv[1:]], capture_output=True, text=True)
            if "Xvfb failed to start" not in r.stderr:
                break
            time.sleep(1)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        return r.returncode

    def read(name):
        pvd = os.path.join(out, name + ".pvd")
        frame = last_frame(pvd) if os.path.exists(pvd) else None
        if frame is None:
            return None, None
        r = vtkXMLPolyDataReader()
        r.SetFileName(frame[1])
        r.Update()
        return frame[0], r.GetOutput()

    t, particles = read("particles")
    if particles is None:
        print(f"paraview_snapshot: no frame in {os.path.join(out, 'particles.pvd')} (was the run made with "
              "vtk_every=-1?)", file=sys.stderr)
        return 1
    _, contacts = read("contacts")
    _, shapes = read("shapes")
    n_spheres = particles.GetNumberOfPoints()
    n_contacts = contacts.GetNumberOfCells() if contacts is not None else 0
    fn = contacts.GetCellData().GetArray("fn") if n_contacts else None
    fn_range = fn.GetRange() if fn is not None else (0.0, 0.0)
    print(f"paraview_snapshot: t = {t:g} s: {n_spheres} spheres, {n_contacts} contacts, "
          f"fn in [{fn_range[0]:.3g}, {fn_range[1]:.3g}] N")

    renderer = vtkRenderer()
    renderer.SetBackground(0.32, 0.34, 0.43)
    # the spheres at their radius (glyphs of a unit sphere scaled by the point array radius), translucent
    particles.GetPointData().SetActiveScalars("radius")
    ball = vtkSphereSource()
    ball.SetRadius(1.0)
    ball.SetThetaResolution(16)
    ball.SetPhiResolution(12)
    glyph = vtkGlyph3D()
    glyph.SetInputData(particles)
    glyph.SetSourceConnection(ball.GetOutputPort())
    glyph.SetScaleModeToScaleByScalar()
    glyph.SetScaleFactor(1.0)
    glyph.SetColorModeToColorByScale()
    mapper = vtkPolyDataMapper()
    mapper.SetInputConnection(glyph.GetOutputPort())
    mapper.ScalarVisibilityOff()
    spheres = vtkActor()
    spheres.SetMapper(mapper)
    spheres.GetProperty().SetColor(0.85, 0.85, 0.8)
    spheres.GetProperty().SetOpacity(0.08)
    renderer.AddActor(spheres)
    if fn is not None:
        # the force chains: tubes whose radius follows fn at the line ends (fn moved from cells to points)
        points = vtkCellDataToPointData()
        points.SetInputData(contacts)
        points.Update()
        points.GetOutput().GetPointData().SetActiveScalars("fn")
        tube = vtkTubeFilter()
        tube.SetInputData(points.GetOutput())
        tube.SetVaryRadiusToVaryRadiusByScalar()
        tube.SetRadius(0.05 * particles.GetPointData().GetArray("radius").GetRange()[1])
        tube.SetRadiusFactor(10.0)
        tube.SetNumberOfSides(8)
        tmap = vtkPolyDataMapper()
        tmap.SetInputConnection(tube.GetOutputPort())
        tmap.SetScalarModeToUsePointFieldData()
        tmap.SelectColorArray("fn")
        tmap.SetScalarRange(fn_range)
        lut = vtkLookupTable()  # blue (weak) to red (strong)
        lut.SetHueRange(0.667, 0.0)
        lut.Build()
        tmap.SetLookupTable(lut)
        tubes = vtkActor()
        tubes.SetMapper(tmap)
        renderer.AddActor(tubes)
        bar = vtkScalarBarActor()
        bar.SetLookupTable(tmap.GetLookupTable())
        bar.SetTitle("fn [N]")
        bar.SetNumberOfLabels(4)
        renderer.AddActor2D(bar)
    if shapes is not None and shapes.GetNumberOfCells():
        smap = vtkPolyDataMapper()
        smap.SetInputData(shapes)
        smap.ScalarVisibilityOff()
        walls = vtkActor()
        walls.SetMapper(smap)
        walls.GetProperty().SetColor(0.6, 0.6, 0.7)
        walls.GetProperty().SetOpacity(0.15)
        renderer.AddActor(walls)
    camera = renderer.GetActiveCamera()
    camera.SetPosition(1, -2.5, 1.2)
    camera.SetFocalPoint(0, 0, 0)
    camera.SetViewUp(0, 0, 1)
    renderer.ResetCamera(particles.GetBounds())
    window.SetOffScreenRendering(1)
    window.SetSize(1200, 900)
    window.AddRenderer(renderer)
    window.Render()
    grab = vtkWindowToImageFilter()
    grab.SetInput(window)
    grab.ReadFrontBufferOff()
    grab.Update()
    png = vtkPNGWriter()
    png.SetFileName(image)
    png.SetInputConnection(grab.GetOutputPort())
    png.Write()
    print(f"paraview_snapshot: wrote {image}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
