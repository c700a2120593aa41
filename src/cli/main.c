// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - placeholder; the CLI lands with issue 2. */
int main(void)
{
	return 0;
}
