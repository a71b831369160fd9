/* grit: quoting untrusted text for messages (text.h). */
#include "core/text.h"

#include <stdio.h>
#include <string.h>

const char *grit_text_quote(const char *in, size_t n, char *out, size_t outlen)
{
    if (!outlen) return out;
    size_t o = 0;
    const size_t room = outlen > 4 ? outlen - 4 : 0; /* "..." and the NUL */
    for (size_t i = 0; i < n && in[i]; i++) {
        const unsigned char c = (unsigned char)in[i];
        char tmp[5];
        size_t k = 1;
        if (c >= 0x20 && c < 0x7f) tmp[0] = (char)c;
        else k = (size_t)snprintf(tmp, sizeof tmp, "\\x%02x", c);
        if (o + k > room) {
            if (outlen > 4) memcpy(out + o, "...", 3), o += 3;
            break;
        }
        memcpy(out + o, tmp, k);
        o += k;
    }
    out[o < outlen ? o : outlen - 1] = '\0';
    return out;
}
