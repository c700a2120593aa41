// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-tui-json.c - libFuzzer harness of the browser's reader of saved
 * `replay --json` reports (tui_store_load_json(), tui/store-json.c: a
 * hand-made walk of the top-level object that decodes each decision
 * alone).  The input is the whole report (an in-memory file).  Every row
 * it stores is then looked at through the store's accessors, as the views
 * do, so an id or index the reader let through out of range shows up.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tui/store.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile unsigned int sink = 0;
	struct err err = { 0 };
	struct tui_store *s;
	char path[64];
	size_t i, n;
	int fd, side, k;

	fd = fuzz_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	s = tui_store_new();
	if (!s)
		goto out_close;
	if (tui_store_load_json(s, path, &err) == 0) {
		(void)tui_store_header(s);
		n = tui_store_count(s);
		for (i = 0; i < n; i++) {
			const struct tui_row *row = tui_store_row(s, i);
			const struct tui_snap *snap = tui_store_snap(s, row);

			sink += fuzz_touch(row->comm, strnlen(row->comm, sizeof(row->comm)));
			for (side = 0; side < TUI__SIDES; side++) {
				const struct tui_verdict *v = tui_store_verdict(s, row->verdict[side]);

				if (!v)
					continue;
				(void)tui_verdict_short(v);
				(void)tui_store_policy_name(s, v->policy);
				for (k = 0; k < v->nr_reasons && k < SR_MAX_REASONS; k++) {
					(void)tui_store_reason_name(s, v->reasons[k]);
					(void)tui_store_reason_text(s, v->reasons[k]);
				}
			}
			(void)tui_store_evidence_name(s, row->evidence);
			if (snap) {
				const uint64_t *tf = tui_store_task_faults(s, snap);
				const uint64_t *gf = tui_store_group_faults(s, snap);
				const int32_t *nr = tui_store_node_nr(s, snap);

				for (k = 0; k < snap->nr_nodes; k++) {
					sink += tf ? (unsigned int)tf[k] : 0;
					sink += gf ? (unsigned int)gf[k] : 0;
					sink += nr ? (unsigned int)nr[k] : 0;
				}
			}
		}
	}
	tui_store_free(s);
out_close:
	close(fd);
	(void)sink;
	return 0;
}
