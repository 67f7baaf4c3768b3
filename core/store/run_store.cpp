// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing runs: their records, metrics and per-token results (the result matrices are
// in run_matrices.cpp).
#include "core/store/run_store.hpp"

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/damaged_project.hpp"
#include "core/store/process_owner.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

constexpr const char* kRunColumns =
    "SELECT r.id, r.dataset_id, d.name, r.model, r.options, r.seed, r.threads, r.heldout, r.status, r.message, "
    "r.objective_name, r.heldout_name, r.app_version, r.created_at, r.updated_at, r.finished_at, r.seconds, "
    "r.iterations, r.final_metrics, r.owner_pid, r.owner_host, r.sweep_id, r.owner_started, r.name, r.notes FROM runs "
    "r JOIN datasets d "
    "ON d.id = "
    "r.dataset_id";

// A process that is gone: only decidable for processes of this machine.
bool runOwnerIsGone(Statement& s) {
  return !s.isNull(19) && ownerIsGone(s.integer(19), s.text(20),
                                      s.isNull(22) ? std::nullopt : std::optional<std::int64_t>(s.integer(22)));
}

RunRecord readRun(Statement& s) {
  RunRecord r;
  r.id = s.integer(0);
  r.datasetId = s.integer(1);
  r.datasetName = s.text(2);
  r.model = s.text(3);
  r.options = storedObject(s.text(4));
  r.seed = static_cast<std::uint64_t>(s.integer(5));
  r.threads = static_cast<int>(s.integer(6));
  r.heldout = s.real(7);
  r.status = runStatusFromString(s.text(8));
  r.message = s.text(9);
  r.objectiveName = s.text(10);
  r.heldoutName = s.text(11);
  r.appVersion = s.text(12);
  r.createdAt = s.text(13);
  r.updatedAt = s.text(14);
  r.finishedAt = s.text(15);
  if (!s.isNull(16)) r.seconds = s.real(16);
  if (!s.isNull(17)) r.iterations = s.integer(17);
  r.finalMetrics = storedObject(s.text(18));
  if (r.status == RunStatus::Running && runOwnerIsGone(s)) r.status = RunStatus::Interrupted;
  if (!s.isNull(21)) r.sweepId = s.integer(21);
  r.name = s.text(23);
  r.notes = s.text(24);
  return r;
}

void bindOptional(Statement& s, int index, const std::optional<double>& value) {
  if (value && std::isfinite(*value))
    s.bind(index, *value);
  else
    s.bindNull(index);
}

}  // namespace

const char* statusName(RunStatus status) noexcept {
  switch (status) {
    case RunStatus::Running:
      return "running";
    case RunStatus::Finished:
      return "finished";
    case RunStatus::Stopped:
      return "stopped";
    case RunStatus::Failed:
      return "failed";
    case RunStatus::Interrupted:
      return "interrupted";
  }
  return "failed";
}

RunStatus runStatusFromString(std::string_view text) {
  if (text == "running") return RunStatus::Running;
  if (text == "finished") return RunStatus::Finished;
  if (text == "stopped") return RunStatus::Stopped;
  if (text == "interrupted") return RunStatus::Interrupted;
  return RunStatus::Failed;
}

std::int64_t createRun(Project& project, const RunRecord& run) {
  std::int64_t id = 0;
  inTransaction(project.db(), [&] {
    auto s = project.db().prepare(
        "INSERT INTO runs (dataset_id, model, options, seed, threads, heldout, status, objective_name, heldout_name, "
        "app_version, created_at, updated_at, owner_pid, owner_host, sweep_id, owner_started) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'running', ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?13, ?14)");
    s.bind(1, run.datasetId).bind(2, run.model).bind(3, run.options.dump());
    s.bind(4, static_cast<std::int64_t>(run.seed)).bind(5, run.threads).bind(6, run.heldout);
    s.bind(7, run.objectiveName).bind(8, run.heldoutName).bind(9, run.appVersion).bind(10, utcTimestamp());
    s.bind(11, currentProcessId()).bind(12, hostName());
    if (run.sweepId)
      s.bind(13, *run.sweepId);
    else
      s.bindNull(13);
    if (const auto started = currentProcessStart())
      s.bind(14, *started);
    else
      s.bindNull(14);
    s.run();
    id = project.db().lastInsertId();
  });
  return id;
}

void appendMetrics(Project& project, std::int64_t runId, std::span<const MetricRow> rows) {
  if (rows.empty()) return;
  inTransaction(project.db(), [&] {
    auto s = project.db().prepare(
        "INSERT OR REPLACE INTO run_metrics (run_id, iteration, seconds, train_objective, heldout_metric, extras) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    for (const auto& row : rows) {
      s.bind(1, runId).bind(2, row.iteration).bind(3, row.seconds);
      bindOptional(s, 4, row.trainObjective);
      bindOptional(s, 5, row.heldout);
      s.bind(6, row.extras.dump()).run();
    }
    project.db()
        .prepare("UPDATE runs SET updated_at = ?2, iterations = ?3 WHERE id = ?1")
        .bind(1, runId)
        .bind(2, utcTimestamp())
        .bind(3, rows.back().iteration)
        .run();
  });
}

void saveTokenTopics(Project& project, std::int64_t runId, std::int64_t document,
                     std::span<const std::int32_t> topics) {
  inTransaction(project.db(), [&] {
    auto s =
        project.db().prepare("INSERT OR REPLACE INTO token_topics (run_id, doc_index, topics) VALUES (?1, ?2, ?3)");
    s.bind(1, runId).bind(2, document).bindBlob(3, topics).run();
  });
}

void saveTokenValues(Project& project, std::int64_t runId, const std::string& name, std::int64_t document,
                     std::span<const float> values) {
  inTransaction(project.db(), [&] {
    auto s = project.db().prepare(
        "INSERT OR REPLACE INTO token_values (run_id, name, doc_index, vals) VALUES (?1, ?2, ?3, ?4)");
    s.bind(1, runId).bind(2, name).bind(3, document).bindBlob(4, values).run();
  });
}

void finishRun(Project& project, std::int64_t runId, RunStatus status, const std::string& message, double seconds,
               std::int64_t iterations, const nlohmann::json& finalMetrics) {
  inTransaction(project.db(), [&] {
    auto s = project.db().prepare(
        "UPDATE runs SET status = ?2, message = ?3, seconds = ?4, iterations = ?5, final_metrics = ?6, "
        "finished_at = ?7, updated_at = ?7 WHERE id = ?1");
    s.bind(1, runId).bind(2, statusName(status)).bind(3, message).bind(4, seconds).bind(5, iterations);
    s.bind(6, finalMetrics.dump()).bind(7, utcTimestamp()).run();
  });
}

std::vector<RunRecord> listRuns(Project& project, std::optional<std::int64_t> datasetId) {
  auto s = project.db().prepare(
      withClause(kRunColumns, datasetId ? " WHERE r.dataset_id = ?1 ORDER BY r.id" : " ORDER BY r.id"));
  if (datasetId) s.bind(1, *datasetId);
  std::vector<RunRecord> out;
  while (s.step()) out.push_back(readRun(s));
  return out;
}

std::int64_t createSweep(Project& project, std::int64_t datasetId, const std::string& model,
                         const std::string& parameter) {
  std::int64_t id = 0;
  inTransaction(project.db(), [&] {
    auto s =
        project.db().prepare("INSERT INTO sweeps (dataset_id, model, parameter, created_at) VALUES (?1, ?2, ?3, ?4)");
    s.bind(1, datasetId).bind(2, model).bind(3, parameter).bind(4, utcTimestamp()).run();
    id = project.db().lastInsertId();
  });
  return id;
}

std::vector<SweepRecord> listSweeps(Project& project, std::optional<std::int64_t> datasetId) {
  auto s = project.db().prepare(std::string("SELECT id, dataset_id, model, parameter, created_at FROM sweeps") +
                                (datasetId ? " WHERE dataset_id = ?1" : "") + " ORDER BY id");
  if (datasetId) s.bind(1, *datasetId);
  std::vector<SweepRecord> out;
  while (s.step()) out.push_back({s.integer(0), s.integer(1), s.text(2), s.text(3), s.text(4)});
  return out;
}

std::vector<RunRecord> sweepRuns(Project& project, std::int64_t sweepId) {
  auto s = project.db().prepare(withClause(kRunColumns, " WHERE r.sweep_id = ?1 ORDER BY r.id"));
  s.bind(1, sweepId);
  std::vector<RunRecord> out;
  while (s.step()) out.push_back(readRun(s));
  return out;
}

RunRecord loadRun(Project& project, std::int64_t runId) {
  auto s = project.db().prepare(withClause(kRunColumns, " WHERE r.id = ?1"));
  s.bind(1, runId);
  if (!s.step()) throw UsageError("no run " + std::to_string(runId) + " in " + project.path().string());
  return readRun(s);
}

std::vector<MetricRow> loadMetrics(Project& project, std::int64_t runId) {
  auto s = project.db().prepare(
      "SELECT iteration, seconds, train_objective, heldout_metric, extras FROM run_metrics WHERE run_id = ?1 "
      "ORDER BY iteration");
  s.bind(1, runId);
  std::vector<MetricRow> out;
  while (s.step()) {
    MetricRow row;
    row.iteration = s.integer(0);
    row.seconds = s.real(1);
    if (!s.isNull(2)) row.trainObjective = s.real(2);
    if (!s.isNull(3)) row.heldout = s.real(3);
    row.extras = storedObject(s.text(4));
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<std::int32_t> loadTokenTopics(Project& project, std::int64_t runId, std::int64_t document) {
  auto s = project.db().prepare("SELECT topics FROM token_topics WHERE run_id = ?1 AND doc_index = ?2");
  s.bind(1, runId).bind(2, document);
  if (!s.step()) return {};
  const auto blob = s.blob(0);
  if (blob.size() % sizeof(std::int32_t) != 0)
    throw damagedProject(project, "token_topics",
                         "run " + std::to_string(runId) + ", document " + std::to_string(document),
                         "topics holds " + std::to_string(blob.size()) + " bytes, not a whole number of 4-byte values");
  return blobToVector<std::int32_t>(blob);
}

std::vector<float> loadTokenValues(Project& project, std::int64_t runId, const std::string& name,
                                   std::int64_t document) {
  auto s = project.db().prepare("SELECT vals FROM token_values WHERE run_id = ?1 AND name = ?2 AND doc_index = ?3");
  s.bind(1, runId).bind(2, name).bind(3, document);
  if (!s.step()) return {};
  const auto blob = s.blob(0);
  if (blob.size() % sizeof(float) != 0)
    throw damagedProject(project, "token_values",
                         "run " + std::to_string(runId) + ", " + name + ", document " + std::to_string(document),
                         "vals holds " + std::to_string(blob.size()) + " bytes, not a whole number of 4-byte values");
  return blobToVector<float>(blob);
}

std::vector<std::string> listTokenValues(Project& project, std::int64_t runId) {
  auto s = project.db().prepare("SELECT DISTINCT name FROM token_values WHERE run_id = ?1 ORDER BY name");
  s.bind(1, runId);
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.text(0));
  return out;
}

}  // namespace latent::core
