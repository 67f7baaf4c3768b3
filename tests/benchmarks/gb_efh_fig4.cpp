// SPDX-License-Identifier: GPL-3.0-or-later
// 004 Fig. 4 reproduced: the estimate of d log Z(W) / d W_11 by brief sampling with l Gibbs steps
// from the data (004 §3.2) against the same number of exact draws (coupling from the past), on the
// synthetic GB-EFH of 004 §5.1 (M = 100, J = 10, theta = 0) at its true W. d log Z / dW = E[x x^T] W
// (004 eq. 17), estimated by (1/N) X^T X W over N = 100 samples; each of the runs draws its brief
// samples afresh from one fixed set of N exact training cases, and its exact samples afresh.
//
// Protocol (build in a tree configured with -DLATENT_BUILD_BENCHMARKS=ON):
//   gb-efh-fig4 [--runs 50] [--cases 100] [--max-steps 10] [--seed 1]
// One JSON line per l: brief sampling's mean and standard deviation over the runs; one line for the
// exact draws. 004 Fig. 4 draws error bars of 1.64 standard errors.
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/models/harmonium/efh_synthetic.hpp"
#include "core/models/harmonium/gaussian_hidden_efh.hpp"

namespace efh = latent::core::harmonium;

namespace {

// (1/N) (X^T X W)_11: the estimate of d log Z / d W_11 from the samples X.
double gradientEstimate(const efh::EfhParameters& p, const efh::BinaryData& samples) {
  efh::EfhStatistics statistics;
  efh::sufficientStatistics(p, samples, statistics);
  return statistics.weights(0, 0) / static_cast<double>(samples.rows());
}

nlohmann::json summary(const std::vector<double>& values) {
  double mean = 0.0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double var = 0.0;
  for (double v : values) var += (v - mean) * (v - mean);
  const double sd = std::sqrt(var / static_cast<double>(values.size() - 1));
  return {{"mean", mean}, {"sd", sd}, {"standard_error", sd / std::sqrt(static_cast<double>(values.size()))}};
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 50, cases = 100, maxSteps = 10;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--runs")
      runs = std::stoi(value);
    else if (key == "--cases")
      cases = std::stoi(value);
    else if (key == "--max-steps")
      maxSteps = std::stoi(value);
    else if (key == "--seed")
      seed = std::stoull(value);
    else {
      std::cerr << "unknown option " << key << "\n";
      return 2;
    }
  }
  if (runs < 2 || cases < 1 || maxSteps < 1) {
    std::cerr << "--runs must be at least 2, --cases and --max-steps at least 1\n";
    return 2;
  }
  efh::EfhParameters truth(100, 10);
  truth.weights = efh::syntheticEfhWeights(100, 10, seed);
  const auto data = efh::exactEfhSamples(truth, cases, seed * 1000);
  std::cout << nlohmann::json{{"training_estimate", gradientEstimate(truth, data)}}.dump() << "\n";
  for (int steps = 1; steps <= maxSteps; ++steps) {
    std::vector<double> estimates;
    efh::BinaryData samples;
    for (int run = 0; run < runs; ++run) {
      efh::briefSample(truth, data, steps, seed * 100000 + static_cast<std::uint64_t>(steps * 1000 + run), samples);
      estimates.push_back(gradientEstimate(truth, samples));
    }
    auto line = summary(estimates);
    line["l"] = steps;
    std::cout << line.dump() << "\n";
  }
  std::vector<double> exact;
  for (int run = 0; run < runs; ++run)
    exact.push_back(
        gradientEstimate(truth, efh::exactEfhSamples(truth, cases, seed * 7000 + static_cast<std::uint64_t>(run))));
  auto line = summary(exact);
  line["exact"] = true;
  std::cout << line.dump() << "\n";
  return 0;
}
