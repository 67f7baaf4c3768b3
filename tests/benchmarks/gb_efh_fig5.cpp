// SPDX-License-Identifier: GPL-3.0-or-later
// 004 Fig. 5 reproduced: the synthetic GB-EFH of 004 §5.1 (M = 100 visible, J = 10 hidden units,
// theta = 0, W from the best rank-10 approximation of a uniform [0, 0.1] matrix), N = 25 to 200
// exact training cases (coupling from the past), W estimated by maximum likelihood (gradient
// ascent, grad log Z by brief sampling) and by the Langevin algorithm (prior mu = 0, sigma = 0.1
// as in 004 §5.1; l = 1), and also with the prior's hyperparameters by empirical Bayes (004 §4).
// Scored by 004 eq. 29-30 on V = W W^T (the Langevin estimate: the mean of V over the draws kept).
// theta is known (0) for all three, as V's diagonal and theta trade off (x_i^2 = x_i).
//
// Protocol (build in a tree configured with -DLATENT_BUILD_BENCHMARKS=ON):
//   gb-efh-fig5 [--runs 10] [--ml-steps 2000] [--ml-rate R] [--langevin-steps 2000] [--burn-in 500]
//               [--epsilon E] [--em-every 250] [--trace FILE.csv]
//   gb-efh-fig5 --write-sample FOLDER   (writes the built-in sample efh-synthetic, then exits)
// One JSON line per training-set size: mae and mre of each method, mean and standard error over
// the runs (each run draws its own W and cases). --trace writes 004 Fig. 3: W_11 along three
// Langevin chains from different starts (N = 100, the first run).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/models/harmonium/efh_langevin.hpp"
#include "core/models/harmonium/efh_synthetic.hpp"
#include "core/util/clock.hpp"

namespace efh = latent::core::harmonium;

namespace {

struct Settings {
  int runs = 10;
  int mlSteps = 2000;
  double mlRate = 0.02;
  int langevinSteps = 2000;
  int burnIn = 500;
  double epsilon = 0.0;  // 0: derived from the ML rate (EfhSteps)
  int emEvery = 250;
  std::string trace;
  std::string sample;
};

struct Tally {
  std::vector<double> values;
  void add(double v) { values.push_back(v); }
  double mean() const {
    double s = 0.0;
    for (double v : values) s += v;
    return values.empty() ? 0.0 : s / static_cast<double>(values.size());
  }
  double standardError() const {
    if (values.size() < 2) return 0.0;
    const double m = mean();
    double s = 0.0;
    for (double v : values) s += (v - m) * (v - m);
    return std::sqrt(s / static_cast<double>(values.size() - 1) / static_cast<double>(values.size()));
  }
  nlohmann::json json() const { return {{"mean", mean()}, {"se", standardError()}}; }
};

efh::EfhParameters smallStart(Eigen::Index visible, Eigen::Index hidden, std::uint64_t seed) {
  latent::core::Rng rng(seed, 99);
  efh::EfhParameters p(visible, hidden);
  for (Eigen::Index j = 0; j < hidden; ++j)
    for (Eigen::Index i = 0; i < visible; ++i) p.weights(i, j) = 0.01 * rng.normal();
  return p;
}

efh::EfhSteps stepsOf(const Settings& s) {
  efh::EfhSteps steps;
  steps.learningRate = s.mlRate;
  steps.langevinStep = s.epsilon;
  steps.fitVisibleBias = false;
  return steps;
}

// The Langevin chain's mean V after burn-in; with `empiricalBayes` the prior starts from the ML
// estimate (004 eq. 26-27) and is re-estimated every emEvery transitions (004 eq. 24-25).
Eigen::MatrixXd langevin(const Settings& s, const efh::BinaryData& data, const efh::EfhParameters& start,
                         std::uint64_t seed, bool empiricalBayes, const Eigen::MatrixXd& mlWeights) {
  efh::EfhTrainer trainer(stepsOf(s), start, seed);
  efh::EfhPrior prior =
      empiricalBayes ? efh::EfhPrior::fromWeights(mlWeights) : efh::EfhPrior::uniform(start.visible(), 0.0, 0.1);
  efh::PosteriorWeights posterior(true);
  efh::PriorUpdate update;
  for (int t = 0; t < s.langevinSteps; ++t) {
    trainer.langevinStep(data, prior);
    if (t < s.burnIn) continue;
    posterior.add(trainer.parameters().weights);
    if (empiricalBayes) {
      update.add(trainer.parameters().weights);
      if (update.draws() == s.emEvery) prior = update.estimate(1e-3);
    }
  }
  return posterior.meanOuterProduct();
}

void writeTrace(const Settings& s, const efh::EfhParameters& truth, const efh::BinaryData& data) {
  std::ofstream out(s.trace);
  out << "transition,chain,w11,truth_v11\n";
  const Eigen::MatrixXd V = truth.weights * truth.weights.transpose();
  for (int chain = 0; chain < 3; ++chain) {
    efh::EfhParameters start(truth.visible(), truth.hidden());
    start.weights.setConstant(0.1 * (chain - 1));  // -0.1, 0, 0.1
    if (chain == 1) start = smallStart(truth.visible(), truth.hidden(), 5);
    efh::EfhTrainer trainer(stepsOf(s), start, 40 + static_cast<std::uint64_t>(chain));
    const auto prior = efh::EfhPrior::uniform(truth.visible(), 0.0, 0.1);
    for (int t = 0; t <= s.langevinSteps; ++t) {
      if (t > 0) trainer.langevinStep(data, prior);
      out << t << ',' << chain << ',' << trainer.parameters().weights(0, 0) << ',' << V(0, 0) << '\n';
    }
  }
}

// The built-in sample (resources/samples/efh_synthetic): 200 exact cases of run 1's model as a 0/1
// table (cases.csv: case, u1..u100) and its true W (weights.csv: unit, h1..h10).
void writeSample(const std::string& folder) {
  efh::EfhParameters truth(100, 10);
  truth.weights = efh::syntheticEfhWeights(100, 10, 1);
  const auto data = efh::exactEfhSamples(truth, 200, 1000 + 200);
  std::ofstream cases(folder + "/cases.csv");
  cases << "case";
  for (int i = 1; i <= 100; ++i) cases << ",u" << i;
  cases << '\n';
  for (Eigen::Index c = 0; c < data.rows(); ++c) {
    const Eigen::VectorXd x = efh::denseRow(data, c);
    cases << c + 1;
    for (Eigen::Index i = 0; i < x.size(); ++i) cases << ',' << x[i];
    cases << '\n';
  }
  std::ofstream weights(folder + "/weights.csv");
  weights.precision(17);
  weights << "unit";
  for (int j = 1; j <= 10; ++j) weights << ",h" << j;
  weights << '\n';
  for (Eigen::Index i = 0; i < truth.visible(); ++i) {
    weights << 'u' << i + 1;
    for (Eigen::Index j = 0; j < truth.hidden(); ++j) weights << ',' << truth.weights(i, j);
    weights << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--runs")
      s.runs = std::stoi(value);
    else if (key == "--ml-steps")
      s.mlSteps = std::stoi(value);
    else if (key == "--ml-rate")
      s.mlRate = std::stod(value);
    else if (key == "--langevin-steps")
      s.langevinSteps = std::stoi(value);
    else if (key == "--burn-in")
      s.burnIn = std::stoi(value);
    else if (key == "--epsilon")
      s.epsilon = std::stod(value);
    else if (key == "--em-every")
      s.emEvery = std::stoi(value);
    else if (key == "--trace")
      s.trace = value;
    else if (key == "--write-sample")
      s.sample = value;
    else {
      std::cerr << "unknown option " << key << "\n";
      return 2;
    }
  }
  if (!s.sample.empty()) {
    writeSample(s.sample);
    return 0;
  }
  const Eigen::Index M = 100, J = 10;
  for (const Eigen::Index N : {25, 50, 100, 200}) {
    const latent::core::Stopwatch clock;
    Tally mlAbs, mlRel, bayesAbs, bayesRel, ebAbs, ebRel, ones;
    for (int run = 0; run < s.runs; ++run) {
      const auto seed = static_cast<std::uint64_t>(run + 1);
      efh::EfhParameters truth(M, J);
      truth.weights = efh::syntheticEfhWeights(M, J, seed);
      const Eigen::MatrixXd V = truth.weights * truth.weights.transpose();
      const auto data = efh::exactEfhSamples(truth, N, seed * 1000 + static_cast<std::uint64_t>(N));
      ones.add(static_cast<double>(data.nonZeros()) / static_cast<double>(N * M));
      if (!s.trace.empty() && run == 0 && N == 100) writeTrace(s, truth, data);
      const auto start = smallStart(M, J, seed);
      efh::EfhTrainer mlTrainer(stepsOf(s), start, seed);
      for (int t = 0; t < s.mlSteps; ++t) mlTrainer.maximumLikelihoodStep(data);
      const Eigen::MatrixXd mlW = mlTrainer.parameters().weights;
      const auto ml = efh::outerProductErrors(V, mlW * mlW.transpose());
      const auto bayes = efh::outerProductErrors(V, langevin(s, data, start, seed, false, mlW));
      const auto eb = efh::outerProductErrors(V, langevin(s, data, start, seed, true, mlW));
      mlAbs.add(ml.meanAbsolute);
      mlRel.add(ml.meanRelative);
      bayesAbs.add(bayes.meanAbsolute);
      bayesRel.add(bayes.meanRelative);
      ebAbs.add(eb.meanAbsolute);
      ebRel.add(eb.meanRelative);
    }
    std::cout << nlohmann::json{{"cases", N},
                                {"runs", s.runs},
                                {"share_of_ones", ones.mean()},
                                {"ml_mae", mlAbs.json()},
                                {"langevin_mae", bayesAbs.json()},
                                {"empirical_bayes_mae", ebAbs.json()},
                                {"ml_mre", mlRel.json()},
                                {"langevin_mre", bayesRel.json()},
                                {"empirical_bayes_mre", ebRel.json()},
                                {"seconds", clock.seconds()}}
                     .dump()
              << std::endl;
  }
  return 0;
}
