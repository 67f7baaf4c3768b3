// SPDX-License-Identifier: GPL-3.0-or-later
// IRM fitting: seeded restarts, the kept chain with its reports and snapshots, and the results.
#include "models/network/irm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/network/block_model_support.hpp"
#include "models/network/irm_partitions.hpp"
#include "models/network/irm_sampler.hpp"
#include "util/clock.hpp"

namespace latent::core {
namespace {

using network::IrmSampler;

constexpr std::uint64_t kRestartStream = 0x49524D'5354415254ULL;  // "IRMSTART"
constexpr std::uint64_t kChainStream = 0x49524D'434841494EULL;    // "IRMCHAIN"
// Sweeps each restart runs before the restarts are compared (split-merge moves settle the number of
// blocks within a few on the graphs we tried).
constexpr std::int64_t kRestartSweeps = 20;
// Blocks per type of a random start. Starting with more blocks than needed and merging is what
// finds structure that a start from one block misses: a directed cycle of 6 blocks, split from one
// block, stops at 2 blocks of 3 (no single split helps), while a 20-block random start finds all 6.
constexpr int kRandomStartBlocks = 20;
// Restricted Gibbs scans that launch each split-merge proposal (Jain & Neal 2004 use a few).
constexpr int kLaunchScans = 3;
// Stored posterior partitions: at most this many node labels in all (memory), and 1000 partitions.
constexpr std::int64_t kMaxStoredLabels = 20'000'000;
constexpr std::int64_t kMaxSamples = 1000;

ModelInfo makeInfo() {
  ModelInfo info;
  info.name = "irm";
  info.kind = DataKind::Graph;
  info.title = "Infinite relational model (collapsed Gibbs, CRP)";
  info.description =
      "Groups nodes into blocks that link to the rest of the graph in the same way, and finds how many blocks "
      "the data support instead of being told. A two-mode network (such as women and the events they attended) "
      "is co-clustered: each side gets its own blocks.";
  info.objectiveName =
      "log joint of the partition and the training pairs, log p(links, blocks) = log CRP prior + log Beta-Bernoulli "
      "marginal likelihood with the densities integrated out (000 eq. 27.82): the log posterior of the partition up "
      "to a constant, total nats";
  info.heldoutName = network::kHeldoutLinkName;
  info.heldoutKey = network::kHeldoutLinkKey;
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

class IrmModel final : public DescribedModel<&makeInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = IrmOptions::table().parse(settings.options, info().name);
    FitResult result;
    result.status = FitStatus::Cancelled;
    const Graph& graph = *data.graph;
    auto types = network::detectIrmTypes(graph, options.types);
    const auto split = splitDyads(graph, settings.heldoutFraction, settings.seed);
    const auto relation = network::buildIrmRelation(split.train, split.heldout, std::move(types));
    const network::IrmPriors priors{options.concentration, options.a, options.b};
    const auto tables = std::make_shared<const network::IrmLogGammaTables>(priors, relation.nodes);
    const int proposals = static_cast<int>(options.splitMerge);
    if (stop.stop_requested()) {
      result.seconds = clock.seconds();
      return result;
    }

    // Restarts: restart 1 starts with one block per type, the others (a single start too) from
    // random partitions into kRandomStartBlocks blocks per type. Each runs its own seeded stream,
    // so the thread count does not change the outcome.
    const auto restarts = static_cast<std::size_t>(options.restarts);
    std::vector<std::unique_ptr<IrmSampler>> chains(restarts);
    std::vector<double> restartLogJoint(restarts, -std::numeric_limits<double>::infinity());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, restarts, 1), [&](const auto& range) {
      for (std::size_t r = range.begin(); r != range.end(); ++r) {
        auto chain = std::make_unique<IrmSampler>(relation, priors, tables);
        Rng rng(settings.seed, kRestartStream + r);
        if (r == 1)
          chain->assignOneBlockPerType();
        else
          chain->assignRandom(rng, kRandomStartBlocks);
        for (std::int64_t s = 0; restarts > 1 && s < std::min(kRestartSweeps, options.iterations); ++s) {
          if (!chain->gibbsSweep(rng, stop)) break;
          chain->splitMerge(rng, proposals, kLaunchScans, stop);
        }
        restartLogJoint[r] = chain->logJoint();
        chains[r] = std::move(chain);
      }
    });
    const auto bestRestart = static_cast<std::size_t>(std::max_element(restartLogJoint.begin(), restartLogJoint.end()) -
                                                      restartLogJoint.begin());
    for (std::size_t r = 0; r < restarts; ++r)
      if (r != bestRestart) chains[r].reset();
    IrmSampler& sampler = *chains[bestRestart];
    result.finalMetrics["restart_log_joints"] = restartLogJoint;
    result.finalMetrics["restart_kept"] = bestRestart;

    // The kept chain. The best state seen is the reference partition of the results; the second
    // half of the sweeps gives each node's posterior block probabilities.
    Rng rng(settings.seed, kChainStream);
    const std::int64_t burnIn = options.iterations / 2;
    const std::int64_t maxSamples =
        std::max<std::int64_t>(1, std::min(kMaxSamples, kMaxStoredLabels / std::max<std::int32_t>(1, relation.nodes)));
    const std::int64_t thin = std::max<std::int64_t>(1, (options.iterations - burnIn + maxSamples - 1) / maxSamples);
    std::vector<int> bestLabels = sampler.labels();
    double bestLogJoint = sampler.logJoint();
    std::vector<std::vector<int>> samples;
    std::vector<int> previousSnapshot;
    network::SplitMergeTally tally;
    bool cancelled = stop.stop_requested();
    double logJoint = bestLogJoint;
    for (std::int64_t sweep = 1; sweep <= options.iterations && !cancelled; ++sweep) {
      if (!sampler.gibbsSweep(rng, stop)) {
        cancelled = true;
        break;
      }
      const auto moves = sampler.splitMerge(rng, proposals, kLaunchScans, stop);
      tally.proposed += moves.proposed;
      tally.accepted += moves.accepted;
      result.iterations = sweep;
      logJoint = sampler.logJoint();
      if (logJoint > bestLogJoint) {
        bestLogJoint = logJoint;
        bestLabels = sampler.labels();
      }
      if (sweep > burnIn && (sweep - burnIn - 1) % thin == 0) samples.push_back(sampler.labels());

      IterationReport report;
      report.iteration = sweep;
      report.trainObjective = logJoint;
      addBlockExtras(sampler, report.extras);
      report.extras.emplace_back("split_merge_accepted", static_cast<double>(moves.accepted));
      if (evaluationDue(sweep, options.iterations, settings.evalEvery))
        report.heldout = network::heldoutLinkPerplexity(split, stateMatrices(sampler));
      if (options.snapshotEvery > 0 && sweep % options.snapshotEvery == 0) {
        observer.onSnapshot(snapshotOf(sampler, sweep, previousSnapshot));
      }
      report.seconds = clock.seconds();
      if (!observer.onReport(report) || stop.stop_requested()) cancelled = true;
    }
    result.status = cancelled ? FitStatus::Cancelled : FitStatus::MaxIterations;

    finish(graph, split, sampler, bestLabels, samples, result);
    result.finalMetrics["train_objective"] = logJoint;
    result.finalMetrics["best_log_joint"] = bestLogJoint;
    result.finalMetrics["posterior_samples"] = static_cast<std::int64_t>(samples.size());
    if (tally.proposed > 0)
      result.finalMetrics["split_merge_acceptance"] =
          static_cast<double>(tally.accepted) / static_cast<double>(tally.proposed);
    result.seconds = clock.seconds();
    return result;
  }

 private:
  // The current partition, its blocks numbered as in the previous snapshot where they match.
  static std::shared_ptr<ModelSnapshot> snapshotOf(const IrmSampler& sampler, std::int64_t sweep,
                                                   std::vector<int>& previous) {
    const auto current = sampler.labels();
    const auto stable = network::stableLabels(previous, current, sampler.relation().types.nodeType);
    std::vector<int> relabel(static_cast<std::size_t>(network::labelCount(current)), 0);
    for (std::size_t v = 0; v < current.size(); ++v) relabel[static_cast<std::size_t>(current[v])] = stable[v];
    auto snapshot = std::make_shared<ModelSnapshot>();
    snapshot->iteration = sweep;
    snapshot->matrices.push_back({kMemberships, network::oneHot(stable)});
    snapshot->matrices.push_back({kBlockMatrix, network::relabelBlockMatrix(sampler.blockMatrix(), relabel)});
    previous = stable;
    return snapshot;
  }

  // The results over the reference partition, which `state` (the kept chain) is set to.
  static void finish(const Graph& graph, const DyadSplit& split, IrmSampler& state, const std::vector<int>& reference,
                     const std::vector<std::vector<int>>& samples, FitResult& result) {
    const auto& relation = state.relation();
    state.assign(reference);
    const auto canonical = state.labels();  // the reference is canonical already; kept for safety
    const Eigen::MatrixXd memberships = network::alignedMemberships(canonical, samples);
    const auto blocks = network::modalBlocks(memberships);
    result.matrices.push_back({kMemberships, memberships});
    Eigen::MatrixXd blockColumn(static_cast<Eigen::Index>(blocks.size()), 1);
    for (std::size_t v = 0; v < blocks.size(); ++v) blockColumn(static_cast<Eigen::Index>(v), 0) = blocks[v];
    result.matrices.push_back({kBlocks, blockColumn});
    result.matrices.push_back({kBlockMatrix, state.blockMatrix()});
    result.matrices.push_back({kNodeOrder, network::nodeOrderByBlock(memberships, blocks)});
    if (relation.twoTypes()) {
      Eigen::MatrixXd type(relation.nodes, 1);
      for (std::int32_t v = 0; v < relation.nodes; ++v) type(v, 0) = relation.type(v);
      result.matrices.push_back({kNodeType, type});
      result.finalMetrics["types"] = 2;
      result.finalMetrics["type_values"] = relation.types.names;
      result.finalMetrics["blocks_rows"] = state.blockCount(0);
      result.finalMetrics["blocks_columns"] = state.blockCount(1);
    } else {
      result.finalMetrics["types"] = 1;
    }
    result.finalMetrics["blocks"] = state.blockCount();
    // The number of blocks found is this model's K (the CLI's final line shows "k").
    result.finalMetrics["k"] = state.blockCount();
    network::addFinalGraphMetrics(result.finalMetrics, graph, split, result.matrices, blocks);
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
          "How readily a new block opens (Chinese restaurant process): larger values favour more, smaller blocks."), &IrmOptions::concentration)
        .add(realOption("density_a", 0.0, 1e6, true,
                 "Beta(a, b) prior on each block pair's link density: a acts as a number of links seen in advance."), &IrmOptions::a)
        .add(realOption("density_b", 0.0, 1e6, true,
          "Beta(a, b) prior on each block pair's link density: b acts as a number of non-links seen in advance."), &IrmOptions::b)
        .add(choiceOption("types", {"auto", "one", "two"},
          "two: co-cluster a two-mode network whose node attribute 'type' has two values (each side gets its own "
          "blocks); one: one kind of node; auto: two when every link joins nodes of different types."), &IrmOptions::types)
        .add(restartsOption("Independent starts, each run for a few sweeps; the one with the highest posterior continues. More "
          "starts make a chain stuck with two true blocks merged less likely."), &IrmOptions::restarts)
        .add(integerOption("split_merge", 0, 1000,
                    "Split-merge moves per sweep: proposals to split a block in two or merge two, which single-node "
                    "moves rarely achieve; 0 uses single-node moves only."), &IrmOptions::splitMerge)
        .add(network::snapshotEveryOption(), &IrmOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition irmModel() { return defineModel<IrmModel>(); }

}  // namespace latent::core
