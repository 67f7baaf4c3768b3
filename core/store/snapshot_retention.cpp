// SPDX-License-Identifier: GPL-3.0-or-later
// Thinning a run's snapshots to a bounded, evenly spread history.
#include "core/store/snapshot_retention.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace latent::core {

SnapshotRetention snapshotRetentionFromEnvironment() {
  SnapshotRetention retention;
  const char* text = std::getenv("LATENT_KEEP_SNAPSHOTS");
  if (!text) return retention;
  if (std::strcmp(text, "all") == 0) {
    retention.maxSnapshots = std::numeric_limits<std::size_t>::max();
    retention.maxHistoryBytes = std::numeric_limits<std::uint64_t>::max();
    return retention;
  }
  char* end = nullptr;
  const auto count = std::strtoull(text, &end, 10);
  if (end != text && *end == '\0' && count > 0) retention.maxSnapshots = static_cast<std::size_t>(count);
  return retention;
}

void thinSnapshots(Project& project, std::int64_t runId, const SnapshotRetention& retention) {
  struct Snapshot {
    std::int64_t iteration;
    std::uint64_t bytes;
  };
  std::vector<Snapshot> history;
  {
    auto s = project.db().prepare(
        // The bytes stored, in one blob or in parts (run_matrix_parts), dense or sparse.
        "SELECT m.iteration, sum(length(m.data) + coalesce((SELECT sum(length(p.data)) FROM run_matrix_parts p "
        "WHERE p.run_id = m.run_id AND p.name = m.name AND p.iteration = m.iteration), 0)) FROM run_matrices m "
        "WHERE m.run_id = ?1 AND m.iteration >= 0 "
        "GROUP BY m.iteration ORDER BY m.iteration");
    s.bind(1, runId);
    while (s.step()) history.push_back({s.integer(0), static_cast<std::uint64_t>(s.integer(1))});
  }
  if (history.size() < 2) return;
  // The latest (last) is never removed. Of the others, the one whose neighbours are closest is
  // removed first (the oldest only when it is the last one left), so that the gaps stay even
  // and what is kept spans the run.
  std::uint64_t historyBytes = 0;
  for (std::size_t i = 0; i + 1 < history.size(); ++i) historyBytes += history[i].bytes;
  const std::size_t maxHistory = retention.maxSnapshots > 0 ? retention.maxSnapshots - 1 : 0;
  std::vector<std::int64_t> removed;
  while (history.size() > 1 && (history.size() - 1 > maxHistory || historyBytes > retention.maxHistoryBytes)) {
    std::size_t victim = 0;
    if (history.size() > 2) {
      victim = 1;
      for (std::size_t i = 2; i + 1 < history.size(); ++i)
        if (history[i + 1].iteration - history[i - 1].iteration <
            history[victim + 1].iteration - history[victim - 1].iteration)
          victim = i;
    }
    removed.push_back(history[victim].iteration);
    historyBytes -= history[victim].bytes;
    history.erase(history.begin() + static_cast<std::ptrdiff_t>(victim));
  }
  auto remove = project.db().prepare("DELETE FROM run_matrices WHERE run_id = ?1 AND iteration = ?2");
  for (const auto iteration : removed) remove.bind(1, runId).bind(2, iteration).run();
}

}  // namespace latent::core
