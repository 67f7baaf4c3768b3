// SPDX-License-Identifier: GPL-3.0-or-later
// Exporting a run's results as CSV (DESIGN §6 `export --what`).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "store/project.hpp"

namespace latent::core {

// The --what values, each with the columns it writes.
struct ExportKind {
  std::string name;     // "topic-word"
  std::string columns;  // "topic,word,probability"
  std::string description;
};
const std::vector<ExportKind>& exportKinds();

// Writes the table `what` of run `runId`. Throws UsageError for an unknown `what`, or when the
// run has no such result (a unigram run has no block assignments), naming what it does have.
void exportRun(Project& project, std::int64_t runId, const std::string& what, std::ostream& out);

// What this run can export (the kinds whose data it holds).
std::vector<std::string> availableExports(Project& project, std::int64_t runId);

}  // namespace latent::core
