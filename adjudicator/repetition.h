/*
 * repetition.h -- internals shared by classify.c and cycle.c (not part of
 * the public interface).
 */
#ifndef XQ_REPETITION_H
#define XQ_REPETITION_H

#include <stdint.h>

#include "adjudicator.h"

/* True for the CXA rule sets (2011 and 2020, identical until compared). */
int xq__classify_is_cxa(const xq_rules *rules);

#endif /* XQ_REPETITION_H */
