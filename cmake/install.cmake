# Installation and the CMake package. After `cmake --install build --prefix P` another project
# writes find_package(deltasplit) and links deltasplit::deltasplit (the SSSP API; it brings
# deltasplit::graph, the graph layer). Builds with CUDA also install the header-only GPU library
# as its own package, find_package(multisplit) -> multisplit::multisplit. Included last by the
# top-level CMakeLists.txt.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_ds_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/deltasplit)

# Installs <name>Config.cmake (from cmake/<name>Config.cmake.in) and its version file into dir.
function(install_package_config name dir)
  configure_package_config_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${name}Config.cmake.in
                                ${PROJECT_BINARY_DIR}/${name}Config.cmake INSTALL_DESTINATION ${dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/${name}ConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/${name}Config.cmake ${PROJECT_BINARY_DIR}/${name}ConfigVersion.cmake
          DESTINATION ${dir})
endfunction()

set_target_properties(deltasplit_graph PROPERTIES EXPORT_NAME graph)
set_target_properties(deltasplit_warnings PROPERTIES EXPORT_NAME warnings)
# deltasplit_warnings is exported only because static libraries record their private link
# dependencies; it carries compile options, which a consumer never sees through LINK_ONLY.
install(TARGETS deltasplit deltasplit_graph deltasplit_warnings EXPORT deltasplitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/include/ ${PROJECT_SOURCE_DIR}/graph/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT deltasplitTargets NAMESPACE deltasplit:: DESTINATION ${_ds_cmake_dir})

# multisplit is a package of its own (find_package(multisplit) alone), which deltasplit's finds.
if(TARGET multisplit)
  set(_ms_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/multisplit)
  install(TARGETS multisplit EXPORT multisplitTargets)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/multisplit/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT multisplitTargets NAMESPACE multisplit:: DESTINATION ${_ms_cmake_dir})
  install_package_config(multisplit ${_ms_cmake_dir})
endif()

if(TARGET deltasplit_cli)
  install(TARGETS deltasplit_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install_package_config(deltasplit ${_ds_cmake_dir})
