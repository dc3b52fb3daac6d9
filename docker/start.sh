#!/bin/sh
# Sizes the V8 heap from the container's memory limit (cgroup v2, else v1): HEAP_PERCENT of it
# (default 50: the embedded store's WebAssembly memory and the worker threads live outside the
# heap). Without a limit, node's own default applies.
set -eu
# glibc gives each thread that allocates an arena of its own (up to 8 per core), and keeps what they
# freed: two arenas hold ~100 MiB less of a 10,000-resource process (docs/performance.md).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
limit=""
if [ -r /sys/fs/cgroup/memory.max ]; then limit=$(cat /sys/fs/cgroup/memory.max); fi
if [ -z "$limit" ] || [ "$limit" = "max" ]; then
  if [ -r /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then limit=$(cat /sys/fs/cgroup/memory/memory.limit_in_bytes); fi
fi
case "$limit" in
  '' | max | *[!0-9]*) exec node dist/src/main.js ;;
esac
# A v1 "no limit" reads as a huge number: ignore anything above 1 TiB.
if [ "$limit" -gt 1099511627776 ]; then exec node dist/src/main.js; fi
heap=$((limit / 1048576 * ${HEAP_PERCENT:-50} / 100))
if [ "$heap" -lt 256 ]; then heap=256; fi
exec node --max-old-space-size="$heap" dist/src/main.js
