/* SPDX-License-Identifier: MIT */
/* Outputs replaced only when complete (include/pgnkit/tempfile.h, pgn_output_*; issue 29): a
 * commit puts every byte in place and leaves no temporary file; a close without commit, or after
 * a write error, leaves the target as it was; the replaced file's mode is kept and a new file gets
 * 0666 less the umask; a name ending in .gz, .zst, .bz2 or .xz is compressed, and the library's
 * own source layer reads the same bytes back; the named temporary file (PGN_OUTPUT_NAMED_TEMP)
 * goes through the hooks, each name added before its file exists and removed after, its directory
 * swept first; a split's files put in place never over an existing name unless told; the same-file
 * test by device and inode, through links, and for names not yet created. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, symlink */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/pgnkit-test-output-XXXXXX";

static const char *in_dir(const char *name) {
    static char path[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

/* The files in dir whose name holds ".pgnkit-" (temporary files). */
static int temps(void) {
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        n += strstr(e->d_name, ".pgnkit-") != NULL;
    }
    if (d) {
        closedir(d);
    }
    return n;
}

static void put_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The file's text (decoded when compressed) through pgn_source; "" when it cannot be read. */
static char *read_back(const char *path) {
    static char text[1 << 16];
    pgn_source *s = NULL;
    size_t len = 0;
    text[0] = 0;
    if (pgn_source_open_path(&s, path, NULL, NULL, 0) == PGN_OK) {
        ptrdiff_t n;
        while ((n = pgn_source_read(s, text + len, sizeof text - 1 - len)) > 0) {
            len += (size_t)n;
        }
        CHECK(n == 0);
        text[len] = 0;
    }
    pgn_source_free(s);
    return text;
}

/* Opens path, writes text in pieces of 7 bytes, closes with commit; the status of the close. */
static pgn_status write_file(const pgn_output_opts *opts, const char *path, const char *text,
                             int commit) {
    pgn_output *o = NULL;
    char msg[512];
    CHECK_EQ_INT(pgn_output_new(&o, opts), PGN_OK);
    CHECK_EQ_INT(pgn_output_open(o, path, msg, sizeof msg), PGN_OK);
    for (size_t i = 0, n = strlen(text), k; i < n; i += k) {
        k = n - i < 7 ? n - i : 7;
        CHECK(pgn_output_write(o, text + i, k) == (ptrdiff_t)k);
    }
    CHECK_EQ_INT(temps(), opts && (opts->flags & PGN_OUTPUT_NAMED_TEMP) ? 1 : 0);
    pgn_status st = pgn_output_close(o, commit, msg, sizeof msg);
    pgn_output_free(o);
    return st;
}

static const char game[] = "[Event \"out\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";

static void test_commit_and_abort(void) {
    const char *target = in_dir("g.pgn");
    pgn_output_opts small = {.buffer = 16}; /* many writes pass the buffer */
    mode_t mask = umask(022);
    CHECK_EQ_INT(write_file(&small, target, game, 1), PGN_OK);
    umask(mask);
    CHECK_EQ_STR(read_back(target), game);
    struct stat st;
    CHECK(stat(target, &st) == 0 && (st.st_mode & 07777) == 0644); /* new: 0666 less the umask */
    CHECK_EQ_INT(temps(), 0);
    CHECK(chmod(target, 0604) == 0);
    CHECK_EQ_INT(write_file(NULL, target, "1. d4 *\n", 0), PGN_OK); /* aborted */
    CHECK_EQ_STR(read_back(target), game);
    CHECK_EQ_INT(temps(), 0);
    CHECK_EQ_INT(write_file(NULL, target, "1. d4 *\n", 1), PGN_OK);
    CHECK_EQ_STR(read_back(target), "1. d4 *\n");
    CHECK(stat(target, &st) == 0 && (st.st_mode & 07777) == 0604); /* the mode kept */
    /* through a symbolic link: the file it names is replaced, the link kept */
    CHECK(symlink("g.pgn", in_dir("link.pgn")) == 0);
    CHECK_EQ_INT(write_file(NULL, in_dir("link.pgn"), game, 1), PGN_OK);
    CHECK(lstat(in_dir("link.pgn"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_EQ_STR(read_back(target), game);
    unlink(in_dir("link.pgn"));
    unlink(target);
}

/* The hooks' record: names added and not yet removed. */
typedef struct hooked {
    char live[4][512], swept[512];
    int n, adds, removes, before; /* before: names added before their file existed */
} hooked;

static void h_sweep(void *ctx, const char *d) {
    snprintf(((hooked *)ctx)->swept, sizeof((hooked *)ctx)->swept, "%s", d);
}

static int h_add(void *ctx, const char *name) {
    hooked *h = ctx;
    h->adds++;
    h->before += access(name, F_OK) != 0;
    snprintf(h->live[h->n++ % 4], sizeof h->live[0], "%s", name);
    return 0;
}

static void h_remove(void *ctx, const char *name) {
    hooked *h = ctx;
    h->removes++;
    CHECK(h->n > 0 && strcmp(h->live[(h->n - 1) % 4], name) == 0);
    h->n--;
}

static void test_named(void) {
    hooked h = {.n = 0};
    pgn_output_opts named = {.flags = PGN_OUTPUT_NAMED_TEMP,
                             .hooks = {h_add, h_remove, h_sweep, &h}};
    const char *target = in_dir("n.pgn");
    put_file(target, "old\n");
    CHECK_EQ_INT(write_file(&named, target, game, 0), PGN_OK);
    CHECK_EQ_STR(read_back(target), "old\n");
    CHECK_EQ_INT(write_file(&named, target, game, 1), PGN_OK);
    CHECK_EQ_STR(read_back(target), game);
    CHECK_EQ_INT(h.adds, 2);
    CHECK_EQ_INT(h.removes, 2);
    CHECK_EQ_INT(h.before, 2);
    CHECK_EQ_STR(h.swept, dir); /* the target's directory, before its file was made */
    CHECK_EQ_INT(temps(), 0);
    /* the unnamed file is named through the hooks on commit */
    pgn_output_opts unnamed = {.hooks = {h_add, h_remove, NULL, &h}};
    CHECK_EQ_INT(write_file(&unnamed, target, "x\n", 1), PGN_OK);
    CHECK_EQ_STR(read_back(target), "x\n");
    CHECK_EQ_INT(h.adds, h.removes);
    unlink(target);
}

/* A split's files: made beside their names, put in place never over an existing name unless told
 * to; a stale file names a process that is gone. */
static void test_place(void) {
    hooked h = {.n = 0};
    pgn_temp_hooks hooks = {h_add, h_remove, NULL, &h};
    char tmp[600];
    int fd = -1;
    const char *path = in_dir("p.pgn");
    put_file(path, "old\n");
    CHECK_EQ_INT(pgn_temp_make(path, 0666, &hooks, tmp, sizeof tmp, &fd), PGN_OK);
    CHECK(fd >= 0 && write(fd, "new\n", 4) == 4);
    close(fd);
    CHECK_EQ_INT(pgn_temp_place(tmp, path, 0, &hooks), PGN_E_IO); /* exists: refused */
    CHECK_EQ_STR(read_back(path), "old\n");
    CHECK_EQ_INT(h.removes, 0);
    CHECK_EQ_INT(pgn_temp_place(tmp, path, 1, &hooks), PGN_OK); /* --force */
    CHECK_EQ_STR(read_back(path), "new\n");
    CHECK_EQ_INT(h.adds, 1);
    CHECK_EQ_INT(h.removes, 1);
    CHECK_EQ_INT(pgn_temp_make(path, 0666, &hooks, tmp, sizeof tmp, &fd), PGN_OK);
    close(fd);
    unlink(path);
    CHECK_EQ_INT(pgn_temp_place(tmp, path, 0, &hooks), PGN_OK); /* a new name */
    CHECK_EQ_INT(pgn_temp_make(path, 0666, &hooks, tmp, sizeof tmp, &fd), PGN_OK);
    close(fd);
    CHECK(!pgn_temp_stale(strrchr(tmp, '/') + 1)); /* this process's */
    pgn_temp_remove(tmp, &hooks);
    CHECK_EQ_INT(h.adds, h.removes);
    CHECK_EQ_INT(temps(), 0);
    CHECK(pgn_temp_stale(".p.pgn.pgnkit-2147483646-abcdef")); /* no such process */
    CHECK(!pgn_temp_stale(".p.pgn.pgnkit-1-abcdef"));         /* init lives */
    CHECK(!pgn_temp_stale("p.pgn"));
    unlink(path);
}

static void test_compressed(void) {
    static const char *names[] = {"c.pgn.gz", "c.pgn.zst", "c.pgn.bz2", "c.pgn.xz"};
    static const unsigned char magic[][3] = {
        {0x1f, 0x8b, 8}, {0x28, 0xb5, 0x2f}, {'B', 'Z', 'h'}, {0xfd, '7', 'z'}};
    for (size_t i = 0; i < 4; i++) {
        CHECK_EQ_INT(write_file(NULL, in_dir(names[i]), game, 1), PGN_OK);
        FILE *f = fopen(in_dir(names[i]), "rb");
        unsigned char head[3] = {0, 0, 0};
        CHECK(f && fread(head, 1, 3, f) == 3 && memcmp(head, magic[i], 3) == 0);
        if (f) {
            fclose(f);
        }
        CHECK_EQ_STR(read_back(in_dir(names[i])), game);
        unlink(in_dir(names[i]));
    }
    pgn_output_opts plain = {.flags = PGN_OUTPUT_PLAIN};
    CHECK_EQ_INT(write_file(&plain, in_dir("p.pgn.gz"), game, 1), PGN_OK);
    struct stat st;
    CHECK(stat(in_dir("p.pgn.gz"), &st) == 0 && st.st_size == (off_t)strlen(game));
    unlink(in_dir("p.pgn.gz"));
}

static void test_failures(void) {
    pgn_output *o = NULL;
    char msg[512];
    CHECK_EQ_INT(pgn_output_new(&o, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_output_open(o, dir, msg, sizeof msg), PGN_E_IO);
    char want[600];
    snprintf(want, sizeof want, "cannot write '%s': Is a directory", dir);
    CHECK_EQ_STR(msg, want);
    CHECK(pgn_output_about(o) == NULL);
    CHECK(pgn_output_write(o, "x", 1) == -1); /* not open */
    if (access("/dev/full", W_OK) == 0) {
        CHECK_EQ_INT(pgn_output_open(o, "/dev/full", msg, sizeof msg), PGN_OK);
        CHECK(pgn_output_target(o) == NULL); /* a device: written as it comes */
        char big[1 << 17];
        memset(big, 'x', sizeof big);
        CHECK(pgn_output_write(o, big, sizeof big) == -1);
        CHECK(pgn_output_write(o, "x", 1) == -1); /* remembered */
        CHECK_EQ_INT(pgn_output_close(o, 1, msg, sizeof msg), PGN_E_IO);
        CHECK_EQ_STR(msg, "error writing /dev/full: No space left on device");
    }
    /* freed while open: closed without commit, the target stays as it was */
    const char *target = in_dir("w.pgn");
    put_file(target, "old\n");
    CHECK_EQ_INT(pgn_output_open(o, target, msg, sizeof msg), PGN_OK);
    CHECK(pgn_output_target(o) != NULL);
    CHECK(pgn_output_write(o, game, sizeof game - 1) == (ptrdiff_t)(sizeof game - 1));
    pgn_output_free(o);
    CHECK_EQ_STR(read_back(target), "old\n");
    CHECK_EQ_INT(temps(), 0);
    unlink(target);
}

static void test_same_file(void) {
    const char *a = in_dir("a.pgn");
    put_file(a, game);
    CHECK(link(a, in_dir("hard.pgn")) == 0);
    CHECK(symlink(a, in_dir("soft.pgn")) == 0);
    CHECK(pgn_output_same_file(a, in_dir("hard.pgn")));
    CHECK(pgn_output_same_file(in_dir("soft.pgn"), a));
    CHECK(!pgn_output_same_file(a, in_dir("new.pgn")));
    char rel[600];
    snprintf(rel, sizeof rel, "%s/./new.pgn", dir);
    CHECK(pgn_output_same_file(in_dir("new.pgn"), rel)); /* neither exists: the same name */
    CHECK(!pgn_output_same_file(in_dir("new.pgn"), in_dir("other.pgn")));
    CHECK(!pgn_output_same_file("/dev/null", "/dev/null")); /* not a regular file */
    put_file(in_dir("copy.pgn"), game);
    CHECK(!pgn_output_same_file(a, in_dir("copy.pgn"))); /* the same bytes, another file */
    unlink(in_dir("copy.pgn"));
    unlink(in_dir("soft.pgn"));
    unlink(in_dir("hard.pgn"));
    unlink(a);
}

int main(void) {
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return harness_finish();
    }
    test_commit_and_abort();
    test_named();
    test_place();
    test_compressed();
    test_failures();
    test_same_file();
    CHECK_EQ_INT(temps(), 0);
    rmdir(dir);
    return harness_finish();
}
