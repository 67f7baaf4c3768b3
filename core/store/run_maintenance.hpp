// SPDX-License-Identifier: GPL-3.0-or-later
// Keeping a project's runs in order: deleting a run, removing the snapshots of one that has its
// final results, and compacting the file afterwards (the space SQLite frees stays in the file until
// it is compacted).
#pragma once

#include <cstdint>

#include "core/store/project.hpp"

namespace latent::core {

struct RunStorage {
  std::int64_t snapshots = 0;      // snapshot matrices that have a final result of the same name
  std::int64_t snapshotBytes = 0;  // their values' bytes
  std::int64_t matrixBytes = 0;    // every stored matrix of the run, final results included
};

// What the run's matrices take in the project. Throws UsageError for an unknown run.
RunStorage runStorage(Project& project, std::int64_t runId);

// Deletes the run with everything it stored (metrics, matrices, assignments, labels). Refuses
// (UsageError) a run that is still going.
void deleteRun(Project& project, std::int64_t runId);

// Deletes the run's snapshots of matrices it also holds as final results, and returns the bytes
// of values removed; snapshots a result has no final version of stay (they stand in for it), and
// a run still going is refused (UsageError).
std::int64_t removeSnapshots(Project& project, std::int64_t runId);

// VACUUM: gives the file the space deleted rows left. Returns the file's size before and after.
struct CompactOutcome {
  std::int64_t bytesBefore = 0;
  std::int64_t bytesAfter = 0;
};
CompactOutcome compactProject(Project& project);

}  // namespace latent::core
