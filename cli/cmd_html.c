/* SPDX-License-Identifier: MIT */
/* pgnkit html: the games of PGN files in one self-contained page (web/, embedded at build time):
 * a game list, the board, the move list, the evaluation graph. The games go into the page as the
 * JSON of docs/json-format.md inside <script type="application/json">, with every <, > and & of
 * it escaped as \u003c, \u003e, \u0026, so no text of a PGN can end the element or be markup. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "web_assets.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char html_usage[] =
    "usage: pgnkit html [--title TEXT] [-o OUT] [FILE...]\n"
    "Writes the games of the PGN files (stdin without FILE) as one self-contained HTML page that\n"
    "works from the file system without a network: a game list, the board, the move list with\n"
    "variations, comments, NAGs and clocks, [%csl]/[%cal] marks, and the evaluation graph of the\n"
    "[%eval]s (click it to go to a move). Keys: left/right, Home/End (moves), up/down (games), f\n"
    "(flip). The page allows no network access and runs only its own script\n"
    "(Content-Security-Policy). Pieces: \"Celtic\" by Maurizio Monge (MIT).\n"
    "exit status: 0 success, 1 the input had errors (the games are still shown), 2 usage error,\n"
    "3 I/O or memory failure\n";

typedef struct page {
    FILE *out;
    cli_membuf buf;
    pgn_json_writer *jw;
    unsigned long games;
    pgn_status st;
} page;

/* Writes JSON text with <, > and & as \u00XX escapes: they occur only inside JSON strings, where
 * the escape means the same character (RFC 8259 §7). */
static void put_safe_json(FILE *out, const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c == '<' || c == '>' || c == '&') {
            fprintf(out, "\\u%04x", (unsigned)c);
        } else {
            fputc(c, out);
        }
    }
}

/* Writes ASCII or UTF-8 text as a JSON string, safe inside <script> as above. */
static void put_json_string(FILE *out, const char *p, size_t n) {
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

/* The document without its XML declaration (the page is HTML). */
static const char *svg_element(const cli_membuf *b, size_t *len) {
    const char *start = b->p;
    const char *svg = NULL;
    for (size_t i = 0; i + 4 <= b->len; i++) {
        if (memcmp(b->p + i, "<svg", 4) == 0) {
            svg = b->p + i;
            break;
        }
    }
    if (!svg) {
        svg = start;
    }
    *len = b->len - (size_t)(svg - start);
    return svg;
}

static pgn_status one_game(void *user, pgn_game *game) {
    page *pg = user;
    pg->buf.len = 0;
    pgn_status st = pgn_json_writer_write(pg->jw, game);
    if (st != PGN_OK) {
        return pg->st = st;
    }
    while (pg->buf.len && pg->buf.p[pg->buf.len - 1] == '\n') {
        pg->buf.len--;
    }
    fputs(pg->games++ ? ",\n{\"game\":" : "\n{\"game\":", pg->out);
    put_safe_json(pg->out, pg->buf.p, pg->buf.len);
    pg->buf.len = 0;
    pgn_graph_opts go = {720, 180};
    if ((st = pgn_graph_svg(game, &go, cli_membuf_write, &pg->buf)) != PGN_OK) {
        return pg->st = st == PGN_E_IO ? PGN_E_NOMEM : st;
    }
    size_t n;
    const char *svg = svg_element(&pg->buf, &n);
    fputs(",\"graph\":", pg->out);
    put_json_string(pg->out, svg, n);
    fputc('}', pg->out);
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

static void page_head(FILE *out, const char *title) {
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:; script-src 'sha256-",
          out);
    fputs(web_viewer_js_sha256, out);
    fputs("'\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>",
          out);
    put_html_text(out, title);
    fputs("</title>\n<style>\n", out);
    fwrite(web_viewer_css, 1, web_viewer_css_len, out);
    fputs("</style>\n</head>\n<body>\n", out);
    fwrite(web_viewer_html, 1, web_viewer_html_len, out);
}

/* The pieces' definitions, the NAG glyphs, then the games' opening; 0 when out of memory. */
static int page_data(page *pg) {
    if (pgn_pieces_svg(cli_membuf_write, &pg->buf) != PGN_OK) {
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
    fputs("],\n\"games\":[", pg->out);
    pg->buf.len = 0;
    return 1;
}

static void page_tail(FILE *out) {
    fputs("]}\n</script>\n<script>", out);
    fwrite(web_viewer_js, 1, web_viewer_js_len, out);
    fputs("</script>\n</body>\n</html>\n", out);
}

int cmd_html(int argc, char **argv) {
    static const struct option opts[] = {{"title", required_argument, NULL, 't'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *outpath = NULL, *title = "pgnkit: games";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 't': title = optarg; break;
        case 'o': outpath = optarg; break;
        case 'h': fputs(html_usage, stdout); return EXIT_OK;
        default: return cli_usage_error("html", html_usage, NULL);
        }
    }
    page pg = {0};
    cli_output out;
    if (!cli_open_output(&out, outpath)) {
        return EXIT_RESOURCE;
    }
    pg.out = out.file;
    pgn_json_writer_opts jo = {PGN_JSON_NDJSON, 0, NULL};
    page_head(pg.out, title);
    if (pgn_json_writer_new(&pg.jw, &jo, cli_membuf_write, &pg.buf) != PGN_OK || !page_data(&pg)) {
        pgn_json_writer_free(pg.jw);
        free(pg.buf.p);
        fprintf(stderr, "pgnkit html: out of memory\n");
        return cli_close_output(&out, EXIT_RESOURCE);
    }
    uint64_t totals[3] = {0, 0, 0};
    pgn_reader_opts ro = {0};
    cli_diag_ctx dctx = {0, 1};
    ro.on_diag = cli_print_diag;
    ro.diag_ctx = &dctx;
    int status = cli_for_each_game(argc - optind, argv + optind, &ro, one_game, &pg, totals);
    page_tail(pg.out);
    pgn_json_writer_free(pg.jw);
    free(pg.buf.p);
    if (pg.st == PGN_E_NOMEM) {
        fprintf(stderr, "pgnkit html: out of memory\n");
        status = EXIT_RESOURCE;
    }
    return cli_close_output(&out, status);
}
