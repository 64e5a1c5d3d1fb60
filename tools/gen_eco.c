/* SPDX-License-Identifier: MIT */
/* Generates src/opening/eco_table.inc from the lichess opening table (a.tsv ... e.tsv, columns
 * eco, name, pgn): each line's moves are played from the start position and the position reached
 * is packed (src/opening/eco_pack.c) and sorted by Zobrist key. Usage (make eco-table):
 *   gen_eco "SOURCE NOTE" a.tsv b.tsv ... > src/opening/eco_table.inc */
#define _POSIX_C_SOURCE 200809L
#include "pgnkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/opening/opening_internal.h"

#define MAX_LINES 8192

typedef struct line {
    char eco[4];
    char *name;
    unsigned family_len, plies;
} line;

static line lines[MAX_LINES];
static pgnk_eco_pos positions[MAX_LINES];
static size_t nlines;

static int fail(const char *file, size_t lineno, const char *msg) {
    fprintf(stderr, "gen_eco: %s:%zu: %s\n", file, lineno, msg);
    return 1;
}

/* Plays the movetext pgn ("1. e4 e5 2. Nf3") from the start; 0 on success. */
static int play_line(char *pgn, pgn_pos *pos, unsigned *plies) {
    pgn_pos_init(pos);
    *plies = 0;
    for (char *tok = strtok(pgn, " \r\n"); tok; tok = strtok(NULL, " \r\n")) {
        if (tok[strlen(tok) - 1] == '.') {
            continue;
        }
        pgn_san_result r;
        if (pgn_san_parse(pos, tok, strlen(tok), 0, &r) != PGN_OK) {
            return 1;
        }
        pgn_pos_play(pos, r.move);
        ++*plies;
    }
    return 0;
}

static int read_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        return fail(path, 0, "cannot open");
    }
    char buf[4096];
    size_t lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        if (++lineno == 1) {
            continue; /* the header: eco name pgn */
        }
        char *name = strchr(buf, '\t'), *pgn = name ? strchr(name + 1, '\t') : NULL;
        if (!pgn || name - buf != 3 || nlines == MAX_LINES) {
            fclose(f);
            return fail(path, lineno, "not a line of eco, name and pgn");
        }
        *name++ = 0;
        *pgn++ = 0;
        line *l = &lines[nlines];
        memcpy(l->eco, buf, 4);
        l->name = strdup(name);
        char *colon = strstr(name, ": ");
        l->family_len = (unsigned)(colon ? (size_t)(colon - name) : strlen(name));
        pgn_pos pos;
        if (!l->name || play_line(pgn, &pos, &l->plies)) {
            fclose(f);
            return fail(path, lineno, "bad move");
        }
        pgnk_eco_pack(&pos, &positions[nlines]);
        positions[nlines].line = (uint16_t)nlines;
        nlines++;
    }
    fclose(f);
    return 0;
}

static int by_key(const void *a, const void *b) {
    const pgnk_eco_pos *x = a, *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return x->line < y->line ? -1 : x->line > y->line;
}

static int same_pos(const pgnk_eco_pos *x, const pgnk_eco_pos *y) {
    return x->key == y->key && x->occ == y->occ && x->lo == y->lo && x->hi == y->hi &&
           x->meta == y->meta;
}

/* Writes s as a C string literal, bytes outside printable ASCII as three-digit octal escapes. */
static void c_string(const char *s) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' || *p == '?') {
            printf("\\%03o", *p);
        } else {
            putchar(*p);
        }
    }
    putchar('"');
}

/* Bit m of the table: some table position has its home pawns (White's on rank 2: bits 0-7, Black's
 * on rank 7: bits 8-15) within m. Pawns never come back home, so a game whose home pawns are m
 * can still reach a table position only if the bit is set. */
static void write_home_reach(size_t npos) {
    static uint64_t reach[1024];
    memset(reach, 0, sizeof reach);
    for (size_t i = 0; i < npos; i++) {
        const pgnk_eco_pos *p = &positions[i];
        unsigned home = 0, n = 0;
        for (uint64_t occ = p->occ; occ; occ &= occ - 1, n++) {
            unsigned sq = (unsigned)__builtin_ctzll(occ);
            unsigned nib = (unsigned)((n < 16 ? p->lo >> (4 * n) : p->hi >> (4 * (n - 16))) & 15);
            if (sq >= 8 && sq < 16 && nib == 1) {
                home |= 1u << (sq - 8);
            } else if (sq >= 48 && sq < 56 && nib == 9) {
                home |= 1u << (sq - 40);
            }
        }
        reach[home >> 6] |= UINT64_C(1) << (home & 63);
    }
    for (unsigned bit = 0; bit < 16; bit++) { /* every superset of a set mask */
        for (unsigned m = 0; m < 65536; m++) {
            if ((m >> bit) & 1 && (reach[(m ^ (1u << bit)) >> 6] >> ((m ^ (1u << bit)) & 63)) & 1) {
                reach[m >> 6] |= UINT64_C(1) << (m & 63);
            }
        }
    }
    printf("\nstatic const uint64_t eco_home_reach[1024] = {");
    for (unsigned i = 0; i < 1024; i++) {
        printf("%sUINT64_C(0x%016llx),", i % 3 ? " " : "\n    ", (unsigned long long)reach[i]);
    }
    printf("\n};\n");
}

static void write_table(const char *note) {
    printf(
        "/* SPDX-License-Identifier: CC0-1.0 */\n/* Generated by tools/gen_eco.c (make eco-table); "
        "do not edit.\n * Source: %s */\n\n",
        note);
    unsigned min_pieces = 32;
    size_t npos = 0;
    qsort(positions, nlines, sizeof positions[0], by_key);
    for (size_t i = 0; i < nlines; i++) {
        if (npos == 0 || !same_pos(&positions[npos - 1], &positions[i])) {
            positions[npos++] = positions[i]; /* the first line of a position wins */
        }
        unsigned n = (unsigned)__builtin_popcountll(positions[i].occ);
        min_pieces = n < min_pieces ? n : min_pieces;
    }
    printf("#define ECO_LINES %zu\n#define ECO_POSITIONS %zu\n#define ECO_MIN_PIECES %uu\n\n",
           nlines, npos, min_pieces);
    printf("static const pgn_opening eco_lines[ECO_LINES] = {\n");
    for (size_t i = 0; i < nlines; i++) {
        printf("    {\"%s\", ", lines[i].eco);
        c_string(lines[i].name);
        printf(", %u, %u},\n", lines[i].family_len, lines[i].plies);
    }
    printf("};\n\nstatic const pgnk_eco_pos eco_positions[ECO_POSITIONS] = {\n");
    for (size_t i = 0; i < npos; i++) {
        const pgnk_eco_pos *p = &positions[i];
        printf("    {UINT64_C(0x%016llx), UINT64_C(0x%016llx), UINT64_C(0x%016llx), "
               "UINT64_C(0x%016llx), %u, %u},\n",
               (unsigned long long)p->key, (unsigned long long)p->occ, (unsigned long long)p->lo,
               (unsigned long long)p->hi, p->meta, p->line);
    }
    /* eco_buckets[b]: the first position whose key's top ECO_BUCKET_BITS bits are >= b, so that a
     * lookup reads one short run of the sorted table instead of binary-searching all of it */
    printf("};\n\n#define ECO_BUCKET_BITS 12\n\nstatic const uint16_t eco_buckets[(1u << "
           "ECO_BUCKET_BITS) + 1] = {");
    size_t at = 0;
    for (size_t b = 0; b <= 4096; b++) {
        while (at < npos && (positions[at].key >> 52) < b) {
            at++;
        }
        printf("%s%zu,", b % 12 ? " " : "\n    ", at);
    }
    printf("\n};\n");
    write_home_reach(npos);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: gen_eco SOURCE-NOTE FILE.tsv...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (read_file(argv[i])) {
            return 1;
        }
    }
    write_table(argv[1]);
    for (size_t i = 0; i < nlines; i++) {
        free(lines[i].name);
    }
    return 0;
}
