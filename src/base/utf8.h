/* SPDX-License-Identifier: MIT */
/* The one UTF-8 module (RFC 3629): validate, decode and encode one code point, cut a string on a
 * character boundary. Well-formed means no overlong form, no surrogate, nothing above U+10FFFF.
 * Internal header. */
#ifndef PGNKIT_UTF8_H
#define PGNKIT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* U+FFFD, the replacement character, and its UTF-8 form. */
#define PGNK_UTF8_REPLACEMENT 0xFFFDu
#define PGNK_UTF8_REPLACEMENT_STR "\xEF\xBF\xBD"

/* Length (2 to 4) of a sequence whose first byte is c, and in *lo..*hi the range its second byte
 * must lie in; 0 if c cannot start a multi-byte sequence. For readers that see one byte at a
 * time; later continuation bytes lie in 0x80..0xBF. */
unsigned pgnk_utf8_lead(unsigned c, unsigned *lo, unsigned *hi);

/* Length (1 to 4) of the well-formed sequence at s, which holds len > 0 bytes; 0 if the bytes
 * there are not one (a stray byte, or a sequence cut short by len). */
size_t pgnk_utf8_seq_len(const unsigned char *s, size_t len);

/* 1 if the len bytes at s are well-formed UTF-8, else 0. */
int pgnk_utf8_valid(const char *s, size_t len);

/* The code point at s (len > 0 bytes); *used gets its length. A byte that starts no well-formed
 * sequence gives U+FFFD with *used = 1. */
uint32_t pgnk_utf8_decode(const char *s, size_t len, size_t *used);

/* Writes the UTF-8 form of cp (at most U+10FFFF, no surrogate) to out; returns its length. */
size_t pgnk_utf8_encode(uint32_t cp, char out[4]);

/* The longest prefix of the len bytes at s that is at most max bytes and does not end inside a
 * multi-byte sequence (s is assumed well-formed; continuation bytes are never split off). */
size_t pgnk_utf8_cut(const char *s, size_t len, size_t max);

/* Writes to out (cap >= 4 bytes) the len bytes at s as NUL-terminated UTF-8: each byte that starts
 * no well-formed sequence becomes U+FFFD; cut on a character boundary to fit. Returns the length
 * written. */
size_t pgnk_utf8_excerpt(char *out, size_t cap, const char *s, size_t len);

#endif
