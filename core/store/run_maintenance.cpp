// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/run_maintenance.hpp"

#include <filesystem>
#include <string>
#include <string_view>

#include "core/store/database.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

// The run, refused while it goes: its worker still writes to it.
void refuseRunning(Project& project, std::int64_t runId, const char* what) {
  const auto run = loadRun(project, runId);
  if (run.status == RunStatus::Running)
    throw UsageError("run " + std::to_string(runId) + " is still going; stop it before " + what);
}

// A matrix's values: its blob, or the parts of one stored in parts (schema 13).
constexpr const char* kMatrixBytes =
    "length(m.data) + COALESCE((SELECT SUM(length(p.data)) FROM run_matrix_parts p WHERE p.run_id = m.run_id AND "
    "p.name = m.name AND p.iteration = m.iteration), 0)";

// A query with kMatrixBytes between `before` and `after`, appended to one string: GCC 12 at -O2
// saw an array bound crossed (a false -Warray-bounds) in the temporaries of a chain of `+` here,
// depending on what the unity build put beside this file.
std::string withMatrixBytes(std::string_view before, std::string_view after) {
  std::string sql(before);
  sql += kMatrixBytes;
  sql += after;
  return sql;
}

std::int64_t fileBytes(const std::filesystem::path& file) {
  std::error_code error;
  std::int64_t total = 0;
  for (const char* suffix : {"", "-wal"}) {
    const auto size = std::filesystem::file_size(file.string() + suffix, error);
    if (!error) total += static_cast<std::int64_t>(size);
  }
  return total;
}

}  // namespace

RunStorage runStorage(Project& project, std::int64_t runId) {
  loadRun(project, runId);  // an unknown run is a UsageError
  RunStorage out;
  auto all =
      project.db().prepare(withMatrixBytes("SELECT COALESCE(SUM(", "), 0) FROM run_matrices m WHERE m.run_id = ?1"));
  all.bind(1, runId);
  if (all.step()) out.matrixBytes = all.integer(0);
  auto snapshots = project.db().prepare(withMatrixBytes(
      "SELECT COUNT(*), COALESCE(SUM(",
      "), 0) FROM run_matrices m WHERE m.run_id = ?1 AND m.iteration >= 0 AND EXISTS (SELECT 1 FROM run_matrices f "
      "WHERE f.run_id = m.run_id AND f.name = m.name AND f.iteration = -1)"));
  snapshots.bind(1, runId);
  if (snapshots.step()) {
    out.snapshots = snapshots.integer(0);
    out.snapshotBytes = snapshots.integer(1);
  }
  return out;
}

void deleteRun(Project& project, std::int64_t runId) {
  Transaction tx(project.db());
  refuseRunning(project, runId, "deleting it");
  // Metrics, matrices (and their parts), assignments, token values and labels cascade from runs.
  project.db().prepare("DELETE FROM runs WHERE id = ?1").bind(1, runId).run();
  tx.commit();
}

std::int64_t removeSnapshots(Project& project, std::int64_t runId) {
  Transaction tx(project.db());
  refuseRunning(project, runId, "removing its snapshots");
  const auto freed = runStorage(project, runId).snapshotBytes;
  project.db()
      .prepare(
          "DELETE FROM run_matrices WHERE run_id = ?1 AND iteration >= 0 AND EXISTS (SELECT 1 FROM run_matrices f "
          "WHERE f.run_id = run_matrices.run_id AND f.name = run_matrices.name AND f.iteration = -1)")
      .bind(1, runId)
      .run();
  tx.commit();
  return freed;
}

CompactOutcome compactProject(Project& project) {
  CompactOutcome out;
  // The write-ahead log is folded in first, so that both sizes are the file's.
  project.db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  out.bytesBefore = fileBytes(project.path());
  project.db().exec("VACUUM");
  project.db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
  out.bytesAfter = fileBytes(project.path());
  return out;
}

}  // namespace latent::core
