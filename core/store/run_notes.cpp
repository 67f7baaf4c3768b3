// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/run_notes.hpp"

#include "core/store/database.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string trimmedEnd(std::string text) {
  while (!text.empty() && isBlank(text.back())) text.pop_back();
  return text;
}

void updateRunText(Project& project, std::int64_t runId, const char* column, const std::string& value) {
  auto update = project.db().prepare(std::string("UPDATE runs SET ") + column + " = ?2 WHERE id = ?1");
  update.bind(1, runId);
  update.bind(2, value);
  update.run();
  if (project.db().changes() == 0) throw UsageError("no run " + std::to_string(runId) + " in this project");
}

}  // namespace

std::string setRunName(Project& project, std::int64_t runId, const std::string& name) {
  std::string clean;
  clean.reserve(name.size());
  for (char c : name) clean += isBlank(c) ? ' ' : c;
  std::size_t first = 0;
  while (first < clean.size() && clean[first] == ' ') ++first;
  clean = trimmedEnd(clean.substr(first));
  if (clean.size() > kRunNameLength)
    throw UsageError("a run's name has at most " + std::to_string(kRunNameLength) +
                     " characters; put the rest in its notes");
  updateRunText(project, runId, "name", clean);
  return clean;
}

void setRunNotes(Project& project, std::int64_t runId, const std::string& notes) {
  updateRunText(project, runId, "notes", trimmedEnd(notes));
}

}  // namespace latent::core
