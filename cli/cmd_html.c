/* SPDX-License-Identifier: MIT */
/* pgnkit html: the games of PGN files in one self-contained page (web/, embedded at build time):
 * a game list, the board, the move list, the evaluation graph. The games go into the page as the
 * JSON of docs/json-format.md inside <script type="application/json">, with every <, > and & of
 * it escaped as \u003c, \u003e, \u0026, so no text of a PGN can end the element or be markup.
 * They are written HTML_CHUNK games to an element, which the viewer parses only when one of its
 * games is listed or shown: the page of the gnuchess book (145,716 games) opens at once. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "db.h"
#include "web_assets.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char html_usage[] =
    "usage: pgnkit html [--title TEXT] [--db FILE] [-o OUT] [--where EXPR] [reading options]\n"
    "                   [FILE...]\n"
    "Writes the games of the PGN files (stdin without FILE) as one self-contained HTML page that\n"
    "works from the file system without a network: a game list, the board, the move list with\n"
    "variations, comments, NAGs and clocks, [%csl]/[%cal] marks, and the evaluation graph of the\n"
    "[%eval]s (click it to go to a move). Keys: left/right, Home/End (moves), up/down (games), f\n"
    "(flip). The page allows no network access and runs only its own script\n"
    "(Content-Security-Policy). Pieces: \"Celtic\" by Maurizio Monge (MIT).\n"
    "--db FILE  a game database (pgnkit db import): beside the board, an explorer panel lists the\n"
    "           moves the database has from the position shown (games, white wins, draws, black\n"
    "           wins, average Elo; a click plays the move), for the positions of the games' main\n"
    "           lines, written into the page\n"
    "exit status: 0 success, 1 the input had errors (the games are still shown), 2 usage error,\n"
    "3 I/O or memory failure\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE;

enum { HTML_CHUNK = 500 }; /* games in one <script type="application/json"> of the page */

typedef struct page {
    FILE *out;
    const char *title;
    pgn_membuf buf;
    unsigned long games;
    pgn_status st;
    const char *db_path; /* --db */
    pgn_db *db;          /* opened (NULL without --db) */
    pgn_db_answers *ex;  /* its answers */
    char msg[512];       /* the database's failure */
} page;

static ptrdiff_t file_write(void *ctx, const void *p, size_t n) {
    return fwrite(p, 1, n, ctx) == n ? (ptrdiff_t)n : -1;
}

/* Writes text as a JSON string (the library's one string writer), with <, > and & as \\u00XX
 * escapes (pgn_json_html_write): safe inside <script>; a failed write shows in ferror(out), which
 * the page's end reports. */
static void put_json_string(FILE *out, const char *p, size_t n) {
    pgn_json_html_sink sink = {file_write, out};
    if (pgn_json_write_string(pgn_json_html_write, &sink, p, n) != PGN_OK) {
        return;
    }
}

/* The document without its XML declaration (the page is HTML). */
static const char *svg_element(const pgn_membuf *b, size_t *len) {
    const char *start = b->ptr;
    const char *svg = NULL;
    for (size_t i = 0; i + 4 <= b->len; i++) {
        if (memcmp(b->ptr + i, "<svg", 4) == 0) {
            svg = b->ptr + i;
            break;
        }
    }
    if (!svg) {
        svg = start;
    }
    *len = b->len - (size_t)(svg - start);
    return svg;
}

static pgn_status one_game(cli_run *r, void *user, const cli_game *g) {
    page *pg = user;
    const pgn_game *game = g->game;
    (void)r;
    if (pg->games % HTML_CHUNK == 0) {
        fputs(pg->games ? "]\n</script>\n" : "", pg->out);
        fputs("<script type=\"application/json\" class=\"pgnkit-games\">[\n", pg->out);
    } else {
        fputs(",\n", pg->out);
    }
    pg->games++;
    /* the viewer plays the UCI moves of a standard game itself: no FENs (issue 34), short moves */
    pgn_status st = pgn_viewer_entry_json(game, PGN_JSON_NO_MOVE_FEN | PGN_JSON_SHORT_MOVES, NULL,
                                          0, file_write, pg->out);
    if (st != PGN_OK) {
        return pg->st = st;
    }
    pgn_status ex =
        pg->ex ? pgn_db_answers_add_game(pg->ex, game, pg->msg, sizeof pg->msg) : PGN_OK;
    if (ex != PGN_OK) {
        return pg->st = ex;
    }
    return ferror(pg->out) ? (pg->st = PGN_E_IO) : PGN_OK;
}

static void put_html_text(FILE *out, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

static void page_head(FILE *out, const char *title, int explore) {
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:; script-src 'sha256-",
          out);
    fputs(web_viewer_js_sha256, out);
    if (explore) { /* the explorer panel's script (--db) */
        fputs("' 'sha256-", out);
        fputs(web_explore_js_sha256, out);
    }
    fputs("'\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>",
          out);
    put_html_text(out, title);
    fputs("</title>\n<style>\n", out);
    fwrite(web_viewer_css, 1, web_viewer_css_len, out);
    if (explore) {
        fwrite(web_explore_css, 1, web_explore_css_len, out);
    }
    fputs("</style>\n</head>\n<body>\n", out);
    fwrite(web_viewer_html, 1, web_viewer_html_len, out);
}

/* The pieces' definitions, the NAG glyphs, then the games' opening; 0 when out of memory. */
static int page_data(page *pg) {
    if (pgn_pieces_svg(pgn_membuf_write, &pg->buf) != PGN_OK) {
        return 0;
    }
    size_t n;
    const char *svg = svg_element(&pg->buf, &n);
    fputs("<div style=\"position:absolute;width:0;height:0;overflow:hidden\" aria-hidden=\"true\">",
          pg->out);
    fwrite(svg, 1, n, pg->out);
    fputs("</div>\n<script type=\"application/json\" id=\"pgnkit-data\">\n{\"nags\":[", pg->out);
    for (unsigned i = 0; i < 256; i++) {
        const pgn_nag_info *info = pgn_nag_get((uint8_t)i);
        fputs(i ? ",[" : "[", pg->out);
        put_json_string(pg->out, info->symbol, strlen(info->symbol));
        fputc(',', pg->out);
        put_json_string(pg->out, info->meaning, strlen(info->meaning));
        fputc(']', pg->out);
    }
    fprintf(pg->out, "],\n\"games\":[],\"chunk\":%d}\n</script>\n", HTML_CHUNK);
    pg->buf.len = 0;
    return 1;
}

/* The end of the page; with --db the explorer's answers (JSON of FENs, SAN and numbers only:
 * nothing to escape) and its script. */
static void page_tail(FILE *out, unsigned long games, const pgn_db_answers *ex) {
    fputs(games ? "]\n</script>\n" : "", out);
    if (ex) {
        size_t n;
        const char *json = pgn_db_answers_json(ex, &n);
        fputs("<script type=\"application/json\" id=\"pgnkit-explore\">[\n", out);
        fwrite(json, 1, n, out);
        fputs("]\n</script>\n", out);
    }
    fputs("<script>", out);
    fwrite(web_viewer_js, 1, web_viewer_js_len, out);
    fputs("</script>\n", out);
    if (ex) {
        fputs("<script>", out);
        fwrite(web_explore_js, 1, web_explore_js_len, out);
        fputs("</script>\n", out);
    }
    fputs("</body>\n</html>\n", out);
}

enum { OPT_TITLE = CLI_OPT_COMMAND, OPT_DB };
static const char *const options[] = {"title:", "db:", NULL};

static int html_option(void *user, int ch, const char *arg) {
    page *pg = user;
    if (ch == OPT_TITLE || ch == OPT_DB) {
        *(ch == OPT_TITLE ? &pg->title : &pg->db_path) = arg;
        return EXIT_OK;
    }
    return cli_usage("unknown option");
}

int cmd_html(int argc, char **argv) {
    page pg = {0};
    pg.title = "pgnkit: games";
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    int st = cli_run_args(&r, argc, argv, html_usage, options, "", html_option, &pg);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    if (pg.db_path && (st = cli_explore_open(&pg.db, pg.db_path, "html")) != EXIT_OK) {
        return st;
    }
    if (pg.db && pgn_db_answers_new(&pg.ex, pg.db) != PGN_OK) {
        cli_error(NULL, "out of memory");
        pgn_db_close(pg.db);
        return EXIT_RESOURCE;
    }
    if ((st = cli_run_open(&r)) != EXIT_OK) {
        pgn_db_answers_free(pg.ex);
        pgn_db_close(pg.db);
        return st;
    }
    pg.out = r.out.file;
    page_head(pg.out, pg.title, pg.db != NULL);
    if (!page_data(&pg)) {
        pg.st = PGN_E_NOMEM;
    } else {
        cli_run_games(&r, one_game, &pg);
        page_tail(pg.out, pg.games, pg.ex);
    }
    free(pg.buf.ptr);
    pgn_db_answers_free(pg.ex);
    pgn_db_close(pg.db);
    if (pg.st == PGN_E_IO && pg.msg[0]) {
        cli_error(NULL, "error: html --db: %s", pg.msg);
        r.aborted = 1;
        r.status = EXIT_RESOURCE;
    }
    if (pg.st == PGN_E_NOMEM) {
        cli_error(NULL, "out of memory");
        r.aborted = 1;
        r.status = EXIT_RESOURCE;
    }
    return cli_run_finish(&r, CLI_SUMMARY_NONE);
}
