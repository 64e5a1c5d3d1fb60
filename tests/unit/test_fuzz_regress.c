/* SPDX-License-Identifier: MIT */
/* Replays the fuzz targets of fuzz/ without libFuzzer (so under gcc's ASan+UBSan in make check):
 * every file of tests/fuzz-regress/<target>/ (each one an input that once broke an invariant; see
 * fuzz/README.md), then every corpus/edge file of ../shared through the reader target (three
 * option/chunk prefixes), the round-trip and repair targets and, converted to NDJSON, the JSON
 * target, and every FEN of corpus/perft through the FEN target. A broken invariant is a test
 * failure (FUZZ_FAIL), a crash is a crash. */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "testutil.h"

#include <stdlib.h>

#define FUZZ_FAIL(msg) harness_fail(__FILE__, __LINE__, "fuzz invariant: %s", (msg))

#define FUZZ_ENTRY fuzz_reader_one
#include "../../fuzz/fuzz_reader.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_roundtrip_one
#include "../../fuzz/fuzz_roundtrip.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_fen_one
#include "../../fuzz/fuzz_fen.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_san_one
#include "../../fuzz/fuzz_san.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_json_one
#include "../../fuzz/fuzz_json.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_query_one
#include "../../fuzz/fuzz_query.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_db_one
#include "../../fuzz/fuzz_db.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_repair_one
#include "../../fuzz/fuzz_repair.c"
#undef FUZZ_ENTRY

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

static const struct {
    const char *name;
    fuzz_fn fn;
} targets[] = {{"reader", fuzz_reader_one}, {"roundtrip", fuzz_roundtrip_one},
               {"fen", fuzz_fen_one},       {"san", fuzz_san_one},
               {"json", fuzz_json_one},     {"query", fuzz_query_one},
               {"repair", fuzz_repair_one}, {"db", fuzz_db_one}};

/* Runs fn on one input; counts a pass unless a FUZZ_FAIL was reported. */
static void run_one(const char *what, fuzz_fn fn, const uint8_t *data, size_t len) {
    unsigned long before = harness_counts.failed;
    fn(data, len);
    if (harness_counts.failed == before) {
        harness_counts.passed++;
    } else {
        printf("  ^ on %s\n", what);
    }
}

/* One file of tests/fuzz-regress/<target>/ through its target (ctx: the fuzz_fn). */
static unsigned replay_file(const char *path, void *ctx) {
    const fuzz_fn *fn = ctx;
    size_t len;
    uint8_t *data = (uint8_t *)buf_read_file(path, &len);
    if (!data) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", path);
        return 0;
    }
    run_one(path, *fn, data, len);
    free(data);
    return 1;
}

static unsigned replay_dir(const char *target, fuzz_fn fn) {
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz-regress/%s", target);
    return tu_each_file(dir, NULL, 0, replay_file, &fn);
}

/* The games of a .pgn file as NDJSON (pgnkit's own --to ndjson, broken games included) through
 * the JSON target, whole (prefix 0x40) and in 7-byte chunks (prefix 0x06). */
static void json_of(const char *path, const uint8_t *data, size_t len) {
    pgn_membuf out = {0};
    pgn_reader *r = NULL;
    pgn_json_writer *w = NULL;
    pgn_game *g = NULL;
    pgn_json_writer_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.flags = PGN_JSON_NDJSON;
    CHECK(pgn_membuf_write(&out, "\x40", 1) == 1);
    if (pgn_reader_new_mem(&r, NULL, data, len) == PGN_OK && pgn_game_new(&g, NULL) == PGN_OK &&
        pgn_json_writer_new(&w, &wo, pgn_membuf_write, &out) == PGN_OK) {
        while (pgn_reader_next(r, g) == PGN_OK) {
            CHECK(pgn_json_writer_write(w, g) == PGN_OK);
        }
        run_one(path, fuzz_json_one, (const uint8_t *)out.ptr, out.len);
        out.ptr[0] = 0x06;
        run_one(path, fuzz_json_one, (const uint8_t *)out.ptr, out.len);
    } else {
        harness_fail(__FILE__, __LINE__, "cannot convert %s", path);
    }
    pgn_json_writer_free(w);
    pgn_game_free(g);
    pgn_reader_free(r);
    free(out.ptr);
}

/* One .pgn file through the reader (three prefixes) and round-trip targets. */
static unsigned corpus_file(const char *path, void *ctx) {
    size_t len;
    (void)ctx;
    uint8_t *data = (uint8_t *)buf_read_file(path, &len);
    uint8_t *pre = data ? malloc(len + 2) : NULL;
    if (!pre) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", path);
        free(data);
        return 0;
    }
    static const uint8_t prefixes[3][2] = {{0x04, 0x40}, {0x04, 0x06}, {0x01 | 0x04 | 0x20, 0x00}};
    memcpy(pre + 2, data, len);
    for (int k = 0; k < 3; k++) {
        pre[0] = prefixes[k][0];
        pre[1] = prefixes[k][1];
        run_one(path, fuzz_reader_one, pre, len + 2);
    }
    run_one(path, fuzz_roundtrip_one, data, len);
    run_one(path, fuzz_repair_one, data, len);
    json_of(path, data, len);
    free(pre);
    free(data);
    return 1;
}

/* Every FEN of one .epd file through the FEN target (default and Shredder/strict flags). */
static unsigned fen_file(const char *path, void *ctx) {
    char line[512];
    unsigned n = 0;
    (void)ctx;
    FILE *f = fopen(path, "r");
    while (f && fgets(line + 1, sizeof line - 1, f)) {
        size_t len = strcspn(line + 1, ";\n");
        while (len > 0 && line[len] == ' ') {
            len--;
        }
        if (len == 0 || line[1] == '#') {
            continue;
        }
        line[0] = 0;
        run_one(path, fuzz_fen_one, (const uint8_t *)line, len + 1);
        line[0] = (char)(1u << 2); /* Shredder castling */
        run_one(path, fuzz_fen_one, (const uint8_t *)line, len + 1);
        n++;
    }
    if (f) {
        fclose(f);
    }
    return n;
}

int main(void) {
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        unsigned n = replay_dir(targets[i].name, targets[i].fn);
        printf("tests/fuzz-regress/%s: %u inputs\n", targets[i].name, n);
        CHECK(n > 0);
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", harness_shared("corpus/edge"));
    unsigned files = tu_each_file(dir, ".pgn", 1, corpus_file, NULL);
    printf("corpus/edge through fuzz_reader (3 prefixes), fuzz_roundtrip, fuzz_repair and (as "
           "NDJSON) "
           "fuzz_json: %u "
           "files\n",
           files);
    CHECK(files > 50);
    unsigned fens = 0;
    static const char *const perft[] = {"corpus/perft/ethereal", "corpus/perft/pychess"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(dir, sizeof dir, "%s", harness_shared(perft[i]));
        fens += tu_each_file(dir, ".epd", 0, fen_file, NULL);
    }
    printf("corpus/perft FENs through fuzz_fen: %u\n", fens);
    CHECK(fens > 100);
    return harness_finish();
}
