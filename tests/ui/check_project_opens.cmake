# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when ui code constructs a core::Project without taking its path through offGuiThread()
# (ui/jobs/project_session.hpp): that guard is what makes a GUI-thread open show up in tests.
# Run as: cmake -DUI_DIR=<source>/ui -P check_project_opens.cmake
file(GLOB_RECURSE sources "${UI_DIR}/*.cpp" "${UI_DIR}/*.hpp")
set(offenders "")
foreach(src IN LISTS sources)
  file(STRINGS "${src}" lines REGEX "core::Project [A-Za-z_]+[({]")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "offGuiThread\\(")
      string(STRIP "${line}" line)
      list(APPEND offenders "${src}: ${line}")
    endif()
  endforeach()
endforeach()
if(offenders)
  list(JOIN offenders "\n  " listed)
  message(FATAL_ERROR "core::Project opened in ui/ without offGuiThread():\n  ${listed}")
endif()
