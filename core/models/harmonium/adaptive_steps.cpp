// SPDX-License-Identifier: GPL-3.0-or-later
// Adam over W, b and c (Kingma & Ba 2015, Algorithm 1).
#include "core/models/harmonium/adaptive_steps.hpp"

#include <cmath>

namespace latent::core::harmonium {
namespace {

constexpr double kSecondMomentDecay = 0.999;
constexpr double kAdamEpsilon = 1e-8;

// One block of parameters: the moments updated in place, then the bias-corrected step.
template <typename Block, typename Gradient>
void adamBlock(Block& first, Block& second, const Gradient& gradient, Block& parameters, double firstDecay,
               double firstCorrection, double secondCorrection, double rate) {
  first = firstDecay * first + (1.0 - firstDecay) * gradient;
  second = kSecondMomentDecay * second + (1.0 - kSecondMomentDecay) * gradient.cwiseAbs2();
  parameters.array() +=
      rate * (first.array() / firstCorrection) / ((second.array() / secondCorrection).sqrt() + kAdamEpsilon);
}

}  // namespace

AdaptiveSteps::AdaptiveSteps(Eigen::Index visible, Eigen::Index hidden, double firstDecay)
    : m_first(visible, hidden), m_second(visible, hidden), m_firstDecay(firstDecay) {}

void AdaptiveSteps::apply(RbmParameters& p, const RbmParameters& gradient, double rate) {
  ++m_steps;
  const double firstCorrection = 1.0 - std::pow(m_firstDecay, static_cast<double>(m_steps));
  const double secondCorrection = 1.0 - std::pow(kSecondMomentDecay, static_cast<double>(m_steps));
  // With no momentum the first moment is the gradient itself and needs no correction.
  const double first = firstCorrection > 0.0 ? firstCorrection : 1.0;
  adamBlock(m_first.weights, m_second.weights, gradient.weights, p.weights, m_firstDecay, first, secondCorrection,
            rate);
  adamBlock(m_first.visibleBias, m_second.visibleBias, gradient.visibleBias, p.visibleBias, m_firstDecay, first,
            secondCorrection, rate);
  adamBlock(m_first.hiddenBias, m_second.hiddenBias, gradient.hiddenBias, p.hiddenBias, m_firstDecay, first,
            secondCorrection, rate);
}

}  // namespace latent::core::harmonium
