#!/bin/bash
# H200 collection for the mbarrier word probe (tests/hw/h200/mbarrier/). Run on the device from
# the repository root: bash tests/hw/mbarrier/run.sh DIR (DIR: this folder or a copy of it).
set -u
D=${1:-tests/hw/mbarrier}
O=${OUT:-/tmp/out}
mkdir -p "$O"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -2
  ncu --version | tail -1
} > "$O/versions.txt" 2>&1
nvcc -arch=sm_90 -O2 -o /tmp/mbar_probe "$D/mbar_probe.cu" > "$O/build.log" 2>&1
cuobjdump -sass /tmp/mbar_probe > "$O/mbar_probe.sass" 2>&1
timeout 60 /tmp/mbar_probe > "$O/mbar_words.txt" 2> "$O/run.log"
echo "rc=$?" >> "$O/run.log"
tail -3 "$O/mbar_words.txt"
cat "$O/run.log" "$O/versions.txt"
