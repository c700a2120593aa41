/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cost.h - the remote-access cost model: pure functions (this file) and
 * the ledger that applies them to a trace (cost-ledger.h).
 *
 * A first-order estimate (docs/cost-model.md):
 *
 *   task T, decision d at t0, T's next decision (or exit, or trace end) at t1
 *
 *   t0                                                              t1
 *   |----x------x--x----------x-------x----x--------------------x----|
 *        each x: one hinting fault of T (its access intensity);
 *        at each x, f_k = T's share of faults on memory node k
 *        (decayed MEM faults: the kernel's sample, or the fault model)
 *
 *   A_k   = sum over the x's of f_k        expected accesses to node k
 *   remote(c)   = sum_{k != c} A_k          if the task ran on node c
 *   weighted(c) = sum_k A_k * r(c,k)
 *
 *   r(c,k): the latency of an access from node c to node k's memory over a
 *   local one: lat(c,k) / lat(c,c) from the measured profile when the
 *   trace (or --latency) has one; else the priors, a range:
 *   high r = dist(c,k) / dist(c,c) (SLIT taken as a latency ratio), low
 *   r = 1 + COST_PRIOR_LOW_EXCESS * (dist(c,k) / dist(c,c) - 1)
 *
 *   old: c = node the old policy would have left T on (allow: dst, resist: src)
 *   new: c = the same for the new policy;  trace: c = where the kernel put it
 *   delta = new - old
 *
 * Units: accesses are NUMA hinting faults (sampled accesses, not every
 * load); weighted is in local-access equivalents (a local access is 1, a
 * remote one r).  It does not re-simulate what later decisions would
 * have done after a different choice.
 */
#ifndef SR_COST_COST_H
#define SR_COST_COST_H

#include <stdbool.h>
#include <stdint.h>

/* node_distance() of a node to itself on every kernel */
#define COST_LOCAL_DISTANCE	10

/*
 * The low prior: a remote access's extra latency over a local one is this
 * fraction of what the SLIT distance says.  From the one published pair
 * issue 17 quotes: SLIT 21 (2.1x) where a pointer chase measured 1.53x,
 * (1.53 - 1) / (2.1 - 1).  The high prior is the SLIT ratio itself.
 */
#define COST_PRIOR_LOW_EXCESS	(0.53 / 1.1)

/**
 * enum cost_latency - what priced remote accesses
 * @COST_LATENCY_PRIOR:    no (complete) measured profile: the SLIT priors,
 *                         weighted is the high one and the low one is
 *                         cost_weighted_low()
 * @COST_LATENCY_MEASURED: the measured latency profile
 */
enum cost_latency {
	COST_LATENCY_PRIOR = 0,
	COST_LATENCY_MEASURED,
};

/**
 * struct cost_value - a cost, in hinting faults
 * @accesses: expected accesses priced (sum of A_k)
 * @remote:   of them, to memory on another node than the task's
 * @weighted: sum of accesses times distance / local distance
 * @known:    false when the node or the memory placement was not known
 */
struct cost_value {
	double	accesses;
	double	remote;
	double	weighted;
	bool	known;
};

/**
 * cost_shares() - per-node shares of a task's memory from its fault counts
 * @faults:   decayed faults per node (the kernel's task_faults())
 * @nr_nodes: entries in @faults and @shares
 * @shares:   filled with faults[k] / sum (they add up to 1)
 *
 * Context: pure.
 * Return: 0, or -ENODATA when the faults sum to 0 (nothing is known of
 * where the memory lives; @shares are zeroed), -EINVAL when @nr_nodes < 1.
 */
int cost_shares(const uint64_t *faults, int nr_nodes, double *shares);

/**
 * cost_accumulate() - add @accesses accesses spread by @shares to @acc
 * @acc: A_k, per node
 *
 * Context: pure (writes @acc only).
 */
void cost_accumulate(double *acc, const double *shares, int nr_nodes, double accesses);

/**
 * cost_price() - the price of one access of a task running on @node
 * @shares:  its memory placement (cost_shares())
 * @dist:    nr_nodes x nr_nodes distances, row-major, dist[a * nr + b]
 * @node:    where it runs
 * @remote:  set to the probability the access is remote, 1 - f_node
 * @weighted: set to sum_k f_k * dist(node, k) / dist(node, node)
 *
 * Context: pure.
 * Return: 0, or -EINVAL when @node is out of range or a distance it needs
 * is not positive.
 */
int cost_price(const double *shares, int nr_nodes, const int *dist, int node, double *remote,
	       double *weighted);

/**
 * cost_ratio_from_distance() - r(a,b) of the high prior, dist(a,b) / dist(a,a)
 * @dist: nr_nodes x nr_nodes distances, row-major
 *
 * Context: pure.
 * Return: the ratio, or -1 when a distance is not positive or out of range.
 */
double cost_ratio_from_distance(const int *dist, int nr_nodes, int a, int b);

/**
 * cost_weighted_low() - the low prior's weighted figure from the high
 * one's: every access costs 1 + COST_PRIOR_LOW_EXCESS * (r - 1), so a sum
 * of @accesses accesses that weighs @weighted at the high prior weighs
 * accesses + COST_PRIOR_LOW_EXCESS * (weighted - accesses)
 * @accesses: the accesses summed (0 for a difference of two sides over
 *            the same intervals, whose accesses are equal)
 * @weighted: their weighted figure at the high prior
 *
 * Context: pure; linear, so it holds for sums and differences alike.
 */
double cost_weighted_low(double accesses, double weighted);

/**
 * cost_of() - the cost of accesses @acc made from @node
 * @acc:   A_k (cost_accumulate())
 * @ratio: nr_nodes x nr_nodes, row-major: r(c,k), the price of one access
 *         from node c to node k's memory (a local one is 1); <= 0 unknown
 * @out:   filled; out->known false when @node < 0 or @ratio lacks a pair
 *         it needs
 *
 * Context: pure.
 */
void cost_of(const double *acc, int nr_nodes, const double *ratio, int node,
	     struct cost_value *out);

/**
 * cost_add() - @sum += @v (accesses, remote, weighted); unknown @v adds nothing
 */
void cost_add(struct cost_value *sum, const struct cost_value *v);

/**
 * cost_rate_from_decayed() - hinting faults per second implied by decayed
 * fault counts in steady state: each scan period adds N and halves the
 * rest, so the decayed sum is 2N, and N = sum / 2 per period
 * @sum:            decayed faults, all nodes
 * @scan_period_ns: > 0
 *
 * Context: pure.  Used only where no per-fault events exist.
 * Return: faults per second; 0 when @scan_period_ns is 0.
 */
double cost_rate_from_decayed(uint64_t sum, uint64_t scan_period_ns);

/**
 * cost_share() - @part / @whole as a fraction; -1 when @whole is 0
 */
double cost_share(double part, double whole);

#endif
