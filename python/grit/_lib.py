"""Loading libgrit.so and declaring its C functions for ctypes.

The library is searched, in this order, at
  1. the path in the environment variable GRIT_LIB (if set, only there);
  2. the library installed with this package, named by grit/_paths.py, which
     the installation writes (pip install: the copy inside the package;
     cmake --install: the one in the same prefix);
  3. build/libgrit.so of the source tree this package lives in
     (python/grit/../../build), i.e. the CMake build directory;
  4. wherever the system's loader finds "libgrit" (ctypes.util.find_library).

Every struct the package mirrors is checked against the size the library
reports (grit_reflect_sizeof), so a stale build fails here with a clear
message instead of corrupting memory later.
"""
import ctypes
import ctypes.util
import os
import pathlib
import sys

from .errors import BY_STATUS, GritError, LibraryNotFoundError

c_double, c_int, c_uint, c_long = ctypes.c_double, ctypes.c_int, ctypes.c_uint, ctypes.c_long
c_char_p, c_void_p, c_size_t = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
c_int64, c_int32, c_uint32, c_uint64 = ctypes.c_int64, ctypes.c_int32, ctypes.c_uint32, ctypes.c_uint64
POINTER, byref = ctypes.POINTER, ctypes.byref


# ---- mirrors of the public structs (include/grit/*.h) ----------------------
class Vec3(ctypes.Structure):
    _fields_ = [("x", c_double), ("y", c_double), ("z", c_double)]

    def tuple(self):
        return (self.x, self.y, self.z)


class InletClump(ctypes.Structure):  # grit/inlet.h
    _fields_ = [("n", c_int), ("centers", c_void_p), ("radii", c_void_p), ("mass_frac", c_double)]


class InletShape(ctypes.Structure):  # grit/inlet.h
    _fields_ = [("shape", c_int), ("radius", c_double), ("shaft", c_double), ("semi_axes", Vec3),
                ("mass_frac", c_double)]


class InletDef(ctypes.Structure):  # grit/inlet.h
    _fields_ = [("region", c_int), ("lo", Vec3), ("hi", Vec3), ("center", Vec3), ("radius", c_double),
                ("height", c_double), ("mass_rate", c_double), ("max_mass", c_double), ("t_start", c_double),
                ("n_sizes", c_int), ("r_min", c_double), ("r_max", c_double), ("sizes", c_double * 8),
                ("mass_frac", c_double * 8), ("material", c_int), ("vel", Vec3), ("angvel", Vec3),
                ("seed", ctypes.c_uint64),
                ("max_attempts", c_int), ("n_tri", c_int), ("tri", c_void_p), ("n_clumps", c_int),
                ("clumps", InletClump * 8), ("n_shapes", c_int), ("shapes", InletShape * 8)]


class InletInfo(ctypes.Structure):
    _fields_ = [("mass", c_double), ("count", c_long), ("failed", c_long), ("energy", c_double), ("waiting", c_int)]


class OutletDef(ctypes.Structure):  # grit/outlet.h
    _fields_ = [("region", c_int), ("lo", Vec3), ("hi", Vec3), ("center", Vec3), ("radius", c_double),
                ("height", c_double), ("n_tri", c_int), ("tri", c_void_p)]


class OutletInfo(ctypes.Structure):
    _fields_ = [("mass", c_double), ("count", c_long), ("energy", c_double)]


class Quat(ctypes.Structure):
    _fields_ = [("w", c_double), ("x", c_double), ("y", c_double), ("z", c_double)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("type", c_int), ("offset", c_size_t), ("unit", c_char_p), ("min", c_double),
                ("max", c_double), ("flags", c_uint), ("choices", c_char_p), ("def_text", c_char_p),
                ("doc", c_char_p)]


class ParamTable(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("params", POINTER(ParamInfo)), ("count", c_int)]


class SphereDef(ctypes.Structure):
    _fields_ = [("pos", Vec3), ("vel", Vec3), ("angvel", Vec3), ("radius", c_double), ("material", c_int),
                ("blocked", c_uint), ("mask", c_uint32)]


class WallDef(ctypes.Structure):
    _fields_ = [("coord", c_double), ("axis", c_int), ("sense", c_int), ("material", c_int), ("vel", Vec3),
                ("mask", c_uint32)]


class FacetDef(ctypes.Structure):
    _fields_ = [("v", Vec3 * 3), ("half_thick", c_double), ("material", c_int), ("vel", Vec3), ("mask", c_uint32)]


class InfCylinderDef(ctypes.Structure):
    _fields_ = [("pos", Vec3), ("axis", c_int), ("radius", c_double), ("vel", Vec3), ("angvel", c_double),
                ("material", c_int), ("mask", c_uint32)]


class CapsuleDef(ctypes.Structure):
    _fields_ = [("pos", Vec3), ("vel", Vec3), ("angvel", Vec3), ("ori", Quat), ("radius", c_double),
                ("shaft", c_double), ("material", c_int), ("blocked", c_uint), ("mask", c_uint32)]


class EllipsoidDef(ctypes.Structure):
    _fields_ = [("pos", Vec3), ("vel", Vec3), ("angvel", Vec3), ("ori", Quat), ("semi_axes", Vec3),
                ("material", c_int), ("blocked", c_uint), ("mask", c_uint32)]


class RodDef(ctypes.Structure):
    _fields_ = [("p", Vec3 * 2), ("radius", c_double), ("vel", Vec3), ("material", c_int), ("mask", c_uint32)]


class ClumpDef(ctypes.Structure):  # grit/clump.h
    _fields_ = [("pos", Vec3), ("vel", Vec3), ("angvel", Vec3), ("ori", Quat), ("n", c_int),
                ("centers", POINTER(Vec3)), ("radii", POINTER(c_double)), ("material", c_int), ("blocked", c_uint),
                ("mask", c_uint32), ("cells_per_radius", c_int)]


class ClumpProps(ctypes.Structure):
    _fields_ = [("mass", c_double), ("volume", c_double), ("center", Vec3), ("inertia", Vec3), ("ori", Quat),
                ("exact", ctypes.c_bool)]


class ContactInfo(ctypes.Structure):
    _fields_ = [("id_a", c_int), ("id_b", c_int), ("normal", Vec3), ("ey", Vec3), ("ez", Vec3), ("point", Vec3),
                ("uN", c_double), ("vel", Vec3), ("angvel", Vec3), ("force", Vec3), ("torque", Vec3),
                ("force_global", Vec3), ("kn", c_double), ("kt", c_double), ("tan_phi", c_double), ("cn", c_double),
                ("lens", c_double * 2), ("area", c_double), ("law", c_int)]


class Stats(ctypes.Structure):
    _fields_ = [("rebuilds", c_long), ("sorts", c_long), ("potential_pairs", c_int), ("real_contacts", c_int),
                ("verlet_dist", c_double), ("time_integrate", c_double), ("time_collide", c_double),
                ("time_contacts", c_double), ("time_rebuild", c_double), ("time_sort", c_double),
                ("threads_mean", c_double), ("threads_steps", c_long)]


class ArrayInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("group", c_int), ("typestr", c_char_p), ("elem_size", c_int), ("ncomp", c_int),
                ("writable", c_int), ("unit", c_char_p), ("doc", c_char_p)]


class ArrayView(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("count", c_int64), ("stride", c_int64), ("ncomp", c_int32),
                ("writable", c_int32), ("generation", c_uint64)]


# ---- the law tester (include/grit/tester.h)
class TesterState(ctypes.Structure):
    _fields_ = [("stage", c_int), ("stage_step", c_long), ("stage_time", c_double), ("has_contact", ctypes.c_bool),
                ("had_contact", ctypes.c_bool), ("time_c0", c_double), ("bounces", c_int), ("dist", c_double)] + \
               [(n, c_double * 6) for n in ("f", "v", "u", "k", "smoo_f", "smoo_u", "smoo_v", "f_err_rel",
                                           "f_err_abs", "u_err_rel", "u_err_abs", "v_err_rel", "v_err_abs")] + \
               [("work", c_double), ("axes", Vec3 * 3), ("flipped", ctypes.c_bool)]


class TesterCond(ctypes.Structure):
    _fields_ = [("quantity", c_int), ("index", c_int), ("op", c_int), ("value", c_double)]


# int (*)(grit_scene *, grit_tester *, const grit_tester_state *, void *) and (..., int stage, void *)
UNTIL_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, POINTER(TesterState), c_void_p)
DONE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_int, c_void_p)


class TesterStage(ctypes.Structure):
    _fields_ = [("values", c_double * 6), ("whats", ctypes.c_char * 7), ("until", TesterCond),
                ("until_fn", UNTIL_FN), ("until_data", c_void_p), ("until_every", c_long),
                ("reset_energy", c_uint), ("done_fn", DONE_FN), ("done_data", c_void_p)]


MIRRORS = {"grit_vec3": Vec3, "grit_quat": Quat, "grit_param_info": ParamInfo, "grit_param_table": ParamTable,
           "grit_sphere_def": SphereDef, "grit_wall_def": WallDef, "grit_facet_def": FacetDef,
           "grit_contact_info": ContactInfo, "grit_stats": Stats, "grit_array_info": ArrayInfo,
           "grit_array_view": ArrayView, "grit_infcylinder_def": InfCylinderDef, "grit_capsule_def": CapsuleDef,
           "grit_ellipsoid_def": EllipsoidDef, "grit_rod_def": RodDef, "grit_clump_def": ClumpDef,
           "grit_clump_props": ClumpProps, "grit_tester_state": TesterState,
           "grit_tester_cond": TesterCond, "grit_tester_stage": TesterStage, "grit_inlet_def": InletDef,
           "grit_inlet_clump": InletClump, "grit_inlet_shape": InletShape, "grit_outlet_def": OutletDef}

# ---- STL meshes (include/grit/stl.h)
class StlDef(ctypes.Structure):
    _fields_ = [("material", c_int), ("half_thick", c_double), ("scale", c_double), ("ori", Quat), ("shift", Vec3),
                ("vel", Vec3), ("mask", c_uint32)]


class StlInfo(ctypes.Structure):
    _fields_ = [("first_id", c_int), ("n_facets", c_int), ("n_degenerate", c_int), ("binary", c_int),
                ("name", ctypes.c_char * 81)]


class StlMesh(ctypes.Structure):
    _fields_ = [("n", c_int), ("tri", POINTER(c_double)), ("n_degenerate", c_int), ("binary", c_int),
                ("name", ctypes.c_char * 81)]


MIRRORS.update({"grit_stl_def": StlDef, "grit_stl_info": StlInfo})

# ---- dense packings (include/grit/pack.h)
class PackState(ctypes.Structure):
    _fields_ = [("phase", c_int), ("step", c_long), ("pressure", c_double), ("solid_fraction", c_double),
                ("unbalanced", c_double), ("strain_rate", c_double), ("contacts", c_int), ("scene", c_void_p)]


class Psd(ctypes.Structure):
    _fields_ = [("n", c_int), ("radius", POINTER(c_double)), ("mass_fraction", POINTER(c_double))]


# int (*)(const grit_pack_state *, void *) and int (*)(grit_vec3 center, double radius, void *)
PACK_MONITOR_FN = ctypes.CFUNCTYPE(c_int, POINTER(PackState), c_void_p)
REGION_FN = ctypes.CFUNCTYPE(c_int, Vec3, c_double, c_void_p)


class PackOpts(ctypes.Structure):
    _fields_ = [("psd", POINTER(Psd)), ("monitor", PACK_MONITOR_FN), ("monitor_data", c_void_p),
                ("monitor_every", c_long), ("keep_scene", POINTER(c_void_p))]


class Packing(ctypes.Structure):
    _fields_ = [("n", c_int), ("center", POINTER(Vec3)), ("radius", POINTER(c_double)), ("periodic", ctypes.c_bool),
                ("cell", c_double * 9), ("volume", c_double), ("solid_fraction", c_double), ("pressure", c_double),
                ("unbalanced", c_double), ("steps", c_long), ("info", c_char_p)]


MIRRORS.update({"grit_pack_state": PackState, "grit_psd": Psd, "grit_pack_opts": PackOpts, "grit_packing": Packing})


class CellCtrlDef(ctypes.Structure):  # grit/cell.h
    _fields_ = [("mode", c_int * 3), ("goal", c_double * 3), ("grad_v", c_double * 9), ("gain", c_double),
                ("max_rate", c_double), ("stress_tol", c_double), ("every", c_int), ("settle", c_int),
                ("integral", c_double)]


class CellCtrlState(ctypes.Structure):
    _fields_ = [("active", ctypes.c_bool), ("stress", c_double * 9), ("error", c_double * 3),
                ("stiffness", c_double * 3), ("scale", c_double), ("rel_error", c_double), ("held", c_int),
                ("converged", ctypes.c_bool), ("updates", c_long), ("integral", c_double * 3)]


MIRRORS.update({"grit_cell_ctrl_def": CellCtrlDef, "grit_cell_ctrl_state": CellCtrlState})

S = c_void_p  # grit_scene *
ERRBUF = ctypes.c_char * 512

# name: (restype, argtypes)
PROTOTYPES = {
    # lifecycle
    "grit_scene_create": (c_void_p, [c_void_p]),
    "grit_scene_destroy": (None, [S]),
    "grit_last_error": (c_char_p, [S]),
    "grit_create_error": (c_char_p, []),
    "grit_scene_set_def": (c_int, [S, c_void_p]),
    "grit_scene_get_def": (c_void_p, [S]),
    "grit_add_frictmat": (c_int, [S, c_void_p]),
    "grit_add_material": (c_int, [S, c_int, c_void_p]),
    "grit_get_material_type": (c_int, [S, c_int]),
    "grit_get_material": (c_int, [S, c_int, c_void_p, c_size_t]),
    "grit_material_type_name": (c_char_p, [c_int]),
    "grit_material_class_name": (c_char_p, [c_int]),
    "grit_set_pair": (c_int, [S, c_int, c_int, c_void_p]),
    "grit_contacts_update_physics": (c_int, [S]),
    "grit_pair_law": (c_int, [S, c_int, c_int]),
    "grit_material_count": (c_int, [S]),
    # laws and their parameters
    "grit_law_name": (c_char_p, [c_int]),
    "grit_law_find": (c_int, [c_char_p]),
    "grit_set_law_def": (c_int, [S, c_int, c_void_p, c_size_t]),
    "grit_get_law_def": (c_int, [S, c_int, c_void_p, c_size_t]),
    "grit_add_sphere": (c_int, [S, POINTER(SphereDef)]),
    "grit_add_wall": (c_int, [S, POINTER(WallDef)]),
    "grit_add_facet": (c_int, [S, POINTER(FacetDef)]),
    "grit_default_sphere_def": (SphereDef, []),
    "grit_default_wall_def": (WallDef, []),
    "grit_default_facet_def": (FacetDef, []),
    "grit_particle_count": (c_int, [S]),
    # clumps
    "grit_default_clump_def": (ClumpDef, []),
    "grit_add_clump": (c_int, [S, POINTER(ClumpDef)]),
    "grit_get_clump_properties": (c_int, [S, POINTER(ClumpDef), POINTER(ClumpProps)]),
    "grit_get_clump": (c_int, [S, c_int, POINTER(c_int), POINTER(c_int)]),
    "grit_get_clump_member": (c_int, [S, c_int, c_int, POINTER(Vec3), POINTER(c_double)]),
    "grit_get_clump_count": (c_int, [S]),
    "grit_particle_id_end": (c_int, [S]),
    # inlets
    "grit_default_inlet_def": (InletDef, []),
    "grit_add_inlet": (c_int, [S, POINTER(InletDef)]),
    "grit_inlet_count": (c_int, [S]),
    "grit_inlet_get": (c_int, [S, c_int, POINTER(InletDef), POINTER(InletInfo)]),
    # outlets
    "grit_default_outlet_def": (OutletDef, []),
    "grit_add_outlet": (c_int, [S, POINTER(OutletDef)]),
    "grit_outlet_count": (c_int, [S]),
    "grit_outlet_get": (c_int, [S, c_int, POINTER(OutletDef), POINTER(OutletInfo)]),
    # stepping
    "grit_step": (c_int, [S, c_long]),
    "grit_step_count": (c_long, [S]),
    "grit_time": (c_double, [S]),
    "grit_dt": (c_double, [S]),
    "grit_set_threads": (c_int, [S, c_int]),
    "grit_threads": (c_int, [S]),
    "grit_critical_dt": (c_double, [S]),
    # state by id
    "grit_get_pos": (c_int, [S, c_int, POINTER(Vec3)]),
    "grit_get_vel": (c_int, [S, c_int, POINTER(Vec3)]),
    "grit_get_angvel": (c_int, [S, c_int, POINTER(Vec3)]),
    "grit_get_force": (c_int, [S, c_int, POINTER(Vec3)]),
    "grit_get_torque": (c_int, [S, c_int, POINTER(Vec3)]),
    "grit_get_ori": (c_int, [S, c_int, POINTER(Quat)]),
    "grit_get_mass": (c_int, [S, c_int, POINTER(c_double), POINTER(Vec3)]),
    "grit_get_radius": (c_int, [S, c_int, POINTER(c_double)]),
    "grit_get_shape": (c_int, [S, c_int]),
    "grit_shape_name": (c_char_p, [c_int]),
    "grit_set_vel": (c_int, [S, c_int, Vec3]),
    "grit_set_angvel": (c_int, [S, c_int, Vec3]),
    "grit_set_pos": (c_int, [S, c_int, Vec3]),
    "grit_set_blocked": (c_int, [S, c_int, c_uint]),
    "grit_impose_vel": (c_int, [S, c_int, Vec3, c_uint]),
    # energy
    "grit_energy_name": (c_char_p, [c_int]),
    "grit_energy": (c_double, [S, c_int]),
    "grit_energy_total": (c_double, [S]),
    "grit_energy_initial": (c_double, [S]),
    "grit_energy_rel_error": (c_double, [S]),
    "grit_energy_reset": (None, [S]),
    # contacts, diagnostics
    "grit_contact_count": (c_int, [S]),
    "grit_contact_get": (c_int, [S, c_int, POINTER(ContactInfo)]),
    "grit_contact_find": (c_int, [S, c_int, c_int]),
    "grit_get_stats": (None, [S, POINTER(Stats)]),
    # parameters
    "grit_param_set_double": (c_int, [POINTER(ParamTable), c_void_p, c_char_p, c_double, c_char_p, c_size_t]),
    "grit_param_set_vec3": (c_int, [POINTER(ParamTable), c_void_p, c_char_p, Vec3, c_char_p, c_size_t]),
    "grit_param_set_text": (c_int, [POINTER(ParamTable), c_void_p, c_char_p, c_char_p, c_char_p, c_size_t]),
    "grit_param_get_double": (c_double, [POINTER(ParamInfo), c_void_p]),
    "grit_param_get_vec3": (Vec3, [POINTER(ParamInfo), c_void_p]),
    "grit_param_range_text": (None, [POINTER(ParamInfo), c_char_p, c_size_t]),
    "grit_param_choice_name": (c_char_p, [POINTER(ParamInfo), c_int, c_char_p, c_size_t]),
    "grit_param_validate": (c_int, [POINTER(ParamTable), c_void_p, c_char_p, c_size_t]),
    # reflection
    "grit_reflect_group_count": (c_int, []),
    "grit_reflect_group": (POINTER(ParamTable), [c_int]),
    "grit_reflect_group_find": (POINTER(ParamTable), [c_char_p]),
    "grit_reflect_param": (POINTER(ParamInfo), [POINTER(ParamTable), c_int]),
    "grit_reflect_def_size": (c_size_t, [POINTER(ParamTable)]),
    "grit_reflect_def_default": (c_int, [POINTER(ParamTable), c_void_p, c_size_t]),
    "grit_reflect_constant_count": (c_int, []),
    "grit_reflect_constant_name": (c_char_p, [c_int]),
    "grit_reflect_constant_value": (c_long, [c_int]),
    "grit_reflect_sizeof": (c_size_t, [c_char_p]),
    # save and restart
    "grit_save": (c_int, [S, c_char_p]),
    "grit_scene_load": (c_void_p, [c_char_p]),
    # periodic cell and stress (double[3][3] as 9 doubles, row-major)
    "grit_cell_set": (c_int, [S, POINTER(c_double)]),
    "grit_is_periodic": (ctypes.c_bool, [S]),
    "grit_cell_get": (c_int, [S, POINTER(c_double)]),
    "grit_cell_volume": (c_double, [S]),
    "grit_cell_get_trsf": (c_int, [S, POINTER(c_double)]),
    "grit_cell_set_grad_v": (c_int, [S, POINTER(c_double)]),
    "grit_cell_get_grad_v": (c_int, [S, POINTER(c_double)]),
    "grit_cell_get_next_grad_v": (c_int, [S, POINTER(c_double)]),
    "grit_default_cell_ctrl_def": (CellCtrlDef, []),
    "grit_cell_ctrl_set": (c_int, [S, POINTER(CellCtrlDef)]),
    "grit_cell_ctrl_clear": (c_int, [S]),
    "grit_cell_ctrl_get": (c_int, [S, POINTER(CellCtrlDef)]),
    "grit_cell_ctrl_get_state": (c_int, [S, POINTER(CellCtrlState)]),
    "grit_cell_ctrl_run": (c_int, [S, c_long, POINTER(c_long)]),
    "grit_stress": (c_int, [S, POINTER(c_double)]),
    "grit_stress_box": (c_int, [S, Vec3, Vec3, POINTER(c_double)]),
    # law tester
    "grit_tester_create": (c_void_p, [S, c_int, c_int, c_void_p]),
    "grit_tester_destroy": (None, [c_void_p]),
    "grit_default_tester_stage": (TesterStage, []),
    "grit_tester_cond_parse": (c_int, [c_char_p, POINTER(TesterCond), c_char_p, c_size_t]),
    "grit_tester_add_stage": (c_int, [c_void_p, POINTER(TesterStage)]),
    "grit_tester_stage_count": (c_int, [c_void_p]),
    "grit_tester_step": (c_int, [c_void_p, c_long]),
    "grit_tester_run": (c_long, [c_void_p, c_long]),
    "grit_tester_done": (ctypes.c_bool, [c_void_p]),
    "grit_tester_get_state": (POINTER(TesterState), [c_void_p]),
    "grit_tester_record_columns": (c_int, [c_void_p]),
    "grit_tester_record_column_name": (c_char_p, [c_void_p, c_int]),
    "grit_tester_record_rows": (c_long, [c_void_p]),
    "grit_tester_record_data": (POINTER(c_double), [c_void_p]),
    "grit_tester_write_csv": (c_int, [c_void_p, c_char_p]),
    # arrays
    "grit_array_count": (c_int, []),
    "grit_array_info_at": (POINTER(ArrayInfo), [c_int]),
    "grit_array_find": (c_int, [c_int, c_char_p]),
    "grit_array_get": (c_int, [S, c_int, POINTER(ArrayView)]),
    "grit_array_generation": (c_uint64, [S, c_int]),
    "grit_array_retain": (c_int, [S, c_int, POINTER(ArrayView), POINTER(c_void_p)]),
    "grit_array_release": (None, [c_void_p]),
    "grit_array_kept": (c_int, []),
}

# STL meshes and VTK series (include/grit/stl.h, include/grit/io.h)
PROTOTYPES.update({
    "grit_default_stl_def": (StlDef, []),
    "grit_load_stl": (c_int, [S, c_char_p, POINTER(StlDef), POINTER(StlInfo)]),
    "grit_stl_read": (c_int, [c_char_p, c_double, Quat, Vec3, POINTER(StlMesh), c_char_p, ctypes.c_size_t]),
    "grit_stl_mesh_free": (None, [POINTER(StlMesh)]),
    "grit_vtk_series_create": (c_void_p, [c_char_p, c_int]),
    "grit_vtk_series_write": (c_int, [c_void_p, S]),
    "grit_vtk_series_frames": (c_int, [c_void_p]),
    "grit_vtk_series_destroy": (None, [c_void_p]),
})


# dense packings: the compaction, packings, regions and clipping (include/grit/pack.h)
R = c_void_p  # grit_region *
PROTOTYPES.update({
    "grit_default_pack_opts": (PackOpts, []),
    "grit_pack_check": (c_int, [c_void_p, POINTER(Psd), c_char_p, c_size_t]),
    "grit_pack_dense": (c_int, [c_void_p, POINTER(PackOpts), POINTER(Packing), c_char_p, c_size_t]),
    "grit_packing_free": (None, [POINTER(Packing)]),
    "grit_packing_sphere_volume": (c_double, [POINTER(Packing)]),
    "grit_packing_max_overlap": (c_double, [POINTER(Packing), POINTER(c_int), POINTER(c_int)]),
    "grit_packing_save": (c_int, [POINTER(Packing), c_char_p, c_char_p, c_size_t]),
    "grit_packing_load": (c_int, [c_char_p, POINTER(Packing), c_char_p, c_size_t]),
    "grit_region_create": (c_int, [c_void_p, c_char_p, POINTER(R), c_char_p, c_size_t]),
    "grit_region_predicate": (c_int, [REGION_FN, c_void_p, Vec3, Vec3, c_double, POINTER(R), c_char_p, c_size_t]),
    "grit_region_destroy": (None, [R]),
    "grit_region_contains": (c_int, [R, Vec3, c_double]),
    "grit_region_volume": (c_double, [R]),
    "grit_region_bounds": (None, [R, POINTER(Vec3), POINTER(Vec3)]),
    "grit_region_describe": (c_char_p, [R]),
    "grit_packing_clip": (c_int, [POINTER(Packing), R, ctypes.c_bool, Vec3, POINTER(Packing), c_char_p, c_size_t]),
})


def installed_path(name):
    """A file installed with this package (LIBRARY, PROGRAM), as grit/_paths.py
    names it relative to the package; None in a source tree."""
    try:
        from . import _paths
    except ImportError:
        return None
    rel = getattr(_paths, name, None)
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), rel)) if rel else None


def candidates():
    """Paths tried for libgrit.so, in order, as (path, where-it-came-from)."""
    env = os.environ.get("GRIT_LIB")
    if env:
        return [(env, "GRIT_LIB")]
    out = []
    installed = installed_path("LIBRARY")
    if installed:
        out.append((installed, "installed with the package (grit/_paths.py)"))
    root = pathlib.Path(__file__).resolve().parent.parent.parent
    if (root / "CMakeLists.txt").exists():
        out.append((str(root / "build" / "libgrit.so"), "the source tree's build directory"))
    found = ctypes.util.find_library("grit")
    if found:
        out.append((found, "the system library path"))
    return out


class Lib:
    """The loaded library: C functions as attributes, plus the reflected constants."""

    def __init__(self):
        tried = []
        self.cdll = None
        for path, where in candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(f"{path} ({where}): no such file")
                continue
            try:
                self.cdll = ctypes.CDLL(path)
                self.path = path
                break
            except OSError as e:
                tried.append(f"{path} ({where}): {e}")
        if self.cdll is None:
            raise LibraryNotFoundError(
                "grit: cannot load the shared library libgrit.so; tried: " + "; ".join(tried) +
                ". Build it (cmake -S . -B build && cmake --build build, in the grit source tree) "
                "or set GRIT_LIB to the path of libgrit.so.")
        missing = []
        for name, (restype, argtypes) in PROTOTYPES.items():
            try:
                fn = getattr(self.cdll, name)
            except AttributeError:
                missing.append(name)
                continue
            fn.restype, fn.argtypes = restype, argtypes
            setattr(self, name, fn)
        if missing:
            raise LibraryNotFoundError(f"grit: {self.path} lacks {', '.join(missing)}: it is older than this "
                                       "Python package; rebuild it")
        for cname, mirror in MIRRORS.items():
            size = self.grit_reflect_sizeof(cname.encode())
            if size != ctypes.sizeof(mirror):
                raise LibraryNotFoundError(f"grit: {self.path} has sizeof({cname}) = {size}, the Python package "
                                           f"expects {ctypes.sizeof(mirror)}: rebuild the library or update "
                                           f"grit/_lib.py")
        self.const = {self.grit_reflect_constant_name(i).decode(): self.grit_reflect_constant_value(i)
                      for i in range(self.grit_reflect_constant_count())}
        self.status_names = {v: k for k, v in self.const.items() if k.startswith("GRIT_E") and k != "GRIT_E_COUNT"}

    def optional(self, name, restype, argtypes):
        """A C function that only newer libraries have (None if absent)."""
        fn = getattr(self.cdll, name, None)
        if fn is not None:
            fn.restype, fn.argtypes = restype, argtypes
        return fn

    def error(self, status, message):
        """The exception for a negative grit_status and its message."""
        cls = BY_STATUS.get(self.status_names.get(status, ""), GritError)
        return cls(message)


_lib = None


def get():
    """The loaded library (loaded on first call; LibraryNotFoundError if it cannot be)."""
    global _lib
    if _lib is None:
        _lib = Lib()
    return _lib


def text(b):
    return b.decode() if b is not None else None


little_endian = sys.byteorder == "little"


# the uniaxial test of concrete specimens (include/grit/uniax.h)
class UniaxSpecimen(ctypes.Structure):
    _fields_ = [("packing", POINTER(Packing)), ("mat_type", c_int), ("mat", c_void_p), ("law", c_void_p),
                ("region", c_void_p)]


class UniaxCurve(ctypes.Structure):
    _fields_ = [("n", c_int), ("cap", c_int)] + [(k, POINTER(c_double)) for k in
                                                 ("strain", "stress", "time", "omega", "lateral")]


class UniaxState(ctypes.Structure):
    _fields_ = [("run", c_int), ("step", c_long), ("strain", c_double), ("stress", c_double), ("peak", c_double),
                ("mean_omega", c_double), ("cracked", c_int), ("contacts", c_int), ("stop", c_int),
                ("scene", c_void_p)]


UNIAX_MONITOR_FN = ctypes.CFUNCTYPE(c_int, POINTER(UniaxState), c_void_p)


class UniaxOpts(ctypes.Structure):
    _fields_ = [("monitor", UNIAX_MONITOR_FN), ("monitor_data", c_void_p), ("monitor_every", c_int)]


UNIAX_RESULT_FIGURES = ["length", "area", "dt", "young", "young_tension", "young_compression", "young_regression",
                        "poisson", "ft", "eps_ft", "fc", "eps_fc", "fc_ft", "gf", "gf_norm", "confinement"]


class UniaxResult(ctypes.Structure):
    _fields_ = [("axis", c_int), ("spheres", c_int), ("support_neg", c_int), ("support_pos", c_int), ("bonds", c_int),
                ("bonds_per_sphere", c_double), ("bonds_per_sphere_interior", c_double), ("interior", c_int)] + \
               [(k, c_double) for k in UNIAX_RESULT_FIGURES] + \
               [("steps_tension", c_long), ("steps_compression", c_long), ("stop_tension", c_int),
                ("stop_compression", c_int), ("cpu_tension", c_double), ("cpu_compression", c_double),
                ("tension", UniaxCurve), ("compression", UniaxCurve)]


MIRRORS.update({"grit_uniax_specimen": UniaxSpecimen, "grit_uniax_curve": UniaxCurve, "grit_uniax_state": UniaxState,
                "grit_uniax_opts": UniaxOpts, "grit_uniax_result": UniaxResult})
PD = POINTER(c_double)
PROTOTYPES.update({
    "grit_default_uniax_opts": (UniaxOpts, []),
    "grit_uniax_check": (c_int, [POINTER(UniaxSpecimen), c_void_p, c_char_p, c_size_t]),
    "grit_uniax_run": (c_int, [POINTER(UniaxSpecimen), c_void_p, POINTER(UniaxOpts), POINTER(UniaxResult), c_char_p,
                               c_size_t]),
    "grit_uniax_periodic_run": (c_int, [POINTER(UniaxSpecimen), c_void_p, POINTER(UniaxOpts), POINTER(UniaxResult),
                                        c_char_p, c_size_t]),
    "grit_uniax_result_free": (None, [POINTER(UniaxResult)]),
    "grit_uniax_peak": (c_int, [PD, c_int, c_int]),
    "grit_uniax_fit_young": (c_int, [PD, PD, c_int, c_int, c_double, PD, c_char_p, c_size_t]),
    "grit_uniax_fracture_energy": (c_int, [PD, PD, c_int, c_double, PD, c_char_p, c_size_t]),
    "grit_uniax_poisson": (c_int, [POINTER(Vec3), POINTER(Vec3), c_int, c_int, Vec3, Vec3, PD, PD, c_char_p,
                                   c_size_t]),
    "grit_uniax_hull_section": (c_int, [POINTER(Vec3), PD, c_int, c_int, c_double, c_double, c_int, ctypes.c_bool,
                                        PD, PD, c_char_p, c_size_t]),
})
