/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe --keep richest and --report: every game's text in the spool, read back to confirm
 * a duplicate and again in the second pass, which writes the kept copies; the JSON report. */
#define _POSIX_C_SOURCE 200809L
#include "dedupe.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A game in the spool: this header, then its raw bytes. */
typedef struct spooled {
    uint64_t ordinal, len;
    uint32_t broken;
} spooled;

/* Appends g to the spool; *at: where its raw bytes start there. */
pgn_status dd_spool(dd_state *s, const cli_game *g, uint64_t *at) {
    spooled h = {g->ordinal, g->raw.len, (uint32_t)g->summary->broken};
    if (fwrite(&h, sizeof h, 1, s->spool) != 1 ||
        fwrite(g->raw.ptr, 1, g->raw.len, s->spool) != g->raw.len) {
        return PGN_E_IO;
    }
    *at = s->spooled + sizeof h;
    s->spooled += sizeof h + g->raw.len;
    return PGN_OK;
}

/* Reads len bytes at offset at of the spool into g. */
static pgn_status reread(dd_state *s, uint64_t at, size_t len, pgn_game *g) {
    char *text = malloc(len ? len : 1);
    if (!text) {
        return PGN_E_NOMEM;
    }
    pgn_status st =
        fflush(s->spool) == 0 && pread(fileno(s->spool), text, len, (off_t)at) == (ssize_t)len
            ? PGN_OK
            : PGN_E_IO;
    pgn_reader *rd = NULL;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro); /* no diagnostics: reported the first time */
    ro.flags = s->run->ropts.flags & PGN_READ_STRICT;
    ro.encoding = s->run->ropts.encoding;
    if (st == PGN_OK && (st = pgn_reader_new_mem(&rd, &ro, text, len)) == PGN_OK) {
        st = pgn_reader_next(rd, g);
    }
    pgn_reader_free(rd);
    free(text);
    return st;
}

/* The confirmation: reads the first copy of cluster ref back and compares it move by move. */
int dd_same_as_rep(void *ctx, uint64_t ref, const pgn_game *game) {
    dd_state *s = ctx;
    const rep *r = &s->reps[ref];
    if (reread(s, r->start, r->len, s->scratch) != PGN_OK) {
        return -1;
    }
    return pgn_game_same_line(s->scratch, game, s->flags);
}

/* The second pass of --keep richest, over the spool: the kept copies (and games with errors) to
 * the output, the others to --dupes. s->kept holds the kept copies' ordinals, sorted. */
pgn_status dd_second_pass(dd_state *s) {
    spooled h;
    char *text = NULL;
    pgn_status st = fflush(s->spool) == 0 && fseek(s->spool, 0, SEEK_SET) == 0 ? PGN_OK : PGN_E_IO;
    while (st == PGN_OK && fread(&h, sizeof h, 1, s->spool) == 1) {
        char *t = realloc(text, h.len ? (size_t)h.len : 1);
        if (!t) {
            st = PGN_E_NOMEM;
            break;
        }
        text = t;
        if (fread(text, 1, (size_t)h.len, s->spool) != h.len) {
            st = PGN_E_IO;
            break;
        }
        while (s->next_kept < s->nkept && s->kept[s->next_kept] < h.ordinal) {
            s->next_kept++;
        }
        int keep = h.broken || h.len > UINT32_MAX ||
                   (s->next_kept < s->nkept && s->kept[s->next_kept] == h.ordinal);
        st = cli_write_raw(keep ? s->out : s->dupes, text, (size_t)h.len);
    }
    free(text);
    return st == PGN_OK && ferror(s->spool) ? PGN_E_IO : st;
}

static int by_member(const void *a, const void *b) {
    const member *x = a, *y = b;
    if (x->cluster != y->cluster) {
        return x->cluster < y->cluster ? -1 : 1;
    }
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

static void report_game(const dd_state *s, uint64_t cluster, uint64_t ordinal, const char *input,
                        uint32_t line, int first) {
    FILE *f = s->report;
    fprintf(f, "%s{\"ordinal\":%llu,\"source\":", first ? "" : ",", (unsigned long long)ordinal);
    cli_json_string(f, input, strlen(input));
    fprintf(f, ",\"line\":%u,\"kept\":%s}", line,
            s->reps[cluster].keep == ordinal ? "true" : "false");
}

/* --report: {"games":N,"distinct":N,"duplicates":N,"by":B,"without_moves_by":"moves+tags",
 * "clusters":[{"cluster":C,"games":[...]}]}: B is --by's rule; a game without moves is always
 * compared with its tags (issue 31). */
void dd_write_report(dd_state *s) {
    FILE *f = s->report;
    qsort(s->members, s->nmembers, sizeof *s->members, by_member);
    fprintf(f,
            "{\"games\":%llu,\"distinct\":%llu,\"duplicates\":%llu,\"by\":\"%s\","
            "\"without_moves_by\":\"moves+tags\",\"clusters\":[",
            (unsigned long long)(s->run->where ? s->run->matched : s->run->games),
            (unsigned long long)(s->nreps + s->broken), (unsigned long long)s->dropped,
            (s->flags & PGN_DEDUPE_TAGS) ? "moves+tags" : "moves");
    for (size_t i = 0; i < s->nmembers;) {
        uint64_t c = s->members[i].cluster;
        const rep *r = &s->reps[c];
        fprintf(f, "%s\n{\"cluster\":%llu,\"games\":[", i ? "," : "", (unsigned long long)c);
        report_game(s, c, r->first, r->input, r->line, 1);
        for (; i < s->nmembers && s->members[i].cluster == c; i++) {
            const member *m = &s->members[i];
            report_game(s, c, m->ordinal, m->input, m->line, 0);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n]}\n");
}
