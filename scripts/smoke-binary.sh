#!/usr/bin/env bash
# Smoke test of the single executable, as an operator would use it: copied alone into an empty folder and run
# with no Node.js on the PATH. Twice: the bundled demo (in memory), then a stream folder into an index file.
# Each run: start, wait for readiness, check one API answer, SIGTERM, expect exit 0 within 10 s.
#   scripts/smoke-binary.sh [path/to/mirrorlite]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="$(realpath "${1:-$root/dist/mirrorlite}")"
work="$(mktemp -d)"
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
cp "$binary" "$work/mirrorlite"
cp -r "$root/fixtures/streams/tokens/record0.0.3" "$work/records"
cd "$work"

# Nothing but the executable: no node on the PATH it runs with, no node_modules anywhere near it.
if env -i PATH=/nonexistent bash -c 'command -v node' >/dev/null 2>&1; then
  echo "smoke: node is still reachable" >&2
  exit 1
fi

run() {
  local name="$1" path="$2"
  shift 2
  : >"$work/$name.log"
  env -i PATH=/nonexistent HOME="$work" "$work/mirrorlite" serve --port 0 --log-format json "$@" \
    >"$work/$name.log" 2>&1 &
  pid=$!
  local port="" url=""
  for _ in $(seq 1 300); do
    port="$(grep -o '"port":[0-9]*' "$work/$name.log" | head -1 | cut -d: -f2 || true)"
    if [[ -n "$port" ]] && curl -sf "http://127.0.0.1:$port/health/readiness" >/dev/null; then break; fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "smoke($name): exited before becoming ready" >&2
      cat "$work/$name.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  url="http://127.0.0.1:$port"
  curl -sf "$url/health/readiness" >/dev/null || { echo "smoke($name): never ready" >&2; cat "$work/$name.log" >&2; exit 1; }
  local body
  body="$(curl -sf "$url$path")"
  grep -q '"token_id"' <<<"$body" || { echo "smoke($name): unexpected answer: $body" >&2; exit 1; }
  local started=$SECONDS stopped_pid=$pid
  kill -TERM "$pid"
  local status=0
  wait "$pid" || status=$?
  pid=""
  if compgen -G "/dev/shm/mirrorlite-$stopped_pid-*" >/dev/null; then
    echo "smoke($name): left its in-memory index in /dev/shm" >&2
    exit 1
  fi
  if [[ $status -ne 0 || $((SECONDS - started)) -gt 10 ]]; then
    echo "smoke($name): exit $status after $((SECONDS - started)) s on SIGTERM" >&2
    cat "$work/$name.log" >&2
    exit 1
  fi
  echo "smoke($name): ready, $path answered, stopped on SIGTERM with exit 0"
}

run demo /api/v1/tokens/0.0.1006
run records "/api/v1/tokens?limit=1" --records "$work/records" --db "$work/index.db"
[[ -s "$work/index.db" ]] || { echo "smoke: no index file written" >&2; exit 1; }
echo "smoke: $(du -h "$binary" | cut -f1) executable OK"
