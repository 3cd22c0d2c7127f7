#!/bin/bash
# Texture sweeps and the rotation example on the H200 (issue 10). From the repository root:
#   OUT=$OUT bash tests/hw/texture/collect.sh
# writes $OUT/texture.tar.gz (top folder texture/: versions.txt, sweep.bin, sweep_risky.bin,
# rotate.sha256, rotate_out.bin, rotate_ncu.csv, logs) and $OUT/summary.txt.
OUTD=${OUT:-./tex-out}
W=/tmp/texture
rm -rf $W && mkdir -p $W
R=$(pwd)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version; ncu --version; } > $W/versions.txt 2>&1
cd tests/hw/texture
( nvcc -O3 -arch=sm_90 -o /tmp/sweep sweep.cu &&
  nvcc -O3 -arch=sm_90 -o /tmp/rotate_host rotate_host.cu -lcuda &&
  nvcc -O3 -arch=sm_90 -o /tmp/rotate_seed rotate_seed.cu ) > $W/build.log 2>&1
echo "build rc $?" >> $W/build.log
cd $R
/tmp/sweep $W/sweep.bin > $W/sweep.log 2>&1; echo "sweep rc $?" >> $W/sweep.log
/tmp/sweep $W/sweep_risky.bin risky > $W/sweep_risky.log 2>&1; echo "risky rc $?" >> $W/sweep_risky.log
/tmp/rotate_host examples/rotate.ptx $W/rotate_out.bin > $W/rotate.log 2>&1; echo "rotate rc $?" >> $W/rotate.log
ROTATE_OUT=$W/rotate_seed_out.bin /tmp/rotate_seed >> $W/rotate.log 2>&1; echo "seed rc $?" >> $W/rotate.log
(cd $W && sha256sum rotate_out.bin rotate_seed_out.bin > rotate.sha256)
rm -f $W/rotate_seed_out.bin
M1=smsp__sass_inst_executed_op_texture.sum,l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
M2=l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__sectors_read.sum
ncu --clock-control none --csv --print-units base --metrics $M1 /tmp/rotate_host examples/rotate.ptx /tmp/rot_ncu.bin > $W/rotate_ncu.csv 2> $W/rotate_ncu.log
ncu --clock-control none --csv --print-units base --metrics $M2 /tmp/rotate_host examples/rotate.ptx /tmp/rot_ncu.bin > $W/rotate_ncu2.csv 2> $W/rotate_ncu2.log
cat $W/build.log $W/sweep.log $W/rotate.log $W/rotate.sha256 | head -60 > $OUTD/summary.txt
ls -la $W >> $OUTD/summary.txt
tail -3 $W/sweep_risky.log >> $OUTD/summary.txt
mkdir -p $OUTD && tar czf $OUTD/texture.tar.gz -C /tmp texture
ls -la $OUTD >> $OUTD/summary.txt
