#!/bin/bash
# Paired runs on /usr/lib + /usr/share, page cache warm; prints wall seconds and peak KB.
cd /tmp
T="/usr/lib /usr/share"
t() { /usr/bin/time -f "%e %M" "$@" > /dev/null 2>>/tmp/tb.err; tail -1 /tmp/tb.err; }
echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) (family 6, model 207), $(nproc) vCPUs"
echo "# files: $(find $T -type f | wc -l), bytes: $(find $T -type f -printf '%s\n' | awk '{s+=$1} END {print s}')"
${HL:-/tmp/hl} sum -r -a sha256 $T > /tmp/usr.sha256 2>/dev/null
for i in 1 2 3 4 5; do
  echo "sha256 hashlanes $(t ${HL:-/tmp/hl} sum -r -a sha256 $T)"
  echo "sha256 rhash $(t rhash --sha256 -r $T)"
done
for i in 1 2 3 4 5; do
  echo "three hashlanes $(t ${HL:-/tmp/hl} sum -r -a md5,sha256,sha512 $T)"
  echo "three rhash $(t rhash --md5 --sha256 --sha512 -r $T)"
done
for i in 1 2 3 4 5; do
  echo "check hashlanes $(t ${HL:-/tmp/hl} check --quiet /tmp/usr.sha256)"
  echo "check sha256sum $(t sha256sum -c --quiet /tmp/usr.sha256)"
done
