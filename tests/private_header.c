/*
 * private_header.c -- never part of a program: the test private_headers
 * compiles it as a dependent of every library (xq_clients and all below
 * it) and expects the compiler not to find the engine's private header.
 * A dependent sees each library's public headers only
 * (xq_public_headers, CMakeLists.txt).
 */
#include "engine.h" /* public: found */
#include "engine_internal.h"
