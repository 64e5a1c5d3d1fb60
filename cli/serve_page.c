/* SPDX-License-Identifier: MIT */
/* pgnkit serve's page: the viewer of pgnkit html (web/viewer.*) with the paste form
 * (web/serve.*), the piece set and the NAG table, built once at start; its scripts are allowed by
 * their hashes in the Content-Security-Policy. */
#define _POSIX_C_SOURCE 200809L
#ifdef PGNKIT_HAVE_MHD
#include "serve_http.h"
#include "web_assets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The page's Content-Security-Policy: its scripts by their hashes, the explorer's with --db. */
static void page_csp(server *s) {
    snprintf(s->csp, sizeof s->csp,
             "default-src 'none'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; "
             "script-src 'sha256-%s' 'sha256-%s'%s%s%s; form-action 'none'; "
             "frame-ancestors 'none'; base-uri 'none'",
             web_viewer_js_sha256, web_serve_js_sha256, s->explore ? " 'sha256-" : "",
             s->explore ? web_explore_js_sha256 : "", s->explore ? "'" : "");
}

/* The page: the viewer of pgnkit html (web/viewer.*) with the paste form (web/serve.*), and
 * with --db the explorer panel (web/explore.*). */
int serve_build_page(server *s) {
    pgn_membuf *b = &s->page, svg = {0};
    int ex = s->explore != NULL;
    page_csp(s);
    int bad =
        serve_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, "
                        "initial-scale=1\">\n<title>pgnkit: paste and analyse</title>\n"
                        "<style>\n") < 0 ||
        serve_put(b, web_viewer_css, web_viewer_css_len) < 0 ||
        serve_put(b, web_serve_css, web_serve_css_len) < 0 ||
        (ex && serve_put(b, web_explore_css, web_explore_css_len) < 0) ||
        serve_printf(b, "</style>\n</head>\n<body>\n") < 0 ||
        serve_put(b, web_serve_html, web_serve_html_len) < 0 ||
        serve_put(b, web_viewer_html, web_viewer_html_len) < 0;
    if (bad || pgn_pieces_svg(pgn_membuf_write, &svg) != PGN_OK) {
        free(svg.ptr);
        return -1;
    }
    const char *p = svg.ptr;
    for (size_t i = 0; i + 4 <= svg.len; i++) {
        if (memcmp(svg.ptr + i, "<svg", 4) == 0) {
            p = svg.ptr + i;
            break;
        }
    }
    bad = serve_printf(b, "<div style=\"position:absolute;width:0;height:0;overflow:hidden\" "
                          "aria-hidden=\"true\">") < 0 ||
          serve_put(b, p, svg.len - (size_t)(p - svg.ptr)) < 0 ||
          serve_printf(b, "</div>\n<script type=\"application/json\" id=\"pgnkit-data\">\n"
                          "{\"nags\":[") < 0;
    free(svg.ptr);
    for (unsigned i = 0; i < 256 && !bad; i++) {
        const pgn_nag_info *info = pgn_nag_get((uint8_t)i);
        bad = serve_printf(b, i ? ",[" : "[") < 0 ||
              serve_json_string(b, info->symbol, (size_t)-1) < 0 || serve_printf(b, ",") < 0 ||
              serve_json_string(b, info->meaning, (size_t)-1) < 0 || serve_printf(b, "]") < 0;
    }
    return bad || serve_printf(b, "],\n\"games\":[]}\n</script>\n<script>") < 0 ||
                   serve_put(b, web_viewer_js, web_viewer_js_len) < 0 ||
                   serve_printf(b, "</script>\n<script>") < 0 ||
                   serve_put(b, web_serve_js, web_serve_js_len) < 0 ||
                   (ex && (serve_printf(b, "</script>\n<script>") < 0 ||
                           serve_put(b, web_explore_js, web_explore_js_len) < 0)) ||
                   serve_printf(b, "</script>\n</body>\n</html>\n") < 0
               ? -1
               : 0;
}
#else
typedef int serve_page_needs_mhd; /* ISO C: a translation unit declares something */
#endif
