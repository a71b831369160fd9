/* grit: a discrete element method engine. Umbrella header.
 * Copyright (c) 2026 the grit developers; MIT licence (LICENSE). */
#ifndef GRIT_GRIT_H
#define GRIT_GRIT_H

#include "grit/version.h"
#include "grit/math.h"
#include "grit/params.h"
#include "grit/restart.h"
#include "grit/scene.h"
#include "grit/tester.h"
#include "grit/shapes.h"
#include "grit/clump.h"
#include "grit/stress.h"
#include "grit/kuhn.h"
#include "grit/concrete.h"
#include "grit/stl.h"
#include "grit/io.h"
#include "grit/cell.h"
#include "grit/pack.h"
#include "grit/uniax.h"
#include "grit/calibrate.h"
#include "grit/inlet.h"
#include "grit/outlet.h"

#endif
