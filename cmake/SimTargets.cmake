# Shared helpers for the project's targets.

# sim_target_defaults(target): warnings, include root and definitions every target shares.
function(sim_target_defaults target)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
    # GCC 12 false positive on std::string concatenation at -O2 (GCC bug 105329)
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${SIM_WARNINGS_AS_ERRORS}>>:-Werror>)
endfunction()
