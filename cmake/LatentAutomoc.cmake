# latent_automoc(target): turns AUTOMOC on for a Qt target, through cmake/moc_project_includes.sh.in
# (moc without the include directories outside this tree, which it spent most of its time in), and
# lets moc start before the libraries the target links are built: it reads only sources and headers,
# and CMake's default left it and the target's compile to the end of CI's builds.
function(latent_automoc target)
  set(wrapper ${PROJECT_BINARY_DIR}/moc_project_includes.sh)
  get_target_property(LATENT_MOC Qt6::moc LOCATION)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/moc_project_includes.sh.in ${wrapper} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                  WORLD_READ WORLD_EXECUTE)
  set_target_properties(${target} PROPERTIES AUTOMOC ON AUTOGEN_ORIGIN_DEPENDS OFF AUTOMOC_EXECUTABLE ${wrapper})
endfunction()
