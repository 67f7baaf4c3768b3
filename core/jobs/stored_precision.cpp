// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/jobs/stored_precision.hpp"

#include "core/results/topic_results.hpp"

namespace latent::core {

MatrixElement storedElement(std::string_view name, std::int64_t rows, std::int64_t cols) {
  const bool probabilities = name == topic::kTopicWord || name == topic::kDocTopic;
  return probabilities && rows > 0 && cols > 0 && rows * cols > kFloat32MatrixBytes / 8 ? MatrixElement::Float32
                                                                                        : MatrixElement::Float64;
}

}  // namespace latent::core
