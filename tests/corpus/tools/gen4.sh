set -e
HERE=$(cd "$(dirname "$0")" && pwd)
cd "${BLOG_SAMPLES:?a checkout of NVIDIA-developer-blog/code-samples at the commit below}"
C=72d62ec464442786a36754508bcb1094d197d6a5; R=NVIDIA-developer-blog/code-samples; L=BSD-3-Clause; M="python3 $HERE/mk.py"
HOST="the host includes (stdio.h, assert.h) and the host helper checkCuda (NVRTC rejects host functions in JIT mode) are left out"
$M blog_coalescing $R $C $L . -- series/cuda-cpp/coalescing-global/coalescing.cu:1-26,44-56 -- "$HOST (lines 27-43); runTest and main (lines 57-137) are left out."
$M blog_shared_memory $R $C $L . -- series/cuda-cpp/shared-memory/shared-memory.cu:1-26,28-48 -- "the host include stdio.h (line 27) and main (lines 49-76) are left out."
$M blog_transpose $R $C $L . -- series/cuda-cpp/transpose/transpose.cu:1-26,44-46,63-153 -- "$HOST (lines 27-43); the unused host constant NUM_REPS and postprocess (lines 47-62) and main (lines 154-313) are left out."
$M blog_finite_difference $R $C $L . -- series/cuda-cpp/finite-difference/finite-difference.cu:1-26,44-44,46-54,56-61,199-416 -- "$HOST (lines 27-43); the host variables fx, fy, fz and grid, block (lines 45, 55; NVRTC rejects host variables in JIT mode), the host functions setDerivativeParameters, initInput, initSol, checkResults (lines 62-198), runTest and main (lines 417-523) are left out."
