// SPDX-License-Identifier: GPL-3.0-or-later
// Refusing, before any work starts, a fit the machine or the project file cannot hold: pmf at
// k 1000 on InstEval needed 24 GB and was killed by the kernel; lda-gibbs at k 10000 computed for
// minutes a topic-word matrix beyond SQLite's largest blob and lost it.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/models/model.hpp"
#include "core/store/database.hpp"

namespace latent::core {

// The memory a fit may take: 80% of the machine's physical memory (what the kernel leaves the
// rest of the system); LATENT_MEMORY_LIMIT_MB overrides it.
std::uint64_t fitMemoryLimit();

// Throws UsageError when the model's estimate (ModelInfo::needs) exceeds fitMemoryLimit(), saying
// by how much and what to lower.
void checkMemory(const ModelInfo& model, const FitData& data, const nlohmann::json& options);
// The same, and when its largest result matrix exceeds what `db` stores in one blob.
void checkResources(const ModelInfo& model, const FitData& data, const nlohmann::json& options, Database& db);

}  // namespace latent::core
