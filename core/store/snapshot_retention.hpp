// SPDX-License-Identifier: GPL-3.0-or-later
// How many snapshots of a run the project file keeps. Snapshots let a stopped or killed run show
// what it had reached and let the views step through a run's history; unbounded, a long run at
// many topics filled gigabytes (an lda-gibbs run at K = 1000 stored about 1.2 GB of them).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/store/project.hpp"

namespace latent::core {

struct SnapshotRetention {
  std::size_t maxSnapshots = 16;              // the latest included
  std::uint64_t maxHistoryBytes = 256 << 20;  // of the snapshots before the latest
};

// The retention runs are recorded with: the default, or what LATENT_KEEP_SNAPSHOTS says: a whole
// number of snapshots per run (at least 1; the byte bound stays), or `all` to keep every snapshot
// (for stepping through a whole run's history, or a reader that must find each snapshot it was
// shown). Anything else is the default.
SnapshotRetention snapshotRetentionFromEnvironment();

// Thins a run's snapshots (iterations 0 and up; the final result, iteration -1, is never touched)
// to the retention: the latest is always kept, and the ones before it are thinned evenly (the one
// whose neighbours are closest goes first; the oldest is kept while any other is) until they fit
// both bounds, so that what is left still spans the run. Within the caller's transaction, if any.
void thinSnapshots(Project& project, std::int64_t runId, const SnapshotRetention& retention = {});

}  // namespace latent::core
