/* grit internal: every contact law (one header per entry of GRIT_LAWS). */
#ifndef GRIT_LAW2_ALL_H
#define GRIT_LAW2_ALL_H

#include "law2/cpm.h"
#include "law2/hertz.h"
#include "law2/idealelpl.h"
#include "law2/kuhn.h"
#include "law2/linel6.h"

#endif
