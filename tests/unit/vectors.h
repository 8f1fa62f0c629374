/* SPDX-License-Identifier: MIT */
/*
 * Going through a table of test vectors (the generated *_vectors.h), each
 * with a fresh copy of its samples: the code under test sorts in place.
 */
#ifndef WSC_TEST_VECTORS_H
#define WSC_TEST_VECTORS_H

#include <stddef.h>
#include <stdlib.h>

/*
 * For each vector @v of the array @vecs, with @d the copy of its samples
 * that @copy(@v) allocates, freed after the body.
 */
#define for_each_vector(v, d, vecs, copy)				\
	for (size_t vec_i = 0;						\
	     vec_i < sizeof(vecs) / sizeof((vecs)[0]) &&		\
	     ((v) = &(vecs)[vec_i], (d) = copy(v), 1);			\
	     free(d), vec_i++)

#endif /* WSC_TEST_VECTORS_H */
