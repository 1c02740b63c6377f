/*
 * random.c -- the one pseudo-random stream of the project (splitmix64):
 * the same fixed sequence from the same seed on every machine.
 */
#include "engine.h"

uint64_t xq_random_next(uint64_t *state)
{
  /* a Weyl sequence step, then an avalanche of its bits */
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
