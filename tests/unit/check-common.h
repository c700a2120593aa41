/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check-common.h - shared bits of the Check programs.
 *
 * Each tests/unit/check-<module>.c defines "Suite *<module>_suite(void)"
 * and ends with SR_CHECK_MAIN(<module>_suite).  CK_RUN_CASE, CK_FORK and
 * CK_TAP_LOG_FILE_NAME work as Check documents.
 */
#ifndef SR_TESTS_CHECK_COMMON_H
#define SR_TESTS_CHECK_COMMON_H

#include <check.h>
#include <stdlib.h>

#define SR_CHECK_MAIN(suite_fn)						\
	int main(void)							\
	{								\
		SRunner *sr = srunner_create(suite_fn());		\
		int failed;						\
									\
		srunner_run_all(sr, CK_NORMAL);				\
		failed = srunner_ntests_failed(sr);			\
		srunner_free(sr);					\
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;		\
	}

/*
 * Path of a fixture, e.g. SR_FIXTURE("numa01-4n/trace.dat"); everything the
 * tests read is in fixtures/ (see its README.md).
 */
#define SR_FIXTURES_DIR SR_SOURCE_DIR "/fixtures"
#define SR_FIXTURE(rel) SR_FIXTURES_DIR "/" rel

#endif
