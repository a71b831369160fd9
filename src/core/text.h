/* grit internal: untrusted text as it may appear in a one-line message. */
#ifndef GRIT_TEXT_H
#define GRIT_TEXT_H

#include <stddef.h>

/* Copy at most `n` bytes of `in` (stopping at a NUL) into `out` so that a
 * message quoting it stays one printable line: bytes outside printable ASCII
 * become \xNN, and text longer than fits ends in "...". A file's raw bytes
 * (a NUL block, binary garbage, an escape sequence) would otherwise reach the
 * terminal. Returns out. */
const char *grit_text_quote(const char *in, size_t n, char *out, size_t outlen);

#endif
