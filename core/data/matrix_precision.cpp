// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/matrix_precision.hpp"

#include "core/results/topic_results.hpp"

namespace latent::core {

bool isFloat32Matrix(std::string_view name, std::int64_t rows, std::int64_t cols, std::int64_t thresholdBytes) {
  const bool probabilities = name == topic::kTopicWord || name == topic::kDocTopic;
  return probabilities && rows > 0 && cols > 0 && rows * cols > thresholdBytes / 8;
}

}  // namespace latent::core
