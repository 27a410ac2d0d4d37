#!/usr/bin/env bash
# verify.sh runs the plogsim demo (which checks what it shows and exits
# non-zero if the engine disagrees), the engine's and the scenario
# language's tests natively, and the scenario tests under WebAssembly when
# Node is installed, so the same script is seen to give the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== plogsim demo"
go run ./cmd/plogsim

echo "== go vet"
go vet ./core/... ./cmd/...

echo "== go test (native)"
go test ./core/... ./cmd/...

if command -v node >/dev/null 2>&1; then
	echo "== go test core/scenario (wasm, Node)"
	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/scenario/
else
	echo "== skipping the wasm run: node is not installed"
fi
