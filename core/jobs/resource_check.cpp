// SPDX-License-Identifier: GPL-3.0-or-later
// Memory and blob-size limits checked against a model's estimate.
#include "core/jobs/resource_check.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

std::string size(std::uint64_t bytes) {
  char text[32];
  if (bytes >= (std::uint64_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / double(1 << 30));
  else
    std::snprintf(text, sizeof text, "%.0f MB", static_cast<double>(bytes) / double(1 << 20));
  return text;
}

// The options a user lowers to need less: those that multiply the needs.
std::string lowerWhat(const ModelInfo& model) {
  for (const auto& option : model.options)
    if (option.name == "k") return "a smaller --k";
  return "smaller options";
}

}  // namespace

std::uint64_t fitMemoryLimit() {
  if (const char* text = std::getenv("LATENT_MEMORY_LIMIT_MB")) {
    char* end = nullptr;
    const auto mb = std::strtoull(text, &end, 10);
    if (end != text && *end == '\0' && mb > 0) return mb << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return UINT64_MAX;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) / 5 * 4;
}

void checkMemory(const ModelInfo& model, const FitData& data, const nlohmann::json& options) {
  if (!model.needs) return;
  const auto needs = model.needs(data, options);
  const auto memory = fitMemoryLimit();
  if (needs.memoryBytes > memory)
    throw UsageError(
        model.name + " with these options needs about " + size(needs.memoryBytes) +
        " of memory on this dataset, more than the " + size(memory) + " a fit may take here (" +
        (std::getenv("LATENT_MEMORY_LIMIT_MB") ? "LATENT_MEMORY_LIMIT_MB" : "80% of the machine's memory") +
        "); choose " + lowerWhat(model));
}

void checkResources(const ModelInfo& model, const FitData& data, const nlohmann::json& options, Database& db) {
  if (!model.needs) return;
  checkMemory(model, data, options);
  const auto needs = model.needs(data, options);
  // A matrix beyond one blob is stored in parts (saveMatrix), so only parts beyond the blob limit
  // (a build of SQLite with a limit below kMatrixPartBytes) would be refused.
  const auto blob = static_cast<std::uint64_t>(sqlite3_limit(db.handle(), SQLITE_LIMIT_LENGTH, -1));
  if (std::min<std::uint64_t>(needs.largestMatrixBytes, kMatrixPartBytes) > blob)
    throw UsageError(model.name + " with these options would produce a result matrix of " +
                     size(needs.largestMatrixBytes) + ", more than this build's SQLite stores in one piece (" +
                     size(blob) + "); choose " + lowerWhat(model));
}

}  // namespace latent::core
