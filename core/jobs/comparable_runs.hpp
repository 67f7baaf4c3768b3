// SPDX-License-Identifier: GPL-3.0-or-later
// The runs of a project to choose K from: the finished runs of one model on one dataset that
// differ from a given run only in K (and the seed), as points for eval/model_selection.hpp; and
// other models' runs scored on the same held-out documents, to compare models across K.
#pragma once

#include <string>
#include <vector>

#include "core/eval/model_selection.hpp"
#include "core/store/run_store.hpp"

namespace latent::core {

// Runs comparable with `reference` for choosing `parameter`: finished, same dataset, model and
// held-out fraction, the same options but `parameter`, an integer `parameter`, and the held-out
// metric `heldoutKey` recorded. Sorted by K, then run id; `reference` is among them when it
// qualifies itself.
std::vector<KPoint> comparableRuns(const std::vector<RunRecord>& runs, const RunRecord& reference,
                                   const std::string& heldoutKey, const std::string& parameter = "k");

// Another model's runs against K on the same held-out documents as `reference`.
struct ModelCurve {
  std::string model;
  std::vector<KPoint> points;  // sorted by K, then run id
};

// For every model but the reference's: its finished runs on the same dataset with the same
// held-out fraction and seed (so scored on the very held-out documents the reference was) that
// recorded `heldoutKey` and have an integer `parameter`, whatever their other options (several
// runs at one K are averaged by meansPerK). Models in the order of their first such run in `runs`.
std::vector<ModelCurve> otherModelsByK(const std::vector<RunRecord>& runs, const RunRecord& reference,
                                       const std::string& heldoutKey, const std::string& parameter = "k");

}  // namespace latent::core
