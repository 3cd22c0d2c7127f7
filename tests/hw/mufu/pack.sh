#!/bin/bash
# Packs the device run's tables into tests/hw/h200/mufu/tables/*.mufu (format: pack.cpp).
# Usage: bash tests/hw/mufu/pack.sh RES1 RES2   (the res/ folders of the first and second run)
set -eu
R1=$1; R2=$2; D=tests/hw/h200/mufu/tables; T=$(mktemp -d)
g++ -O2 -o "$T/pack" tests/hw/mufu/pack.cpp /usr/lib/x86_64-linux-gnu/libzstd.so.1
mkdir -p "$D"
p() { "$T/pack" "$1" "$2" "$3.mufu"; }
for n in rcp rsq0 rsq1 sqrt0 sqrt1 ex2p ex2n rcp64h rsq64h0 rsq64h1; do p r8 "$R1/tables/$n" "$D/$n"; done
for n in lg2u lg2l; do p r8 "$R2/tables/$n" "$D/$n"; done
# sin and cos share one table (sincos.c)
"$T/pack" r8 "$R2/tables/sin" "$T/sin" "$T/sin.u32"
"$T/pack" r8 "$R2/tables/cos" "$T/cos" "$T/cos.u32"
cc -O2 -o "$T/sincos" tests/hw/mufu/sincos.c -lm
"$T/sincos" "$T/sin.u32" "$T/cos.u32" "$T/sincos.u32"
p u32 "$T/sincos.u32" "$D/sincos"
p d32 "$R2/tables/tanh.d32" "$D/tanh"
for n in ex2.approx.f16 ex2.approx.ftz.bf16 tanh.approx.f16 tanh.approx.bf16; do p u16 "$R1/tables/$n.u16" "$D/${n//./_}"; done
ls -la "$D"; du -sh "$D"
