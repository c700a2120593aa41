// SPDX-License-Identifier: GPL-2.0-or-later
/* dat.c - placeholder until the decoder lands (issue 2, in progress). */
#include "ingest-local.h"

static int dat_open(struct ingest *in)
{
	return err_set(&in->err, -SR_EUNSUPPORTED, "this format's reader is not built yet");
}

static int dat_next(struct ingest *in, struct sr_event *ev)
{
	return -SR_EUNSUPPORTED;
}

const struct ingest_ops ingest_dat_ops = {
	.open	= dat_open,
	.next	= dat_next,
};
