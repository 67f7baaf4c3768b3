// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/run_comparison.hpp"

#include <algorithm>

namespace latent::core {
namespace {

void addOnce(std::vector<std::string>& keys, const std::string& key) {
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
}

bool differs(const std::vector<RunRecord>& runs, const std::string& key) {
  const nlohmann::json* first = nullptr;
  bool firstSeen = false;
  for (const auto& run : runs) {
    const auto it = run.options.is_object() ? run.options.find(key) : run.options.end();
    const nlohmann::json* value = run.options.is_object() && it != run.options.end() ? &*it : nullptr;
    if (!firstSeen) {
      first = value;
      firstSeen = true;
      continue;
    }
    if ((first == nullptr) != (value == nullptr)) return true;
    if (first && *first != *value) return true;
  }
  return false;
}

}  // namespace

RunComparison compareRuns(std::vector<RunRecord> runs) {
  RunComparison out;
  std::vector<std::string> optionKeys;
  for (const auto& run : runs) {
    if (run.options.is_object())
      for (const auto& [key, value] : run.options.items()) addOnce(optionKeys, key);
    if (run.finalMetrics.is_object())
      for (const auto& [key, value] : run.finalMetrics.items())
        if (!value.is_object() && !value.is_null()) addOnce(out.metrics, key);
  }
  for (const auto& key : optionKeys)
    if (differs(runs, key)) out.differingOptions.push_back(key);
  out.runs = std::move(runs);
  return out;
}

RunComparison compareDatasetRuns(Project& project, std::int64_t datasetId) {
  project.dataset(datasetId);  // an unknown dataset is a UsageError
  return compareRuns(listRuns(project, datasetId));
}

}  // namespace latent::core
