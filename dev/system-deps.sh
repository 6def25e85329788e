#!/usr/bin/env bash
# Debian packages the test suite needs beyond python3, Java 17+ and Maven:
# groff + man-db render the man page (tests/test_docs.py); kcat is a peer in bench/;
# promtool (in Debian's prometheus package, ~20 MB; no smaller package has it) lints every
# command's Prometheus output (tests/test_prometheus_lint.py).
# Installs what is missing when we can (root with apt-get); otherwise says what to install.
set -euo pipefail
need=()
command -v groff >/dev/null 2>&1 || need+=(groff-base)
command -v man >/dev/null 2>&1 || need+=(man-db)
command -v kcat >/dev/null 2>&1 || need+=(kcat)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${need[*]} (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "warning: please install: ${need[*]} (tests that need them fail under CI=true)" >&2
fi
