/* grit internal: every geometry functor (for the contact loop and dispatch). */
#ifndef GRIT_CG2_ALL_H
#define GRIT_CG2_ALL_H

#include "cg2/capsule_capsule.h"
#include "cg2/capsule_ellipsoid.h"
#include "cg2/ellipsoid_ellipsoid.h"
#include "cg2/facet_capsule.h"
#include "cg2/facet_ellipsoid.h"
#include "cg2/facet_facet.h"
#include "cg2/facet_infcylinder.h"
#include "cg2/facet_sphere.h"
#include "cg2/infcylinder_capsule.h"
#include "cg2/infcylinder_sphere.h"
#include "cg2/rod_sphere.h"
#include "cg2/sphere_capsule.h"
#include "cg2/sphere_ellipsoid.h"
#include "cg2/sphere_sphere.h"
#include "cg2/wall_capsule.h"
#include "cg2/wall_ellipsoid.h"
#include "cg2/wall_facet.h"
#include "cg2/wall_sphere.h"

#endif
