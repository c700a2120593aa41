#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-record-lab.sh -- `schedreplay record` on a real multi-node kernel.
#
# Boots Debian's stock 6.1 kernel under qemu (software emulation) on an
# emulated 4-node or 2-node machine, runs
# `schedreplay record -o /out/x.dat -- numabench shared ...` inside it plus a
# SIGINT, a SIGKILL and a follow-up run (guest/record-scenario.sh), powers
# off, and checks the result on the host:
#   - every check the guest made (instance and kprobe present while
#     recording, nothing left after each run, the SIGKILL'd run's leftovers
#     removed by the next one, tracing state as before);
#   - trace-cmd report reads x.dat without error;
#   - per-event counts of trace-cmd report = schedreplay info --json;
#   - the numa_fault kprobe events are there and their count matches the
#     numa_hint_faults delta of the trace's schedreplay_vmstat lines;
#   - info shows the nodes and distances of the emulated machine, taken
#     from the trace's own lines;
#   - replay runs, shows NUMA decisions and a calibration figure;
#   - the decision probes: present, paired, counted as kprobe_profile counts;
#   - ground truth (issue 17), every figure from the files: candidates =
#     trace-cmd's cmt_ret events, the kernel model agrees with the kernel's
#     verdict on >= 95% of them and judges >= 95%, unknown verdicts <= 5% of
#     the load-balance decisions; the start snapshot seeds every task the
#     trace names but the ones born in it or gone before it was read
#     (seen-tasks.awk); 16 latency lines on 4 nodes.
# Everything it needs is in tests/lab/ (guest scripts, src/numabench.c) or
# fetched by it: the Debian packages it lacks (apt-get, as root) and the
# kernel package, downloaded with apt-get download into the cache folder,
# of which only vmlinuz and the virtio/9p modules are unpacked.
# A few minutes of emulation; CTest runs it as the test "lab" (label lab)
# with a short workload.  See tests/lab/README.md.
#
# usage: tests/lab/run-record-lab.sh [-t 4n|2n] [-s SECS] [-o OUTDIR] [-B BUILD_DIR] [-S]
#   -t  topology (default 4n: 8 CPUs, 4 nodes x 512 MiB, distances 10/20/40;
#       2n: 4 CPUs, 2 nodes x 512 MiB, distance 20)
#   -s  seconds the workload runs (default 40)
#   -o  output folder (default $LAB/record-out/TOPO); emptied first
#   -B  the build folder holding schedreplay (default build)
#   -S  a set-up problem (a package missing when not root, no kernel package) exits 77
#       (skipped: how CTest runs it, tests/CMakeLists.txt "lab")
# environment: KVER (default 6.1.0-57-amd64: the Debian package
# linux-image-$KVER), LAB (the cache folder, default
# ${XDG_CACHE_HOME:-$HOME/.cache}/schedreplay-lab: the kernel is unpacked
# in $LAB/kernel, the initramfs built in a temporary $LAB/record-lab.XXXXXX,
# removed at exit), TIMEOUT (qemu's
# limit in s, default 1500), LAB_NO_INSTALL=1 (do not apt-get install),
# LAB_ACCEL (qemu's -accel, default tcg,thread=single: multi-threaded TCG
# crashed the guest when probes were placed again, docs/recording.md
# "Known risk"), LAB_EXTRA=1 (two more recordings, README.md).
# exit: 0 all checks passed, 1 a check failed, 2 usage or missing set-up (77 with -S).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
LAB=${LAB:-${XDG_CACHE_HOME:-$HOME/.cache}/schedreplay-lab}
KVER=${KVER:-6.1.0-57-amd64}
KDIR=$LAB/kernel
TOPO=4n
SECS=40
OUT=
BUILD=$SRC/build
SETUP_RC=2
while getopts "t:s:o:B:Sh" opt; do
	case $opt in
	t) TOPO=$OPTARG ;;
	s) SECS=$OPTARG ;;
	o) OUT=$OPTARG ;;
	B) BUILD=$(cd "$OPTARG" && pwd) ;;
	S) SETUP_RC=77 ;;
	*) sed -n '/^# usage:/,/^# exit:/p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
OUT=${OUT:-$LAB/record-out/$TOPO}
SR=$BUILD/schedreplay
die() { echo "run-record-lab: $*" >&2; exit 2; }
# a set-up problem (packages, kernel download): 2, or 77 (skipped) with -S
setup_die() { echo "run-record-lab: $*" >&2; exit "$SETUP_RC"; }
case $TOPO in 4n | 2n) ;; *) die "unknown topology '$TOPO' (4n or 2n)" ;; esac
case $SECS in '' | *[!0-9]*) die "-s wants whole seconds" ;; esac
[ -x "$SR" ] || die "no $SR: build first (make)"
[ "$(uname -m)" = x86_64 ] || setup_die "the lab boots an x86-64 kernel: x86-64 hosts only"

# ---- set-up: Debian packages, then the kernel ------------------------------------
# the command each package gives (the same list as `make lab-deps`)
PKGS="qemu-system-x86:qemu-system-x86_64 busybox-static:/bin/busybox numactl:numactl
      cpio:cpio gzip:gzip gcc:gcc libc6-dev:/usr/lib/x86_64-linux-gnu/libc.a
      trace-cmd:trace-cmd jq:jq libc-bin:ldd"
missing=
for pc in $PKGS; do
	c=${pc#*:}
	case $c in
	/*) [ -e "$c" ] ;;
	*) command -v "$c" >/dev/null ;;
	esac || missing="$missing ${pc%%:*}"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] && [ -z "${LAB_NO_INSTALL:-}" ] ||
		setup_die "missing:$missing (as root: apt-get install$missing, or make lab-deps)"
	echo "run-record-lab: installing$missing"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install$missing failed"
fi

# the kernel: linux-image-$KVER from the Debian archive, vmlinuz and the
# modules the guest loads (virtio, 9p) unpacked from it
MODS="drivers/virtio/virtio_ring.ko drivers/virtio/virtio.ko drivers/virtio/virtio_pci_legacy_dev.ko
      drivers/virtio/virtio_pci_modern_dev.ko drivers/virtio/virtio_pci.ko net/9p/9pnet.ko
      net/9p/9pnet_virtio.ko fs/netfs/netfs.ko fs/fscache/fscache.ko fs/9p/9p.ko"
have_kernel() {
	local m
	[ -r "$KDIR/boot/vmlinuz-$KVER" ] || return 1
	for m in $MODS; do
		[ -r "$KDIR/lib/modules/$KVER/kernel/$m" ] || return 1
	done
}
if ! have_kernel; then
	mkdir -p "$LAB/deb" || setup_die "cannot create $LAB/deb"
	deb=$(ls "$LAB/deb"/linux-image-"${KVER}"_*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		echo "run-record-lab: apt-get download linux-image-$KVER into $LAB/deb"
		(cd "$LAB/deb" && { apt-get download -qq "linux-image-$KVER" 2>/dev/null ||
			{ [ "$(id -u)" = 0 ] && apt-get update -qq &&
			  apt-get download -qq "linux-image-$KVER"; }; }) ||
			{ [ "$(id -u)" = 0 ] && die "cannot download linux-image-$KVER as root" || setup_die "cannot download linux-image-$KVER (apt-cache policy linux-image-$KVER says where it would come from)"; }
		deb=$(ls "$LAB/deb"/linux-image-"${KVER}"_*.deb | head -1)
	fi
	rm -rf "$KDIR"
	mkdir -p "$KDIR"
	members="./boot/vmlinuz-$KVER"
	for m in $MODS; do members="$members ./lib/modules/$KVER/kernel/$m"; done
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$KDIR" $members ||
		setup_die "cannot unpack vmlinuz and the modules from $deb"
	have_kernel || setup_die "$deb lacks vmlinuz-$KVER or a module the guest needs"
fi

# ---- the initramfs: busybox, numabench, schedreplay and its libraries ------------
# a private work folder: runs of several clones may share the cache folder
mkdir -p "$LAB" || setup_die "cannot create $LAB"
W=$(mktemp -d "$LAB/record-lab.XXXXXX") || setup_die "cannot create a work folder in $LAB"
trap 'rm -rf "$W"' EXIT
R=$W/rootfs
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,out,lib/modules,lib64,lib/x86_64-linux-gnu}
cp /bin/busybox "$R/bin/busybox"
for a in sh mount umount insmod sed cat echo ls mkdir sleep poweroff tee sync awk grep date \
	 dmesg cp kill true nproc setsid cttyhack basename wc head tail ps uptime env diff cut tr; do
	ln -sf busybox "$R/bin/$a"
done
gcc -static -O2 -pthread -Wall -o "$R/bin/numabench" "$HERE/src/numabench.c" ||
	die "cannot build numabench"
for b in "$SR" "$(command -v numactl || true)"; do
	[ -n "$b" ] || continue
	cp "$b" "$R/bin/"
	for l in $(ldd "$b" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }'); do
		cp -L "$l" "$R/lib/x86_64-linux-gnu/" || die "cannot copy $l"
	done
done
cp -L /lib64/ld-linux-x86-64.so.2 "$R/lib64/"
if [ -d /usr/lib/x86_64-linux-gnu/traceevent/plugins ]; then
	mkdir -p "$R/usr/lib/x86_64-linux-gnu/traceevent"
	cp -r /usr/lib/x86_64-linux-gnu/traceevent/plugins "$R/usr/lib/x86_64-linux-gnu/traceevent/"
fi
: >"$R/etc/modules.load"
for m in $MODS; do
	cp "$KDIR/lib/modules/$KVER/kernel/$m" "$R/lib/modules/" || die "no module $m"
	basename "$m" >>"$R/etc/modules.load"
done
cp "$HERE/guest/init" "$R/init"
cp "$HERE/guest/record-scenario.sh" "$R/record-scenario.sh"
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1 >"$W/initramfs.cpio.gz") ||
	die "cannot build the initramfs"

# ---- boot -----------------------------------------------------------------------
rm -rf "$OUT"
mkdir -p "$OUT"
NUMA=()
case $TOPO in
4n)
	SMP="8,sockets=4,cores=2,threads=1"
	MEM=2G
	NODES=4
	for n in 0 1 2 3; do
		NUMA+=(-object memory-backend-ram,id=m$n,size=512M
		       -numa node,nodeid=$n,cpus=$((2 * n))-$((2 * n + 1)),memdev=m$n)
	done
	NUMA+=(-numa dist,src=0,dst=1,val=20 -numa dist,src=2,dst=3,val=20
	       -numa dist,src=0,dst=2,val=40 -numa dist,src=0,dst=3,val=40
	       -numa dist,src=1,dst=2,val=40 -numa dist,src=1,dst=3,val=40)
	WANT_DIST='[[10,20,40,40],[20,10,40,40],[40,40,10,20],[40,40,20,10]]'
	WANT_CPUS='["0-1","2-3","4-5","6-7"]'
	;;
2n)
	SMP="4,sockets=2,cores=2,threads=1"
	MEM=1G
	NODES=2
	for n in 0 1; do
		NUMA+=(-object memory-backend-ram,id=m$n,size=512M
		       -numa node,nodeid=$n,cpus=$((2 * n))-$((2 * n + 1)),memdev=m$n)
	done
	NUMA+=(-numa dist,src=0,dst=1,val=20)
	WANT_DIST='[[10,20],[20,10]]'
	WANT_CPUS='["0-1","2-3"]'
	;;
esac
APPEND="console=ttyS0 numa_balancing=enable mitigations=off nowatchdog tsc=reliable"
APPEND="$APPEND rcupdate.rcu_cpu_stall_suppress=1 loglevel=4 lab.secs=$SECS"
# a panic reboots at once, which -no-reboot turns into qemu's exit: a crashed
# guest fails the run in seconds, not at the timeout
APPEND="$APPEND panic=-1"
[ -n "${LAB_EXTRA:-}" ] && APPEND="$APPEND lab.extra=1"
# single-threaded TCG: see docs/recording.md, "Known risk"
ACCEL=${LAB_ACCEL:-tcg,thread=single}
echo "$(date -Is) boot $TOPO: qemu -accel $ACCEL -smp $SMP -m $MEM, workload $SECS s -> $OUT"
start=$(date +%s)
timeout "${TIMEOUT:-1500}" nice -n 10 qemu-system-x86_64 -accel "$ACCEL" -machine pc \
	-cpu qemu64 -smp "$SMP" -m "$MEM" "${NUMA[@]}" \
	-kernel "$KDIR/boot/vmlinuz-$KVER" -initrd "$W/initramfs.cpio.gz" -append "$APPEND" \
	-display none -monitor none -serial "file:$OUT/console.log" -no-reboot \
	-virtfs local,path="$OUT",mount_tag=out,security_model=none,id=out \
	</dev/null >"$OUT/qemu.log" 2>&1
rc=$?
echo "$(date -Is) qemu rc=$rc, $(($(date +%s) - start)) s"

# ---- checks on the host -----------------------------------------------------------
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "not ok - $*"; }
check() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else fail "$d"; fi
}
exec > >(tee "$OUT/host-checks.txt") 2>&1
check "qemu exited 0 (powered off)" test "$rc" -eq 0
check "the guest kernel did not oops or panic (console.log)" \
	test -z "$(grep -m1 -E 'Oops|BUG:|Kernel panic' "$OUT/console.log")"
check "the guest ran its checks" test -s "$OUT/guest-checks.txt"
if [ -s "$OUT/guest-checks.txt" ]; then
	sed 's/^/guest: /' "$OUT/guest-checks.txt"
	check "every guest check passed ($(grep -c '^ok' "$OUT/guest-checks.txt") ok)" \
		test "$(grep -c '^not ok' "$OUT/guest-checks.txt")" -eq 0
fi
X=$OUT/x.dat
if [ ! -s "$X" ]; then
	fail "no x.dat: see $OUT/record-err.txt and $OUT/console.log"
	echo "$passed passed, $failed failed"
	exit 1
fi
echo "--- record summary (guest stderr):"
cat "$OUT/record-err.txt"
echo "---"
trace-cmd report -i "$X" >"$OUT/report.txt" 2>"$OUT/report-err.txt"
check "trace-cmd report reads x.dat (exit 0)" test $? -eq 0
check "trace-cmd report: no error or warning" \
	test -z "$(grep -iE 'error|warn|fail|unknown|bad' "$OUT/report-err.txt" || true)"
awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { n = $(i + 1); sub(/:$/, "", n); c[n]++; break } }
     END { for (n in c) print n, c[n] }' "$OUT/report.txt" | sort >"$OUT/counts-report.txt"
"$SR" info --json "$X" >"$OUT/info.json" 2>"$OUT/info-err.txt"
check "schedreplay info --json exits 0" test $? -eq 0
jq -r '.events | to_entries[] | "\(.key) \(.value)"' "$OUT/info.json" | sort >"$OUT/counts-info.txt"
check "per-event counts: trace-cmd report = schedreplay info" \
	diff -u "$OUT/counts-report.txt" "$OUT/counts-info.txt"
"$SR" info "$X" >"$OUT/info.txt" 2>&1

# the numa_fault kprobe against the numa_hint_faults delta of the trace's own lines
nf=$(awk '$1 == "numa_fault" { print $2 }' "$OUT/counts-report.txt")
nf=${nf:-0}
vm() { # vm PHASE KEY: the value in the schedreplay_vmstat line of that phase
	grep -o "schedreplay_vmstat phase=$1 .*" "$OUT/report.txt" | head -1 |
		tr ' ' '\n' | awk -F= -v k="$2" '$1 == k { print $2 }'
}
hs=$(vm start numa_hint_faults)
he=$(vm end numa_hint_faults)
ls_=$(vm start numa_hint_faults_local)
le=$(vm end numa_hint_faults_local)
check "schedreplay_vmstat start and end lines in the trace" test -n "$hs" -a -n "$he"
hd=$((${he:-0} - ${hs:-0}))
ld=$((${le:-0} - ${ls_:-0}))
# faults between the two vmstat lines (by timestamp), and TNF_FAULT_LOCAL (0x08) ones
read -r inwin local_ev < <(awk '
	/tracing_mark_write: schedreplay_vmstat phase=start/ { s = 1; next }
	/tracing_mark_write: schedreplay_vmstat phase=end/ { s = 0; next }
	/ numa_fault: / { if (s) w++; if (match($0, /flags=[0-9-]+/)) {
		f = substr($0, RSTART + 6, RLENGTH - 6) + 0; if (int(f / 8) % 2) l++ } }
	END { print w + 0, l + 0 }' "$OUT/report.txt")
check "numa_fault kprobe events recorded ($nf)" test "$nf" -gt 0
check "the kprobe event is schedreplay_<pid>:numa_fault with its 4 arguments" \
	grep -qE 'numa_fault: +\([0-9a-f]+\) last_cpupid=-?[0-9]+ mem_node=[0-9]+ pages=[0-9]+ flags=[0-9]+' \
	"$OUT/report.txt"
diffc=$((nf - hd))
adiff=${diffc#-}
# the vmstat lines are read a moment after tracing starts and before it stops:
# a few faults may fall outside their window (the bundled traces: 3 of 28587)
tol=$((hd / 1000 + 5))
check "numa_fault count $nf = numa_hint_faults delta $hd (diff $diffc, allowed +-$tol)" \
	test "$adiff" -le "$tol"
check "numa_fault between the vmstat lines $inwin = delta $hd (allowed +-$tol)" \
	test "$(( inwin > hd ? inwin - hd : hd - inwin ))" -le "$tol"
check "TNF_FAULT_LOCAL faults $local_ev = numa_hint_faults_local delta $ld (allowed +-$tol)" \
	test "$(( local_ev > ld ? local_ev - ld : ld - local_ev ))" -le "$tol"

# topology from the trace's own lines
check "info: $NODES nodes" test "$(jq .nodes "$OUT/info.json")" = "$NODES"
check "info: topology from the trace's own lines" test "$(jq -r .topology.source "$OUT/info.json")" = trace
check "info: the distance matrix of the emulated machine" \
	test "$(jq -c '[.topology.nodes[].distance]' "$OUT/info.json")" = "$WANT_DIST"
check "info: the CPUs of each node" \
	test "$(jq -c '[.topology.nodes[].cpus]' "$OUT/info.json")" = "$WANT_CPUS"
check "info: cpus $(jq .cpus "$OUT/info.json")" test "$(jq .cpus "$OUT/info.json")" = "$((NODES * 2))"
check "info: kernel release $KVER" test "$(jq -r .kernel_release "$OUT/info.json")" = "$KVER"
check "info: numa_sample lines read" test "$(jq '.numa_samples // 0' "$OUT/info.json")" -gt 0
check "info: no lost events" test "$(jq .lost_events.total "$OUT/info.json")" = 0
check "kprobe=numa_fault in schedreplay_meta" \
	grep -q 'schedreplay_meta release=.* kprobe=numa_fault' "$OUT/report.txt"
check "schedreplay_node lines: $NODES" \
	test "$(grep -c 'tracing_mark_write: schedreplay_node ' "$OUT/report.txt")" -eq "$NODES"
check "debugfs NUMA knobs in schedreplay_sysctl" \
	grep -q 'schedreplay_sysctl.* numa_balancing.scan_delay_ms=200' "$OUT/report.txt"
# the latency profile: measured on every pair (emulated latencies mean nothing: no ratio is asserted)
check "schedreplay_latency lines: $NODES x $NODES" \
	test "$(grep -c 'tracing_mark_write: schedreplay_latency ' "$OUT/report.txt")" -eq $((NODES * NODES))
check "schedreplay_meta announces them (latency=$((NODES * NODES)))" \
	grep -q "schedreplay_meta release=.* latency=$((NODES * NODES))" "$OUT/report.txt"
check "schedreplay_latency: every one of the $((NODES * NODES)) node pairs, once" test "$(grep -o 'schedreplay_latency from=[0-9]* to=[0-9]* ' "$OUT/report.txt" |
	awk -v n="$NODES" '{ split($2, f, "="); split($3, t, "="); if (f[2] < n && t[2] < n) p[f[2] " " t[2]] = 1 }
	END { c = 0; for (k in p) c++; print c }')" -eq $((NODES * NODES))
check "every pair's latency is positive" awk '/schedreplay_latency / { n++; for (i = 1; i <= NF; i++)
	if ($i ~ /^ns=/ && !(substr($i, 4) > 0)) exit 1 } END { exit !n }' "$OUT/report.txt"

# the decision probes (docs/recording.md, "Decision probes")
for p in cmt cmt_ret strf strf_ret tnm tnm_ret; do
	check "schedreplay_probe line: $p added" \
		grep -q "schedreplay_probe name=$p func=[a-z_]* kind=k[a-z]*probe symbol=[a-z_.0-9]* status=added" \
		"$OUT/report.txt"
done
CMT_FIELDS="task pid p_flags on_cpu exec_start load_avg util_avg pref_nid faults tfaults ngrp src_cpu dst_cpu
	idle imbalance env_flags mtype nr_bf cnt sd_flags sd_level sd_span src_nr src_npref src_nmig src_clock
	dst_nr next last"
cmt_line=$(grep -m1 ' cmt: ' "$OUT/report.txt")
missing_f=
for f in $CMT_FIELDS; do
	case " $cmt_line " in *" $f="*) ;; *) missing_f="$missing_f $f" ;; esac
done
check "cmt events carry all 29 fields (missing:${missing_f:- none})" test -z "$missing_f"
# entry and return paired: per CPU for cmt and strf (they run with interrupts off),
# per task for tnm (it runs in the task, which may move to another CPU inside it)
awk -v out="$OUT/probe-pairs.txt" '
	function ev(name, key,   k) {
		k = name SUBSEP key
		if (name ~ /_ret$/) {
			b = substr(name, 1, length(name) - 4); k = b SUBSEP key
			if (open[k]) { pairs[b]++; open[k] = 0 }
			else if (seen[k]) bad[b]++
			else head[b]++
			if (name == "cmt_ret") { if ($0 ~ / ret=1$/) allowed++; else if ($0 ~ / ret=0$/) refused++; else badret++ }
		} else {
			if (open[k]) bad[name]++
			open[k] = 1
		}
		seen[k] = 1
	}
	match($0, /-[0-9]+ +\[[0-9]+\]/) {
		s = substr($0, RSTART + 1, RLENGTH - 1); split(s, a, /[ \[\]]+/); pid = a[1]; cpu = a[2]
		if (match($0, / (cmt|cmt_ret|strf|strf_ret|tnm|tnm_ret): /)) {
			n = substr($0, RSTART + 1, RLENGTH - 3)
			ev(n, n ~ /^tnm/ ? pid : cpu)
		}
	}
	END {
		for (k in open) if (open[k]) { split(k, z, SUBSEP); tail[z[1]]++ }
		for (b in pairs) ;
		printf "cmt pairs %d bad %d head %d tail %d allowed %d refused %d badret %d\n",
			pairs["cmt"], bad["cmt"], head["cmt"], tail["cmt"], allowed, refused, badret > out
		printf "strf pairs %d bad %d head %d tail %d\n", pairs["strf"], bad["strf"], head["strf"], tail["strf"] > out
		printf "tnm pairs %d bad %d head %d tail %d\n", pairs["tnm"], bad["tnm"], head["tnm"], tail["tnm"] > out
	}' "$OUT/report.txt"
cat "$OUT/probe-pairs.txt"
pv() { awk -v p="$1" -v k="$2" '$1 == p { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' "$OUT/probe-pairs.txt"; }
for p in cmt strf tnm; do
	check "$p: entry and return paired ($(pv $p pairs) pairs, $(pv $p bad) out of order)" \
		test "$(pv $p bad)" -eq 0 -a "$(pv $p head)" -le $((NODES * 2)) -a "$(pv $p tail)" -le $((NODES * 2))
done
check "cmt: some candidates ($(pv cmt pairs))" test "$(pv cmt pairs)" -gt 0
check "strf: some placements ($(pv strf pairs))" test "$(pv strf pairs)" -gt 0
check "cmt_ret: every ret is 0 or 1 ($(pv cmt allowed) allowed, $(pv cmt refused) refused)" \
	test "$(pv cmt badret)" -eq 0
# the events in the file against the kernel's own hit counts (kprobe_profile, end line):
# the probes are armed a moment before tracing starts and the count is read a moment
# before it stops
for p in cmt cmt_ret strf strf_ret tnm tnm_ret; do
	hits=$(grep -o "schedreplay_probe name=$p status=added phase=end hits=[0-9]*" "$OUT/report.txt" |
		sed 's/.*hits=//')
	miss=$(grep -o "schedreplay_probe name=$p status=added phase=end hits=[0-9]* misses=[0-9]*" \
		"$OUT/report.txt" | sed 's/.*misses=//')
	n=$(awk -v p="$p" '$1 == p { print $2 }' "$OUT/counts-report.txt")
	n=${n:-0}
	d=$(( ${hits:-0} - n )); d=${d#-}
	check "$p: $n events in the file, kprobe_profile $hits hits ($miss missed; allowed +-$(( n / 100 + 20 )))" \
		test -n "$hits" -a "$d" -le $(( n / 100 + 20 ))
	echo "probe $p events $n hits ${hits:-?} misses ${miss:-?}" >>"$OUT/probe-hits.txt"
done

# replay
"$SR" replay --json "$OUT/replay.json" "$X" >"$OUT/replay.txt" 2>"$OUT/replay-err.txt"
check "schedreplay replay exits 0" test $? -eq 0
numa=$(jq '.summary.classes | [.["numa-move"], .["numa-swap"], .["numa-stick"]] |
	map(.decisions) | add' "$OUT/replay.json")
check "replay: NUMA decisions ($numa)" test "${numa:-0}" -gt 0
check "replay: remote accesses priced with the trace's latency profile" \
	test "$(jq -r .summary.cost.latency_source "$OUT/replay.json")" = measured
check "replay: a calibration figure from schedreplay_vmstat" \
	test "$(jq -r .summary.cost.calibration.source "$OUT/replay.json")" = schedreplay_vmstat
check "replay: calibration's fault count = the kprobe events between the vmstat lines" \
	test "$(jq .summary.cost.calibration.fault_events "$OUT/replay.json")" = "$inwin"


# ground truth end to end (issue 17), every figure from the files: the kernel
# model against the kernel's own verdict on each can_migrate_task() candidate
gt() { jq -r ".summary.ground_truth.lb.$1 // 0" "$OUT/replay.json"; }
cand=$(gt candidates)
agree=$(gt model_agrees)
judged=$(gt judged)
# load-balance decisions and the ones whose verdict stayed unknown
lbdec=$(jq '[.summary.classes["lb-pull", "lb-active"] | .decisions // 0] | add' "$OUT/replay.json")
lbunk=$(jq '[.summary.classes["lb-pull", "lb-active"] | .unknown // 0] | add' "$OUT/replay.json")
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", 100 * a / b; else print "n/a" }'; }
check "ground truth: candidates = the cmt_ret events of trace-cmd report ($cand)" \
	test "$cand" -gt 0 -a "$cand" -eq "$(awk '$1 == "cmt_ret" { print $2 }' "$OUT/counts-report.txt")"
check "ground truth: allowed $(gt kernel_allowed) = cmt_ret ret=1, refused $(gt kernel_refused) = ret=0" \
	test "$(gt kernel_allowed)" -eq "$(pv cmt allowed)" -a "$(gt kernel_refused)" -eq "$(pv cmt refused)"
check "ground truth: the model agrees on >= 95% of candidates ($agree of $cand, $(pct "$agree" "$cand")%)" \
	test $((100 * agree)) -ge $((95 * cand)) -a "$cand" -gt 0
check "ground truth: >= 95% of candidates judged ($judged of $cand, $(pct "$judged" "$cand")%)" \
	test $((100 * judged)) -ge $((95 * cand)) -a "$cand" -gt 0
check "unknown verdicts <= 5% of load-balance decisions ($lbunk of $lbdec, $(pct "$lbunk" "$lbdec")%)" \
	test $((100 * lbunk)) -le $((5 * lbdec)) -a "$lbdec" -gt 0
# the wake-up model's CPU against the select_task_rq_fair probe's answer (issue 18: >= 90%)
pw() { jq -r ".summary.ground_truth.placement.by_class.wakeup.$1 // 0" "$OUT/replay.json"; }
wcand=$(pw candidates)
wagree=$(pw model_agrees)
check "ground truth: $(pw policy) picks the kernel's CPU for >= 90% of wake-ups ($wagree of $wcand, $(pct "$wagree" "$wcand")%)" \
	test $((100 * wagree)) -ge $((90 * wcand)) -a "$wcand" -gt 0
# the start snapshot seeds every task the trace names, but for the ones born
# during the trace (sched_process_fork children) and ones that exited before
# the snapshot was complete: neither can be in it
starts=$(grep -c 'tracing_mark_write: schedreplay_task phase=start ' "$OUT/report.txt")
check "info: every schedreplay_task start line seeded ($starts)" \
	test "$starts" -gt 0 -a "$(jq '.snapshot.tasks // 0' "$OUT/info.json")" -eq "$starts"
awk -f "$HERE/seen-tasks.awk" "$OUT/report.txt" >"$OUT/seen-tasks.txt"
seen=$(awk '$1 == "seen" { print $2 }' "$OUT/seen-tasks.txt")
born=$(grep -c '^born ' "$OUT/seen-tasks.txt")
early=$(grep -c '^early-exit ' "$OUT/seen-tasks.txt")
unseeded=$(grep -c '^unseeded ' "$OUT/seen-tasks.txt")
check "the start snapshot seeds every task the trace names ($seen; not in it: $born born in the trace, $early exited before it, $unseeded other)" \
	test "${seen:-0}" -gt 0 -a "$unseeded" -eq 0
lost=$(jq .lost_events.total "$OUT/info.json")

# ---- figures ----------------------------------------------------------------------
{
	echo "# figures, $TOPO, workload $SECS s ($(date -Is))"
	echo "# events (trace-cmd report = schedreplay info):"
	sed 's/^/  /' "$OUT/counts-info.txt"
	echo "# numa_fault kprobe $nf, between the vmstat lines $inwin; numa_hint_faults delta $hd" \
	     "(local: $local_ev events with TNF_FAULT_LOCAL, delta $ld)"
	echo "# decision probes (pairs, order, cmt verdicts):"
	sed 's/^/  /' "$OUT/probe-pairs.txt" "$OUT/probe-hits.txt"
	echo "# ground truth: candidates $cand, allowed $(gt kernel_allowed), refused $(gt kernel_refused)," \
	     "model agrees $agree ($(pct "$agree" "$cand")%), judged $judged ($(pct "$judged" "$cand")%)," \
	     "unknown $lbunk of $lbdec lb decisions ($(pct "$lbunk" "$lbdec")%), lost events $lost"
	echo "# start snapshot: $starts tasks; the trace names $seen, of them $born born in it," \
	     "$early exited before the snapshot, $unseeded unseeded"
	echo "# file: $(stat -c %s "$X") bytes"
	echo "# info:"
	sed 's/^/  /' "$OUT/info.txt"
	echo "# replay:"
	sed 's/^/  /' "$OUT/replay.txt"
} >"$OUT/figures.txt"
echo "figures: $OUT/figures.txt"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
