// SPDX-License-Identifier: GPL-3.0-or-later
// The ratings side of loadHiddenRun, for a categorical RBM on ratings (rbm-ratings): the items are
// the visible units and the users the cases, and the pages show each unit's effect on the items'
// expected ratings (rating_effects) where a harmonium on words or columns shows its weights.
#pragma once

#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/store/project.hpp"
#include "core/store/run_results.hpp"

namespace latent::ui {

struct HiddenCorpus;
struct HiddenRunData;

// The matrices a ratings run's hidden-unit result is made of, and those read with it when stored.
const std::vector<std::string>& hiddenRatingsRequired();
const std::vector<std::string>& hiddenRatingsOptional();

// The dataset's items (named by their title when an items file gave one, else their id) as the
// visible units, and its users (by id, each with its number of ratings) as the cases; no labels.
std::shared_ptr<const HiddenCorpus> readHiddenRatings(core::Project& project, std::int64_t datasetId);

// Fills `data` (whose corpus is set) from a ratings result: the levels, the items' expected
// ratings with every unit off, the units' effects on them as `weights`, the hidden biases and the
// users' activations when stored. Returns what does not fit, empty when all does.
QString takeHiddenRatingsResult(const core::StoredResult& result, HiddenRunData& data);

}  // namespace latent::ui
