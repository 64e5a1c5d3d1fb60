/* SPDX-License-Identifier: MIT */
/* The parser's state and helpers shared by the grammar (qparse.c) and the atoms (qatom_parse.c).
 * Internal. */
#ifndef PGNKIT_QPARSER_H
#define PGNKIT_QPARSER_H

#include "query_internal.h"

typedef enum { T_END, T_LP, T_RP, T_STR, T_WORD, T_OP, T_BAD } tkind;

typedef struct tok {
    tkind kind;
    uint32_t at, len; /* byte offset and length in the text (strings: with their quotes) */
    uint8_t cmp;      /* T_OP */
    uint8_t icase;    /* T_STR followed by i */
} tok;

typedef struct parser {
    pgn_query *q;
    const char *s;
    size_t n, i;
    tok t; /* the current token */
    uint32_t depth;
    pgn_query_error *err;
    pgn_status st;
} parser;

/* Reads the next token at p->i into p->t; skips white space and # comments. */
void pgnk_qlex(parser *p);
/* Records an error at token t (the first one only); returns 0. */
int pgnk_qfail_at(parser *p, const tok *t, const char *msg, const char *expected);
int pgnk_qfail(parser *p, const char *msg, const char *expected);
/* Nonzero if t is the word w (ASCII case-insensitive). */
int pgnk_qword_is(const parser *p, const tok *t, const char *w);
/* A zeroed node of kind op (QNONE when out of memory). */
uint32_t pgnk_qnew_node(parser *p, qop op);
/* Takes the current token as an operand (a string unescaped, or a word); fails with what. */
const char *pgnk_qoperand(parser *p, size_t *len, const char *what);
/* The atom's source span ends at the current token, which is consumed. */
void pgnk_qfinish_atom(parser *p, uint32_t id, uint32_t start);
/* qatom_parse.c: an atom at the current token. */
uint32_t pgnk_qparse_atom(parser *p);

#endif
