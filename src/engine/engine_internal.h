/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of src/engine. */
#ifndef PGNKIT_ENGINE_INTERNAL_H
#define PGNKIT_ENGINE_INTERNAL_H

#include "../game/evaluation_internal.h"
#include "pgnkit/engine.h"

#endif
