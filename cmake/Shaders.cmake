# sim_add_shaders(<target> <glsl files...>): compiles GLSL to SPIR-V with glslc at build time into
# ${CMAKE_BINARY_DIR}/shaders/<name>.spv.inc (`glslc -mfmt=c`: a braced list of 32-bit words, used
# as `const std::uint32_t kName[] =\n#include "name.spv.inc"\n;`) so the SPIR-V is embedded in the
# binary and nothing generated is committed or looked up at run time. Shaders may `#include` files
# next to them (GL_GOOGLE_include_directive); glslc's depfile makes edits of those rebuild too.
find_program(SIM_GLSLC glslc REQUIRED)

function(sim_add_shaders target)
  set(out_dir ${CMAKE_BINARY_DIR}/shaders)
  set(outputs)
  foreach(src IN LISTS ARGN)
    get_filename_component(name ${src} NAME)
    set(out ${out_dir}/${name}.spv.inc)
    if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
      set(depfile_args -MD -MF ${out}.d)
      set(depfile DEPFILE ${out}.d)
    else()
      set(depfile_args)
      set(depfile)
    endif()
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND ${SIM_GLSLC} --target-env=vulkan1.1 -O -mfmt=c ${depfile_args} -o ${out} ${src}
      DEPENDS ${src}
      ${depfile}
      COMMENT "glslc ${name}"
      VERBATIM)
    list(APPEND outputs ${out})
  endforeach()
  target_sources(${target} PRIVATE ${outputs})
  target_include_directories(${target} PRIVATE ${out_dir})
endfunction()
