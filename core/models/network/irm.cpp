// SPDX-License-Identifier: GPL-3.0-or-later
// IRM fitting: seeded restarts, the kept chain the fit driver runs (reports, snapshots), and the results.
#include "core/models/network/irm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/models/fit_driver.hpp"
#include "core/models/network/block_model_support.hpp"
#include "core/models/network/irm_partitions.hpp"
#include "core/models/network/irm_sampler.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

using network::IrmSampler;

constexpr std::uint64_t kIrmRestartStream = 0x49524D'5354415254ULL;  // "IRMSTART"
constexpr std::uint64_t kIrmChainStream = 0x49524D'434841494EULL;    // "IRMCHAIN"
// Sweeps each restart runs before the restarts are compared (split-merge moves settle the number of
// blocks within a few on the graphs we tried).
constexpr std::int64_t kIrmRestartSweeps = 20;
// Blocks per type of a random start. Starting with more blocks than needed and merging is what
// finds structure that a start from one block misses: a directed cycle of 6 blocks, split from one
// block, stops at 2 blocks of 3 (no single split helps), while a 20-block random start finds all 6.
constexpr int kRandomStartBlocks = 20;
// Restricted Gibbs scans that launch each split-merge proposal (Jain & Neal 2004 use a few).
constexpr int kLaunchScans = 3;
// Stored posterior partitions: at most this many node labels in all (memory), and 1000 partitions.
constexpr std::int64_t kMaxStoredLabels = 20'000'000;
constexpr std::int64_t kMaxSamples = 1000;

ModelInfo irmInfo() {
  ModelInfo info;
  info.name = "irm";
  info.kind = DataKind::Graph;
  info.family = ResultFamily::Blocks;
  info.title = "Infinite relational model (collapsed Gibbs, CRP)";
  info.description =
      "Groups nodes into blocks that link to the rest of the graph in the same way, and finds how many blocks "
      "the data support instead of being told. A two-mode network (such as women and the events they attended) "
      "is co-clustered: each side gets its own blocks.";
  info.objectiveName =
      "log joint of the partition and the training pairs, log p(links, blocks) = log CRP prior + log Beta-Bernoulli "
      "marginal likelihood with the densities integrated out (000 eq. 27.82): the log posterior of the partition up "
      "to a constant, total nats";
  info.options = IrmOptions::table().specs();
  return info;
}

// The current state as block-model matrices (one-hot memberships), for held-out scores.
std::vector<NamedMatrix> stateMatrices(const IrmSampler& sampler) {
  return {{kMemberships, network::oneHot(sampler.labels())}, {kBlockMatrix, sampler.blockMatrix()}};
}

void addBlockExtras(const IrmSampler& sampler, std::vector<std::pair<std::string, double>>& extras) {
  extras.emplace_back("blocks", sampler.blockCount());
  if (sampler.relation().twoTypes()) {
    extras.emplace_back("blocks_rows", sampler.blockCount(0));
    extras.emplace_back("blocks_columns", sampler.blockCount(1));
  }
}

// The kept chain. The best state seen is the reference partition of the results; the second
// half of the sweeps gives each node's posterior block probabilities.
class IrmChain final : public FitChain {
 public:
  IrmChain(const Graph& graph, const DyadSplit& split, std::unique_ptr<IrmSampler> sampler, const IrmOptions& options,
           std::uint64_t seed, std::stop_token stop)
      : m_graph(graph),
        m_split(split),
        m_sampler(std::move(sampler)),
        m_rng(seed, kIrmChainStream),
        m_stop(std::move(stop)),
        m_proposals(static_cast<int>(options.splitMerge)),
        m_burnIn(options.iterations / 2) {
    const std::int32_t nodes = m_sampler->relation().nodes;
    const std::int64_t maxSamples =
        std::max<std::int64_t>(1, std::min(kMaxSamples, kMaxStoredLabels / std::max<std::int32_t>(1, nodes)));
    m_thin = std::max<std::int64_t>(1, (options.iterations - m_burnIn + maxSamples - 1) / maxSamples);
    m_bestLabels = m_sampler->labels();
    m_bestLogJoint = m_sampler->logJoint();
    m_logJoint = m_bestLogJoint;
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    IrmSampler& sampler = *m_sampler;
    if (!sampler.gibbsSweep(m_rng, m_stop)) return false;
    const auto moves = sampler.splitMerge(m_rng, m_proposals, kLaunchScans, m_stop);
    m_tally.proposed += moves.proposed;
    m_tally.accepted += moves.accepted;
    m_logJoint = sampler.logJoint();
    if (m_logJoint > m_bestLogJoint) {
      m_bestLogJoint = m_logJoint;
      m_bestLabels = sampler.labels();
    }
    const std::int64_t sweep = plan.iteration;
    if (sweep > m_burnIn && (sweep - m_burnIn - 1) % m_thin == 0) m_samples.push_back(sampler.labels());

    report.trainObjective = m_logJoint;
    addBlockExtras(sampler, report.extras);
    report.extras.emplace_back("split_merge_accepted", static_cast<double>(moves.accepted));
    if (plan.evaluate) report.heldout = network::heldoutLinkPerplexity(m_split, stateMatrices(sampler));
    return true;
  }

  // The current partition, its blocks numbered as in the previous snapshot where they match.
  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    const IrmSampler& sampler = *m_sampler;
    const auto current = sampler.labels();
    const auto stable = network::stableLabels(m_previousSnapshot, current, sampler.relation().types.nodeType);
    std::vector<int> relabel(static_cast<std::size_t>(network::labelCount(current)), 0);
    for (std::size_t v = 0; v < current.size(); ++v) relabel[static_cast<std::size_t>(current[v])] = stable[v];
    std::vector<NamedMatrix> matrices;
    matrices.push_back({kMemberships, network::oneHot(stable)});
    matrices.push_back({kBlockMatrix, network::relabelBlockMatrix(sampler.blockMatrix(), relabel)});
    m_previousSnapshot = stable;
    return matrices;
  }

  // The results over the reference partition (the best state seen), which the sampler is set to;
  // also for a stopped run.
  void finish(FitResult& result) override {
    IrmSampler& state = *m_sampler;
    const auto& relation = state.relation();
    state.assign(m_bestLabels);
    const auto canonical = state.labels();  // the reference is canonical already; kept for safety
    const Eigen::MatrixXd memberships = network::alignedMemberships(canonical, m_samples);
    const auto blocks = network::modalBlocks(memberships);
    result.matrices.push_back({kMemberships, memberships});
    Eigen::MatrixXd blockColumn(static_cast<Eigen::Index>(blocks.size()), 1);
    for (std::size_t v = 0; v < blocks.size(); ++v) blockColumn(static_cast<Eigen::Index>(v), 0) = blocks[v];
    result.matrices.push_back({kBlocks, blockColumn});
    result.matrices.push_back({kBlockMatrix, state.blockMatrix()});
    result.matrices.push_back({kNodeOrder, network::nodeOrderByBlock(memberships, blocks)});
    auto& metrics = result.finalMetrics;
    if (relation.twoTypes()) {
      Eigen::MatrixXd type(relation.nodes, 1);
      for (std::int32_t v = 0; v < relation.nodes; ++v) type(v, 0) = relation.type(v);
      result.matrices.push_back({kNodeType, type});
      metrics["types"] = 2;
      metrics["type_values"] = relation.types.names;
      metrics["blocks_rows"] = state.blockCount(0);
      metrics["blocks_columns"] = state.blockCount(1);
    } else {
      metrics["types"] = 1;
    }
    metrics["blocks"] = state.blockCount();
    // The number of blocks found is this model's K (the CLI's final line shows "k").
    metrics["k"] = state.blockCount();
    network::addFinalGraphMetrics(metrics, m_graph, m_split, result.matrices, blocks);
    metrics["train_objective"] = m_logJoint;
    metrics["best_log_joint"] = m_bestLogJoint;
    metrics["posterior_samples"] = static_cast<std::int64_t>(m_samples.size());
    if (m_tally.proposed > 0)
      metrics["split_merge_acceptance"] = static_cast<double>(m_tally.accepted) / static_cast<double>(m_tally.proposed);
  }

 private:
  const Graph& m_graph;
  const DyadSplit& m_split;
  std::unique_ptr<IrmSampler> m_sampler;
  Rng m_rng;
  std::stop_token m_stop;
  int m_proposals;
  std::int64_t m_burnIn;
  std::int64_t m_thin = 1;
  std::vector<int> m_bestLabels;
  double m_bestLogJoint = 0.0;
  double m_logJoint = 0.0;
  std::vector<std::vector<int>> m_samples;
  std::vector<int> m_previousSnapshot;
  network::SplitMergeTally m_tally;
};

class IrmModel final : public DescribedModel<&irmInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = IrmOptions::table().parse(settings.options, info().name);
    const Graph& graph = *data.graph;
    auto types = network::detectIrmTypes(graph, options.types);
    const DyadSplit& split = *data.dyads;
    const auto relation = network::buildIrmRelation(split.train, split.heldout, std::move(types));
    const network::IrmPriors priors{options.concentration, options.a, options.b};
    const auto tables = std::make_shared<const network::IrmLogGammaTables>(priors, relation.nodes);
    const int proposals = static_cast<int>(options.splitMerge);
    if (stop.stop_requested()) {
      FitResult result;
      result.status = FitStatus::Cancelled;
      result.seconds = clock.seconds();
      return result;
    }

    // Restarts: restart 1 starts with one block per type, the others (a single start too) from
    // random partitions into kRandomStartBlocks blocks per type. Each runs its own seeded stream,
    // so the thread count does not change the outcome. Their progress is reported once they have
    // all run, from this thread (observers are not thread-safe), so reports cannot change them.
    const auto restarts = static_cast<std::size_t>(options.restarts);
    std::vector<std::unique_ptr<IrmSampler>> chains(restarts);
    std::vector<double> restartLogJoint(restarts, -std::numeric_limits<double>::infinity());
    std::vector<std::int64_t> sweepsRun(restarts, 0);
    const std::int64_t restartSweeps = restarts > 1 ? std::min(kIrmRestartSweeps, options.iterations) : 0;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, restarts, 1), [&](const auto& range) {
      for (std::size_t r = range.begin(); r != range.end(); ++r) {
        auto chain = std::make_unique<IrmSampler>(relation, priors, tables);
        Rng rng(settings.seed, kIrmRestartStream + r);
        if (r == 1)
          chain->assignOneBlockPerType();
        else
          chain->assignRandom(rng, kRandomStartBlocks);
        for (std::int64_t s = 0; s < restartSweeps; ++s) {
          if (!chain->gibbsSweep(rng, stop)) break;
          chain->splitMerge(rng, proposals, kLaunchScans, stop);
          sweepsRun[r] = s + 1;
        }
        restartLogJoint[r] = chain->logJoint();
        chains[r] = std::move(chain);
      }
    });
    StartPhase starts(FitPhase::Restarts, settings, observer, stop, clock);
    bool cancelled = false;
    for (std::size_t r = 0; r < restarts; ++r) {
      const auto start = static_cast<std::int64_t>(r) + 1;
      const double logJoint = restartLogJoint[r];
      if (!cancelled && restartSweeps > 0) {
        IterationReport report;
        report.trainObjective = logJoint;
        addBlockExtras(*chains[r], report.extras);
        cancelled = !starts.swept(start, sweepsRun[r], restartSweeps, std::move(report), true);
      }
      starts.scored(start, logJoint);
    }
    const auto kept = static_cast<std::size_t>(starts.best() - 1);

    IrmChain chain(graph, split, std::move(chains[kept]), options, settings.seed, stop);
    chains.clear();
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    auto result = driveChain(chain, schedule, settings, observer, stop, clock, cancelled);
    result.finalMetrics["restart_log_joints"] = starts.scores();
    result.finalMetrics["restart_kept"] = kept;
    return result;
  }
};

}  // namespace

const OptionTable<IrmOptions>& IrmOptions::table() {
  static const auto table = [] {
    auto sweeps = network::sweepsOption();
    sweeps.help += " The second half gives each node's probability of belonging to each block.";
    OptionTable<IrmOptions> t;
    t.add(sweeps, &IrmOptions::iterations)
        .add(realOption("concentration", 0.0, 1e6, true,
                        "How readily a new block opens (Chinese restaurant process): larger values favour more, "
                        "smaller blocks."),
             &IrmOptions::concentration)
        .add(realOption(
                 "density_a", 0.0, 1e6, true,
                 "Beta(a, b) prior on each block pair's link density: a acts as a number of links seen in advance."),
             &IrmOptions::a)
        .add(
            realOption(
                "density_b", 0.0, 1e6, true,
                "Beta(a, b) prior on each block pair's link density: b acts as a number of non-links seen in advance."),
            &IrmOptions::b)
        .add(
            choiceOption(
                "types", {"auto", "one", "two"},
                "two: co-cluster a two-mode network whose node attribute 'type' has two values (each side gets its own "
                "blocks); one: one kind of node; auto: two when every link joins nodes of different types."),
            &IrmOptions::types)
        .add(restartsOption(
                 "Independent starts, each run for a few sweeps; the one with the highest posterior continues. More "
                 "starts make a chain stuck with two true blocks merged less likely."),
             &IrmOptions::restarts)
        .add(integerOption(
                 "split_merge", 0, 1000,
                 "Split-merge moves per sweep: proposals to split a block in two or merge two, which single-node "
                 "moves rarely achieve; 0 uses single-node moves only."),
             &IrmOptions::splitMerge)
        .add(network::snapshotEveryOption(), &IrmOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition irmModel() { return defineModel<IrmModel>(); }

}  // namespace latent::core
