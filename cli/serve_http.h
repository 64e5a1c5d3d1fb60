/* SPDX-License-Identifier: MIT */
/* pgnkit serve's HTTP side (libmicrohttpd), shared by its files: cmd_serve.c (options, the
 * daemon's life), serve_http.c (routing, headers, bodies), serve_page.c (the page),
 * serve_listen.c (the socket, the Host names, --open). Included only when PGNKIT_HAVE_MHD. */
#ifndef PGNKIT_CLI_SERVE_HTTP_H
#define PGNKIT_CLI_SERVE_HTTP_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>

#include "serve.h"

/* libmicrohttpd is opened when serve starts (serve_mhd_load, dlopen of the library the build
 * found), not linked into pgnkit: linking it, and the gnutls it pulls in, cost every pgnkit
 * command about 10 ms of start-up (task-clock of `pgnkit --version`: 19.1 ms linked, 8.6 ms
 * without). The serve files call libmicrohttpd's functions by their names, which the macros below
 * send through this table, filled once before any thread starts. */
typedef struct serve_mhd_api {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_suspend_connection) *suspend_connection;
    __typeof__(MHD_resume_connection) *resume_connection;
    __typeof__(MHD_create_response_from_callback) *create_response_from_callback;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_get_connection_info) *get_connection_info;
} serve_mhd_api;
extern serve_mhd_api serve_mhd;

#define MHD_start_daemon (*serve_mhd.start_daemon)
#define MHD_stop_daemon (*serve_mhd.stop_daemon)
#define MHD_queue_response (*serve_mhd.queue_response)
#define MHD_destroy_response (*serve_mhd.destroy_response)
#define MHD_add_response_header (*serve_mhd.add_response_header)
#define MHD_lookup_connection_value (*serve_mhd.lookup_connection_value)
#define MHD_suspend_connection (*serve_mhd.suspend_connection)
#define MHD_resume_connection (*serve_mhd.resume_connection)
#define MHD_create_response_from_callback (*serve_mhd.create_response_from_callback)
#define MHD_create_response_from_buffer (*serve_mhd.create_response_from_buffer)
#define MHD_get_connection_info (*serve_mhd.get_connection_info)

/* Opens libmicrohttpd and fills serve_mhd: 0, or -1 with the reason in err. */
int serve_mhd_load(char *err, size_t errsz);

/* The connections and their request deadlines (serve_guard.c). */
typedef struct serve_conn serve_conn;
typedef struct serve_guard {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t th;
    int started, stop;
    serve_conn *head;
    unsigned count, max; /* connections open; --connections */
    int64_t request_ms;  /* --request-timeout */
    unsigned long dropped;
    size_t held, max_held; /* bytes of answers not yet sent and bodies received; --max-answers */
} serve_guard;

typedef struct serve_explorer serve_explorer; /* --db (serve_explore.c) */
typedef struct server {
    serve_guard guard;
    serve_jobs *jobs;
    serve_limits lim;
    char hosts[4][80]; /* the Host values taken */
    int nhosts;
    pgn_membuf page;
    char csp[384];
    serve_explorer *explore; /* NULL without --db */
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

/* MHD_OPTION_NOTIFY_CONNECTION (cls: the server): the guard's record of each connection. */
void serve_guard_notify(void *cls, struct MHD_Connection *mc, void **socket_context,
                        enum MHD_ConnectionNotificationCode code);
/* An answer to mc is queued (answering 1: no request deadline until it is sent) or sent (0: the
 * next request's deadline starts now). */
void serve_guard_answering(server *s, struct MHD_Connection *mc, int answering);
/* Counts n more bytes held for clients (answers not yet sent, request bodies): 0, or -1 (not
 * counted) when that would be over --max-answers; force counts them anyway (a short refusal). */
int serve_hold(server *s, size_t n, int force);
/* A response over body (taken), counted until the library frees it; over --max-answers, a 503
 * that says so instead (*status set). NULL when out of memory. */
struct MHD_Response *serve_answer(server *s, pgn_membuf *body, unsigned *status);
/* body (freed) becomes the 503 refusal of --max-answers, *status 503. */
void serve_busy_body(server *s, pgn_membuf *body, unsigned *status);
/* Counts n bytes out (sent, freed). */
void serve_unhold(server *s, size_t n);
/* The bytes held for clients now. */
size_t serve_held(server *s);
/* Starts the thread that shuts connections past their request deadline: 0, or -1. */
int serve_guard_start(serve_guard *g, unsigned max, int64_t request_ms, size_t max_held);
/* Stops it (after the daemon). */
void serve_guard_stop(serve_guard *g);

/* --db FILE (NULL: none) opened for the explorer panel (serve_explore.c), then the page
 * (serve_build_page, with the panel when there is a database): 0, or -1 after a message with
 * nothing left open. serve_explore_close closes the database; it accepts a server without one. */
int serve_open_page(server *s, const char *db);
void serve_explore_close(server *s);
/* GET /api/explore?fen=FEN: the explorer's answer (pgn_db_explore_json) into b; the HTTP status
 * (400 not a FEN, 404 no --db, 500). */
int serve_explore(server *s, const char *fen, pgn_membuf *b);

/* The page into s->page and its Content-Security-Policy into s->csp: 0, or -1 (out of memory). */
int serve_build_page(server *s);

/* The address to listen on: 0, or -1 when bind_addr is not a numeric IP address. */
int serve_make_addr(const char *bind_addr, unsigned port, struct sockaddr_storage *ss, int *ipv6);
/* 1 when ss is a loopback address (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104), else 0. */
int serve_loopback(const struct sockaddr_storage *ss);
/* The warning of a --bind address beyond loopback (none for loopback). */
void serve_warn_wide(const struct sockaddr_storage *ss, const char *bind_addr);
/* Binds and listens: the socket, or -1 after a message. *port: the port asked for (0: any),
 * then the port bound. */
int serve_listen(const char *bind_addr, struct sockaddr_storage *ss, int ipv6, unsigned *port);
/* The Host header values a request may carry: the loopback names and the --bind address. */
void serve_set_hosts(server *s, const char *bind_addr, int ipv6, unsigned port);
/* --open: url in $BROWSER, else xdg-open, in the background. */
void serve_open_browser(const char *url);

#endif
