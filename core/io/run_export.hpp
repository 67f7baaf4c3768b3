// SPDX-License-Identifier: GPL-3.0-or-later
// Exporting a run's results as CSV (DESIGN §6 `export --what`).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/store/project.hpp"

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
// `iteration` picks a snapshot of a matrix export instead of the final result. Without it, a run
// that was killed before its final result exports its latest snapshot. Returns the snapshot's
// iteration, or -1 when the final result was written.
std::int64_t exportRun(Project& project, std::int64_t runId, const std::string& what, std::ostream& out,
                       std::optional<std::int64_t> iteration = std::nullopt);

// What this run can export (the kinds whose data it holds).
std::vector<std::string> availableExports(Project& project, std::int64_t runId);

}  // namespace latent::core
