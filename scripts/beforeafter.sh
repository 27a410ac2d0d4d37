#!/usr/bin/env bash
# beforeafter.sh compares the engine's produce and memory benchmarks at two
# commits in one run: it builds core's test binaries at each, natively and
# for wasm, then runs them in interleaved rounds, so that both see the same
# machine. It prints each round's lines and the medians.
#
#	scripts/beforeafter.sh BEFORE [AFTER] [ROUNDS]   # AFTER defaults to HEAD
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: beforeafter.sh BEFORE [AFTER] [ROUNDS]}
after=${2:-HEAD}
rounds=${3:-5}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/before" >/dev/null 2>&1 || true; git worktree remove --force "$work/after" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
wasmexec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"

for side in before after; do
	git worktree add --detach --quiet "$work/$side" "${!side}"
	(cd "$work/$side" && go test -c -o "$work/$side-native.test" ./core/ &&
		GOOS=js GOARCH=wasm go test -c -o "$work/$side-wasm.test" ./core/)
done

# The produce benchmarks run 300,000 records a round; the memory ones hold
# a million records in one iteration.
run() { # side platform
	local bin="$work/$1-$2.test" exec=()
	[ "$2" = wasm ] && exec=("$wasmexec")
	for spec in '^(BenchmarkProduceKeyed|BenchmarkBaselineAppendKeyed|BenchmarkBaselineGrowingStoreKeyed)$ 300000x' \
		'^(BenchmarkBytesPerRecord|BenchmarkBaselineBytesPerRecord)$ 1x'; do
		set -- "$1" "$2" $spec
		"${exec[@]}" "$bin" -test.run '^$' -test.bench "$3" -test.benchtime "$4" -test.benchmem |
			awk -v s="$1 $2" '/^Benchmark/ {print s, $0}'
	done
}
for round in $(seq "$rounds"); do
	for side in before after; do
		run "$side" native
		run "$side" wasm
	done
done | tee "$work/lines"

echo
echo "medians over $rounds rounds ($before → $after):"
awk '{
	name = $3; sub(/-[0-9]+$/, "", name)
	for (i = 5; i < NF; i++) if ($(i+1) == "ns/op" || $(i+1) == "records/s" || $(i+1) == "bytes/record") {
		key = $1 " " $2 " " name " " $(i+1); n[key]++; v[key, n[key]] = $i
	}
} END {
	for (k in n) {
		m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		printf "%-70s %s\n", k, (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
}' "$work/lines" | sort
