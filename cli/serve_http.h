/* SPDX-License-Identifier: MIT */
/* pgnkit serve's HTTP side (libmicrohttpd), shared by its files: cmd_serve.c (options, the
 * daemon's life), serve_http.c (routing, headers, bodies), serve_page.c (the page),
 * serve_listen.c (the socket, the Host names, --open). Included only when PGNKIT_HAVE_MHD. */
#ifndef PGNKIT_CLI_SERVE_HTTP_H
#define PGNKIT_CLI_SERVE_HTTP_H

#include <microhttpd.h>
#include <stdint.h>
#include <sys/socket.h>

#include "serve.h"

typedef struct server {
    serve_jobs *jobs;
    serve_limits lim;
    char hosts[4][80]; /* the Host values taken */
    int nhosts;
    cli_membuf page;
    char csp[256];
} server;

/* The access handler of the daemon (cls: the server). */
enum MHD_Result serve_handle(void *cls, struct MHD_Connection *c, const char *url,
                             const char *method, const char *version, const char *upload,
                             size_t *upload_size, void **con_cls);
/* MHD_OPTION_NOTIFY_COMPLETED: frees what serve_handle kept for the request. */
void serve_request_done(void *cls, struct MHD_Connection *c, void **con_cls,
                        enum MHD_RequestTerminationCode toe);
/* Lets the jobs wake the connections of event streams (before the daemon starts). */
void serve_http_streams(serve_jobs *j);
/* A decimal number in [min, max] (digits only): 1, or 0. */
int serve_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* The page into s->page and its Content-Security-Policy into s->csp: 0, or -1 (out of memory). */
int serve_build_page(server *s);

/* The address to listen on: 0, or -1 when bind_addr is not a numeric IP address. */
int serve_make_addr(const char *bind_addr, unsigned port, struct sockaddr_storage *ss, int *ipv6);
/* Binds and listens: the socket, or -1 after a message. *port: the port asked for (0: any),
 * then the port bound. */
int serve_listen(const char *bind_addr, struct sockaddr_storage *ss, int ipv6, unsigned *port);
/* The Host header values a request may carry: the loopback names and the --bind address. */
void serve_set_hosts(server *s, const char *bind_addr, int ipv6, unsigned port);
/* --open: url in $BROWSER, else xdg-open, in the background. */
void serve_open_browser(const char *url);

#endif
