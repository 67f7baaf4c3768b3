// SPDX-License-Identifier: GPL-3.0-or-later
// pmf: catalogue entry, options, and the chain of the SGD and ALS solvers (run by the fit driver).
//
// The objective (000 eq. 27.92 with the biases of eq. 27.93), over the training ratings O:
//   J = sum_O (r_ui - mu - b_u - b_i - u_u . v_i)^2 + sum_u l_u (lambda |u_u|^2 + lambda_b b_u^2)
//                                                  + sum_i l_i (lambda |v_i|^2 + lambda_b b_i^2)
// with mu the mean training rating (fixed), and l = 1 for every user and item ("prior": the
// Gaussian priors of eq. 27.90 with lambda = sigma^2 / sigma_U^2) or l = its number of ratings
// ("per-rating": the penalty Funk's SGD takes at every visit; ALS-WR). Both solvers minimise the
// same J, reported per training rating as the training objective. With implicit feedback (ALS
// only; pmf_implicit.hpp) u_u = p_u + |N(u)|^-1/2 sum_{j in N(u)} y_j, the user penalty falls on
// p_u and every y_j carries lambda |y_j|^2 with its item's l_i (SVD++ penalises p, q and y alike).
#include "core/models/ratings/pmf.hpp"

#include <cstdlib>
#include <ctime>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "core/eval/rating_split.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/option_specs.hpp"
#include "core/models/ratings/factor_model_results.hpp"
#include "core/models/ratings/pmf_als.hpp"
#include "core/models/ratings/pmf_sgd.hpp"
#include "core/util/clock.hpp"
#include "core/util/communicator.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

// Sweeps of the bias-only baseline (ALS with K = 0): it stops earlier once J stops moving.
constexpr int kBaselineSweeps = 100;

ModelInfo pmfInfo() {
  ModelInfo info;
  info.name = "pmf";
  info.kind = DataKind::Ratings;
  info.family = ResultFamily::Factors;
  info.title = "Probabilistic matrix factorisation (PMF)";
  info.description =
      "Every user and every item gets a few hidden factors, a bias, and the global mean rating: the predicted "
      "rating is the mean plus both biases plus how well the user's factors match the item's. Fitted by "
      "alternating least squares or stochastic gradient descent, and judged by the error on held-out ratings.";
  info.objectiveName = "regularised squared error per training rating (000 eq. 27.92 with biases)";
  info.options = PmfOptions::table().specs();
  // SVD++'s ALS step keeps a K x K Gram matrix per user and a K x K factorisation per item.
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto U = static_cast<std::uint64_t>(data.ratings->userCount());
    const auto I = static_cast<std::uint64_t>(data.ratings->itemCount());
    const bool implicit = options.at("implicit").get<bool>() && options.at("solver").get<std::string>() == "als";
    return ResourceNeeds{(implicit ? (U + I) * K * K * 8 : 0) + (U + 2 * I) * K * 8, std::max(U, I) * (K + 1) * 8};
  };
  // Distributed (pmf_als_distribution.hpp): ALS only; SGD's blocks are updated in a sequence
  // that would have to cross the processes at every block.
  info.distributed = [](const nlohmann::json& options, int) -> std::string {
    if (options.value("solver", std::string("als")) != "als")
      return "only the ALS solver runs distributed (--solver als)";
    return "";
  };
  return info;
}

// The bias-only model (eq. 27.93 without u . v), fitted with the run's bias penalty.
pmf::Parameters fitBiasOnly(const pmf::TrainingRatings& train, const pmf::Regularization& reg, std::uint64_t seed,
                            std::stop_token stop) {
  auto biases = pmf::Parameters::initial(train, 0, 0.0, seed);
  const pmf::AlsSolver solver(train, reg);
  double previous = std::numeric_limits<double>::infinity();
  for (int sweep = 0; sweep < kBaselineSweeps; ++sweep) {
    if (!solver.sweep(biases, stop)) break;
    const double objective = pmf::trainingFit(train, biases, reg).objective;
    if (previous - objective <= 1e-10 * objective) break;
    previous = objective;
  }
  return biases;
}

// The ALS sweeps or SGD epochs of one run. The stored training fit is that of the latest
// complete pass (or of the start before the first).
class PmfChain final : public FitChain {
 public:
  // `distribution`: the processes of a distributed fit (null for one), `stop` this process's own
  // stop request.
  PmfChain(const pmf::TrainingRatings& train, std::span<const Rating> test, const PmfOptions& options,
           const FitSettings& settings, pmf::AlsDistribution* distribution, std::stop_token stop)
      : m_train(train),
        m_test(test),
        m_options(options),
        m_reg(options.penalties()),
        m_seed(settings.seed),
        m_sgd(options.solver == "sgd"),
        // Only ALS has the y_j update (pmf_implicit.hpp, exact per item); SGD would need Koren's
        // user-by-user sweeps, so it fits the plain model, like learning_rate is ignored by ALS.
        m_implicit(options.implicit && !m_sgd),
        m_params(pmf::Parameters::initial(train, static_cast<int>(options.factors), options.initScale, settings.seed,
                                          m_implicit)),
        m_learningRate(options.learningRate),
        m_distribution(distribution),
        m_root(distribution == nullptr || distribution->group->rank() == 0),
        m_stop(std::move(stop)) {
    if (m_sgd)
      m_sgdSolver.emplace(train, m_reg, options.blocksFor(settings.threads), settings.seed);
    else
      m_alsSolver.emplace(train, m_reg, distribution, static_cast<int>(options.factors));
    if (m_distribution != nullptr) m_testFailure = DistributedTestFailure(m_distribution->group->rank());
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const Stopwatch pass;
    const std::clock_t cpuBefore = std::clock();
    const std::int64_t bytesBefore = m_distribution != nullptr ? m_distribution->group->bytesSent() : 0;
    const bool complete = m_sgd
                              ? m_sgdSolver->epoch(m_params, static_cast<float>(m_learningRate), plan.iteration, m_stop)
                              : m_alsSolver->sweep(m_params, m_stop);
    m_solverSeconds += pass.seconds();
    m_solverCpuSeconds += static_cast<double>(std::clock() - cpuBefore) / CLOCKS_PER_SEC;
    if (!complete) return false;
    if (m_distribution != nullptr) {
      m_sweepBytes += m_distribution->group->bytesSent() - bytesBefore;
      m_testFailure.afterSweeps(++m_sweeps);
    }
    m_fit = pmf::trainingFit(m_train, m_params, m_reg);
    report.trainObjective = m_fit.objective;
    report.extras.emplace_back("train_rmse", m_fit.rmse);
    if (m_sgd) {
      report.extras.emplace_back("learning_rate", m_learningRate);
      m_learningRate *= m_options.decay;
    }
    if (!m_test.empty() && plan.evaluate) report.heldout = pmf::heldoutRmse(m_test, m_params);
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return pmf::toMatrices(m_params); }

  void finish(FitResult& result) override {
    const bool cancelled = result.status == FitStatus::Cancelled;
    // A stopped pass leaves parameters past the stored fit.
    if (result.iterations == 0 || cancelled) m_fit = pmf::trainingFit(m_train, m_params, m_reg);
    auto& metrics = result.finalMetrics;
    metrics["train_rmse"] = m_fit.rmse;
    metrics["train_objective"] = m_fit.objective;
    metrics["train_ratings"] = m_train.count;
    metrics["solver"] = m_options.solver;
    metrics["implicit"] = m_implicit;
    if (m_sgd) metrics["blocks"] = m_sgdSolver->blocks();
    if (m_distribution != nullptr) {
      metrics["processes"] = m_distribution->group->size();
      // What this process sent per complete sweep: its blocks of users and items (and the stop
      // flags of the implicit step).
      if (m_sweeps > 0) metrics["communicated_bytes_per_sweep"] = double(m_sweepBytes) / double(m_sweeps);
    }
    if (result.iterations > 0) metrics["seconds_per_iteration"] = m_solverSeconds / double(result.iterations);
    metrics["solver_seconds"] = m_solverSeconds;
    // Processor time of all this process's threads in the passes: its share of the work (and, in a
    // distributed fit, what waiting on the others costs) on a busy machine.
    metrics["solver_cpu_seconds"] = m_solverCpuSeconds;
    if (!m_test.empty()) {
      metrics[kHeldoutRmse] = pmf::heldoutRmse(m_test, m_params);
      metrics["heldout_ratings"] = static_cast<std::int64_t>(m_test.size());
      // What the factors add: the same held-out ratings predicted by the training mean alone, and
      // by the mean and the biases alone (eq. 27.93 without u . v, same bias penalty).
      const auto meanOnly = pmf::Parameters::initial(m_train, 0, 0.0, m_seed);
      metrics["baseline_global_mean_rmse"] = pmf::heldoutRmse(m_test, meanOnly);
      // Only process 0's result is written: the others skip the bias-only fit.
      if (!cancelled && m_root)
        metrics["baseline_bias_rmse"] = pmf::heldoutRmse(m_test, fitBiasOnly(m_train, m_reg, m_seed, m_stop));
    }
    result.matrices = pmf::toMatrices(m_params);
    Eigen::MatrixXd penalty(1, 3);
    penalty << m_options.lambda, m_options.lambdaBias, m_reg.penalty == pmf::Penalty::PerRating ? 1.0 : 0.0;
    result.matrices.push_back({kRegularization, penalty});
  }

 private:
  const pmf::TrainingRatings& m_train;
  std::span<const Rating> m_test;
  const PmfOptions& m_options;
  pmf::Regularization m_reg;
  std::uint64_t m_seed;
  bool m_sgd;
  bool m_implicit;
  pmf::Parameters m_params;
  std::optional<pmf::SgdSolver> m_sgdSolver;
  std::optional<pmf::AlsSolver> m_alsSolver;
  double m_learningRate;
  double m_solverSeconds = 0.0, m_solverCpuSeconds = 0.0;
  pmf::AlsDistribution* m_distribution;
  bool m_root;  // this process writes the run (the only one, unless distributed)
  std::int64_t m_sweeps = 0, m_sweepBytes = 0;
  DistributedTestFailure m_testFailure;
  pmf::TrainingFit m_fit;
  std::stop_token m_stop;
};

class PmfModel final : public DescribedModel<&pmfInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = PmfOptions::table().parse(settings.options, info().name);
    const Ratings& ratings = *data.ratings;
    const RatingSplit& split = *data.ratingSplit;
    const auto train = pmf::TrainingRatings::build(split.train, static_cast<std::int32_t>(ratings.userCount()),
                                                   static_cast<std::int32_t>(ratings.itemCount()));
    // Distributed: every process holds the whole ratings table read-only and solves its blocks of
    // users and items (pmf_als_distribution.hpp); the driver follows the stop they agree on.
    Communicator* group = settings.communicator;
    const int processes = group != nullptr ? group->size() : 1;
    if (processes > 1) {
      const std::string refusal = info().distributed(settings.options, processes);
      if (!refusal.empty()) throw UsageError(refusal);
    }
    pmf::AlsDistribution distribution{group, stop, {}};
    pmf::AlsDistribution* const distributed = processes > 1 ? &distribution : nullptr;
    const std::stop_token driverStop = distributed != nullptr ? distribution.agreed.get_token() : stop;
    PmfChain chain(train, split.test, options, settings, distributed, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, driverStop, clock);
  }
};

}  // namespace

const OptionTable<PmfOptions>& PmfOptions::table() {
  static const auto table = [] {
    OptionTable<PmfOptions> t;
    t.add(integerOption("k", 0, 1000, "Number of hidden factors per user and item; 0 fits the biases only."),
          &PmfOptions::factors)
        .add(integerOption("iterations", 1, 100000,
                           "Passes over all ratings: ALS sweeps (every user, then every item) or SGD epochs."),
             &PmfOptions::iterations)
        .add(
            choiceOption("solver", {"als", "sgd"},
                         "als: exact least-squares updates, no step size to tune (default); sgd: one rating at a time, "
                         "the method of the Netflix prize."),
            &PmfOptions::solver)
        .add(realOption("learning_rate", 0.0, 1.0, true,
                        "SGD only: step size in the first epoch; too large and the error grows instead of shrinking."),
             &PmfOptions::learningRate)
        .add(realOption("decay", 0.0, 1.0, true,
                        "SGD only: the step size is multiplied by this after every epoch (1 keeps it fixed)."),
             &PmfOptions::decay)
        .add(realOption("lambda", 0.0, 100000, false,
                        "How strongly the factors are pulled towards zero; larger values guard against over-fitting."),
             &PmfOptions::lambda)
        .add(realOption("lambda_bias", 0.0, 100000, false,
                        "How strongly the user and item biases are pulled towards zero."),
             &PmfOptions::lambdaBias)
        .add(choiceOption(
                 "regularization", {"prior", "per-rating"},
                 "prior: the same penalty for every user and item (a Gaussian prior); per-rating: a penalty for "
                 "every rating, so users with many ratings are pulled harder (Funk's SGD, scikit-surprise)."),
             &PmfOptions::regularization)
        .add(realOption(
                 "init_scale", 0.0, 10.0, true,
                 "Standard deviation of the random starting factors (above 0: factors that start at zero stay there)."),
             &PmfOptions::initScale)
        .add(integerOption(
                 "blocks", 0, 4096,
                 "SGD only: split the rating matrix into B x B blocks updated in parallel; 0 picks 1 on one "
                 "thread and 2 x threads otherwise. The result depends on the seed and B, so it is the same on "
                 "every run with the same seed, B and threads."),
             &PmfOptions::blocks)
        .add(integerOption("snapshot_every", 0, 100000,
                           "Save the factors and biases to the project every N passes; 0 saves only at the end."),
             &PmfOptions::snapshotEvery)
        .add(
            booleanOption("implicit",
                          "ALS only: also learn from which items each user rated, not only how (SVD++): a user's "
                          "factors gain a share of a second factor vector of every item they rated. Clearly better on "
                          "sparse real ratings such as InstEval; with it off, k 30 and lambda 16 suit ALS best there."),
            &PmfOptions::implicit);
    return t;
  }();
  return table;
}

ModelDefinition pmfModel() { return defineModel<PmfModel>(); }

pmf::Regularization PmfOptions::penalties() const {
  pmf::Regularization r;
  r.factors = lambda;
  r.biases = lambdaBias;
  r.penalty = regularization == "per-rating" ? pmf::Penalty::PerRating : pmf::Penalty::Prior;
  return r;
}

int PmfOptions::blocksFor(int threads) const {
  if (blocks > 0) return static_cast<int>(blocks);
  return threads <= 1 ? 1 : 2 * threads;
}

}  // namespace latent::core
