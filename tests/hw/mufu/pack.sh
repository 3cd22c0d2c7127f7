#!/bin/bash
# Packs the device run's tables into tests/hw/h200/mufu/tables/*.zst (format: pack.cpp).
# Usage: bash tests/hw/mufu/pack.sh RES1 RES2   (the res/ folders of the first and second run)
set -eu
R1=$1; R2=$2; D=tests/hw/h200/mufu/tables; T=$(mktemp -d)
g++ -O2 -o "$T/pack" tests/hw/mufu/pack.cpp
mkdir -p "$D"
p() { "$T/pack" "$@" && zstd -q -19 -f --rm "$3" -o "$3.zst"; }
for n in rcp rsq0 rsq1 sqrt0 sqrt1 ex2p ex2n rcp64h rsq64h0 rsq64h1; do p r8 "$R1/tables/$n" "$D/$n"; done
for n in lg2u lg2l sin cos; do p r8 "$R2/tables/$n" "$D/$n"; done
p d32 "$R2/tables/tanh.d32" "$D/tanh"
for n in ex2.approx.f16 ex2.approx.ftz.bf16 tanh.approx.f16 tanh.approx.bf16; do p u16 "$R1/tables/$n.u16" "$D/${n//./_}"; done
ls -la "$D"; du -sh "$D"
