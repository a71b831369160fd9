/* grit fuzz harnesses (libFuzzer): the loaders read files, so each input is
 * written to a private temporary file and loaded from there. */
#ifndef GRIT_FUZZ_COMMON_H
#define GRIT_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fuzz_file(const uint8_t *data, size_t size, const char *ext)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/grit-fuzz-%d%s", (int)getpid(), ext);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    fclose(f);
    return path;
}

/* A message is one printable line. */
static void fuzz_check_message(const char *m)
{
    for (const unsigned char *c = (const unsigned char *)m; *c; c++)
        if (*c == '\n') abort();
}

#endif
