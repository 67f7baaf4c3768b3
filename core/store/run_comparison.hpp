// SPDX-License-Identifier: GPL-3.0-or-later
// What sets runs of one dataset apart: the options whose values differ between them and the final
// metrics any of them reports, for a table that compares them side by side.
#pragma once

#include <string>
#include <vector>

#include "core/store/run_store.hpp"

namespace latent::core {

struct RunComparison {
  std::vector<RunRecord> runs;
  // Option keys, in the order they first appear, whose value is not the same in every run (a run
  // without the option, as a run of another model, counts as differing from one that has it).
  std::vector<std::string> differingOptions;
  // Keys of final metrics with a number, text or list value in at least one run, in the order
  // they first appear; metrics reported by part (an object of values) are left to the run's page.
  std::vector<std::string> metrics;
};

RunComparison compareRuns(std::vector<RunRecord> runs);

// The runs of a dataset in the project, compared. Throws UsageError for an unknown dataset.
RunComparison compareDatasetRuns(Project& project, std::int64_t datasetId);

}  // namespace latent::core
