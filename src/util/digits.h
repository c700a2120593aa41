/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * digits.h - whether a string is a decimal number, as /proc entries and
 * search boxes ask.
 */
#ifndef SR_UTIL_DIGITS_H
#define SR_UTIL_DIGITS_H

#include <stdbool.h>

/**
 * util_all_digits() - whether @s is one or more ASCII digits and nothing else
 * @s: a NUL-terminated string
 *
 * Return: false for "" and for any sign, space or other byte.
 */
bool util_all_digits(const char *s);

#endif
