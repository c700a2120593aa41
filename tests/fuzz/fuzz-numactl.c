// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-numactl.c - libFuzzer harness of the `numactl -H` text reader
 * (topo_from_numactl()); the input is the whole text.  A topology that is
 * accepted is validated and queried over its whole range.
 */
#include <stdint.h>

#include "topo/topo.h"
#include "fuzz-topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err err = { 0 };
	struct topo *t;

	t = topo_from_numactl((const char *)data, size, "fuzz", &err);
	fuzz_topo_walk(t);
	topo_free(t);
	return 0;
}
