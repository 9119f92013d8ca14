# What `cmake --install` puts under the prefix: the binary with its man page (generated from
# its help) and bash completion, the docs, and the editor files.
include(GNUInstallDirs)

add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/rulebook.1
  COMMAND ${PROJECT_SOURCE_DIR}/cli/man_page.sh $<TARGET_FILE:rulebook> ${PROJECT_BINARY_DIR}/rulebook.1
  DEPENDS rulebook ${PROJECT_SOURCE_DIR}/cli/man_page.sh
  COMMENT "Writing the man page from the help texts"
  VERBATIM)
add_custom_target(rulebook_man ALL DEPENDS ${PROJECT_BINARY_DIR}/rulebook.1)

install(TARGETS rulebook RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_BINARY_DIR}/rulebook.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/cli/rulebook.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME rulebook)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/editors/ DESTINATION ${CMAKE_INSTALL_DATADIR}/rulebook/editors)
