// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * digits.c - whether a string is a decimal number (digits.h).
 */
#include "digits.h"

bool util_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}
