/* SPDX-License-Identifier: MIT */
/* Support code shared by the unit tests (see testutil.h). */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include "harness.h"
#include "pgnkit/reader.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Room for n more bytes and the NUL. */
static void reserve(buf *b, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *p = realloc(b->p, cap);
        if (!p) {
            printf("FAIL out of memory\n");
            exit(1);
        }
        b->p = p;
        b->cap = cap;
    }
}

void buf_put(buf *b, const void *s, size_t n) {
    reserve(b, n);
    if (n) {
        memcpy(b->p + b->len, s, n);
    }
    b->len += n;
    b->p[b->len] = 0;
}

void buf_str(buf *b, const char *s) {
    buf_put(b, s, strlen(s));
}

void buf_printf(buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0) {
        buf_put(b, "", 0);
        return;
    }
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

ptrdiff_t buf_write(void *ctx, const void *data, size_t len) {
    buf_put(ctx, data, len);
    return (ptrdiff_t)len;
}

void buf_free(buf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

int buf_slurp(FILE *f, buf *out) {
    char tmp[1 << 16];
    size_t n;
    buf_put(out, "", 0);
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) {
        buf_put(out, tmp, n);
    }
    return !ferror(f);
}

int buf_read_path(const char *path, buf *out) {
    FILE *f = fopen(path, "rb");
    memset(out, 0, sizeof *out);
    if (!f) {
        return 0;
    }
    int ok = buf_slurp(f, out);
    ok = fclose(f) == 0 && ok;
    return ok;
}

char *buf_read_file(const char *path, size_t *len) {
    buf b;
    if (!buf_read_path(path, &b)) {
        buf_free(&b);
        return NULL;
    }
    if (len) {
        *len = b.len;
    }
    return b.p;
}

int buf_load_shared(const char *rel, buf *out) {
    char path[4096], cmd[4200];
    snprintf(path, sizeof path, "%s", harness_shared(rel));
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        harness_fail(__FILE__, __LINE__, "missing corpus file %s", path);
        return 0;
    }
    size_t n = strlen(path);
    int ok;
    if (n > 3 && strcmp(path + n - 3, ".gz") == 0) {
        fclose(f);
        if (strchr(path, '\'')) {
            harness_fail(__FILE__, __LINE__, "quote in path %s", path);
            return 0;
        }
        snprintf(cmd, sizeof cmd, "gzip -dc '%s'", path);
        FILE *p = popen(cmd, "r");
        ok = p && buf_slurp(p, out);
        ok = p && pclose(p) == 0 && ok;
    } else {
        ok = buf_slurp(f, out);
        ok = fclose(f) == 0 && ok;
    }
    if (!ok) {
        harness_fail(__FILE__, __LINE__, "cannot read corpus file %s", path);
        buf_free(out);
    }
    return ok;
}

/* ---- text ---- */

size_t slice_games(const char *p, size_t len, uint64_t n) {
    uint64_t seen = 0;
    for (size_t i = 0; i + 7 <= len; i++) {
        if ((i == 0 || p[i - 1] == '\n') && memcmp(p + i, "[Event ", 7) == 0 && seen++ == n) {
            return i;
        }
    }
    return len;
}

int split_tabs(char *line, char **fields, int max) {
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p && n < max; p++) {
        if (*p == '\t') {
            *p = '\0';
            fields[n++] = p + 1;
        }
    }
    return n;
}

/* ---- a failing, counting allocator ---- */

static void *ta_malloc(void *ctx, size_t size) {
    limit_alloc *a = ctx;
    if (a->left == 0) {
        return NULL;
    }
    a->left -= a->left > 0;
    void *p = malloc(size);
    a->live += p != NULL;
    return p;
}

static void *ta_realloc(void *ctx, void *ptr, size_t old, size_t size) {
    limit_alloc *a = ctx;
    (void)old;
    if (a->left == 0) {
        return NULL;
    }
    a->left -= a->left > 0;
    void *p = realloc(ptr, size);
    a->live += p != NULL && ptr == NULL;
    return p;
}

static void ta_free(void *ctx, void *ptr) {
    limit_alloc *a = ctx;
    a->live -= ptr != NULL;
    free(ptr);
}

pgn_allocator limit_allocator(limit_alloc *ta) {
    pgn_allocator al = {ta_malloc, ta_realloc, ta_free, ta};
    return al;
}

void read_game_text(pgn_game *g, const char *text) {
    pgn_reader *r;
    CHECK(pgn_reader_new_mem(&r, NULL, text, strlen(text)) == PGN_OK);
    CHECK(pgn_reader_next(r, g) == PGN_OK);
    pgn_reader_free(r);
}

size_t buf_main_line(buf *b, const pgn_game *g) {
    char fen[PGN_FEN_MAX], uci[PGN_UCI_MAX];
    pgn_pos pos = *pgn_game_start(g);
    size_t plies = 0;
    pgn_fen_write(&pos, PGN_FEN_EPD, fen, sizeof fen);
    buf_printf(b, "%s|", fen);
    for (const pgn_node *n = pgn_node_child(pgn_game_root(g)); n; n = pgn_node_child(n)) {
        pgn_uci_write(&pos, pgn_node_move(n), uci);
        buf_printf(b, " %s", uci);
        pgn_pos_play(&pos, pgn_node_move(n));
        plies++;
    }
    return plies;
}

/* Calls fn(path, ctx) on every file of dir whose name ends in suffix (NULL: any name not
 * starting with '.'), in subfolders too if recurse; returns the sum of what fn returns. A folder
 * that cannot be listed is a failure. */
unsigned tu_each_file(const char *dir, const char *suffix, int recurse,
                      unsigned (*fn)(const char *path, void *ctx), void *ctx) {
    DIR *d = opendir(dir);
    unsigned n = 0;
    if (!d) {
        harness_fail(__FILE__, __LINE__, "cannot list %s", dir);
        return 0;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[1400];
        struct stat st;
        size_t nl = strlen(e->d_name), sl = suffix ? strlen(suffix) : 0;
        if (e->d_name[0] == '.') {
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (recurse && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            n += tu_each_file(path, suffix, recurse, fn, ctx);
            continue;
        }
        if (suffix && (nl <= sl || strcmp(e->d_name + nl - sl, suffix) != 0)) {
            continue;
        }
        n += fn(path, ctx);
    }
    closedir(d);
    return n;
}
