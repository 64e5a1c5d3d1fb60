/* SPDX-License-Identifier: MIT */
/* Temporary files (include/pgnkit/tempfile.h, pgn_temp_*): the names beside a target
 * (".BASE.pgnkit-PID-XXXXXX" in its directory) and the process read back from them; a file made
 * with its mode whatever the umask; the mode of a replaced file kept; a backup as a hard
 * link, replacing an older one, and its failure's sentence; an anonymous file gone from its
 * directory at once. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/pgnkit-test-temp-XXXXXX";

static void test_names(void) {
    char name[256], want[256];
    long pid = (long)getpid();
    CHECK_EQ_INT(pgn_temp_name("d/e/g.pgn", name, sizeof name), PGN_OK);
    snprintf(want, sizeof want, "d/e/.g.pgn.pgnkit-%ld-XXXXXX", pid);
    CHECK_EQ_STR(name, want);
    CHECK_EQ_INT(pgn_temp_name("g.pgn", name, sizeof name), PGN_OK);
    snprintf(want, sizeof want, "./.g.pgn.pgnkit-%ld-XXXXXX", pid);
    CHECK_EQ_STR(name, want);
    CHECK_EQ_INT(pgn_temp_name("/g", name, sizeof name), PGN_OK);
    snprintf(want, sizeof want, "//.g.pgnkit-%ld-XXXXXX", pid);
    CHECK_EQ_STR(name, want);
    CHECK_EQ_INT(pgn_temp_name("d/g.pgn", name, 12), PGN_E_LIMIT);
    CHECK_EQ_INT((int)pgn_temp_maker(".g.pgn.pgnkit-123-abcdef"), 123);
    CHECK_EQ_INT((int)pgn_temp_maker(".x.pgnkit-9.pgnkit-77-abcdef"), 77); /* the last one */
    CHECK_EQ_INT((int)pgn_temp_maker("g.pgnkit-123-abcdef"), 0);           /* no leading dot */
    CHECK_EQ_INT((int)pgn_temp_maker(".g.pgnkit-123-abc"), 0);
    CHECK_EQ_INT((int)pgn_temp_maker(".g.pgnkit--1-abcdef"), 0);
}

static void touch(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fclose(f);
    }
}

static void test_create(void) {
    char target[512], name[600];
    int fd = -1;
    snprintf(target, sizeof target, "%s/g.pgn", dir);
    mode_t mask = umask(077);
    CHECK_EQ_INT(pgn_temp_create(target, 0644, name, sizeof name, &fd), PGN_OK);
    umask(mask);
    struct stat st;
    CHECK(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0644);
    CHECK_EQ_INT((int)pgn_temp_maker(strrchr(name, '/') + 1), (int)getpid());
    close(fd);
    unlink(name);
}

static void test_metadata_and_backup(void) {
    char path[512], name[600], msg[256] = "";
    int fd;
    snprintf(path, sizeof path, "%s/old.pgn", dir);
    touch("old.pgn");
    chmod(path, 0604);
    struct stat old, now;
    CHECK(stat(path, &old) == 0);
    CHECK_EQ_INT(pgn_temp_create(path, 0600, name, sizeof name, &fd), PGN_OK);
    CHECK_EQ_INT(pgn_temp_keep_metadata(fd, path, &old, msg, sizeof msg), PGN_OK);
    CHECK(fstat(fd, &now) == 0 && (now.st_mode & 07777) == 0604);
    close(fd);
    unlink(name);
    CHECK_EQ_INT(pgn_temp_backup(path, ".bak", msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT(pgn_temp_backup(path, ".bak", msg, sizeof msg), PGN_OK); /* replaces it */
    char bak[600];
    snprintf(bak, sizeof bak, "%s.bak", path);
    CHECK(stat(bak, &now) == 0 && now.st_ino == old.st_ino);
    unlink(bak);
    unlink(path);
    char want[700];
    CHECK_EQ_INT(pgn_temp_backup(path, ".bak", msg, sizeof msg), PGN_E_IO);
    snprintf(want, sizeof want,
             "cannot keep a backup as '%s': No such file or directory (not replaced)", bak);
    CHECK_EQ_STR(msg, want);
}

static void test_anonymous(void) {
    int fd = 5;
    char msg[128] = "";
    CHECK_EQ_INT(pgn_temp_open("/nonexistent/pgnkit", &fd, msg, sizeof msg), PGN_E_IO);
    CHECK_EQ_INT(fd, -1);
    CHECK_EQ_STR(msg, "No such file or directory");
    CHECK_EQ_INT(pgn_temp_open(dir, &fd, msg, sizeof msg), PGN_OK);
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    if (d) {
        closedir(d);
    }
    CHECK_EQ_INT(n, 0); /* unlinked at once */
    close(fd);
}

int main(void) {
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return harness_finish();
    }
    test_names();
    test_create();
    test_metadata_and_backup();
    test_anonymous();
    rmdir(dir);
    return harness_finish();
}
