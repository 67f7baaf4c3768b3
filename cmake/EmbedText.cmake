# SPDX-License-Identifier: GPL-3.0-or-later
# Turns text files (SQL migrations, stop-word lists) into C++ string constants, so that `core`
# carries its resources without Qt's resource system.

# latent_embed_text(OUT_VAR NAMESPACE ns SYMBOL name FILES f1 f2 ...)
# Generates ${CMAKE_CURRENT_BINARY_DIR}/embedded_<name>.cpp defining
#   std::span<const latent::core::EmbeddedFile> ns::name();
# with one entry per file (its file name and its contents), in the order given.
function(latent_embed_text out_var)
  cmake_parse_arguments(ARG "" "NAMESPACE;SYMBOL" "FILES" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_${ARG_SYMBOL}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNAMESPACE=${ARG_NAMESPACE} -DSYMBOL=${ARG_SYMBOL}
            "-DFILES=${ARG_FILES}" -P ${LATENT_EMBED_SCRIPT}
    DEPENDS ${ARG_FILES} ${LATENT_EMBED_SCRIPT}
    COMMENT "Embedding ${ARG_SYMBOL}"
    VERBATIM)
  # Every generated file names its arrays alike (kData0, kFiles): each is its own translation unit.
  set_source_files_properties(${out} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()

set(LATENT_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedTextScript.cmake CACHE INTERNAL "")
