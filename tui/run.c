// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - the headless loop: keys from a script, frames drawn into the
 * canvas only.  Tests and sanitizer runs (`--headless --frames N`) use it;
 * it takes the same path through tui_app_key() and tui_app_draw() as the
 * terminal loop, partial repaints included.
 */
#include <errno.h>

#include "tui.h"

int tui_run_headless(struct tui_app *a, const struct tui_run_opts *o)
{
	unsigned long frames = 0;
	size_t ki = 0;
	bool full = true;
	int ret;

	ret = tui_app_resize(a, o->w > 0 ? o->w : 80, o->h > 0 ? o->h : 24);
	if (ret < 0)
		return ret;
	for (;;) {
		unsigned int r;

		/* a headless run starts once loading is over: this only takes the end */
		if (tui_app_poll(a))
			full = true;
		tui_app_draw(a, full);
		frames++;
		if ((o->frames && frames >= o->frames) || ki >= o->nr_keys)
			break;
		if (o->keys[ki].key == TUI_KEY_RESIZE) {
			ret = tui_app_resize(a, o->keys[ki].w, o->keys[ki].h);
			ki++;
			if (ret < 0)
				return ret;
			full = true;
			continue;
		}
		r = tui_app_key(a, o->keys[ki++].key);
		if (r & TUI_QUIT)
			break;
		full = r != TUI_REDRAW_LINE;
	}
	if (o->dump)
		return tui_canvas_dump(tui_app_canvas(a), o->dump, o->styles);
	return 0;
}
