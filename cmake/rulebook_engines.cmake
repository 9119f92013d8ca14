# rulebook_add_engines: engines generated from rules files at build time, linked into tools.
#
#   include(${PROJECT_SOURCE_DIR}/cmake/rulebook_engines.cmake)
#   rulebook_add_engines(TARGET builtin_engines
#                        RULES variants/garnsi-malom/garnsi-6x6.rules ...
#                        [GENERATOR rulebook-emit])
#   target_link_libraries(some_tool PRIVATE builtin_engines)
#
# For each rules file, `GENERATOR FILE -o OUT.cpp --depfile OUT.d` runs at build time
# (GENERATOR is an executable target, `rulebook-emit` by default: cli/emit_main.cpp) and
# OUT.cpp is compiled into the OBJECT library TARGET with RULEBOOK_ENGINE_REGISTER defined,
# so each engine registers itself in the registry of compiler/load/load_engine.h when the tool
# starts. load_engine() then finds it by the hash of its generated source and never runs
# the compiler at run time; a rules file edited after the build simply hashes differently
# and is compiled at run time as usual.
#
# A generated source depends on the generator (so on the emitter it links) and, through the
# depfile the generator writes, on every file the rules were read from: the file itself,
# the files its `extends` chain reaches and its data files. The generator rewrites OUT.cpp
# only when its text changes, so an emitter change that leaves an engine's code alone does
# not recompile that engine. A tool that links TARGET cannot be the GENERATOR of the same
# TARGET (a dependency cycle).
#
# RULEBOOK_ENGINES_OPTIMIZE: the optimisation flag of the engines whatever the build type,
# by default -O3, the level the benchmark builds the baselines' inline play at (it counts the 6x6
# perft in about 15% fewer instructions than -O2). Engines compiled at run time keep
# -O2 (see CompileOptions): they are built while a designer waits, and -O3 doubles that.
set(RULEBOOK_ENGINES_OPTIMIZE "-O3" CACHE STRING "Optimisation flag of engines generated at build time")

function(rulebook_add_engines)
  cmake_parse_arguments(ENG "" "TARGET;GENERATOR" "RULES" ${ARGN})
  if(NOT ENG_TARGET OR NOT ENG_RULES)
    message(FATAL_ERROR "rulebook_add_engines: TARGET and RULES are required")
  endif()
  if(NOT ENG_GENERATOR)
    set(ENG_GENERATOR rulebook-emit)
  endif()
  set(generated)
  foreach(rules IN LISTS ENG_RULES)
    get_filename_component(path "${rules}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH name "${PROJECT_SOURCE_DIR}" "${path}")
    string(MAKE_C_IDENTIFIER "${name}" id)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/${ENG_TARGET}/${id}.cpp")
    add_custom_command(
      OUTPUT "${out}"
      COMMAND ${ENG_GENERATOR} "${path}" -o "${out}" --depfile "${out}.d"
      DEPENDS ${ENG_GENERATOR} "${path}"
      DEPFILE "${out}.d"
      COMMENT "Generating the engine of ${name}"
      VERBATIM)
    list(APPEND generated "${out}")
  endforeach()
  add_library(${ENG_TARGET} OBJECT ${generated})
  target_compile_definitions(${ENG_TARGET} PRIVATE RULEBOOK_ENGINE_REGISTER)
  target_compile_options(${ENG_TARGET} PRIVATE $<$<NOT:$<CONFIG:Debug>>:${RULEBOOK_ENGINES_OPTIMIZE}>)
endfunction()
