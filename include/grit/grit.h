/* grit: a discrete element method engine. Umbrella header. */
#ifndef GRIT_GRIT_H
#define GRIT_GRIT_H

#define GRIT_VERSION "0.1.0"

#include "grit/math.h"
#include "grit/params.h"
#include "grit/restart.h"
#include "grit/scene.h"
#include "grit/tester.h"
#include "grit/shapes.h"
#include "grit/stress.h"
#include "grit/kuhn.h"
#include "grit/concrete.h"
#include "grit/stl.h"
#include "grit/cell.h"
#include "grit/pack.h"
#include "grit/uniax.h"
#include "grit/calibrate.h"
#include "grit/inlet.h"
#include "grit/stress.h"

#endif
