/* SPDX-License-Identifier: MIT */
/* A small, deliberately simple main-line SAN tokenizer for clean PGN files such as the TWIC
 * issues in corpus/big/twic/ (shared by tests/unit/test_oracle.c and bench/bench_perft.c; both
 * include it by relative path). It is NOT a PGN parser: it skips tag lines `[...]`, `{...}`
 * comments, `;` and `%` comment lines, `(...)` variations (nested), move numbers (`12.`,
 * `12...`, also glued as `12.e4`), NAGs `$n` and results, and keeps every other token of the
 * main line. A game starts at the first tag line after movetext (or at the file's first tag).
 *
 * The includer must define _POSIX_C_SOURCE (for popen) before its first #include. */
#ifndef PGNKIT_TWIC_TOKENS_H
#define PGNKIT_TWIC_TOKENS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct twic_games {
    char *text; /* the tokens, each NUL-terminated, back to back */
    size_t text_len, text_cap;
    uint32_t *tok; /* tok[i] = offset of token i in text */
    size_t ntok, tok_cap;
    size_t *game; /* game[g] = index of game g's first token; game[ngames] = ntok */
    size_t ngames, game_cap;
} twic_games;

/* Reads a whole stream into a malloc'ed NUL-terminated buffer; NULL on allocation failure. */
static inline char *twic_slurp(FILE *f, size_t *len_out) {
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        return NULL;
    }
    for (;;) {
        if (cap - len < 65536) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            break;
        }
    }
    buf[len] = 0;
    *len_out = len;
    return buf;
}

/* Decompresses a .gz file with `gzip -dc` (popen). Returns the text or NULL (missing or
 * unreadable file, gzip failure); the caller frees it. */
static inline char *twic_gunzip(const char *path, size_t *len_out) {
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        return NULL;
    }
    fclose(probe);
    char cmd[4200];
    if (strchr(path, '\'') ||
        (size_t)snprintf(cmd, sizeof cmd, "gzip -dc '%s'", path) >= sizeof cmd) {
        return NULL;
    }
    FILE *p = popen(cmd, "r");
    if (!p) {
        return NULL;
    }
    char *text = twic_slurp(p, len_out);
    int status = pclose(p);
    if (status != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static inline int twic_push_game(twic_games *g) {
    if (g->ngames + 2 > g->game_cap) {
        size_t cap = g->game_cap ? g->game_cap * 2 : 1024;
        size_t *ng = realloc(g->game, cap * sizeof *ng);
        if (!ng) {
            return 0;
        }
        g->game = ng;
        g->game_cap = cap;
    }
    g->game[g->ngames++] = g->ntok;
    g->game[g->ngames] = g->ntok;
    return 1;
}

static inline int twic_push_token(twic_games *g, const char *s, size_t n) {
    if (g->ngames == 0 && !twic_push_game(g)) { /* movetext before any tag */
        return 0;
    }
    if (g->ntok + 1 > g->tok_cap) {
        size_t cap = g->tok_cap ? g->tok_cap * 2 : 65536;
        uint32_t *nt = realloc(g->tok, cap * sizeof *nt);
        if (!nt) {
            return 0;
        }
        g->tok = nt;
        g->tok_cap = cap;
    }
    if (g->text_len + n + 1 > g->text_cap) {
        size_t cap = g->text_cap ? g->text_cap * 2 : 1 << 20;
        while (cap < g->text_len + n + 1) {
            cap *= 2;
        }
        char *nt = realloc(g->text, cap);
        if (!nt) {
            return 0;
        }
        g->text = nt;
        g->text_cap = cap;
    }
    g->tok[g->ntok++] = (uint32_t)g->text_len;
    memcpy(g->text + g->text_len, s, n);
    g->text[g->text_len + n] = 0;
    g->text_len += n + 1;
    g->game[g->ngames] = g->ntok;
    return 1;
}

static inline int twic_is_result(const char *s, size_t n) {
    return (n == 3 && (!memcmp(s, "1-0", 3) || !memcmp(s, "0-1", 3))) ||
           (n == 7 && !memcmp(s, "1/2-1/2", 7)) || (n == 1 && s[0] == '*');
}

static inline int twic_is_delim(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '{' || c == '}' || c == '(' ||
           c == ')' || c == ';' || c == '[' || c == ']' || c == 0;
}

/* Tokenizes text (NUL-terminated) and appends its games to *g. Returns 1, or 0 if out of memory. */
static inline int twic_tokenize(twic_games *g, const char *text) {
    const char *s = text;
    int depth = 0, at_line_start = 1, seen_movetext = 1; /* so the first tag starts a game */
    while (*s) {
        char c = *s;
        if (c == '\n') {
            at_line_start = 1;
            s++;
            continue;
        }
        if (at_line_start && depth == 0 && (c == '[' || c == '%')) {
            if (c == '[' && seen_movetext) {
                if (!twic_push_game(g)) {
                    return 0;
                }
                seen_movetext = 0;
            }
            while (*s && *s != '\n') {
                s++;
            }
            continue;
        }
        at_line_start = 0;
        if (c == ' ' || c == '\t' || c == '\r' || c == ']' || c == '[' || c == '}') {
            s++;
        } else if (c == '{') {
            while (*s && *s != '}') {
                s++;
            }
        } else if (c == ';') {
            while (*s && *s != '\n') {
                s++;
            }
        } else if (c == '(') {
            depth++;
            s++;
        } else if (c == ')') {
            depth -= depth > 0;
            s++;
        } else {
            const char *b = s;
            while (!twic_is_delim(*s)) {
                s++;
            }
            if (depth > 0) {
                continue;
            }
            seen_movetext = 1;
            size_t n = (size_t)(s - b);
            if (b[0] == '$' || twic_is_result(b, n)) {
                continue;
            }
            if (b[0] >= '0' && b[0] <= '9') { /* move number, maybe glued to the move: 12.e4 */
                size_t k = 0;
                while (k < n && b[k] >= '0' && b[k] <= '9') {
                    k++;
                }
                if (k < n && b[k] == '.') {
                    while (k < n && b[k] == '.') {
                        k++;
                    }
                    b += k;
                    n -= k;
                }
            }
            size_t k = 0;
            while (k < n && (b[k] == '!' || b[k] == '?')) {
                k++;
            }
            if (k == n) { /* nothing left, or a free-standing annotation glyph */
                continue;
            }
            if (!twic_push_token(g, b, n)) {
                return 0;
            }
        }
    }
    return 1;
}

/* Reads and tokenizes a gzip'ed PGN file. Returns 1, or 0 if the file is missing or unreadable. */
static inline int twic_load_gz(twic_games *g, const char *path) {
    size_t len = 0;
    char *text = twic_gunzip(path, &len);
    if (!text) {
        return 0;
    }
    int ok = twic_tokenize(g, text);
    free(text);
    return ok;
}

static inline size_t twic_game_plies(const twic_games *g, size_t game) {
    return g->game[game + 1] - g->game[game];
}

static inline const char *twic_token(const twic_games *g, size_t game, size_t ply) {
    return g->text + g->tok[g->game[game] + ply];
}

/* Length of a SAN token without its trailing annotation glyphs (!, ?, !!, ?!, ...). */
static inline size_t twic_san_len(const char *tok) {
    size_t n = strlen(tok);
    while (n > 0 && (tok[n - 1] == '!' || tok[n - 1] == '?')) {
        n--;
    }
    return n;
}

static inline void twic_free(twic_games *g) {
    free(g->text);
    free(g->tok);
    free(g->game);
    memset(g, 0, sizeof *g);
}

#endif
