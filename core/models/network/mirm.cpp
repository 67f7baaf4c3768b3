// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-relational IRM fitting: seeded restarts, the kept chain the fit driver runs, and the results.
#include "core/models/network/mirm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "core/models/fit_driver.hpp"
#include "core/models/network/block_model_support.hpp"
#include "core/models/network/irm_partitions.hpp"
#include "core/models/network/mirm_input.hpp"
#include "core/models/network/mirm_sampler.hpp"
#include "core/results/block_results.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

using network::MirmSampler;

constexpr std::uint64_t kMirmRestartStream = 0x4D49524D'5354ULL;  // "MIRMST"
constexpr std::uint64_t kMirmChainStream = 0x4D49524D'4348ULL;    // "MIRMCH"
// Sweeps each restart runs before the restarts are compared, and the blocks of a random start: as
// the irm (irm.cpp), starting with more blocks than needed and merging.
constexpr std::int64_t kMirmRestartSweeps = 20;
constexpr int kMirmRandomStartBlocks = 20;
constexpr int kMirmLaunchScans = 3;
constexpr std::int64_t kMirmMaxStoredLabels = 20'000'000;
constexpr std::int64_t kMirmMaxSamples = 1000;

ModelInfo irmMultiInfo() {
  ModelInfo info;
  info.name = "irm-multi";
  info.kind = DataKind::Graph;
  info.family = ResultFamily::Blocks;
  info.title = "Multi-relational IRM (collapsed Gibbs, CRP)";
  info.description =
      "Groups nodes into blocks from several relations at once (such as liking, esteem and praise among the same "
      "people), finding how many blocks the data support; chosen node attributes are clustered alongside, as "
      "features the blocks share.";
  info.objectiveName =
      "log joint of the node partition, the feature partition and the training pairs of every relation and of the "
      "feature matrix: log CRP priors + log Beta-Bernoulli marginal likelihoods with the densities integrated out "
      "(000 eq. 27.82 summed over relations), total nats";
  info.options = IrmMultiOptions::table().specs();
  return info;
}

std::vector<NamedMatrix> mirmStateMatrices(const MirmSampler& sampler) {
  return {{kMemberships, network::oneHot(sampler.labels())}, {kBlockMatrix, sampler.blockMatrix(0)}};
}

void addMirmExtras(const MirmSampler& sampler, std::vector<std::pair<std::string, double>>& extras) {
  extras.emplace_back("blocks", sampler.blockCount());
  extras.emplace_back("feature_blocks", sampler.featureBlockCount());
}

// Relation r's K x K block matrix relabelled; all relations stacked, relation r in rows rK..rK+K-1.
Eigen::MatrixXd mirmStackedBlockMatrices(const MirmSampler& sampler, std::size_t relations,
                                         const std::vector<int>& relabel) {
  const int k = sampler.blockCount();
  Eigen::MatrixXd stacked(static_cast<Eigen::Index>(relations) * k, k);
  for (std::size_t r = 0; r < relations; ++r) {
    const Eigen::MatrixXd B =
        relabel.empty() ? sampler.blockMatrix(r) : network::relabelBlockMatrix(sampler.blockMatrix(r), relabel);
    stacked.middleRows(static_cast<Eigen::Index>(r) * k, k) = B;
  }
  return stacked;
}

class IrmMultiChain final : public FitChain {
 public:
  IrmMultiChain(const Graph& graph, const DyadSplit& split, const network::MirmInput& input,
                std::unique_ptr<MirmSampler> sampler, const IrmMultiOptions& options, std::uint64_t seed,
                std::stop_token stop)
      : m_graph(graph),
        m_split(split),
        m_input(input),
        m_sampler(std::move(sampler)),
        m_rng(seed, kMirmChainStream),
        m_stop(std::move(stop)),
        m_proposals(static_cast<int>(options.splitMerge)),
        m_burnIn(options.iterations / 2) {
    const std::int32_t nodes = input.data.nodes;
    const std::int64_t maxSamples =
        std::max<std::int64_t>(1, std::min(kMirmMaxSamples, kMirmMaxStoredLabels / std::max<std::int32_t>(1, nodes)));
    m_thin = std::max<std::int64_t>(1, (options.iterations - m_burnIn + maxSamples - 1) / maxSamples);
    m_bestLabels = m_sampler->labels();
    m_bestFeatureLabels = m_sampler->featureLabels();
    m_bestLogJoint = m_sampler->logJoint();
    m_logJoint = m_bestLogJoint;
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    MirmSampler& sampler = *m_sampler;
    if (!sampler.gibbsSweep(m_rng, m_stop)) return false;
    const auto moves = sampler.splitMerge(m_rng, m_proposals, kMirmLaunchScans, m_stop);
    m_tally.proposed += moves.proposed;
    m_tally.accepted += moves.accepted;
    m_logJoint = sampler.logJoint();
    if (m_logJoint > m_bestLogJoint) {
      m_bestLogJoint = m_logJoint;
      m_bestLabels = sampler.labels();
      m_bestFeatureLabels = sampler.featureLabels();
    }
    const std::int64_t sweep = plan.iteration;
    if (sweep > m_burnIn && (sweep - m_burnIn - 1) % m_thin == 0) m_samples.push_back(sampler.labels());
    report.trainObjective = m_logJoint;
    addMirmExtras(sampler, report.extras);
    report.extras.emplace_back("split_merge_accepted", static_cast<double>(moves.accepted));
    if (plan.evaluate) report.heldout = network::heldoutLinkPerplexity(m_split, mirmStateMatrices(sampler));
    return true;
  }

  // The current partition, its blocks numbered as in the previous snapshot where they match.
  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    const MirmSampler& sampler = *m_sampler;
    const auto current = sampler.labels();
    const std::vector<std::uint8_t> oneType(current.size(), 0);
    const auto stable = network::stableLabels(m_previousSnapshot, current, oneType);
    std::vector<int> relabel(static_cast<std::size_t>(network::labelCount(current)), 0);
    for (std::size_t v = 0; v < current.size(); ++v) relabel[static_cast<std::size_t>(current[v])] = stable[v];
    std::vector<NamedMatrix> matrices;
    matrices.push_back({kMemberships, network::oneHot(stable)});
    matrices.push_back({kBlockMatrix, network::relabelBlockMatrix(sampler.blockMatrix(0), relabel)});
    matrices.push_back(
        {kRelationBlockMatrices, mirmStackedBlockMatrices(sampler, m_input.data.relations.size(), relabel)});
    m_previousSnapshot = stable;
    return matrices;
  }

  // The results over the reference partition (the best state seen); also for a stopped run.
  void finish(FitResult& result) override {
    MirmSampler& state = *m_sampler;
    state.assign(m_bestLabels, m_bestFeatureLabels);
    const auto canonical = state.labels();
    const Eigen::MatrixXd memberships = network::alignedMemberships(canonical, m_samples);
    const auto blocks = network::modalBlocks(memberships);
    result.matrices.push_back({kMemberships, memberships});
    Eigen::MatrixXd blockColumn(static_cast<Eigen::Index>(blocks.size()), 1);
    for (std::size_t v = 0; v < blocks.size(); ++v) blockColumn(static_cast<Eigen::Index>(v), 0) = blocks[v];
    result.matrices.push_back({kBlocks, blockColumn});
    result.matrices.push_back({kBlockMatrix, state.blockMatrix(0)});
    result.matrices.push_back({kNodeOrder, network::nodeOrderByBlock(memberships, blocks)});
    const std::size_t relations = m_input.data.relations.size();
    result.matrices.push_back({kRelationBlockMatrices, mirmStackedBlockMatrices(state, relations, {})});
    auto& metrics = result.finalMetrics;
    metrics["relations"] = m_input.relationNames;
    if (m_input.data.features > 0) {
      const auto featureLabels = state.featureLabels();
      Eigen::MatrixXd featureColumn(static_cast<Eigen::Index>(featureLabels.size()), 1);
      for (std::size_t f = 0; f < featureLabels.size(); ++f)
        featureColumn(static_cast<Eigen::Index>(f), 0) = featureLabels[f];
      result.matrices.push_back({kFeatureBlocks, featureColumn});
      result.matrices.push_back({kFeatureBlockMatrix, state.featureBlockMatrix()});
      const auto& data = m_input.data;
      Eigen::MatrixXd values(data.nodes, data.features);
      for (std::int32_t v = 0; v < data.nodes; ++v)
        for (std::int32_t f = 0; f < data.features; ++f) values(v, f) = data.feature(v, f);
      result.matrices.push_back({kNodeFeatures, values});
      metrics["features"] = m_input.featureNames;
      metrics["feature_blocks"] = state.featureBlockCount();
    }
    metrics["types"] = 1;
    metrics["blocks"] = state.blockCount();
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
  const network::MirmInput& m_input;
  std::unique_ptr<MirmSampler> m_sampler;
  Rng m_rng;
  std::stop_token m_stop;
  int m_proposals;
  std::int64_t m_burnIn;
  std::int64_t m_thin = 1;
  std::vector<int> m_bestLabels, m_bestFeatureLabels;
  double m_bestLogJoint = 0.0;
  double m_logJoint = 0.0;
  std::vector<std::vector<int>> m_samples;
  std::vector<int> m_previousSnapshot;
  network::SplitMergeTally m_tally;
};

class IrmMultiModel final : public DescribedModel<&irmMultiInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = IrmMultiOptions::table().parse(settings.options, info().name);
    const Graph& graph = *data.graph;
    const DyadSplit& split = *data.dyads;
    const auto input = network::buildMirmInput(graph, split, options.relations, options.features);
    const network::MirmPriors priors{options.concentration, options.featureConcentration, options.a, options.b};
    const int proposals = static_cast<int>(options.splitMerge);
    if (stop.stop_requested()) {
      FitResult result;
      result.status = FitStatus::Cancelled;
      result.seconds = clock.seconds();
      return result;
    }

    // Restarts as the irm's: restart 1 from one block (and one feature cluster), the others from
    // random partitions, each on its own seeded stream; reported once all have run, from this thread.
    const auto restarts = static_cast<std::size_t>(options.restarts);
    std::vector<std::unique_ptr<MirmSampler>> chains(restarts);
    std::vector<double> restartLogJoint(restarts, -std::numeric_limits<double>::infinity());
    std::vector<std::int64_t> sweepsRun(restarts, 0);
    const std::int64_t restartSweeps = restarts > 1 ? std::min(kMirmRestartSweeps, options.iterations) : 0;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, restarts, 1), [&](const auto& range) {
      for (std::size_t r = range.begin(); r != range.end(); ++r) {
        auto chain = std::make_unique<MirmSampler>(input.data, priors);
        Rng rng(settings.seed, kMirmRestartStream + r);
        if (r == 1)
          chain->assignRandom(rng, 1, 1);
        else
          chain->assignRandom(rng, kMirmRandomStartBlocks, kMirmRandomStartBlocks);
        for (std::int64_t s = 0; s < restartSweeps; ++s) {
          if (!chain->gibbsSweep(rng, stop)) break;
          chain->splitMerge(rng, proposals, kMirmLaunchScans, stop);
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
        addMirmExtras(*chains[r], report.extras);
        cancelled = !starts.swept(start, sweepsRun[r], restartSweeps, std::move(report), true);
      }
      starts.scored(start, logJoint);
    }
    const auto kept = static_cast<std::size_t>(starts.best() - 1);

    IrmMultiChain chain(graph, split, input, std::move(chains[kept]), options, settings.seed, stop);
    chains.clear();
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    auto result = driveChain(chain, schedule, settings, observer, stop, clock, cancelled);
    result.finalMetrics["restart_log_joints"] = starts.scores();
    result.finalMetrics["restart_kept"] = kept;
    return result;
  }
};

}  // namespace

const OptionTable<IrmMultiOptions>& IrmMultiOptions::table() {
  static const auto table = [] {
    auto sweeps = network::sweepsOption();
    sweeps.help += " The second half gives each node's probability of belonging to each block.";
    OptionTable<IrmMultiOptions> t;
    t.add(sweeps, &IrmMultiOptions::iterations)
        .add(realOption("concentration", 0.0, 1e6, true,
                        "How readily a new block of nodes opens (Chinese restaurant process): larger values favour "
                        "more, smaller blocks."),
             &IrmMultiOptions::concentration)
        .add(realOption("feature_concentration", 0.0, 1e6, true,
                        "How readily a new cluster of features opens (Chinese restaurant process)."),
             &IrmMultiOptions::featureConcentration)
        .add(realOption("density_a", 0.0, 1e6, true,
                        "Beta(a, b) prior on each block pair's density in every relation and in the features: a "
                        "acts as a number of links seen in advance."),
             &IrmMultiOptions::a)
        .add(realOption("density_b", 0.0, 1e6, true,
                        "Beta(a, b) prior on each block pair's density: b acts as a number of non-links seen in "
                        "advance."),
             &IrmMultiOptions::b)
        .add(textOption("relations",
                        "Relations of the graph to fit together, as a comma list of their names, or all. The "
                        "graph's first relation is always fitted: the held-out pairs are of it."),
             &IrmMultiOptions::relations)
        .add(textOption("features",
                        "Node attributes to cluster alongside the nodes, as a comma list (a 0/1 attribute is one "
                        "feature, any other one feature per value); empty = none. The attribute the blocks are "
                        "scored against (such as group) cannot be one."),
             &IrmMultiOptions::features)
        .add(restartsOption("Independent starts, each run for a few sweeps; the one with the highest posterior "
                            "continues."),
             &IrmMultiOptions::restarts)
        .add(integerOption("split_merge", 0, 1000,
                           "Split-merge moves of the node blocks per sweep; 0 uses single-node moves only."),
             &IrmMultiOptions::splitMerge)
        .add(network::snapshotEveryOption(), &IrmMultiOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition irmMultiModel() { return defineModel<IrmMultiModel>(); }

}  // namespace latent::core
