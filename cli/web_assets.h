/* SPDX-License-Identifier: MIT */
/* The page sources of web/, embedded at build time by tools/embed.sh (build/gen/web_assets.c). */
#ifndef PGNKIT_WEB_ASSETS_H
#define PGNKIT_WEB_ASSETS_H

#include <stddef.h>

extern const unsigned char web_viewer_html[], web_viewer_css[], web_viewer_js[];
extern const size_t web_viewer_html_len, web_viewer_css_len, web_viewer_js_len;
/* base64 SHA-256 of web_viewer_js, for the Content-Security-Policy */
extern const char web_viewer_js_sha256[];
/* the page of pgnkit serve: the viewer's, with serve.html, serve.css and serve.js added */
extern const unsigned char web_serve_html[], web_serve_css[], web_serve_js[];
extern const size_t web_serve_html_len, web_serve_css_len, web_serve_js_len;
extern const char web_serve_js_sha256[];
/* the explorer panel of pgnkit html --db and pgnkit serve --db (issue 30) */
extern const unsigned char web_explore_css[], web_explore_js[];
extern const size_t web_explore_css_len, web_explore_js_len;
extern const char web_explore_js_sha256[];

#endif
