# sim_add_shaders(<target> <glsl files...>): compiles GLSL to SPIR-V with glslc at build time into
# ${CMAKE_BINARY_DIR}/shaders/<name>.spv.inc (a C array initializer, `glslc -mfmt=c`) so the SPIR-V
# is embedded in the binary and nothing generated is committed or looked up at run time.
find_program(SIM_GLSLC glslc REQUIRED)

function(sim_add_shaders target)
  set(out_dir ${CMAKE_BINARY_DIR}/shaders)
  set(outputs)
  foreach(src IN LISTS ARGN)
    get_filename_component(name ${src} NAME)
    set(out ${out_dir}/${name}.spv.inc)
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND ${SIM_GLSLC} --target-env=vulkan1.1 -O -mfmt=c -o ${out} ${src}
      DEPENDS ${src}
      COMMENT "glslc ${name}"
      VERBATIM)
    list(APPEND outputs ${out})
  endforeach()
  target_sources(${target} PRIVATE ${outputs})
  target_include_directories(${target} PRIVATE ${out_dir})
endfunction()
