// SPDX-License-Identifier: GPL-3.0-or-later
// Perplexity formulas.
#include "core/eval/perplexity.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace latent::core {

double perplexityPerDocument(std::span<const double> logLikelihoods, std::span<const std::int64_t> lengths) {
  if (logLikelihoods.size() != lengths.size()) throw std::invalid_argument("perplexity: size mismatch");
  double sum = 0.0;
  std::int64_t documents = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] <= 0) continue;
    sum += logLikelihoods[i] / static_cast<double>(lengths[i]);
    ++documents;
  }
  if (documents == 0) return std::numeric_limits<double>::quiet_NaN();
  return std::exp(-sum / static_cast<double>(documents));
}

double perplexityPerToken(std::span<const double> logLikelihoods, std::span<const std::int64_t> lengths) {
  if (logLikelihoods.size() != lengths.size()) throw std::invalid_argument("perplexity: size mismatch");
  double sum = 0.0;
  std::int64_t tokens = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] <= 0) continue;
    sum += logLikelihoods[i];
    tokens += lengths[i];
  }
  if (tokens == 0) return std::numeric_limits<double>::quiet_NaN();
  return std::exp(-sum / static_cast<double>(tokens));
}

}  // namespace latent::core
