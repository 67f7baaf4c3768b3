// SPDX-License-Identifier: GPL-3.0-or-later
// Speed and accuracy of pmf: rating updates per second and thread for SGD and ALS on a generated
// rating set, and held-out RMSE on InstEval against the baselines and Funk's SGD with
// scikit-surprise's defaults.
//
// Protocol (build in a tree configured with -DLATENT_BUILD_BENCHMARKS=ON; run from the source root):
//   pmf-speed --mode speed [--threads T] [--k 20] [--blocks B] [--sgd-epochs 10] [--als-sweeps 5]
//     1M ratings drawn from a planted model (20,000 users, 10,000 items, K = 5, noise sd 0.5; 10%
//     held out), fitted with pmf's default penalties and step sizes at --k factors. The solvers run
//     alone (no evaluation between passes). One JSON line per solver: ratings_per_second (wall),
//     ratings_per_cpu_second (processor time: the meaningful figure on a shared machine), per
//     thread, and the ratio to LIBMF's 20M updates per second per thread (k = 20, no biases). An
//     ALS sweep solves every user and then every item: it uses each rating twice (three times with
//     implicit feedback, pmf's default: --options '{"implicit":false}' times the plain sweep).
//   pmf-speed --mode insteval [--options JSON] [--seed 1] [--heldout 0.1] [--write-split DIR]
//     pmf on resources/samples/insteval/ratings.csv (held-out RMSE per pass, the baselines,
//     seconds per pass), then the same split fitted by Funk's SGD with surprise's defaults
//     (--no-reference skips it). --write-split writes train.csv and test.csv for
//     tests/benchmarks/peers/pmf_peers.py, which runs the same reference in numpy.
#include <tbb/task_arena.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/eval/rating_split.hpp"
#include "core/io/ratings_import.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/model.hpp"
#include "core/models/ratings/pmf.hpp"
#include "core/models/ratings/pmf_als.hpp"
#include "core/models/ratings/pmf_sgd.hpp"
#include "core/models/ratings/pmf_synthetic.hpp"
#include "core/util/clock.hpp"

using namespace latent::core;

namespace {

struct Arguments {
  std::string mode = "all";  // speed, insteval, all
  pmf::SyntheticRatingsSpec spec{20000, 10000, 1000000, 5, 3.5, 0.3, 1.0, 0.5};
  int k = 20;
  int sgdEpochs = 10;
  int alsSweeps = 5;
  int threads = 1;
  int blocks = 0;  // sgd blocks in the speed test; 0: as pmf picks for the thread count
  std::uint64_t seed = 1;
  double heldout = 0.1;
  std::string insteval = "resources/samples/insteval/ratings.csv";
  std::string writeSplit;
  nlohmann::json options = nlohmann::json::object();
  bool reference = true;
};

double cpuSeconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

class Recorder final : public TrainingObserver {
 public:
  bool onReport(const IterationReport& r) override {
    nlohmann::json line = {{"epoch", r.iteration}, {"seconds", r.seconds}, {"objective", r.trainObjective}};
    for (const auto& [name, value] : r.extras) line[name] = value;
    if (r.heldout) line["heldout_rmse"] = *r.heldout;
    epochs.push_back(line);
    return true;
  }
  nlohmann::json epochs = nlohmann::json::array();
};

// Updates per second of the solvers alone (no evaluation between passes).
void speed(const Arguments& a) {
  const auto data = pmf::generateLowRankRatings(a.spec, 7);
  const auto split = splitRatings(data.ratings, a.heldout, a.seed);
  const auto train = pmf::TrainingRatings::build(split.train, a.spec.users, a.spec.items);
  auto o = PmfOptions::table().parse(a.options, "pmf");  // pmf's defaults unless --options says otherwise
  o.factors = a.k;
  const auto reg = o.penalties();
  tbb::task_arena arena(a.threads);
  for (const std::string solver : {"sgd", "als"}) {
    // ALS times the implicit-feedback sweep when the options ask for it (the default); SGD has none.
    auto params = pmf::Parameters::initial(train, a.k, o.initScale, a.seed, o.implicit && solver == "als");
    const int passes = solver == "sgd" ? a.sgdEpochs : a.alsSweeps;
    double wall = 0.0, cpu = 0.0;
    arena.execute([&] {
      if (solver == "sgd") {
        pmf::SgdSolver sgd(train, reg, a.blocks > 0 ? a.blocks : o.blocksFor(a.threads), a.seed);
        const Stopwatch clock;
        const double c0 = cpuSeconds();
        auto eta = static_cast<float>(o.learningRate);
        for (int e = 1; e <= passes; ++e, eta *= static_cast<float>(o.decay)) sgd.epoch(params, eta, e, {});
        wall = clock.seconds();
        cpu = cpuSeconds() - c0;
      } else {
        const pmf::AlsSolver als(train, reg);
        const Stopwatch clock;
        const double c0 = cpuSeconds();
        for (int e = 1; e <= passes; ++e) als.sweep(params, {});
        wall = clock.seconds();
        cpu = cpuSeconds() - c0;
      }
    });
    const double updates = double(train.count) * passes;
    nlohmann::json line = {{"solver", solver},
                           {"k", a.k},
                           {"implicit", !params.implicit.values.empty()},
                           {"threads", a.threads},
                           {"train_ratings", train.count},
                           {"passes", passes},
                           {"seconds_per_pass", wall / passes},
                           {"ratings_per_second", updates / wall},
                           {"ratings_per_second_per_thread", updates / wall / a.threads},
                           {"ratings_per_cpu_second", updates / cpu},
                           {"ratio_to_libmf_20M", updates / wall / a.threads / 20e6},
                           {"heldout_rmse", pmf::heldoutRmse(split.test, params)},
                           {"noise_sd", a.spec.noiseSd}};
    std::cout << line.dump() << std::endl;
  }
}

nlohmann::json fitInstEval(const Ratings& ratings, const nlohmann::json& options, const Arguments& a) {
  auto model = pmfModel().make();
  const PreparedData prepared(ratings, a.heldout, a.seed);
  const FitData& data = prepared.data();
  FitSettings settings;
  settings.options = resolveOptions(model->info(), options);
  settings.seed = a.seed;
  settings.threads = a.threads;
  settings.evalEvery = 1;
  Recorder recorder;
  FitResult result;
  tbb::task_arena arena(a.threads);
  const double cpu = cpuSeconds();
  arena.execute([&] { result = model->fit(data, settings, recorder, {}); });
  // Processor time of the whole fit (passes, per-pass evaluation, baselines): on a shared machine
  // the wall clock also counts time spent waiting for a core.
  return {{"options", settings.options},
          {"final", result.finalMetrics},
          {"seconds", result.seconds},
          {"cpu_seconds", cpuSeconds() - cpu},
          {"epochs", recorder.epochs}};
}

void writeSplit(const Ratings& ratings, const Arguments& a) {
  const auto split = splitRatings(ratings, a.heldout, a.seed);
  std::filesystem::create_directories(a.writeSplit);
  for (const auto& [name, part] : {std::pair{"train.csv", &split.train}, std::pair{"test.csv", &split.test}}) {
    std::ofstream out(std::filesystem::path(a.writeSplit) / name);
    out << "user,item,rating\n";
    for (const auto& r : *part) out << r.user << ',' << r.item << ',' << r.value << '\n';
  }
}

void instEval(const Arguments& a) {
  const auto ratings = readRatings(a.insteval, {}, {});
  if (!a.writeSplit.empty()) writeSplit(ratings, a);
  auto ours = fitInstEval(ratings, a.options, a);
  ours["run"] = "pmf";
  std::cout << ours.dump() << std::endl;
  if (!a.reference) return;
  // Funk's biased SGD with scikit-surprise's SVD defaults: 100 factors, 20 epochs, lr 0.005 and
  // reg 0.02 for everything, a penalty at every rating, factors ~ N(0, 0.1^2), no decay. Surprise
  // visits the ratings user by user; we visit them in a fresh random order each epoch.
  const nlohmann::json funk = {
      {"solver", "sgd"},   {"k", 100},       {"iterations", 20},    {"learning_rate", 0.005},
      {"decay", 1.0},      {"lambda", 0.02}, {"lambda_bias", 0.02}, {"regularization", "per-rating"},
      {"init_scale", 0.1}, {"blocks", 1}};
  auto reference = fitInstEval(ratings, funk, a);
  reference["run"] = "funk-surprise-defaults";
  std::cout << reference.dump() << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  Arguments a;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    auto next = [&]() -> std::string {
      if (k + 1 >= argc) throw std::runtime_error("missing value after " + arg);
      return argv[++k];
    };
    if (arg == "--mode")
      a.mode = next();
    else if (arg == "--users")
      a.spec.users = std::stoi(next());
    else if (arg == "--items")
      a.spec.items = std::stoi(next());
    else if (arg == "--ratings")
      a.spec.ratings = std::stoll(next());
    else if (arg == "--true-k")
      a.spec.factors = std::stoi(next());
    else if (arg == "--noise")
      a.spec.noiseSd = std::stod(next());
    else if (arg == "--k")
      a.k = std::stoi(next());
    else if (arg == "--sgd-epochs")
      a.sgdEpochs = std::stoi(next());
    else if (arg == "--als-sweeps")
      a.alsSweeps = std::stoi(next());
    else if (arg == "--threads")
      a.threads = std::stoi(next());
    else if (arg == "--blocks")
      a.blocks = std::stoi(next());
    else if (arg == "--seed")
      a.seed = std::stoull(next());
    else if (arg == "--heldout")
      a.heldout = std::stod(next());
    else if (arg == "--insteval")
      a.insteval = next();
    else if (arg == "--write-split")
      a.writeSplit = next();
    else if (arg == "--options")
      a.options = nlohmann::json::parse(next());
    else if (arg == "--no-reference")
      a.reference = false;
    else {
      std::cerr
          << "usage: pmf-speed [--mode speed|insteval|all] [--users N --items N --ratings N --true-k K --noise SD]\n"
             "  [--k 20 --sgd-epochs 10 --als-sweeps 5 --threads 1 --seed 1] [--insteval FILE --heldout 0.1\n"
             "  --options JSON --no-reference --write-split DIR]\n";
      return 2;
    }
  }
  if (a.mode == "speed" || a.mode == "all") speed(a);
  if (a.mode == "insteval" || a.mode == "all") instEval(a);
  return 0;
}
