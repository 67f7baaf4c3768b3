// SPDX-License-Identifier: GPL-3.0-or-later
// Adam's per-parameter step sizes (Kingma & Ba 2015) over a harmonium's parameters.
#pragma once

#include <cstdint>

#include "core/models/harmonium/binary_rbm.hpp"

namespace latent::core::harmonium {

// Each parameter moves by the running mean of its gradient over the root of the running mean of
// its square: steps of about `rate` whatever the gradient's scale. Replicated softmax needs this:
// a hidden bias enters a document's activation multiplied by its length L while a word's weight
// enters once per occurrence, so their gradients differ in scale by about L, and one shared step
// size either leaves the weights where they started or lets the hidden biases swing every unit off.
class AdaptiveSteps {
 public:
  // `firstDecay` is beta_1, the first moment's decay (the momentum option); beta_2 is Adam's 0.999.
  AdaptiveSteps(Eigen::Index visible, Eigen::Index hidden, double firstDecay);

  // p += rate * mhat / (sqrt(vhat) + eps) for an ascent direction `gradient`.
  void apply(RbmParameters& p, const RbmParameters& gradient, double rate);

 private:
  RbmParameters m_first, m_second;
  double m_firstDecay;
  std::int64_t m_steps = 0;
};

}  // namespace latent::core::harmonium
