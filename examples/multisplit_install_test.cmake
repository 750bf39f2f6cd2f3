# Installs the build tree into WORK_DIR/prefix, then configures, builds and runs the consumer
# project examples/multisplit (find_package(multisplit) alone) against it. Run by ctest
# (examples/CMakeLists.txt).
file(REMOVE_RECURSE ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/install_step.cmake)

step("cmake --install" ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix)
if(NOT EXISTS ${WORK_DIR}/prefix/lib/cmake/multisplit/multisplitConfig.cmake)
  message(FATAL_ERROR "multisplitConfig.cmake was not installed")
endif()
step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}
     -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
step("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step("running the consumer" ${WORK_DIR}/build/split_by_range)
if(NOT step_output MATCHES "matches the host|no CUDA device")
  message(FATAL_ERROR "unexpected output of the consumer:\n${step_output}")
endif()
message(STATUS "${step_output}")
