// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-topo-json.c - libFuzzer harness of the topology JSON reader
 * (topo_from_json(), docs/topology.md); the input is the whole document.
 */
#include <stdint.h>

#include "topo/topo.h"
#include "fuzz-topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err err = { 0 };
	struct topo *t;

	t = topo_from_json((const char *)data, size, "fuzz", &err);
	fuzz_topo_walk(t);
	topo_free(t);
	return 0;
}
