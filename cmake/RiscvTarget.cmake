# Rules for building programs that run on the simulated board, with Debian's
# riscv64-unknown-elf-gcc and picolibc. The host build and the target build
# live in one CMake project, so target programs are plain custom commands
# rather than a second toolchain file.

find_program(RISCV_CC riscv64-unknown-elf-gcc REQUIRED)
find_program(RISCV_OBJCOPY riscv64-unknown-elf-objcopy REQUIRED)

# Flavours: the multilib each workload is built for. rv32i has no M
# extension, so multiply and divide go through libgcc (__mulsi3, __divsi3).
set(TALLY_FLAVOURS rv32imac rv32i)

# -misa-spec=2.2 keeps Zicsr/Zifencei in the base ISA while still selecting
# the rv32 multilibs (naming them in -march would pick the rv64 default).
function(tally_riscv_flags out flavour)
  set(${out} -march=${flavour} -mabi=ilp32 -misa-spec=2.2 PARENT_SCOPE)
endfunction()

# tally_target_program(NAME <name> FLAVOUR <f> OUTPUT_DIR <dir>
#                      SOURCES <files...> [CFLAGS <flags...>] [LDFLAGS <flags...>]
#                      [DEPENDS <files...>] [TARGET <custom-target-name>])
# Compiles and links the sources in one driver call into <dir>/<name>.elf,
# as a custom target built by default (named TARGET when given, so other
# targets and tests can depend on it by name).
function(tally_target_program)
  cmake_parse_arguments(P "" "NAME;FLAVOUR;OUTPUT_DIR;TARGET" "SOURCES;CFLAGS;LDFLAGS;DEPENDS" ${ARGN})
  tally_riscv_flags(arch ${P_FLAVOUR})
  set(out ${P_OUTPUT_DIR}/${P_NAME}.elf)
  set(srcs)
  foreach(s ${P_SOURCES})
    get_filename_component(abs ${s} ABSOLUTE)
    list(APPEND srcs ${abs})
  endforeach()
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${P_OUTPUT_DIR}
    COMMAND ${RISCV_CC} ${arch} ${P_CFLAGS} ${srcs} ${P_LDFLAGS} -o ${out}
    DEPENDS ${srcs} ${P_DEPENDS}
    COMMENT "riscv: ${P_FLAVOUR}/${P_NAME}.elf"
    VERBATIM)
  if(P_TARGET)
    set(tname ${P_TARGET})
  else()
    string(MAKE_C_IDENTIFIER "tp_${P_OUTPUT_DIR}_${P_NAME}" tname)
  endif()
  add_custom_target(${tname} ALL DEPENDS ${out})
endfunction()
