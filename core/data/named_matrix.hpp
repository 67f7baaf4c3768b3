// SPDX-License-Identifier: GPL-3.0-or-later
// A model's result matrix under the name the views, exports and predictions read it by.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace latent::core {

struct NamedMatrix {
  std::string name;  // "topic_word", "doc_topic", ...
  Eigen::MatrixXd values;
};

// The matrix called `name` among a result's or a snapshot's matrices; null when there is none.
inline const Eigen::MatrixXd* findMatrix(const std::vector<NamedMatrix>& matrices, std::string_view name) {
  for (const auto& m : matrices)
    if (m.name == name) return &m.values;
  return nullptr;
}

}  // namespace latent::core
