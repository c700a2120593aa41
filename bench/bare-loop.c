// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bare-loop.c - the speed anchor of bench/run.sh: a bare libtracecmd loop,
 * tracecmd_iterate_events() over every record of a trace.dat, reading two
 * fields of each record (its pid and, for sched_switch, next_pid), with the
 * field looked up once.  What any tool built on libtracecmd pays at least.
 *
 * usage: bare-loop TRACE.dat   (prints the number of records)
 */
#include <stdio.h>
#include <stdlib.h>

#include <event-parse.h>
#include <trace-cmd.h>

struct loop {
	struct tep_handle	*tep;
	struct tep_format_field	*next_pid;
	int			switch_id;
	unsigned long long	records;
	unsigned long long	sum;
};

static int one(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *arg)
{
	struct loop *l = arg;
	unsigned long long v = 0;

	(void)handle;
	(void)cpu;
	l->records++;
	l->sum += (unsigned int)tep_data_pid(l->tep, rec);
	if (l->next_pid && tep_data_type(l->tep, rec) == l->switch_id &&
	    !tep_read_number_field(l->next_pid, rec->data, &v))
		l->sum += v;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_event *sw;
	struct loop l = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: bare-loop TRACE.dat\n");
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "bare-loop: cannot open '%s'\n", argv[1]);
		return 3;
	}
	l.tep = tracecmd_get_tep(h);
	sw = tep_find_event_by_name(l.tep, "sched", "sched_switch");
	if (sw) {
		l.switch_id = sw->id;
		l.next_pid = tep_find_field(sw, "next_pid");
	}
	tracecmd_iterate_events(h, NULL, 0, one, &l);
	printf("%llu\n", l.records);
	fprintf(stderr, "checksum %llu\n", l.sum);
	tracecmd_close(h);
	return 0;
}
