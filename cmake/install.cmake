# cmake --install: where every file goes (GNU install dirs under the prefix).
#
#   bin/grit                                  the program                       runtime
#   lib/libgrit.so.0 (.so.0.1.0)              the shared library                runtime
#   share/grit/data/                          data files of the program         runtime
#   share/grit/python/grit/                   the Python package (GRIT_INSTALL_PYTHONDIR)  python
#   share/man/man1/grit.1                     the manual page                   runtime
#   share/doc/grit/                           README, LICENSE, docs/            runtime
#   include/grit/*.h                          the public headers                dev
#   lib/libgrit.a, lib/libgrit.so             static library, link name         dev
#   lib/pkgconfig/grit.pc                     pkg-config                        dev
#   lib/cmake/grit/                           find_package(grit): grit::grit, grit::grit_static   dev
include(CMakePackageConfigHelpers)

install(TARGETS grit_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS grit_shared grit EXPORT gritTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/grit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/grit/data
        COMPONENT runtime)
install(FILES ${PROJECT_BINARY_DIR}/grit.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT runtime)

# The Python package, with _paths.py naming the library and the program
# relative to the package, so that it finds the very copy installed with it
# (also under cmake --install --prefix elsewhere).
if(GRIT_INSTALL_PYTHON)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/grit DESTINATION ${GRIT_INSTALL_PYTHONDIR} COMPONENT python
          PATTERN "__pycache__" EXCLUDE PATTERN "_paths.py" EXCLUDE)
  file(RELATIVE_PATH _grit_py2lib "${_grit_pydir}/grit" "${CMAKE_INSTALL_FULL_LIBDIR}")
  file(RELATIVE_PATH _grit_py2bin "${_grit_pydir}/grit" "${CMAKE_INSTALL_FULL_BINDIR}")
  file(WRITE ${PROJECT_BINARY_DIR}/python-install/_paths.py
       "# written by cmake --install: the library and program installed with this package, from its folder\n"
       "LIBRARY = \"${_grit_py2lib}/libgrit.so.${PROJECT_VERSION_MAJOR}\"\n"
       "PROGRAM = \"${_grit_py2bin}/grit\"\n")
  install(FILES ${PROJECT_BINARY_DIR}/python-install/_paths.py DESTINATION ${GRIT_INSTALL_PYTHONDIR}/grit
          COMPONENT python)
endif()

# pkg-config: relocatable (paths from the .pc file's own folder)
file(RELATIVE_PATH _grit_pc2prefix "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" _grit_pc2prefix "${_grit_pc2prefix}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/grit.pc.in ${PROJECT_BINARY_DIR}/grit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/grit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# the CMake package
install(EXPORT gritTargets NAMESPACE grit:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/grit COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gritConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/gritConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/grit)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gritConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gritConfig.cmake ${PROJECT_BINARY_DIR}/gritConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/grit COMPONENT dev)
