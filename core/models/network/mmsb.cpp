// SPDX-License-Identifier: GPL-3.0-or-later
// MMSB: options, restarts, the continuing Gibbs chain with aligned snapshots (run by the fit
// driver), and the results.
// References: 000 §27.5.2 (eq. 27.77-27.79), 001 (collapsed Gibbs for MMSB, eq. 1-5; held-out link
// perplexity eq. 8; subsampling non-edges), Airoldi et al. (2008).
// The figures quoted in comments here and in mmsb_sampler.* come from development runs with a
// uniform Beta(1, 1) prior on B unless they say otherwise; mmsb.hpp says why the default is now
// Beta(0.5, 0.5).
#include "core/models/network/mmsb.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>
#include <utility>

#include "core/models/fit_driver.hpp"
#include "core/models/network/block_model_support.hpp"
#include "core/models/network/mmsb_sampler.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

using network::MmsbChain;
using network::NonEdgeMode;

ModelInfo mmsbInfo() {
  ModelInfo info;
  info.name = "mmsb";
  info.kind = DataKind::Graph;
  info.family = ResultFamily::Blocks;
  info.title = "Mixed membership stochastic block model (collapsed Gibbs)";
  info.description =
      "Each node has its own mixture of K blocks and, for every pair of nodes, each side picks a block from its "
      "mixture; the two blocks decide how likely the link is. A node that sits between groups gets a mixed "
      "membership instead of being forced into one block.";
  info.objectiveName =
      "training log-likelihood per node pair: log P(E_train | posterior-mean theta, B) over the training pairs, "
      "divided by their number (with sampled non-edges their part is estimated from the sweep's sample)";

  info.options = MmsbOptions::table().specs();
  return info;
}

// Posterior means as the run reports them: memberships and block matrix (+ link scale).
std::vector<NamedMatrix> blockMatrices(const Eigen::MatrixXd& theta, const Eigen::MatrixXd& B, double rho) {
  std::vector<NamedMatrix> out{{kMemberships, theta}, {kBlockMatrix, B}};
  // LinkPredictor: P(link) = scale * theta_i' B theta_j. In the robust model (000 eq. 27.79) a one
  // comes only from the block part, P(R = 1 | p, q) = (1 - rho) B_pq, so scale = 1 - rho.
  if (rho > 0.0) out.push_back({kLinkScale, Eigen::MatrixXd::Constant(1, 1, 1.0 - rho)});
  return out;
}

// Posterior means given Z (001 after eq. 4 and 5) averaged over sweeps: many samples of Z instead
// of one. Each sample's labels are matched to the average so far before it is added: a chain that
// swaps two blocks' labels midway would otherwise average them into a blur. The matching costs
// N K^2 + K^3 per sweep, so it is left out when that is large (many nodes and hundreds of
// blocks), where a whole-block label swap within one chain is also the least likely.
constexpr double kMaxAlignmentWork = 5e7;

bool alignmentAffordable(double nodes, double blocks) {
  return (nodes + blocks) * blocks * blocks <= kMaxAlignmentWork;
}

class PosteriorAverage {
 public:
  void add(const network::MmsbCounts& counts) {
    Eigen::MatrixXd theta = counts.memberships(), B = counts.blockMatrix();
    const bool align = alignmentAffordable(static_cast<double>(counts.nodes()), counts.blocks());
    if (m_samples == 0) {
      m_theta = std::move(theta);
      m_blocks = std::move(B);
    } else if (!align) {
      m_theta += theta;
      m_blocks += B;
    } else {
      const auto relabel = network::alignBlocks(m_theta, theta);
      m_theta += network::relabelColumns(theta, relabel);
      m_blocks += network::relabelBlockMatrix(B, relabel);
    }
    ++m_samples;
  }
  std::int64_t samples() const noexcept { return m_samples; }
  // The average, or the chain's current posterior means when nothing was added yet.
  std::pair<Eigen::MatrixXd, Eigen::MatrixXd> estimates(const network::MmsbCounts& counts) const {
    if (m_samples == 0) return {counts.memberships(), counts.blockMatrix()};
    return {m_theta / static_cast<double>(m_samples), m_blocks / static_cast<double>(m_samples)};
  }

 private:
  Eigen::MatrixXd m_theta, m_blocks;  // sums
  std::int64_t m_samples = 0;
};

// What the restart phase hands on: the chain that continues and how the starts fared.
struct RestartPhase {
  std::unique_ptr<MmsbChain> chain;
  std::int64_t best = 0;       // index of the chain that continues (0-based, as best_restart)
  std::vector<double> scores;  // training log-likelihood per pair of each start (NaN if unscored)
  bool cancelled = false;
};

// Restarts: independent chains (one random stream each) sweep in lockstep, in parallel; after
// mmsbRestartSweeps() sweeps, the one whose posterior means, averaged over its last fifth, fit the
// training pairs best (log P(E_train | theta, B) per pair) continues. Ties go to the lower index
// (StartPhase::scored, fed in index order), so the winner does not depend on the thread count.
// The last fifth rather than the last half: a chain that finds the blocks late in its start is not
// scored on the sweeps before (on generated 1000-node SBMs, 4 blocks, sampled non-edges, the last
// half let a run keep two blocks merged in 1 of 8 graphs, the last fifth in none).
// Why not the log joint (001 eq. 1): one state's log joint swings by tens of nats from sweep to
// sweep (+-70 within one chain on Sampson's monks), more than separates a good start from a poor
// one. Even averaged it chose less well: on Sampson's monks the best of 8 chains by mean log joint
// split the factions right in 9 of 10 trials (200 sweeps; 5 of 10 after 50 sweeps from
// independent indicators), by the fit in 10 of 10 (both).
// Why lockstep (a parallel step per sweep) rather than each chain to the end on its own: the
// phase then reports once per sweep from the calling thread, like the main loop (observers are
// not thread-safe, and RunRecorder writes to its thread's SQLite connection), and a stop from the
// observer is honoured within a sweep; at 100k nodes the phase takes minutes. The reports are
// the same for any thread count. The cost: every chain is held in memory at once, as a machine
// with as many cores as restarts already did.
// The reports: the Restarts phase, sweeps 1..S of every start at once (start 0; the chain's own
// sweeps keep their numbers 1..iterations, so --iterations N still ends at iteration N), no
// training objective until the last (the per-pair fit of the chosen start, the main loop's
// objective), the extra best_log_joint (the highest log joint over the chains, 001 eq. 1: cheap,
// unlike the fit). They are not part of the stored series; the progress row shows them.
RestartPhase runRestarts(const DyadSplit& split, const network::MmsbChainSettings& settings, std::int64_t restarts,
                         double scale, std::int64_t restartSweeps, StartPhase& starts, const std::stop_token& stop) {
  RestartPhase out;
  const auto count = static_cast<std::size_t>(restarts);
  out.scores.assign(count, std::numeric_limits<double>::quiet_NaN());
  std::vector<std::unique_ptr<MmsbChain>> chains(count);
  tbb::parallel_for(std::size_t(0), count, [&](std::size_t r) {
    auto s = settings;
    s.stream = static_cast<std::uint64_t>(r);
    // Starts alternate between a hard partition and a half-sharp one; each finds the blocks
    // where the other tends to stick (mmsb_sampler.hpp, startSharpness).
    s.startSharpness = r % 2 == 0 ? 1.0 : 0.5;
    chains[r] = std::make_unique<MmsbChain>(split.train, split, s, stop);  // cut short when stopped
  });
  std::vector<PosteriorAverage> averages(count);
  std::vector<double> logJoints(count, -std::numeric_limits<double>::infinity());
  bool cancelled = stop.stop_requested();
  std::int64_t swept = 0;
  for (std::int64_t t = 1; !cancelled && t <= restartSweeps; ++t) {
    std::atomic<bool> interrupted{false};
    tbb::parallel_for(std::size_t(0), count, [&](std::size_t r) {
      if (!chains[r]->sweep(stop)) {
        interrupted = true;
        return;
      }
      if (5 * t > 4 * restartSweeps) averages[r].add(chains[r]->counts());  // the last fifth
      logJoints[r] = chains[r]->counts().logJoint();
    });
    if (interrupted || stop.stop_requested()) break;
    swept = t;
    IterationReport report;
    report.extras.emplace_back("best_log_joint", *std::max_element(logJoints.begin(), logJoints.end()));
    if (t == restartSweeps) {
      // The scores take a pass over every unit each, so only now.
      tbb::parallel_for(std::size_t(0), count, [&](std::size_t r) {
        const auto [theta, B] = averages[r].estimates(chains[r]->counts());
        out.scores[r] = chains[r]->trainingLogLikelihood(theta, B, scale) / chains[r]->trainingDyads();
      });
      for (std::size_t r = 0; r < count; ++r) starts.scored(static_cast<std::int64_t>(r) + 1, out.scores[r]);
      out.best = starts.best() - 1;
      report.trainObjective = out.scores[static_cast<std::size_t>(out.best)];
      report.extras.emplace_back("best_restart", static_cast<double>(out.best));
    }
    cancelled = !starts.swept(0, t, restartSweeps, std::move(report), true);
  }
  out.cancelled = cancelled || swept < restartSweeps;
  // Stopped before the scores: the chain with the highest log joint so far, a cheap stand-in
  // (chain 0, the chain a single start would be, when none has swept).
  if (out.cancelled && swept < restartSweeps)
    out.best = std::max_element(logJoints.begin(), logJoints.end()) - logJoints.begin();
  out.chain = std::move(chains[static_cast<std::size_t>(out.best)]);
  return out;
}

// The chain that continues from the best start. The memberships and block matrix it returns are
// the posterior means averaged over the last three quarters of its sweeps (the start already had
// its burn-in). Averaged over the last half only, the estimate of a monk who sits between groups
// jumped more from run to run: on Sampson's monks (seeds 1-800) 19 runs missed the evidence
// test's conditions, against 5.
class ContinuingChain final : public FitChain {
 public:
  ContinuingChain(const Graph& graph, const DyadSplit& split, const MmsbOptions& options, RestartPhase restarts,
                  std::int64_t restartSweeps, std::stop_token stop)
      : m_graph(graph),
        m_split(split),
        m_options(options),
        m_restarts(std::move(restarts)),
        m_chain(*m_restarts.chain),
        m_restartSweeps(restartSweeps),
        m_stop(std::move(stop)),
        m_scale(1.0 - options.rho),
        m_trainingDyads(m_chain.trainingDyads()),
        m_averageFrom(options.iterations / 4 + 1),
        m_alignSnapshots(alignmentAffordable(static_cast<double>(graph.nodeCount()), options.blocks)) {}

  // A report every sweep (the training objective of the estimates the run would return if it
  // stopped here), the held-out score when due.
  bool step(const StepPlan& plan, IterationReport& report) override {
    const Stopwatch sweepClock;
    const bool complete = m_chain.sweep(m_stop);
    m_samplingSeconds += sweepClock.seconds();
    if (!complete) return false;
    if (plan.iteration >= m_averageFrom) m_average.add(m_chain.counts());
    std::tie(m_theta, m_B) = m_average.estimates(m_chain.counts());
    m_lastTrainLogLikelihood = m_chain.trainingLogLikelihood(m_theta, m_B, m_scale);
    report.trainObjective = m_lastTrainLogLikelihood / m_trainingDyads;
    if (plan.evaluate)
      report.heldout = network::heldoutLinkPerplexity(m_split, blockMatrices(m_theta, m_B, m_options.rho));
    report.extras.emplace_back("log_joint", m_chain.counts().logJoint());
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    auto [shown, shownB] = aligned(m_theta, m_B);
    auto matrices = blockMatrices(shown, shownB, m_options.rho);
    m_shownTheta = std::move(shown);
    return matrices;
  }

  // Results, also for a stopped run: the average so far (or the last sample), in the labels of
  // the last snapshot.
  void finish(FitResult& result) override {
    const std::int64_t sweeps = result.iterations;
    auto [finalTheta, finalB] = m_average.estimates(m_chain.counts());
    std::tie(finalTheta, finalB) = aligned(finalTheta, finalB);
    const auto blocks = network::modalBlocks(finalTheta);
    result.matrices = blockMatrices(finalTheta, finalB, m_options.rho);
    Eigen::MatrixXd blockColumn(finalTheta.rows(), 1);
    for (Eigen::Index i = 0; i < finalTheta.rows(); ++i) blockColumn(i, 0) = blocks[static_cast<std::size_t>(i)];
    result.matrices.push_back({kBlocks, blockColumn});
    result.matrices.push_back({kNodeOrder, network::nodeOrderByBlock(finalTheta, blocks)});

    auto& metrics = result.finalMetrics;
    if (sweeps > 0 && !std::isfinite(m_lastTrainLogLikelihood))
      m_lastTrainLogLikelihood = m_chain.trainingLogLikelihood(finalTheta, finalB, m_scale);
    if (std::isfinite(m_lastTrainLogLikelihood)) {
      metrics["train_objective"] = m_lastTrainLogLikelihood / m_trainingDyads;
      metrics["train_log_likelihood"] = m_lastTrainLogLikelihood;
    }
    metrics["log_joint"] = m_chain.counts().logJoint();
    metrics["non_edges"] = m_chain.mode() == NonEdgeMode::Exact ? "exact" : "sampled";
    if (m_chain.mode() == NonEdgeMode::Sampled) {
      metrics["non_edge_weight"] = m_chain.nonEdgeWeight();
      metrics["sampled_non_edges_per_sweep"] = m_chain.sampledNonEdgesPerSweep();
    }
    metrics["training_pairs"] = m_trainingDyads;
    metrics["training_edges"] = m_chain.trainingEdges();
    metrics["restarts"] = m_options.restarts;
    metrics["restart_sweeps"] = m_restartSweeps;
    metrics["best_restart"] = m_restarts.best;
    metrics["restart_scores"] = m_restarts.scores;  // training log-likelihood per pair of each start
    metrics["averaged_sweeps"] = m_average.samples();
    if (m_options.rho > 0.0) metrics["rho"] = m_options.rho;
    if (sweeps > 0) metrics["seconds_per_sweep"] = m_samplingSeconds / static_cast<double>(sweeps);
    if (result.status != FitStatus::Cancelled)
      network::addFinalGraphMetrics(metrics, m_graph, m_split, result.matrices, blocks);
  }

 private:
  // Snapshots are relabelled to match the previous one (Hungarian method on shared membership),
  // so a live view does not flicker when the sampler's labels wander (unless that is too costly,
  // see PosteriorAverage).
  std::pair<Eigen::MatrixXd, Eigen::MatrixXd> aligned(const Eigen::MatrixXd& theta, const Eigen::MatrixXd& B) const {
    if (!m_shownTheta || !m_alignSnapshots) return {theta, B};
    const auto relabel = network::alignBlocks(*m_shownTheta, theta);
    return {network::relabelColumns(theta, relabel), network::relabelBlockMatrix(B, relabel)};
  }

  const Graph& m_graph;
  const DyadSplit& m_split;
  const MmsbOptions& m_options;
  RestartPhase m_restarts;
  MmsbChain& m_chain;
  std::int64_t m_restartSweeps;
  std::stop_token m_stop;
  double m_scale;
  double m_trainingDyads;
  std::int64_t m_averageFrom;
  bool m_alignSnapshots;
  PosteriorAverage m_average;
  Eigen::MatrixXd m_theta, m_B;  // this sweep's estimates
  std::optional<Eigen::MatrixXd> m_shownTheta;
  double m_samplingSeconds = 0.0;
  double m_lastTrainLogLikelihood = std::numeric_limits<double>::quiet_NaN();
};

class MmsbModel final : public DescribedModel<&mmsbInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    if (!data.graph || !data.dyads) throw UsageError("mmsb fits graphs: choose a graph dataset");
    const auto options = MmsbOptions::table().parse(settings.options, info().name);
    const Graph& graph = *data.graph;
    const DyadSplit& split = *data.dyads;
    const auto dyads = network::trainingDyadCount(split.train, split);

    network::MmsbChainSettings chainSettings;
    chainSettings.hyper.blocks = static_cast<int>(options.blocks);
    chainSettings.hyper.alpha = options.alpha;
    chainSettings.hyper.linkPrior = options.densityA;
    chainSettings.hyper.nonLinkPrior = options.densityB;
    chainSettings.hyper.rho = options.rho;
    chainSettings.hyper.directed = graph.directed;
    chainSettings.nonEdgeRatio = options.nonEdgeRatio;
    chainSettings.seed = settings.seed;
    switch (options.nonEdges) {
      case MmsbOptions::NonEdges::Exact:
        if (dyads > kMmsbExactMaxDyads)
          throw UsageError("--non-edges exact would visit " + std::to_string(dyads) +
                           " node pairs per sweep, more than the " + std::to_string(kMmsbExactMaxDyads) +
                           " it allows; use --non-edges sampled (or auto) for a graph this large");
        chainSettings.mode = NonEdgeMode::Exact;
        break;
      case MmsbOptions::NonEdges::Sampled:
        chainSettings.mode = NonEdgeMode::Sampled;
        break;
      case MmsbOptions::NonEdges::Auto:
        chainSettings.mode = dyads <= kMmsbAutoExactDyads ? NonEdgeMode::Exact : NonEdgeMode::Sampled;
        break;
    }

    const std::int64_t restartSweeps = options.restarts > 1 ? mmsbRestartSweeps(options.iterations) : 0;
    StartPhase starts(FitPhase::Restarts, settings, observer, stop, clock);
    RestartPhase restarts =
        runRestarts(split, chainSettings, options.restarts, 1.0 - options.rho, restartSweeps, starts, stop);
    const bool cancelled = restarts.cancelled;
    ContinuingChain chain(graph, split, options, std::move(restarts), restartSweeps, stop);

    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock, cancelled);
  }
};

}  // namespace

const OptionTable<MmsbOptions>& MmsbOptions::table() {
  static const auto table = [] {
    OptionSpec sweeps = network::sweepsOption();
    sweeps.help =
        "Gibbs sweeps of the chain that continues from the best start: each sweep redraws the pair of blocks of every "
        "node pair once. The memberships returned are averaged over the last three quarters.";
    OptionTable<MmsbOptions> t;
    t.add(network::blocksOption(), &MmsbOptions::blocks)
        .add(sweeps, &MmsbOptions::iterations)
        .add(restartsOption(
                 "Independent random starts, each run for a few dozen sweeps; the one whose memberships fit the "
                 "links best continues. More starts make it less likely that two real groups end up merged in one "
                 "block."),
             &MmsbOptions::restarts)
        .add(realOption(
                 "alpha", 0.0, 1e6, true,
                 "How mixed a node's memberships may be: small values (0.1) favour nodes that mostly belong to one "
                 "block, 1 makes every mixture equally likely a priori."),
             &MmsbOptions::alpha)
        .add(realOption(
                 "density_a", 0.0, 1e6, true,
                 "Prior pseudo-count of links for every pair of blocks (Beta(a, b) prior on the link probability; "
                 "0.5 and 0.5 is Jeffreys' prior)."),
             &MmsbOptions::densityA)
        .add(realOption("density_b", 0.0, 1e6, true,
                        "Prior pseudo-count of non-links for every pair of blocks (Beta(a, b) prior on the link "
                        "probability)."),
             &MmsbOptions::densityB)
        .add(realOption(
                 "rho", 0.0, 0.99, false,
                 "Robust variant: the share of absent links that says nothing about the blocks (two people who "
                 "never had the chance to meet); 0 is the plain model. Predicted link probabilities are scaled by 1 "
                 "- rho."),
             &MmsbOptions::rho)
        .add(choiceOption(
                 "non_edges", {"auto", "exact", "sampled"},
                 "Which unlinked pairs each sweep uses. exact: all of them (time grows with nodes squared). sampled: "
                 "a fresh random sample, non_edge_ratio per link, each standing for the unlinked pairs not drawn, "
                 "so link probabilities keep the scale of the whole graph while a sweep takes time in proportion to "
                 "the links; memberships then rest on each node's links and its sampled non-links. auto: exact up "
                 "to a million node pairs, sampled above."),
             &MmsbOptions::nonEdges,
             {{"auto", NonEdges::Auto}, {"exact", NonEdges::Exact}, {"sampled", NonEdges::Sampled}})
        .add(realOption("non_edge_ratio", 0.0, 1e6, true,
                        "With sampled non-edges: how many unlinked pairs to draw per sweep for every link."),
             &MmsbOptions::nonEdgeRatio)
        .add(network::snapshotEveryOption(), &MmsbOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition mmsbModel() { return defineModel<MmsbModel>(); }

std::int64_t mmsbRestartSweeps(std::int64_t iterations) { return std::clamp<std::int64_t>(iterations / 5, 10, 50); }

}  // namespace latent::core
