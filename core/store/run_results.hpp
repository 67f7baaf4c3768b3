// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a run's stored results: the final matrices, else the latest snapshot that holds them.
// Exports, predictions and the views all read results through here, so that a run stopped or
// killed before its end shows what it had reached in every one of them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/data/named_matrix.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"

namespace latent::core {

struct StoredResult {
  std::int64_t iteration = -1;        // -1: the final result; else the snapshot's iteration
  std::vector<NamedMatrix> matrices;  // the required ones in the order asked, then the optional ones found
  const Eigen::MatrixXd* find(std::string_view name) const { return findMatrix(matrices, name); }
};

// The iteration a reader shows of a run whose result is made of `required`: -1 when every one of
// them is stored as a final result, else the latest snapshot holding them all; nothing when none does.
std::optional<std::int64_t> latestResultIteration(Project& project, std::int64_t runId,
                                                  const std::vector<std::string>& required);

// The matrices `required`, and those of `optional` stored at the same iteration, from the final
// result, else the latest snapshot holding all of `required`. With `iteration`, from that
// snapshot (-1: the final result), and a UsageError naming the snapshots there are when it lacks
// one of `required`. Nothing when the run holds no such result.
std::optional<StoredResult> loadResult(Project& project, std::int64_t runId, const std::vector<std::string>& required,
                                       const std::vector<std::string>& optional = {},
                                       std::optional<std::int64_t> iteration = std::nullopt);

// The matrix `name` of the result loadResult({name}, {}, iteration) chooses (the same iteration, the
// same UsageError), in the form it was stored in (run_store.hpp, loadStoredMatrix): a large
// topic_word stays sparse, a float32 matrix floats.
struct StoredResultMatrix {
  std::int64_t iteration = -1;
  StoredMatrix values;
};
std::optional<StoredResultMatrix> loadStoredResult(Project& project, std::int64_t runId, const std::string& name,
                                                   std::optional<std::int64_t> iteration = std::nullopt);

// Whether the run holds the matrix `name`, final or as a snapshot.
bool hasResultMatrix(Project& project, std::int64_t runId, const std::string& name);

// Whether the run stored per-token topic assignments.
bool hasTokenTopics(Project& project, std::int64_t runId);

// Whether the run stored the per-token layer `name` (store/run_store.hpp, loadTokenValues).
bool hasTokenValues(Project& project, std::int64_t runId, const std::string& name);

}  // namespace latent::core
