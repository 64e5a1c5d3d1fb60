/* SPDX-License-Identifier: MIT */
/* pgnkit: a C17 library for chess games in PGN. Umbrella header. */
#ifndef PGNKIT_H
#define PGNKIT_H

#include "pgnkit/base.h"
#include "pgnkit/chess.h"
#include "pgnkit/game.h"
#include "pgnkit/nag.h"
#include "pgnkit/reader.h"
#include "pgnkit/writer.h"
#include "pgnkit/annot.h"
#include "pgnkit/export.h"
#include "pgnkit/engine.h"
#include "pgnkit/evaluation.h"
#include "pgnkit/json.h"
#include "pgnkit/json_reader.h"
#include "pgnkit/query.h"
#include "pgnkit/opening.h"
#include "pgnkit/collection.h"
#include "pgnkit/dedupe_run.h"
#include "pgnkit/render.h"
#include "pgnkit/jobs.h"
#include "pgnkit/source.h"
#include "pgnkit/sort.h"
#include "pgnkit/split.h"
#include "pgnkit/tempfile.h"
#include "pgnkit/workq.h"
#include "pgnkit/db.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PGNKIT_VERSION_MAJOR 0
#define PGNKIT_VERSION_MINOR 1
#define PGNKIT_VERSION_PATCH 0
#define PGNKIT_VERSION_STRING "0.1.0"

/** The library's version string, e.g. "0.1.0" (may differ from the header's when linked
 * dynamically). */
PGN_API const char *pgn_version(void);

#ifdef __cplusplus
}
#endif
#endif
