#include <stdio.h>
#include "grit/grit.h"
int main(void) { printf("grit %s\n", GRIT_VERSION); return 0; }
