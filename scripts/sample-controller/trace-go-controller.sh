#!/usr/bin/env bash
# Trace the real Go sample-controller with loopscope.
#
# Run from a checkout of kubernetes/sample-controller (or pass its path as the first argument) on a
# machine with Go, kubectl and a cluster the current kubeconfig points at. It
#   1. checks that controller.go is the version the patch was written for (unchanged since tag
#      kubernetes-1.33.0, so sample-controller v0.33.x … v0.36.x and master),
#   2. applies scripts/sample-controller/stage-lines.patch (skipped when already applied),
#   3. builds the controller, installs the Foo CRD (with the status subresource),
#   4. runs it with -v=2, teeing klog's output to a log,
#   5. drives one Foo as in the exercise: delete example-foo, wait 3 s, apply it again,
#   6. waits for the reconciles to settle, stops the controller and replays the log in loopscope.
#
# The patch stays applied afterwards (revert with: git apply -R <loopscope>/scripts/sample-controller/stage-lines.patch).
#
# Usage: trace-go-controller.sh [SAMPLE_CONTROLLER_DIR] [--log FILE] [--settle SECONDS] [--no-replay]
set -euo pipefail

# The blob hash of controller.go at kubernetes-1.33.0 … kubernetes-1.36.0 and master (2026-07).
readonly KNOWN_BLOB="dd6ac9a203303e40bc9d413d0a7e9f9bca21c275"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
loopscope_root="$(cd "$here/../.." && pwd)"
patch_file="$here/stage-lines.patch"

checkout="."
log="/tmp/trace.log"
settle=20
replay=1
while [ $# -gt 0 ]; do
  case "$1" in
    --log) log="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --no-replay) replay=0; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *) checkout="$1"; shift ;;
  esac
done

fail() { echo "trace-go-controller: $*" >&2; exit 1; }
step() { echo "==> $*" >&2; }

command -v go >/dev/null || fail "Go is not installed (https://go.dev/doc/install)"
command -v kubectl >/dev/null || fail "kubectl is not installed"
command -v git >/dev/null || fail "git is not installed (needed to apply the patch)"
cd "$checkout"
[ -f controller.go ] && grep -q '^module k8s.io/sample-controller' go.mod 2>/dev/null \
  || fail "$(pwd) is not a kubernetes/sample-controller checkout (no controller.go / go.mod)"
case "$log" in /*) ;; *) log="$(pwd)/$log" ;; esac

# 1+2. Version check and patch. An already patched file reverse-applies cleanly.
if git apply --reverse --check "$patch_file" 2>/dev/null; then
  step "controller.go already carries the STAGE lines; not patching again"
else
  blob="$(git hash-object controller.go)"
  if [ "$blob" != "$KNOWN_BLOB" ]; then
    fail "controller.go (blob $blob) differs from the version this patch is for ($KNOWN_BLOB:
  sample-controller v0.33.x … v0.36.x, unchanged since kubernetes-1.33.0).
  Check out one of those (git checkout kubernetes-1.36.0) or add the STAGE lines (eleven klog.Infof, at the five stages) by hand:
  see docs/go-controller.md in loopscope."
  fi
  step "applying $(basename "$patch_file")"
  git apply "$patch_file"
fi

# 3. Build and install the CRD.
step "go build"
go build -o ./sample-controller .
kubectl cluster-info >/dev/null 2>&1 || fail "no cluster reachable with the current kubeconfig (kubectl cluster-info failed)"
step "installing the Foo CRD (with the status subresource: UpdateStatus needs it)"
kubectl apply -f artifacts/examples/crd-status-subresource.yaml >/dev/null
kubectl wait --for condition=established --timeout=60s crd/foos.samplecontroller.k8s.io >/dev/null

# 4. Run the controller; klog writes to stderr.
kubeconfig="${KUBECONFIG:-$HOME/.kube/config}"
kubeconfig="${kubeconfig%%:*}"
: >"$log"
step "starting the controller (-v=2), log: $log"
./sample-controller -kubeconfig="$kubeconfig" -v=2 2> >(tee -a "$log" >&2) &
controller_pid=$!
stop_controller() {
  if kill -0 "$controller_pid" 2>/dev/null; then
    kill "$controller_pid" 2>/dev/null || true
    wait "$controller_pid" 2>/dev/null || true
  fi
}
trap stop_controller EXIT

for _ in $(seq 1 120); do
  grep -q '"Started workers"' "$log" && break
  kill -0 "$controller_pid" 2>/dev/null || fail "the controller exited; see $log"
  sleep 0.5
done
grep -q '"Started workers"' "$log" || fail "the controller did not start its workers within 60 s; see $log"

# 5. Drive one Foo through it, exactly like the exercise.
step "kubectl delete foo example-foo; sleep 3; kubectl apply -f artifacts/examples/example-foo.yaml"
kubectl delete foo example-foo --ignore-not-found
sleep 3
kubectl apply -f artifacts/examples/example-foo.yaml

# 6. Let the Deployment roll out and the echoes settle, then stop and replay.
step "waiting ${settle}s for the reconciles to settle"
sleep "$settle"
stop_controller
trap - EXIT
echo >&2
step "$(grep -c 'STAGE/' "$log" || true) STAGE lines in $log"
if [ "$replay" = 1 ]; then
  command -v pnpm >/dev/null || fail "pnpm not found; replay later with: pnpm loopscope replay $log"
  step "pnpm loopscope replay $log"
  pnpm --dir "$loopscope_root" --silent loopscope replay "$log"
fi
