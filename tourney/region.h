/*
 * region.h -- regions as places in a hierarchy (province > prefecture >
 * county), not strings: Shaanxi's 榆林籍 prize (十二(二)2) is for the
 * players of every county of Yulin, Burqin's team competition (四(二))
 * for the teams of Altay prefecture. The hierarchy is data
 * (tourney/data/regions.txt, compiled in), read by region.c.
 */
#ifndef XQ_REGION_H
#define XQ_REGION_H

#include <stddef.h>

#define XQ_REGION_DEPTH_MAX 8   /* levels walked up from a place (a loop in the data stops there) */
#define XQ_REGION_NAME_MAX 64   /* bytes of one place name or spelling in the data */
#define XQ_REGION_LIST_MAX 2048 /* bytes of the places directly within one area, listed (xq_region_unit) */

/* True when `place` is `area` or lies within it by the hierarchy: `area`
 * itself, a place listed under it, or under one of those, and so on. A
 * place may be written as a path of its levels, "榆林/佳县": any part
 * within `area` is enough; so may a part written in full, its levels run
 * together ("阿勒泰地区北屯市", "陕西省榆林市佳县": split into the names
 * the data knows). Names compare by any of their spellings in the
 * data (神木 = 神木县 = 神木市); a name the data does not know is only
 * itself. An empty `area` matches only an empty `place`. NULL: false.
 * Cannot fail. */
int xq_region_within(const char *place, const char *area);

/* The area `place` lies directly within (its first spelling in the data)
 * into out[0..cap-1], "" when the data has none. Returns 1 when found,
 * 0 otherwise. Cannot fail. */
int xq_region_parent(const char *place, char *out, size_t cap);

/* The places directly within `area` (their first spellings), ", "
 * separated, into out[0..cap-1] (cut to fit); "" when the data lists
 * none. Returns how many there are. Cannot fail. */
int xq_region_places(const char *area, char *out, size_t cap);

/* The place directly within `area` that `place` lies within (a county
 * resolves to its prefecture: xq_region_unit("布尔津县", "新疆") is
 * "阿勒泰"), its first spelling, into out[0..cap-1]. Returns 1 when
 * found; 0, with out "", for an empty place, `area` itself, or a place
 * the data puts within none of them (or does not know). Cannot fail. */
int xq_region_unit(const char *place, const char *area, char *out, size_t cap);

/* The hierarchy's text (regions_data.c, generated from data/regions.txt). */
extern const char xq__regions_text[];
extern const size_t xq__regions_len;

#endif /* XQ_REGION_H */
