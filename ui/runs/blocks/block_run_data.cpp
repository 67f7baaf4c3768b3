// SPDX-License-Identifier: GPL-3.0-or-later
// loadBlockRun: which matrices to read (final or latest snapshot), their checks, the node order
// and block boundaries, labels, link counts between blocks, and the densities of large graphs.
#include "ui/runs/blocks/block_run_data.hpp"

#include <QObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "core/eval/link_metrics.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/run_results.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

// A stored N x 1 column of node indices or block numbers as ints; nullopt when it is not one
// (wrong shape, or a value outside 0..limit-1).
std::optional<std::vector<int>> column(const std::optional<Eigen::MatrixXd>& m, Eigen::Index rows, int limit) {
  if (!m || m->rows() != rows || m->cols() != 1) return std::nullopt;
  std::vector<int> out(static_cast<std::size_t>(rows));
  for (Eigen::Index i = 0; i < rows; ++i) {
    const double v = (*m)(i, 0);
    if (!(v >= 0 && v < limit) || v != std::floor(v)) return std::nullopt;
    out[static_cast<std::size_t>(i)] = static_cast<int>(v);
  }
  return out;
}

bool isPermutation(const std::vector<int>& order) {
  std::vector<char> seen(order.size(), 0);
  for (const int v : order) {
    if (v < 0 || static_cast<std::size_t>(v) >= order.size() || seen[static_cast<std::size_t>(v)]) return false;
    seen[static_cast<std::size_t>(v)] = 1;
  }
  return true;
}

// Observed links and possible pairs between the groups of `group` (0..groups-1 per node, -1
// for none): a directed pair counts from the row's group to the column's; an undirected pair
// once, mirrored off the diagonal.
void countLinks(const core::Graph& graph, const std::vector<int>& group, int groups, Eigen::MatrixXd& links,
                Eigen::MatrixXd& pairs) {
  links = Eigen::MatrixXd::Zero(groups, groups);
  pairs = Eigen::MatrixXd::Zero(groups, groups);
  std::vector<double> size(static_cast<std::size_t>(groups), 0.0);
  for (const int g : group)
    if (g >= 0) size[static_cast<std::size_t>(g)] += 1.0;
  for (int k = 0; k < groups; ++k)
    for (int l = 0; l < groups; ++l) {
      const double nk = size[static_cast<std::size_t>(k)], nl = size[static_cast<std::size_t>(l)];
      pairs(k, l) = k != l ? nk * nl : graph.directed ? nk * (nk - 1) : nk * (nk - 1) / 2;
    }
  const auto n = static_cast<std::int32_t>(group.size());
  for (const auto& e : graph.edges) {
    if (e.source < 0 || e.target < 0 || e.source >= n || e.target >= n) continue;
    const int k = group[static_cast<std::size_t>(e.source)], l = group[static_cast<std::size_t>(e.target)];
    if (k < 0 || l < 0) continue;
    links(k, l) += 1.0;
    if (!graph.directed && k != l) links(l, k) += 1.0;
  }
}

DensityGrid densityGrid(const Eigen::MatrixXd& links, const Eigen::MatrixXd& pairs, std::vector<std::int64_t> sizes,
                        const QStringList& names, bool directed) {
  DensityGrid grid;
  grid.values = Eigen::MatrixXd::Zero(links.rows(), links.cols());
  for (Eigen::Index r = 0; r < links.rows(); ++r)
    for (Eigen::Index c = 0; c < links.cols(); ++c)
      grid.values(r, c) = pairs(r, c) > 0 ? links(r, c) / pairs(r, c) : 0.0;
  grid.links = links;
  grid.pairs = pairs;
  grid.rowSizes = grid.columnSizes = std::move(sizes);
  grid.rowNames = grid.columnNames = names;
  grid.valueName = QObject::tr("share of pairs linked");
  grid.directed = directed;
  grid.proportional = true;
  return grid;
}

}  // namespace

QString BlockRunData::nodeName(int node) const {
  if (!graph || node < 0 || static_cast<std::size_t>(node) >= graph->nodeNames.size())
    return QStringLiteral("#%1").arg(node);
  return qs(graph->nodeNames[static_cast<std::size_t>(node)]);
}

QString BlockRunData::blockName(int block) const { return QObject::tr("Block %1").arg(block + 1); }

QString BlockRunData::sourceText() const {
  return iteration < 0 ? QObject::tr("the final result") : QObject::tr("iteration %1").arg(formatCount(iteration));
}

std::vector<int> orderByBlock(const Eigen::MatrixXd& memberships, const std::vector<int>& blocks) {
  std::vector<int> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const int ka = blocks[static_cast<std::size_t>(a)], kb = blocks[static_cast<std::size_t>(b)];
    if (ka != kb) return ka < kb;
    return memberships(a, ka) > memberships(b, kb);
  });
  return order;
}

BlockRunLoad loadBlockRun(const std::filesystem::path& projectFile, std::int64_t runId, std::int64_t iteration,
                          std::shared_ptr<const BlockRunData> previous) {
  BlockRunLoad out;
  try {
    core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
    auto data = std::make_shared<BlockRunData>();
    data->run = core::loadRun(project, runId);
    if (project.dataset(data->run.datasetId).kind != core::DataKind::Graph) return out;

    // The final matrices, else the latest snapshot that has both.
    std::int64_t at = iteration;
    if (at < 0) {
      const auto latest = core::latestResultIteration(project, runId, {core::kMemberships, core::kBlockMatrix});
      if (!latest) return out;
      at = *latest;
    }
    if (previous && previous->run.id == runId && previous->iteration == at && previous->nodeCount() > 0) {
      out.unchanged = true;
      return out;
    }
    auto memberships = core::loadMatrix(project, runId, core::kMemberships, at);
    auto blockMatrix = core::loadMatrix(project, runId, core::kBlockMatrix, at);
    if (!memberships || !blockMatrix) return out;
    data->iteration = at;
    const bool reuse = previous && previous->run.id == runId && previous->graph;
    data->graph =
        reuse ? previous->graph : std::make_shared<const core::Graph>(core::loadGraph(project, data->run.datasetId));
    const core::Graph& graph = *data->graph;
    const auto N = static_cast<Eigen::Index>(graph.nodeCount());
    if (memberships->rows() != N)
      throw std::runtime_error(
          utf8(QObject::tr("the memberships have %1 rows but the graph has %2 nodes").arg(memberships->rows()).arg(N)));
    const auto K = memberships->cols();
    if (K < 1 || blockMatrix->rows() != K || blockMatrix->cols() != K)
      throw std::runtime_error(utf8(QObject::tr("the block matrix is %1 x %2 but the memberships have %3 blocks")
                                        .arg(blockMatrix->rows())
                                        .arg(blockMatrix->cols())
                                        .arg(K)));
    data->memberships = std::move(*memberships);
    data->blockMatrix = std::move(*blockMatrix);
    const int k = static_cast<int>(K);

    // Each node's largest membership; the stored modal blocks when there are (final results).
    // A partition's posterior (sbm, irm) puts at least its surest nodes wholly in one block; a
    // posterior mean of mixed memberships (mmsb) puts none there.
    data->largest.resize(static_cast<std::size_t>(N));
    data->mixed = N > 0;
    for (Eigen::Index i = 0; i < N; ++i) {
      Eigen::Index top = 0;
      if (data->memberships.row(i).maxCoeff(&top) >= 1.0 - 1e-9) data->mixed = false;
      data->largest[static_cast<std::size_t>(i)] = static_cast<int>(top);
    }
    const auto stored = at < 0 ? column(core::loadMatrix(project, runId, core::kBlocks), N, k) : std::nullopt;
    data->dominant = stored ? *stored : data->largest;
    const auto order =
        at < 0 ? column(core::loadMatrix(project, runId, core::kNodeOrder), N, static_cast<int>(N)) : std::nullopt;
    data->storedOrder = order && isPermutation(*order);
    data->nodeOrder = data->storedOrder ? *order : orderByBlock(data->memberships, data->dominant);
    for (std::size_t i = 1; i < data->nodeOrder.size(); ++i)
      if (data->dominant[static_cast<std::size_t>(data->nodeOrder[i])] !=
          data->dominant[static_cast<std::size_t>(data->nodeOrder[i - 1])])
        data->blockStarts.push_back(static_cast<int>(i));
    data->blockSizes.assign(static_cast<std::size_t>(k), 0);
    for (const int b : data->dominant) ++data->blockSizes[static_cast<std::size_t>(b)];
    data->barOrder = orderByBlock(data->memberships, data->largest);

    // Two-type irm: the types of nodes (stored with the final result) and of blocks (their members').
    const auto types = core::loadMatrix(project, runId, core::kNodeType);
    if (auto t = column(types, N, 2)) {
      data->nodeType = std::move(*t);
      std::vector<std::array<int, 2>> votes(static_cast<std::size_t>(k), {0, 0});
      for (Eigen::Index i = 0; i < N; ++i)
        ++votes[static_cast<std::size_t>(data->dominant[static_cast<std::size_t>(i)])]
               [static_cast<std::size_t>(data->nodeType[static_cast<std::size_t>(i)])];
      for (const auto& v : votes) data->blockType.push_back(v[0] + v[1] == 0 ? -1 : v[1] > v[0] ? 1 : 0);
      if (const auto names = data->run.finalMetrics.find("type_values");
          names != data->run.finalMetrics.end() && names->is_array())
        for (const auto& name : *names)
          if (name.is_string()) data->typeNames << qs(name.get<std::string>());
      while (data->typeNames.size() < 2) data->typeNames << QObject::tr("type %1").arg(data->typeNames.size() + 1);
    }

    // Multi-relational irm: the relations by name (final results only), and the features.
    if (const auto names = data->run.finalMetrics.find("relations");
        at < 0 && names != data->run.finalMetrics.end() && names->is_array()) {
      for (const auto& name : *names) {
        if (!name.is_string()) continue;
        const auto r = graph.relationNames.empty() && name.get<std::string>() == "edges"
                           ? std::optional<std::size_t>(0)
                           : graph.relationIndex(name.get<std::string>());
        if (!r) continue;
        data->relationNames << qs(name.get<std::string>());
        data->relationIndex.push_back(static_cast<int>(*r));
      }
      const auto features = core::loadMatrix(project, runId, core::kNodeFeatures);
      const auto clusters = core::loadMatrix(project, runId, core::kFeatureBlocks);
      const auto featureNames = data->run.finalMetrics.find("features");
      if (features && clusters && featureNames != data->run.finalMetrics.end() && featureNames->is_array() &&
          features->rows() == N && clusters->rows() == features->cols() &&
          static_cast<Eigen::Index>(featureNames->size()) == features->cols()) {
        data->nodeFeatures = *features;
        for (const auto& name : *featureNames)
          data->featureNames << (name.is_string() ? qs(name.get<std::string>()) : QString());
        for (Eigen::Index f = 0; f < clusters->rows(); ++f)
          data->featureBlocks.push_back(static_cast<int>((*clusters)(f, 0)));
      }
    }

    // The graph's known label, for colours: kept from `previous` when the graph is.
    if (reuse) {
      data->labelAttribute = previous->labelAttribute;
      data->labels = previous->labels;
      data->labelNames = previous->labelNames;
    } else if (const auto attribute = core::defaultLabelAttribute(graph)) {
      if (auto labels = core::nodeLabels(graph, *attribute)) {
        data->labelAttribute = qs(*attribute);
        data->labels = std::move(*labels);
        const auto& values = graph.attributes[*graph.attributeIndex(*attribute)];
        for (std::size_t v = 0; v < data->labels.size(); ++v)
          if (data->labels[v] == data->labelNames.size()) data->labelNames << qs(values[v]);
      }
    }

    countLinks(graph, data->dominant, k, data->blockLinks, data->blockPairs);
    if (N > kMaxPairwiseNodes) {
      data->aggregated = true;
      QStringList blockNames;
      for (int b = 0; b < k; ++b) blockNames << data->blockName(b);
      data->blockDensity =
          densityGrid(data->blockLinks, data->blockPairs, data->blockSizes, blockNames, graph.directed);
      const int bins = std::min<int>(kFileOrderBins, static_cast<int>(N));
      data->binSize = static_cast<int>((N + bins - 1) / bins);
      const int used = static_cast<int>((N + data->binSize - 1) / data->binSize);
      std::vector<int> bin(static_cast<std::size_t>(N));
      std::vector<std::int64_t> sizes(static_cast<std::size_t>(used), 0);
      QStringList names;
      for (Eigen::Index i = 0; i < N; ++i) {
        bin[static_cast<std::size_t>(i)] = static_cast<int>(i / data->binSize);
        ++sizes[static_cast<std::size_t>(bin[static_cast<std::size_t>(i)])];
      }
      for (int b = 0; b < used; ++b) {
        const std::int64_t first = static_cast<std::int64_t>(b) * data->binSize + 1;
        names << QObject::tr("nodes %1–%2")
                     .arg(formatCount(first), formatCount(first + sizes[static_cast<std::size_t>(b)] - 1));
      }
      Eigen::MatrixXd links, pairs;
      countLinks(graph, bin, used, links, pairs);
      data->fileOrderDensity = densityGrid(links, pairs, std::move(sizes), names, graph.directed);
    }
    out.data = std::move(data);
  } catch (const std::exception& e) {
    out.error = qs(e.what());
  }
  return out;
}

}  // namespace latent::ui
