//! The C standard headers that CUDA C kernels include and NVRTC does not ship.
//!
//! nvcc compiles device code with the host's C library headers on the include path; NVRTC has
//! none, so `#include <stdio.h>` fails (`cannot open source file "stdio.h"`, NVRTC 13.0) although
//! what device code uses from it is built into NVRTC: `printf`, `malloc`, `free` and the
//! `assert` macro are declared by `crt/common_functions.h` under `__CUDACC_RTC__`, and the math
//! functions and `memcpy`/`memset` are compiler built-ins. These in-memory headers (passed to
//! `nvrtcCreateProgram` as named headers) close the gap: the ones whose content NVRTC already has
//! are empty, and the rest take their definitions from CCCL's `cuda/std` headers (pip package
//! `nvidia-cuda-cccl`), hoisting the names to where the C headers put them.

/// `(include name, content)`, in the order handed to NVRTC.
pub const HEADERS: &[(&str, &str)] = &[
    ("stdio.h", BUILT_IN),
    ("cstdio", BUILT_IN),
    ("assert.h", BUILT_IN),
    ("cassert", BUILT_IN),
    ("stdlib.h", BUILT_IN),
    ("cstdlib", BUILT_IN),
    ("string.h", BUILT_IN),
    ("cstring", BUILT_IN),
    ("math.h", MATH),
    ("cmath", MATH),
    ("stdint.h", STDINT),
    ("cstdint", CSTDINT),
    ("stddef.h", STDDEF),
    ("cstddef", CSTDDEF),
    ("limits.h", "#pragma once\n#include <cuda/std/climits>\n"),
    ("climits", "#pragma once\n#include <cuda/std/climits>\n"),
    ("float.h", "#pragma once\n#include <cuda/std/cfloat>\n"),
    ("cfloat", "#pragma once\n#include <cuda/std/cfloat>\n"),
];

const BUILT_IN: &str =
    "#pragma once\n/* gpumemsim: what device code uses from this header is built into NVRTC. */\n";

/// glibc's `math.h` constants (XSI/GNU extensions that CUDA samples use, e.g. `M_PI`), with the
/// digits glibc gives them; the functions are NVRTC built-ins.
const MATH: &str = "#pragma once
#ifndef M_PI
#define M_E        2.7182818284590452354
#define M_LOG2E    1.4426950408889634074
#define M_LOG10E   0.43429448190325182765
#define M_LN2      0.69314718055994530942
#define M_LN10     2.30258509299404568402
#define M_PI       3.14159265358979323846
#define M_PI_2     1.57079632679489661923
#define M_PI_4     0.78539816339744830962
#define M_1_PI     0.31830988618379067154
#define M_2_PI     0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2    1.41421356237309504880
#define M_SQRT1_2  0.70710678118654752440
#endif
";

const STDINT: &str = "#pragma once
#include <cuda/std/cstdint>
using ::cuda::std::int8_t; using ::cuda::std::int16_t; using ::cuda::std::int32_t;
using ::cuda::std::int64_t; using ::cuda::std::uint8_t; using ::cuda::std::uint16_t;
using ::cuda::std::uint32_t; using ::cuda::std::uint64_t; using ::cuda::std::intptr_t;
using ::cuda::std::uintptr_t; using ::cuda::std::intmax_t; using ::cuda::std::uintmax_t;
";

const CSTDINT: &str = "#pragma once
#include <stdint.h>
namespace std {
using ::cuda::std::int8_t; using ::cuda::std::int16_t; using ::cuda::std::int32_t;
using ::cuda::std::int64_t; using ::cuda::std::uint8_t; using ::cuda::std::uint16_t;
using ::cuda::std::uint32_t; using ::cuda::std::uint64_t; using ::cuda::std::intptr_t;
using ::cuda::std::uintptr_t; using ::cuda::std::intmax_t; using ::cuda::std::uintmax_t;
}
";

const STDDEF: &str = "#pragma once
#include <cuda/std/cstddef>
using ::cuda::std::ptrdiff_t; using ::cuda::std::max_align_t;
";

const CSTDDEF: &str = "#pragma once
#include <stddef.h>
namespace std { using ::cuda::std::size_t; using ::cuda::std::ptrdiff_t;
using ::cuda::std::nullptr_t; using ::cuda::std::max_align_t; }
";
