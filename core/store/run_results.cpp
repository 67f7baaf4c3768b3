// SPDX-License-Identifier: GPL-3.0-or-later
// The one reader of "final result, else latest snapshot".
#include "core/store/run_results.hpp"

#include <algorithm>
#include <map>

#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The snapshots that hold `name`, for an error message.
std::string snapshotList(Project& project, std::int64_t runId, const std::string& name) {
  std::string list;
  for (const auto& [n, iteration] : listMatrices(project, runId))
    if (n == name && iteration >= 0) list += (list.empty() ? "" : ", ") + std::to_string(iteration);
  return list;
}

// The error of a reader that asked for `name` at `iteration` (-1: the final result) and found none.
UsageError missingResult(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration) {
  const auto have = snapshotList(project, runId, name);
  return UsageError("run " + std::to_string(runId) + " has no " + name +
                    (iteration < 0 ? " result" : " snapshot at iteration " + std::to_string(iteration)) +
                    (have.empty() ? " (it has none)" : " (it has: " + have + ")"));
}

}  // namespace

std::optional<std::int64_t> latestResultIteration(Project& project, std::int64_t runId,
                                                  const std::vector<std::string>& required) {
  std::map<std::int64_t, std::size_t> held;  // iteration -> how many of `required` it holds
  for (const auto& [name, iteration] : listMatrices(project, runId))
    if (contains(required, name)) ++held[iteration];
  if (const auto final = held.find(-1); final != held.end() && final->second == required.size()) return -1;
  std::optional<std::int64_t> latest;
  for (const auto& [iteration, count] : held)
    if (iteration >= 0 && count == required.size()) latest = iteration;  // the map is in ascending order
  return latest;
}

std::optional<StoredResult> loadResult(Project& project, std::int64_t runId, const std::vector<std::string>& required,
                                       const std::vector<std::string>& optional,
                                       std::optional<std::int64_t> iteration) {
  StoredResult result;
  if (iteration) {
    result.iteration = *iteration;
  } else {
    const auto latest = latestResultIteration(project, runId, required);
    if (!latest) return std::nullopt;
    result.iteration = *latest;
  }
  for (const auto& name : required) {
    auto values = loadMatrix(project, runId, name, result.iteration);
    if (!values) {
      if (!iteration) return std::nullopt;
      throw missingResult(project, runId, name, *iteration);
    }
    result.matrices.push_back({name, std::move(*values)});
  }
  for (const auto& name : optional)
    if (auto values = loadMatrix(project, runId, name, result.iteration))
      result.matrices.push_back({name, std::move(*values)});
  return result;
}

std::optional<StoredResultMatrix> loadStoredResult(Project& project, std::int64_t runId, const std::string& name,
                                                   std::optional<std::int64_t> iteration) {
  const auto chosen = iteration ? iteration : latestResultIteration(project, runId, {name});
  if (!chosen) return std::nullopt;
  auto values = loadStoredMatrix(project, runId, name, *chosen);
  if (!values) {
    if (!iteration) return std::nullopt;
    throw missingResult(project, runId, name, *iteration);
  }
  return StoredResultMatrix{*chosen, std::move(*values)};
}

bool hasResultMatrix(Project& project, std::int64_t runId, const std::string& name) {
  const auto matrices = listMatrices(project, runId);
  return std::any_of(matrices.begin(), matrices.end(), [&](const auto& m) { return m.first == name; });
}

bool hasTokenTopics(Project& project, std::int64_t runId) {
  auto statement = project.db().prepare("SELECT 1 FROM token_topics WHERE run_id = ?1 LIMIT 1");
  statement.bind(1, runId);
  return statement.step();
}

bool hasTokenValues(Project& project, std::int64_t runId, const std::string& name) {
  auto statement = project.db().prepare("SELECT 1 FROM token_values WHERE run_id = ?1 AND name = ?2 LIMIT 1");
  statement.bind(1, runId).bind(2, name);
  return statement.step();
}

}  // namespace latent::core
