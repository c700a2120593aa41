// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cost.c - the cost model's pure functions: memory placement from fault
 * counts, the price of an access from a node, costs of accumulated
 * accesses.  No state, no I/O; see cost.h for the model and its units.
 */
#include <errno.h>
#include <string.h>

#include "cost.h"

int cost_shares(const uint64_t *faults, int nr_nodes, double *shares)
{
	double sum = 0;
	int k;

	if (nr_nodes < 1)
		return -EINVAL;
	for (k = 0; k < nr_nodes; k++)
		sum += (double)faults[k];
	if (sum <= 0) {
		memset(shares, 0, (size_t)nr_nodes * sizeof(*shares));
		return -ENODATA;
	}
	for (k = 0; k < nr_nodes; k++)
		shares[k] = (double)faults[k] / sum;
	return 0;
}

void cost_accumulate(double *acc, const double *shares, int nr_nodes, double accesses)
{
	int k;

	for (k = 0; k < nr_nodes; k++)
		acc[k] += accesses * shares[k];
}

int cost_price(const double *shares, int nr_nodes, const int *dist, int node, double *remote,
	       double *weighted)
{
	double w = 0;
	int k, local;

	if (node < 0 || node >= nr_nodes)
		return -EINVAL;
	local = dist[node * nr_nodes + node];
	if (local <= 0)
		return -EINVAL;
	for (k = 0; k < nr_nodes; k++) {
		int d = dist[node * nr_nodes + k];

		if (shares[k] == 0)
			continue;
		if (d <= 0)
			return -EINVAL;
		w += shares[k] * (double)d / (double)local;
	}
	*remote = 1.0 - shares[node];
	if (*remote < 0)
		*remote = 0;	/* rounding */
	*weighted = w;
	return 0;
}

void cost_of(const double *acc, int nr_nodes, const double *ratio, int node,
	     struct cost_value *out)
{
	double sum = 0, w = 0;
	int k;

	memset(out, 0, sizeof(*out));
	if (node < 0 || node >= nr_nodes)
		return;
	for (k = 0; k < nr_nodes; k++)
		sum += acc[k];
	if (sum <= 0) {
		out->known = true;	/* no accesses: a known zero */
		return;
	}
	for (k = 0; k < nr_nodes; k++) {
		double r = ratio[node * nr_nodes + k];

		if (acc[k] == 0)
			continue;
		if (!(r > 0))
			return;
		w += acc[k] * r;
	}
	out->accesses = sum;
	out->remote = sum - acc[node];
	if (out->remote < 0)
		out->remote = 0;
	out->weighted = w;
	out->known = true;
}

double cost_ratio_from_distance(const int *dist, int nr_nodes, int a, int b)
{
	int local, d;

	if (a < 0 || b < 0 || a >= nr_nodes || b >= nr_nodes)
		return -1;
	local = dist[a * nr_nodes + a];
	d = dist[a * nr_nodes + b];
	if (local <= 0 || d <= 0)
		return -1;
	return (double)d / (double)local;
}

double cost_weighted_low(double accesses, double weighted)
{
	return accesses + COST_PRIOR_LOW_EXCESS * (weighted - accesses);
}

void cost_add(struct cost_value *sum, const struct cost_value *v)
{
	if (!v->known)
		return;
	sum->accesses += v->accesses;
	sum->remote += v->remote;
	sum->weighted += v->weighted;
	sum->known = true;
}

double cost_rate_from_decayed(uint64_t sum, uint64_t scan_period_ns)
{
	if (!scan_period_ns)
		return 0;
	return ((double)sum / 2.0) / ((double)scan_period_ns / 1e9);
}

double cost_share(double part, double whole)
{
	return whole > 0 ? part / whole : -1;
}
