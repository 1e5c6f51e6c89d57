#!/usr/bin/env bash
# Smoke test of the single executable, as an operator would use it: copied alone into an empty folder and run
# with no Node.js on the PATH. Three times: the bundled demo (in memory), a record stream folder into an index
# file, and a block stream folder (two real blocks: the block reader thread runs from the executable too).
# Each run: start, wait for readiness, check one API answer (the demo also its supply, a topic's messages, the
# fee schedule of its first block and a fee estimate),
# SIGTERM, expect exit 0 within 10 s.
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
mkdir -p "$work/blocks"
for number in 007 008; do
  flat="$(printf '%036d' "$((10#$number))")"
  cp "$root/fixtures/real/blockstreams/$number.blk.zstd" "$work/blocks/$flat.blk.zstd"
  : >"$work/blocks/$flat.mf"
done
cd "$work"

# Nothing but the executable: no node on the PATH it runs with, no node_modules anywhere near it.
if env -i PATH=/nonexistent bash -c 'command -v node' >/dev/null 2>&1; then
  echo "smoke: node is still reachable" >&2
  exit 1
fi

# The demo's extra answers: the supply from its bundled balance folder, and one fee estimate (the E1 request of
# reference fees.md §8.2: a CryptoTransfer body with memo "test", 12 bytes) priced with the embedded proto file.
demo_checks() {
  local url="$1" body status
  body="$(curl -sf "$url/api/v1/network/supply")"
  grep -q '"released_supply"' <<<"$body" || { echo "smoke(demo): unexpected supply: $body" >&2; return 1; }
  # The demo's consensus topic (0.0.1016) and its fee schedule from genesis, as of its first block.
  body="$(curl -sf "$url/api/v1/topics/0.0.1016/messages?limit=1")"
  grep -q '"sequence_number":1' <<<"$body" || { echo "smoke(demo): unexpected messages: $body" >&2; return 1; }
  body="$(curl -sf "$url/api/v1/network/fees?timestamp=lte:1717228801.402109860")"
  grep -q '"transaction_type"' <<<"$body" || { echo "smoke(demo): unexpected fees: $body" >&2; return 1; }
  printf '\x2a\x0a\x0a\x08\x32\x04\x74\x65\x73\x74\x72\x00' >"$work/e1.bin"
  status="$(curl -s -o "$work/e1.json" -w '%{http_code}' -X POST -H 'Content-Type: application/protobuf' \
    --data-binary "@$work/e1.bin" "$url/api/v1/network/fees?mode=INTRINSIC")"
  body="$(cat "$work/e1.json")"
  [[ "$status" == 200 ]] && grep -q '"total":' <<<"$body" ||
    { echo "smoke(demo): POST /api/v1/network/fees answered $status: $body" >&2; return 1; }
  echo "smoke(demo): supply, topic messages, genesis fees and POST /api/v1/network/fees answered"
}

# The blocks' extra check: both blocks indexed, prepared by the block reader thread (no fallback was logged).
block_checks() {
  local url="$1" body
  body="$(curl -sf "$url/api/v1/blocks?order=desc&limit=1")"
  grep -q '"number":8' <<<"$body" || { echo "smoke(blocks): unexpected blocks: $body" >&2; return 1; }
  if grep -q 'block reader' "$work/blocks.log"; then
    echo "smoke(blocks): the block reader thread did not run" >&2
    return 1
  fi
  echo "smoke(blocks): blocks 7 and 8 indexed through the block reader thread"
}

# `expect` (default the token list's "token_id"): what the answer at `path` must hold.
run() {
  local name="$1" path="$2" checks="$3" expect="${EXPECT:-\"token_id\"}"
  shift 3
  : >"$work/$name.log"
  env -i PATH=/nonexistent HOME="$work" "$work/mirrorlite" serve --port 0 --java-port 0 --grpc-port 0 --log-format json "$@" \
    >"$work/$name.log" 2>&1 &
  pid=$!
  local port="" url=""
  for _ in $(seq 1 300); do
    # The HTTP port from the "serving the mirror node API" line (the gRPC listener logs a port of its own first).
    port="$(grep '"serving the mirror node API"' "$work/$name.log" | grep -o '"port":[0-9]*' | head -1 | cut -d: -f2 || true)"
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
  grep -q "$expect" <<<"$body" || { echo "smoke($name): unexpected answer: $body" >&2; exit 1; }
  if [[ -n "$checks" ]]; then "$checks" "$url" || { cat "$work/$name.log" >&2; exit 1; }; fi
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

# A cache folder other users can write (they could plant the SQLite addon it loads): refused with one line, exit 1.
shared="$work/shared-cache"
mkdir -p "$shared"
chmod 777 "$shared"
status=0
stop_after="$(command -v timeout)"
out="$(env -i PATH=/nonexistent HOME="$work" MIRRORLITE_CACHE_DIR="$shared" "$stop_after" 20 "$work/mirrorlite" serve \
  --port 0 --log-level silent 2>&1 >/dev/null)" || status=$?
# (Node's own warnings aside: one line of mirrorlite's.)
if [[ $status -ne 1 || "$out" != *"writable by other users"* || $(grep -c '^mirrorlite: ' <<<"$out") -ne 1 ]]; then
  echo "smoke(cache): a world-writable MIRRORLITE_CACHE_DIR gave exit $status: $out" >&2
  exit 1
fi
echo "smoke(cache): a cache folder others can write is refused: $out"

run demo /api/v1/tokens/0.0.1006 demo_checks
run records "/api/v1/tokens?limit=1" "" --records "$work/records" --db "$work/index.db"
[[ -s "$work/index.db" ]] || { echo "smoke: no index file written" >&2; exit 1; }
EXPECT='"number":7' run blocks "/api/v1/blocks/7" block_checks --blocks "$work/blocks" --db "$work/blocks.db"
echo "smoke: $(du -h "$binary" | cut -f1) executable OK"
