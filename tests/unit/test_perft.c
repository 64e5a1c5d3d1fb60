/* SPDX-License-Identifier: MIT */
/* Perft against every truth table under corpus/perft/, plus per-position round trips:
 * SAN, UCI and FEN write -> parse, and the incremental Zobrist key after every legal move.
 *
 * Normal runs (make check) compute a (position, depth) only when its expected node count is
 * at most PERFT_CAP; PGNKIT_SLOW=1 (make check-slow) runs every depth, and PGNKIT_PERFT_CAP=N
 * sets the cap explicitly (0 = no cap). Lichess-variant files are skipped (counted as skipped).
 * A missing or unreadable corpus is a failure, never a pass. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <pgnkit/chess.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Expected-node cap for make check under ASan (about 20 s on a 2-core machine; full check-slow
 * takes about 21 h under ASan, 7.5 h with -O2, 85% of it python-chess/random.perft depth 6). */
#define PERFT_CAP UINT64_C(500000)
#define MAX_DEPTH 63   /* scalachess's "prison" position goes to depth 32 */
#define MAX_REPORTS 50 /* detailed round-trip failure lines printed in all */

typedef struct entry {
    char fen[256];
    char id[64]; /* python-chess id, or "" for EPD lines */
    unsigned line;
    uint64_t expected[MAX_DEPTH + 1];
    uint64_t present; /* bit d: expected[d] given (0 is a valid count: mate, stalemate) */
} entry;

static uint64_t cap;
static unsigned long deep_entries, positions_total, perft_runs, memo_hits;
static uint64_t nodes_total;
static unsigned long reports;
static double t_start, t_progress;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- memo: each (position, depth) is computed once even when several files repeat it ---- */

typedef struct memo_slot {
    uint64_t hash;
    unsigned depth;
    uint64_t nodes;
    char fen[PGN_FEN_MAX + 2];
} memo_slot;

static memo_slot *memo;
static size_t memo_cap, memo_used;

static uint64_t fnv(const char *s, unsigned depth) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    }
    return (h ^ depth) * UINT64_C(1099511628211);
}

static memo_slot *memo_find(const char *fen, unsigned depth, int *found) {
    if (memo_used * 2 >= memo_cap) {
        size_t old_cap = memo_cap;
        memo_slot *old = memo;
        memo_cap = memo_cap ? memo_cap * 2 : 4096;
        memo = calloc(memo_cap, sizeof *memo);
        if (!memo) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        for (size_t i = 0; i < old_cap; i++) {
            if (old[i].fen[0]) {
                size_t j = old[i].hash & (memo_cap - 1);
                while (memo[j].fen[0]) {
                    j = (j + 1) & (memo_cap - 1);
                }
                memo[j] = old[i];
            }
        }
        free(old);
    }
    uint64_t h = fnv(fen, depth);
    size_t j = h & (memo_cap - 1);
    while (memo[j].fen[0]) {
        if (memo[j].hash == h && memo[j].depth == depth && strcmp(memo[j].fen, fen) == 0) {
            *found = 1;
            return &memo[j];
        }
        j = (j + 1) & (memo_cap - 1);
    }
    *found = 0;
    memo[j].hash = h;
    memo[j].depth = depth;
    snprintf(memo[j].fen, sizeof memo[j].fen, "%s", fen);
    memo_used++;
    return &memo[j];
}

static uint64_t perft_memo(const pgn_pos *pos, unsigned depth) {
    /* Everything perft depends on: placement, side, castling rooks, ep if a pawn stands beside,
     * and the Chess960 flag (castling rules differ). */
    char key[PGN_FEN_MAX + 2];
    size_t n =
        pgn_fen_write(pos, PGN_FEN_SHREDDER | PGN_FEN_EP_PSEUDO | PGN_FEN_EPD, key, PGN_FEN_MAX);
    key[n] = pos->chess960 ? '9' : '0';
    key[n + 1] = 0;
    int found;
    memo_slot *s = memo_find(key, depth, &found);
    if (found) {
        memo_hits++;
        return s->nodes;
    }
    s->nodes = pgn_perft(pos, depth, 1);
    perft_runs++;
    nodes_total += s->nodes;
    return s->nodes;
}

/* ---- round trips ---- */

typedef struct rt_counts {
    unsigned long san, uci, key, fen, legal;
} rt_counts;

static void report(const char *file, const entry *e, const char *what, const char *fen,
                   const char *detail) {
    if (reports++ < MAX_REPORTS) {
        printf("  %s: %s:%u%s%s FEN %s: %s\n", what, file, e->line, e->id[0] ? " id " : "", e->id,
               fen, detail);
    }
}

/* FEN write -> parse -> write must be stable, keep every field and give a consistent key. */
static int fen_roundtrip(const pgn_pos *pos, char *why, size_t cap_why) {
    char a[PGN_FEN_MAX], b[PGN_FEN_MAX];
    size_t na = pgn_fen_write(pos, 0, a, sizeof a);
    pgn_pos q;
    pgn_fen_diag d;
    if (na >= sizeof a) {
        snprintf(why, cap_why, "FEN longer than PGN_FEN_MAX");
        return 0;
    }
    if (pgn_fen_parse(&q, a, na, pos->chess960 ? PGN_FEN_CHESS960 : 0, &d) != PGN_OK) {
        snprintf(why, cap_why, "written FEN \"%s\" does not parse: %s (column %u)", a, d.reason,
                 d.column);
        return 0;
    }
    size_t nb = pgn_fen_write(&q, 0, b, sizeof b);
    if (nb != na || strcmp(a, b) != 0) {
        snprintf(why, cap_why, "FEN \"%s\" rewritten as \"%s\"", a, b);
        return 0;
    }
    if (d.warnings) {
        snprintf(why, cap_why, "written FEN \"%s\" parses with warnings 0x%x", a,
                 (unsigned)d.warnings);
        return 0;
    }
    if (q.key != pgn_pos_compute_key(&q)) {
        snprintf(why, cap_why, "parsed key of \"%s\" differs from pgn_pos_compute_key", a);
        return 0;
    }
    if (pgn_pos_identity_key(&q) != pgn_pos_identity_key(pos)) {
        snprintf(why, cap_why, "identity key changed by FEN round trip \"%s\"", a);
        return 0;
    }
    if (memcmp(q.board, pos->board, sizeof q.board) != 0 || q.castle != pos->castle ||
        q.side != pos->side || q.halfmove != pos->halfmove || q.fullmove != pos->fullmove ||
        q.chess960 != pos->chess960 || q.by_type[0] != pos->by_type[0] ||
        q.by_color[0] != pos->by_color[0]) {
        snprintf(why, cap_why, "fields changed by FEN round trip \"%s\"", a);
        return 0;
    }
    /* Shredder-FEN keeps the same castling rooks. */
    na = pgn_fen_write(pos, PGN_FEN_SHREDDER, a, sizeof a);
    if (pgn_fen_parse(&q, a, na, pos->chess960 ? PGN_FEN_CHESS960 : 0, NULL) != PGN_OK ||
        q.castle != pos->castle) {
        snprintf(why, cap_why, "Shredder-FEN \"%s\" does not round-trip", a);
        return 0;
    }
    return 1;
}

/* The SAN reader's fast path must agree with its general path (PGN_SAN_NO_FAST) on every form
 * of every legal move: canonical, without or with a wrong suffix, with a missing or needless x,
 * over-disambiguated, with the origin square, promotion without =, and pointed at other squares. */
static unsigned san_fast_vs_general(const pgn_pos *pos, pgn_move m, const char *san, size_t ns,
                                    char *why, size_t why_cap) {
    char forms[16][24];
    size_t nf = 0;
    char base[16];
    size_t nb = ns;
    memcpy(base, san, ns + 1);
    while (nb > 0 && (base[nb - 1] == '+' || base[nb - 1] == '#')) {
        base[--nb] = 0;
    }
    unsigned from = PGN_MOVE_FROM(m);
    char ff = (char)('a' + (from & 7)), fr = (char)('1' + (from >> 3));
    snprintf(forms[nf++], 24, "%s", san);
    snprintf(forms[nf++], 24, "%s", base);
    snprintf(forms[nf++], 24, "%s+", base);
    snprintf(forms[nf++], 24, "%s#", base);
    int piece = base[0] >= 'B' && base[0] <= 'R' && base[0] != 'O';
    const char *x = strchr(base, 'x');
    if (x) {
        snprintf(forms[nf++], 24, "%.*s%s", (int)(x - base), base, x + 1); /* without x */
    }
    if (piece) {
        const char *body = base + 1;
        snprintf(forms[nf++], 24, "%c%c%s", base[0], ff, body);
        snprintf(forms[nf++], 24, "%c%c%s", base[0], fr, body);
        snprintf(forms[nf++], 24, "%c%c%c%s", base[0], ff, fr, body);
        if (!x) {
            size_t bl = strlen(base);
            snprintf(forms[nf++], 24, "%.*sx%s", (int)(bl - 2), base, base + bl - 2);
        }
    }
    const char *eq = strchr(base, '=');
    if (eq) {
        snprintf(forms[nf++], 24, "%.*s%s", (int)(eq - base), base, eq + 1);
    }
    /* the same piece letter (or pawn file) aimed at three other squares */
    size_t bl = strlen(base);
    if (!eq && bl >= 2 && base[0] != 'O') {
        for (unsigned k = 0; k < 3 && nf < 16; k++) {
            unsigned sq = (PGN_MOVE_TO(m) + 7 * (k + 1)) & 63;
            snprintf(forms[nf++], 24, "%.*s%c%c", (int)(bl - 2), base, 'a' + (sq & 7),
                     '1' + (sq >> 3));
        }
    }
    static const uint32_t flag_sets[] = {0, PGN_SAN_NO_VERIFY, PGN_SAN_STRICT, PGN_SAN_AUTO_QUEEN};
    unsigned bad = 0;
    for (size_t i = 0; i < nf; i++) {
        for (size_t k = 0; k < sizeof flag_sets / sizeof flag_sets[0]; k++) {
            pgn_san_result a = {0, 0}, b = {0, 0};
            size_t n = strlen(forms[i]);
            pgn_status sa = pgn_san_parse(pos, forms[i], n, flag_sets[k], &a);
            pgn_status sb = pgn_san_parse(pos, forms[i], n, flag_sets[k] | PGN_SAN_NO_FAST, &b);
            if (sa != sb || a.move != b.move || a.warnings != b.warnings) {
                bad++;
                snprintf(why, why_cap,
                         "\"%s\" flags %u: fast status %d move 0x%04x warnings 0x%x, general %d "
                         "0x%04x 0x%x",
                         forms[i], (unsigned)flag_sets[k], (int)sa, a.move, (unsigned)a.warnings,
                         (int)sb, b.move, (unsigned)b.warnings);
            }
        }
    }
    return bad;
}

static void roundtrips(const char *file, const entry *e, const pgn_pos *pos) {
    rt_counts f = {0, 0, 0, 0, 0};
    char fen[PGN_FEN_MAX], why[512];
    pgn_movelist l;
    pgn_fen_write(pos, 0, fen, sizeof fen);
    pgn_pos_legal_moves(pos, &l);
    if (pgn_pos_count_legal(pos) != l.count) {
        f.legal++;
        snprintf(why, sizeof why, "pgn_pos_count_legal %u != %u moves", pgn_pos_count_legal(pos),
                 l.count);
        report(file, e, "legal", fen, why);
    }
    if (pos->key != pgn_pos_compute_key(pos)) {
        f.key++;
        report(file, e, "key", fen, "parsed key != pgn_pos_compute_key");
    }
    if (!fen_roundtrip(pos, why, sizeof why)) {
        f.fen++;
        report(file, e, "fen", fen, why);
    }
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i];
        char san[PGN_SAN_MAX], uci[PGN_UCI_MAX];
        size_t ns = pgn_san_write(pos, m, san);
        size_t nu = pgn_uci_write(pos, m, uci);
        if (!pgn_pos_is_legal(pos, m)) {
            f.legal++;
            snprintf(why, sizeof why, "generated move %s (0x%04x) not pgn_pos_is_legal", uci, m);
            report(file, e, "legal", fen, why);
        }
        pgn_san_result r = {0, 0};
        pgn_status st = pgn_san_parse(pos, san, ns, 0, &r);
        if (ns == 0 || ns >= PGN_SAN_MAX || st != PGN_OK || r.move != m || r.warnings != 0) {
            f.san++;
            snprintf(why, sizeof why,
                     "move %s (0x%04x) SAN \"%s\" parses as status %d move 0x%04x warnings 0x%x",
                     uci, m, san, (int)st, r.move, (unsigned)r.warnings);
            report(file, e, "san", fen, why);
        } else if ((st = pgn_san_parse(pos, san, ns, PGN_SAN_STRICT, &r)) != PGN_OK ||
                   r.move != m) {
            f.san++;
            snprintf(why, sizeof why,
                     "move %s SAN \"%s\" rejected under PGN_SAN_STRICT (status %d)", uci, san,
                     (int)st);
            report(file, e, "san", fen, why);
        }
        if (ns > 0 && ns < PGN_SAN_MAX && san_fast_vs_general(pos, m, san, ns, why, sizeof why)) {
            f.san++;
            report(file, e, "san fast path", fen, why);
        }
        pgn_move back = PGN_MOVE_NONE;
        st = pgn_uci_parse(pos, uci, nu, &back);
        if (nu < 4 || nu >= PGN_UCI_MAX || st != PGN_OK || back != m) {
            f.uci++;
            snprintf(why, sizeof why, "move 0x%04x UCI \"%s\" parses as status %d move 0x%04x", m,
                     uci, (int)st, back);
            report(file, e, "uci", fen, why);
        }
        pgn_pos q = *pos;
        pgn_pos_play(&q, m);
        if (q.key != pgn_pos_compute_key(&q)) {
            f.key++;
            snprintf(why, sizeof why, "after %s (%s) incremental key %016llx != computed %016llx",
                     san, uci, (unsigned long long)q.key,
                     (unsigned long long)pgn_pos_compute_key(&q));
            report(file, e, "key", fen, why);
        }
        pgn_pos u = *pos; /* the unkeyed play: the same position, key 0 */
        pgn_pos_play_unkeyed(&u, m);
        int zero = u.key == 0;
        u.key = q.key;
        if (!zero || memcmp(&u, &q, sizeof u) != 0) {
            f.key++;
            snprintf(why, sizeof why,
                     "after %s (%s) pgn_pos_play_unkeyed differs from pgn_pos_play", san, uci);
            report(file, e, "key", fen, why);
        }
        if (!fen_roundtrip(&q, why, sizeof why)) {
            f.fen++;
            char more[600];
            snprintf(more, sizeof more, "after %s (%s): %s", san, uci, why);
            report(file, e, "fen", fen, more);
        }
    }
    CHECK_EQ_INT(f.san + f.uci, 0);
    CHECK_EQ_INT(f.key + f.fen + f.legal, 0);
}

/* ---- one position ---- */

static int castling_has_letters(const char *fen) {
    /* third field */
    const char *p = fen;
    for (int field = 0; field < 2; field++) {
        p = strchr(p, ' ');
        if (!p) {
            return 0;
        }
        while (*p == ' ') {
            p++;
        }
    }
    for (; *p && *p != ' '; p++) {
        if (*p != 'K' && *p != 'Q' && *p != 'k' && *p != 'q' && *p != '-') {
            return 1;
        }
    }
    return 0;
}

static void run_entry(const char *file, const entry *e, int chess960) {
    pgn_pos pos;
    pgn_fen_diag d;
    uint32_t flags = chess960 || castling_has_letters(e->fen) ? PGN_FEN_CHESS960 : 0;
    pgn_status st = pgn_fen_parse(&pos, e->fen, strlen(e->fen), flags, &d);
    positions_total++;
    if (st != PGN_OK) {
        printf("FEN does not parse at %s:%u%s%s: \"%s\": %s (column %u)\n", file, e->line,
               e->id[0] ? " id " : "", e->id, e->fen, d.reason, d.column);
    }
    CHECK_EQ_INT(st, PGN_OK);
    if (st != PGN_OK) {
        return;
    }
    /* Only missing counters may be tolerated: a dropped castling right or ep square would make
     * the counts meaningless. */
    uint32_t bad = d.warnings & ~PGN_WARN_BIT(PGN_W_FEN_MISSING_COUNTERS);
    if (bad) {
        printf("FEN parsed with warnings 0x%x at %s:%u: \"%s\"\n", (unsigned)bad, file, e->line,
               e->fen);
    }
    CHECK_EQ_INT(bad, 0);
    roundtrips(file, e, &pos);
    int any = 0;
    for (unsigned depth = 1; depth <= MAX_DEPTH; depth++) {
        uint64_t want = e->expected[depth];
        if (!(e->present >> depth & 1)) {
            continue;
        }
        any = 1;
        if (cap && want > cap) {
            deep_entries++;
            continue;
        }
        uint64_t got = perft_memo(&pos, depth);
        if (got != want && harness_counts.failed < 50) {
            printf("perft mismatch %s:%u%s%s depth %u FEN %s: expected %llu, got %llu\n", file,
                   e->line, e->id[0] ? " id " : "", e->id, depth, e->fen, (unsigned long long)want,
                   (unsigned long long)got);
        }
        CHECK_EQ_U64(got, want);
    }
    if (now() - t_progress >= 60) { /* long (check-slow) runs show they are alive */
        t_progress = now();
        printf("INFO progress: %s:%u, %lu positions, %llu nodes, %.0f s\n", file, e->line,
               positions_total, (unsigned long long)nodes_total, t_progress - t_start);
        fflush(stdout);
    }
    if (!any) {
        printf("no perft counts at %s:%u%s%s\n", file, e->line, e->id[0] ? " id " : "", e->id);
    }
    CHECK(any);
}

/* ---- file formats ---- */

static char *rstrip(char *s) {
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) {
        s[--n] = 0;
    }
    while (*s == ' ' || *s == '\t') {
        s++;
    }
    return s;
}

static int parse_u64(const char *s, char **end, uint64_t *out) {
    while (*s == ' ' || *s == '\t') {
        s++;
    }
    if (*s < '0' || *s > '9') {
        return 0;
    }
    *out = strtoull(s, end, 10);
    return 1;
}

static void malformed(const char *file, unsigned line, const char *text) {
    printf("malformed perft line %s:%u: \"%s\"\n", file, line, text);
    harness_fail(__FILE__, __LINE__, "malformed line in %s", file);
}

/* `FEN ;D1 20 ;D2 400 ...`; # comments and blank lines ignored. Returns the position count. */
static unsigned read_epd(const char *file, FILE *f, int chess960, int run) {
    char buf[1024];
    unsigned lineno = 0, n = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        char *s = rstrip(buf);
        if (!*s || *s == '#') {
            continue;
        }
        entry e;
        memset(&e, 0, sizeof e);
        e.line = lineno;
        char *semi = strchr(s, ';');
        if (!semi) {
            malformed(file, lineno, s);
            continue;
        }
        size_t flen = (size_t)(semi - s);
        while (flen > 0 && (s[flen - 1] == ' ' || s[flen - 1] == '\t')) {
            flen--;
        }
        if (flen == 0 || flen >= sizeof e.fen) {
            malformed(file, lineno, s);
            continue;
        }
        memcpy(e.fen, s, flen);
        e.fen[flen] = 0;
        int ok = 1;
        for (char *p = semi; p && *p; p = strchr(p, ';')) {
            p++;
            while (*p == ' ') {
                p++;
            }
            char *end;
            unsigned long depth;
            uint64_t nodes;
            if (*p != 'D' || (depth = strtoul(p + 1, &end, 10)) < 1 || depth > MAX_DEPTH ||
                !parse_u64(end, &end, &nodes) || (*rstrip(end) && *rstrip(end) != ';')) {
                ok = 0;
                break;
            }
            e.expected[depth] = nodes;
            e.present |= UINT64_C(1) << depth;
            p = end;
        }
        if (!ok) {
            malformed(file, lineno, s);
            continue;
        }
        n++;
        if (run) {
            run_entry(file, &e, chess960);
        }
    }
    return n;
}

/* python-chess: `id NAME` / `epd FEN` / `perft DEPTH NODES`, blank-line separated, # comments. */
static unsigned read_perft(const char *file, FILE *f, int chess960, int run) {
    char buf[1024];
    unsigned lineno = 0, n = 0;
    entry e;
    int open = 0, have_epd = 0;
    memset(&e, 0, sizeof e);
    for (;;) {
        char *got = fgets(buf, sizeof buf, f);
        char *s = got ? rstrip(buf) : NULL;
        lineno += got != NULL;
        if (s && *s == '#') {
            continue;
        }
        int is_id = s && strncmp(s, "id ", 3) == 0;
        if (!s || !*s || is_id) { /* a block ends */
            if (have_epd) {
                n++;
                if (run) {
                    run_entry(file, &e, chess960);
                }
            } else if (open) {
                malformed(file, e.line, "block without an epd line");
            }
            open = have_epd = 0;
            memset(&e, 0, sizeof e);
            if (!s) {
                break;
            }
            if (is_id) {
                snprintf(e.id, sizeof e.id, "%s", rstrip(s + 3));
                e.line = lineno;
                open = 1;
            }
            continue;
        }
        if (strncmp(s, "epd ", 4) == 0 && !have_epd) {
            snprintf(e.fen, sizeof e.fen, "%s", rstrip(s + 4));
            if (!open) {
                e.line = lineno;
            }
            open = have_epd = 1;
            continue;
        }
        if (strncmp(s, "perft ", 6) == 0 && have_epd) {
            char *end;
            unsigned long depth = strtoul(s + 6, &end, 10);
            uint64_t nodes;
            if (depth >= 1 && depth <= MAX_DEPTH && parse_u64(end, &end, &nodes) && !*rstrip(end)) {
                e.expected[depth] = nodes;
                e.present |= UINT64_C(1) << depth;
                continue;
            }
        }
        malformed(file, lineno, s);
    }
    return n;
}

/* ---- the directory ---- */

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends the regular files under dir (relative path rel) to *list, recursively. */
static int list_files(const char *rel, char ***list, size_t *n, size_t *capn) {
    char path[4096];
    snprintf(path, sizeof path, "%s", harness_shared(rel));
    DIR *d = opendir(path);
    if (!d) {
        printf("cannot open directory %s\n", path);
        harness_fail(__FILE__, __LINE__, "cannot open %s (set PGNKIT_SHARED)", path);
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", rel, de->d_name);
        char full[4096];
        snprintf(full, sizeof full, "%s", harness_shared(sub));
        DIR *dd = opendir(full);
        if (dd) {
            closedir(dd);
            list_files(sub, list, n, capn);
            continue;
        }
        if (*n == *capn) {
            *capn = *capn ? *capn * 2 : 32;
            *list = realloc(*list, *capn * sizeof **list);
            if (!*list) {
                fprintf(stderr, "out of memory\n");
                exit(2);
            }
        }
        (*list)[(*n)++] = strdup(sub);
    }
    closedir(d);
    return 1;
}

static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int is_variant(const char *base) {
    static const char *const variants[] = {"3check", "atomic",      "crazyhouse", "giveaway",
                                           "horde",  "racingkings", "antichess",  "kingofthehill",
                                           "koth",   "suicide",     "losers",     "threecheck"};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        size_t k = strlen(variants[i]);
        if (strncmp(base, variants[i], k) == 0 && base[k] == '.') {
            return 1;
        }
    }
    return 0;
}

int main(void) {
    const char *env = getenv("PGNKIT_SLOW");
    const char *capenv = getenv("PGNKIT_PERFT_CAP");
    cap = env && *env && strcmp(env, "0") != 0 ? 0 : PERFT_CAP;
    if (capenv && *capenv) {
        cap = strtoull(capenv, NULL, 10);
    }
    printf("INFO node cap: %s%llu\n", cap ? "" : "none ", (unsigned long long)cap);
    t_start = t_progress = now();

    char **files = NULL;
    size_t nfiles = 0, capn = 0;
    list_files("corpus/perft", &files, &nfiles, &capn);
    if (nfiles > 1) {
        qsort(files, nfiles, sizeof *files, cmp_str);
    }
    /* The files the corpus README promises; a vanished one must not go unnoticed. */
    static const char *const required[] = {
        "corpus/perft/ethereal/fischer.epd",       "corpus/perft/ethereal/standard.epd",
        "corpus/perft/pychess/frc_perftsuite.epd", "corpus/perft/pychess/perftsuite.epd",
        "corpus/perft/pychess/perftsuite2.epd",    "corpus/perft/python-chess/chess960.perft",
        "corpus/perft/python-chess/random.perft",  "corpus/perft/python-chess/tricky.perft",
        "corpus/perft/scalachess/chess960.perft",  "corpus/perft/scalachess/tricky.perft"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        int found = 0;
        for (size_t j = 0; j < nfiles; j++) {
            found |= strcmp(files[j], required[i]) == 0;
        }
        if (!found) {
            printf("missing perft file %s\n", harness_shared(required[i]));
        }
        CHECK(found);
    }

    for (size_t i = 0; i < nfiles; i++) {
        const char *rel = files[i];
        const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
        const char *shown = rel + strlen("corpus/perft/");
        FILE *f = fopen(harness_shared(rel), "r");
        if (!f) {
            printf("cannot read %s\n", harness_shared(rel));
            harness_fail(__FILE__, __LINE__, "cannot read %s", rel);
            continue;
        }
        int epd = ends_with(base, ".epd"), perft = ends_with(base, ".perft");
        if (!epd && !perft) {
            printf("unknown perft file format: %s\n", shown);
            harness_fail(__FILE__, __LINE__, "unknown perft file %s", rel);
            fclose(f);
            continue;
        }
        int chess960 = strstr(base, "960") || strstr(base, "fischer") || strstr(base, "frc");
        int variant = is_variant(base);
        unsigned long before = positions_total;
        unsigned n =
            epd ? read_epd(shown, f, chess960, !variant) : read_perft(shown, f, chess960, !variant);
        if (ferror(f)) {
            harness_fail(__FILE__, __LINE__, "read error in %s", rel);
        }
        fclose(f);
        if (variant) {
            printf("SKIP variant perft: %u positions in %s\n", n, shown);
            harness_counts.skipped += n;
        } else {
            printf("INFO %s: %lu positions\n", shown, positions_total - before);
            fflush(stdout);
            if (n == 0) {
                harness_fail(__FILE__, __LINE__, "no positions in %s", rel);
            }
        }
    }
    if (nfiles == 0) {
        harness_fail(__FILE__, __LINE__, "no perft files under %s", harness_shared("corpus/perft"));
    }
    for (size_t i = 0; i < nfiles; i++) {
        free(files[i]);
    }
    free(files);
    free(memo);

    double secs = now() - t_start;
    printf("INFO %lu positions, %lu perft runs (%lu repeats reused), %llu nodes in %.1f s\n",
           positions_total, perft_runs, memo_hits, (unsigned long long)nodes_total, secs);
    if (deep_entries) {
        printf("INFO %lu deep perft entries over the %llu-node cap not run (make check-slow runs "
               "them)\n",
               deep_entries, (unsigned long long)cap);
    }
    return harness_finish();
}
