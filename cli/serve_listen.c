/* SPDX-License-Identifier: MIT */
/* pgnkit serve's socket: the address of --bind, the listening socket (bound before the daemon
 * starts, so the port and the Host values are known first), and --open's browser. */
#define _POSIX_C_SOURCE 200809L
#ifdef PGNKIT_HAVE_MHD
#include "serve_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The address to listen on: 0, or -1 when --bind is not a numeric IP address. */
int serve_make_addr(const char *bind_addr, unsigned port, struct sockaddr_storage *ss, int *ipv6) {
    memset(ss, 0, sizeof *ss);
    *ipv6 = strchr(bind_addr, ':') != NULL;
    if (*ipv6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        return inet_pton(AF_INET6, bind_addr, &a->sin6_addr) == 1 ? 0 : -1;
    }
    struct sockaddr_in *a = (struct sockaddr_in *)ss;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    return inet_pton(AF_INET, bind_addr, &a->sin_addr) == 1 ? 0 : -1;
}

int serve_loopback(const struct sockaddr_storage *ss) {
    if (ss->ss_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)ss)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(a) ||
               (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127); /* ::ffff:127.x.y.z */
    }
    return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
}

void serve_warn_wide(const struct sockaddr_storage *ss, const char *bind_addr) {
    if (!serve_loopback(ss)) { /* Host and Origin checks stop browsers, not other programs */
        fprintf(stderr,
                "pgnkit serve: warning: %s is reachable beyond this machine: any program "
                "that can reach it may use the server and its engine\n",
                bind_addr);
    }
}

/* Binds and listens: the socket, or -1 after a message. *port: the port asked for (0: any), then
 * the port bound. The socket is bound here, so that the port and so the accepted Host values are
 * known before any request can arrive. */
int serve_listen(const char *bind_addr, struct sockaddr_storage *ss, int ipv6, unsigned *port) {
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    socklen_t sl = ipv6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    if (fd >= 0) {
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    }
    if (fd < 0 || bind(fd, (struct sockaddr *)ss, sl) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, (struct sockaddr *)ss, &sl) != 0) {
        cli_error(NULL, "cannot listen on %s port %u: %s", bind_addr, *port, strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    *port =
        ntohs(ipv6 ? ((struct sockaddr_in6 *)ss)->sin6_port : ((struct sockaddr_in *)ss)->sin_port);
    return fd;
}

/* The Host header values a request may carry: the loopback names and the --bind address. */
void serve_set_hosts(server *s, const char *bind_addr, int ipv6, unsigned port) {
    snprintf(s->hosts[0], sizeof s->hosts[0], "127.0.0.1:%u", port);
    snprintf(s->hosts[1], sizeof s->hosts[1], "localhost:%u", port);
    snprintf(s->hosts[2], sizeof s->hosts[2], "[::1]:%u", port);
    s->nhosts = 3;
    if (strcmp(bind_addr, "127.0.0.1") != 0 && strcmp(bind_addr, "::1") != 0 &&
        strcmp(bind_addr, "0.0.0.0") != 0 && strcmp(bind_addr, "::") != 0) {
        snprintf(s->hosts[3], sizeof s->hosts[3], ipv6 ? "[%s]:%u" : "%s:%u", bind_addr, port);
        s->nhosts = 4;
    }
}

/* --open: the page in the user's browser, $BROWSER or else xdg-open, started in the background by
 * a shell that exits at once (so no child of ours is left to reap; the engines are our children).
 * A browser that cannot be started says so on the terminal itself; the URL is printed anyway. */
void serve_open_browser(const char *url) {
    const char *b = getenv("BROWSER");
    char sh[] = "sh", c[] = "-c", script[] = "\"$0\" \"$1\" </dev/null >/dev/null 2>&1 &";
    char browser[512], u[128];
    snprintf(browser, sizeof browser, "%s", b && *b ? b : "xdg-open");
    snprintf(u, sizeof u, "%s", url);
    char *argv[] = {sh, c, script, browser, u, NULL};
    pid_t pid;
    posix_spawnattr_t at;
    sigset_t none;
    sigemptyset(&none);
    int bad = posix_spawnattr_init(&at) != 0;
    if (!bad) { /* not the server's blocked stop signals */
        bad = posix_spawnattr_setsigmask(&at, &none) != 0 ||
              posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK) != 0 ||
              posix_spawn(&pid, "/bin/sh", NULL, &at, argv, environ) != 0;
        posix_spawnattr_destroy(&at);
    }
    if (bad) {
        cli_error(NULL, "cannot start a browser for --open: open %s yourself", url);
        return;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
}
#else
typedef int serve_listen_needs_mhd; /* ISO C: a translation unit declares something */
#endif
