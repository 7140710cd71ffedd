# Cross-compile for arm64 with Debian's gcc-aarch64-linux-gnu against a sysroot
# holding the arm64 -dev packages (tools/arm64-root prints one):
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DPTBPF_SYSROOT=$(tools/arm64-root --quiet)
# The BPF objects are built by the host's clang and bpftool (cmake/bpf.cmake).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT PTBPF_SYSROOT AND DEFINED ENV{PTBPF_SYSROOT})
  set(PTBPF_SYSROOT $ENV{PTBPF_SYSROOT})
endif()
if(NOT PTBPF_SYSROOT OR NOT EXISTS "${PTBPF_SYSROOT}/usr/include/aarch64-linux-gnu")
  message(FATAL_ERROR "PTBPF_SYSROOT must name an arm64 root (tools/arm64-root prints one)")
endif()
# try_compile's projects see the sysroot too
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PTBPF_SYSROOT)

set(CMAKE_SYSROOT ${PTBPF_SYSROOT})
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# libraries and headers from the sysroot only, programs (clang, bpftool) from the host
set(CMAKE_FIND_ROOT_PATH ${PTBPF_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads the sysroot's .pc files and prefixes their paths with it
set(ENV{PKG_CONFIG_DIR} "")
set(ENV{PKG_CONFIG_LIBDIR}
    "${PTBPF_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${PTBPF_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${PTBPF_SYSROOT})
