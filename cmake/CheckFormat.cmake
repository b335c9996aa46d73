# Fails if a C++/CUDA/GLSL source under the project folders differs from .clang-format's layout
# (style-anchors §3.6: the formatter is enforced in CI, so nobody formats by hand).
# Usage: cmake -DSOURCE_DIR=<repo> -DCLANG_FORMAT=<exe> -P CheckFormat.cmake
set(files)
foreach(dir app engine render ui cuda tests)
  file(GLOB_RECURSE found "${SOURCE_DIR}/${dir}/*.h" "${SOURCE_DIR}/${dir}/*.cpp"
       "${SOURCE_DIR}/${dir}/*.cu" "${SOURCE_DIR}/${dir}/*.cuh")
  list(APPEND files ${found})
endforeach()
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror --style=file ${files}
                RESULT_VARIABLE result ERROR_VARIABLE errors)
list(LENGTH files count)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "clang-format: files need formatting (run clang-format -i on them):\n${errors}")
endif()
message(STATUS "clang-format: ${count} files formatted as .clang-format says")
