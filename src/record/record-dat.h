/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record-dat.h - trace.dat v6 option ids the recorder writes (the ids of
 * trace-cmd's TRACECMD_OPTION_* list, plus the schedreplay option).
 * Private to src/record/.
 */
#ifndef SR_RECORD_RECORD_DAT_H
#define SR_RECORD_RECORD_DAT_H

enum record_dat_opt {
	RECORD_DAT_OPT_CPUSTAT		= 2,
	RECORD_DAT_OPT_TRACECLOCK	= 4,
	RECORD_DAT_OPT_UNAME		= 5,
	RECORD_DAT_OPT_CPUCOUNT		= 8,
	RECORD_DAT_OPT_VERSION		= 9,
	/*
	 * schedreplay metadata (docs/recording.md): NUL-terminated text,
	 * first line RECORD_DAT_META_MAGIC, then one key=value line per fact.
	 * Readers skip option ids they do not know; this one is far above
	 * trace-cmd's (22 in 3.1).
	 */
	RECORD_DAT_OPT_SCHEDREPLAY	= 0x5352,
};

#define RECORD_DAT_META_MAGIC	"schedreplay-metadata 1"

#endif
