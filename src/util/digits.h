/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * digits.h - whether a string is a decimal number, as /proc entries and
 * search boxes ask; the value of a hex digit, as escapes and 0x numbers
 * need.
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

/**
 * util_hex_digit() - the value of one hex digit
 * @c: '0'-'9', 'a'-'f' or 'A'-'F'
 *
 * Return: 0..15, or -1 for any other byte.
 */
int util_hex_digit(char c);

#endif
