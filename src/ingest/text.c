// SPDX-License-Identifier: GPL-2.0-or-later
/* text.c - placeholder until the decoder lands (issue 2, in progress). */
#include "ingest-local.h"

enum ingest_format ingest_detect_text(const char *head, size_t len)
{
	return INGEST_FMT_AUTO;
}

static int text_open(struct ingest *in)
{
	return err_set(&in->err, -SR_EUNSUPPORTED, "this format's reader is not built yet");
}

static int text_next(struct ingest *in, struct sr_event *ev)
{
	return -SR_EUNSUPPORTED;
}

const struct ingest_ops ingest_text_ops = {
	.open	= text_open,
	.next	= text_next,
};
