# Compile one bpf/NAME.bpf.c into NAME.bpf.o (clang -target bpf, CO-RE against
# the checked-in vmlinux.h) and generate NAME.skel.h with bpftool; both run on
# the build host, also when cross-compiling (cmake/aarch64-linux-gnu.cmake).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|amd64|AMD64")
  set(PTBPF_BPF_ARCH x86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(PTBPF_BPF_ARCH arm64)
else()
  message(FATAL_ERROR "unsupported architecture ${CMAKE_SYSTEM_PROCESSOR}")
endif()
set(PTBPF_VMLINUX_DIR ${PROJECT_SOURCE_DIR}/vmlinux/${PTBPF_BPF_ARCH})
if(NOT EXISTS ${PTBPF_VMLINUX_DIR}/vmlinux.h)
  message(FATAL_ERROR "no vmlinux.h for ${PTBPF_BPF_ARCH}; see vmlinux/README.md")
endif()

function(ptbpf_bpf_skeleton src out_var)
  get_filename_component(name ${src} NAME)
  string(REPLACE ".bpf.c" "" name ${name})
  set(dir ${PROJECT_BINARY_DIR}/bpf)
  set(obj ${dir}/${name}.bpf.o)
  set(skel ${dir}/${name}.skel.h)
  set(werror)
  if(PTBPF_WERROR)
    set(werror -Werror)
  endif()
  file(GLOB hdrs ${PROJECT_SOURCE_DIR}/bpf/*.h ${PROJECT_SOURCE_DIR}/include/ptbpf/*.h)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${BPF_CLANG} -target bpf -g -O2 -Wall ${werror}
            -D__TARGET_ARCH_${PTBPF_BPF_ARCH}
            -I${PTBPF_VMLINUX_DIR} -I${PROJECT_SOURCE_DIR}/bpf
            -I${PROJECT_SOURCE_DIR}/include
            # <asm/errno.h> of <bpf/usdt.bpf.h>, as bcc's libbpf-tools do:
            # the target's (a cross build's sysroot's)
            -idirafter ${CMAKE_SYSROOT}/usr/include/${CMAKE_LIBRARY_ARCHITECTURE}
            -c ${src} -o ${obj}
    DEPENDS ${src} ${hdrs}
    COMMENT "BPF ${name}.bpf.c"
    VERBATIM)
  add_custom_command(
    OUTPUT ${skel}
    COMMAND ${BPFTOOL} gen skeleton ${obj} name ${name}_bpf > ${skel}
    DEPENDS ${obj}
    COMMENT "Skeleton ${name}.skel.h"
    VERBATIM)
  set(${out_var} ${skel} PARENT_SCOPE)
endfunction()
