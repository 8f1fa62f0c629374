// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's only source of choices: xoshiro256** seeded through
 * splitmix64, so that one 64-bit seed gives the same run on any machine.
 */
#include <sys/random.h>
#include <time.h>

#include "fuzz.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* The modulo bias is irrelevant for n this small against 2^64. */
	return n ? rng_next(r) % n : 0;
}

bool rng_chance(struct rng *r, unsigned int pct)
{
	return rng_below(r, 100) < pct;
}

uint64_t rng_fresh_seed(void)
{
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), 0) == sizeof(seed))
		return seed;
	return (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
}
