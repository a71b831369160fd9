/* grit: defaults and reflective tables generated from the declarations in
 * scene.h and material.h (one line per parameter, see params.h); those of
 * the material types and the laws are in their own files. */
#include "grit/scene.h"

grit_scene_def grit_default_scene_def(void) { return (grit_scene_def){GRIT_SCENE_PARAMS(GRIT_PARAM_DEFAULT)}; }
grit_pair_def grit_default_pair_def(void) { return (grit_pair_def){GRIT_PAIR_PARAMS(GRIT_PARAM_DEFAULT)}; }

#define SCENE_INFO(...) GRIT_PARAM_INFO(grit_scene_def, __VA_ARGS__)
static const grit_param_info scene_params[] = {GRIT_SCENE_PARAMS(SCENE_INFO)};
const grit_param_table grit_scene_param_table = {"scene", scene_params,
                                                 (int)(sizeof scene_params / sizeof scene_params[0])};

#define PAIR_INFO(...) GRIT_PARAM_INFO(grit_pair_def, __VA_ARGS__)
static const grit_param_info pair_params[] = {GRIT_PAIR_PARAMS(PAIR_INFO)};
const grit_param_table grit_pair_param_table = {"pair", pair_params,
                                                (int)(sizeof pair_params / sizeof pair_params[0])};

grit_sphere_def grit_default_sphere_def(void)
{
    return (grit_sphere_def){
        .pos = v3(0, 0, 0), .vel = v3(0, 0, 0), .angvel = v3(0, 0, 0), .radius = NAN, .material = 0,
        .blocked = 0, .mask = GRIT_MASK_PARTICLE};
}

grit_wall_def grit_default_wall_def(void)
{
    return (grit_wall_def){.coord = 0.0, .axis = 2, .sense = 0, .material = 0, .vel = v3(0, 0, 0),
                           .mask = GRIT_MASK_BOUNDARY};
}

grit_facet_def grit_default_facet_def(void)
{
    return (grit_facet_def){.v = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0)}, .half_thick = 0.0, .material = 0,
                            .vel = v3(0, 0, 0), .mask = GRIT_MASK_BOUNDARY};
}
