# Installs the build tree into WORK_DIR/prefix, then configures, builds and runs the consumer
# project (find_package(deltasplit)) against it. Run by ctest (examples/CMakeLists.txt).
file(REMOVE_RECURSE ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/install_step.cmake)

step("cmake --install" ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix)
step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${CONSUMER_ARGS})
step("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step("running the consumer" ${WORK_DIR}/build/shortest_paths ${GRAPH} 1)
if(NOT step_output MATCHES "matches Dijkstra")
  message(FATAL_ERROR "unexpected output of the consumer:\n${step_output}")
endif()
if(NOT EXISTS ${WORK_DIR}/prefix/bin/deltasplit)
  message(FATAL_ERROR "the deltasplit program was not installed")
endif()
message(STATUS "${step_output}")
