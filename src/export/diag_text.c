/* SPDX-License-Identifier: MIT */
/* A diagnostic's text line (include/pgnkit/json.h, pgn_diag_text; issue 29 point 3, from
 * cli/messages.c): GCC's "FILE:LINE:COLUMN: SEVERITY: MESSAGE" with the detail, the token made
 * safe for a terminal, the suggested or played move, the code's name and the game's number,
 * given to the callback in one piece when it fits 4 KB (so one write to an unbuffered stderr). */
#include "pgnkit/json.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

typedef struct line_out {
    pgn_write_fn fn;
    void *ctx;
    pgn_status err;
    size_t len;
    char buf[4096];
} line_out;

static void flush(line_out *o) {
    if (o->len > 0 && o->err == PGN_OK && o->fn(o->ctx, o->buf, o->len) != (ptrdiff_t)o->len) {
        o->err = PGN_E_IO;
    }
    o->len = 0;
}

static void put(line_out *o, const char *s, size_t n) {
    while (n > 0) {
        if (o->len == sizeof o->buf) {
            flush(o);
        }
        size_t k = n < sizeof o->buf - o->len ? n : sizeof o->buf - o->len;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

static void puts0(line_out *o, const char *s) {
    put(o, s, strlen(s));
}

/* The token with control bytes and UTF-8's C1 controls (U+009B is CSI on some terminals) as
 * spaces; its length. */
static size_t safe_token(char *dst, const char *src) {
    const unsigned char *p = (const unsigned char *)src;
    size_t k = 0;
    for (size_t i = 0; p[i]; i++) {
        unsigned c = p[i];
        if (c == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) {
            dst[k++] = ' ';
            i++;
        } else {
            dst[k++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
        }
    }
    dst[k] = '\0';
    return k;
}

/* " (replaced by Bb5)", ": did you mean Bb5?", ": did you mean Bb5 or Bc4?" (the two best), or
 * nothing. */
static void suggestions(line_out *o, const pgn_diag *d) {
    if (d->replacement[0]) {
        puts0(o, " (replaced by ");
        put(o, d->replacement, strlen(d->replacement));
        puts0(o, ")");
    } else if (d->suggestions[0]) {
        size_t all = strlen(d->suggestions);
        const char *sp = memchr(d->suggestions, ' ', all);
        puts0(o, ": did you mean ");
        if (!sp) {
            put(o, d->suggestions, all);
        } else {
            const char *second = sp + 1, *end = d->suggestions + all;
            const char *sp2 = memchr(second, ' ', (size_t)(end - second));
            put(o, d->suggestions, (size_t)(sp - d->suggestions));
            puts0(o, " or ");
            put(o, second, (size_t)((sp2 ? sp2 : end) - second));
        }
        puts0(o, "?");
    }
}

pgn_status pgn_diag_text(const pgn_diag *d, const char *detail, pgn_write_fn fn, void *ctx) {
    assert(d != NULL && fn != NULL);
    line_out o;
    o.fn = fn, o.ctx = ctx, o.err = PGN_OK, o.len = 0;
    char num[96], tok[sizeof d->token];
    puts0(&o, d->source ? d->source : "<stdin>");
    snprintf(num, sizeof num, ":%u:%u: %s: ", (unsigned)d->at.line, (unsigned)d->at.column,
             d->severity == PGN_SEV_ERROR ? "error" : "warning");
    puts0(&o, num);
    puts0(&o, pgn_status_message(d->code));
    if (detail && detail[0]) {
        puts0(&o, ": ");
        puts0(&o, detail);
    }
    if (safe_token(tok, d->token) > 0) {
        puts0(&o, " '");
        puts0(&o, tok);
        puts0(&o, "'");
    }
    suggestions(&o, d);
    snprintf(num, sizeof num, " [%s] (game %llu)\n", pgn_status_name(d->code),
             (unsigned long long)d->game);
    puts0(&o, num);
    flush(&o);
    return o.err;
}
