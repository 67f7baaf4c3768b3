// SPDX-License-Identifier: GPL-3.0-or-later
// Block-model graph generators with planted structure.
#include "core/data/synthetic_graph.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/data/synthetic_lda.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

Graph namedNodes(int nodes, bool directed) {
  Graph g;
  g.directed = directed;
  for (int v = 0; v < nodes; ++v) {
    g.nodeIds.push_back("n" + std::to_string(v));
    g.nodeNames.push_back(g.nodeIds.back());
  }
  return g;
}

void sortEdges(Graph& g) {
  std::sort(g.edges.begin(), g.edges.end(), [](const Edge& a, const Edge& b) {
    return a.source != b.source ? a.source < b.source : a.target < b.target;
  });
}

// Number of failures before the next success of a Bernoulli(p) sequence.
std::int64_t geometricSkip(Rng& rng, double p) {
  if (p >= 1.0) return 0;
  const double u = 1.0 - rng.uniform();  // (0, 1]
  return static_cast<std::int64_t>(std::floor(std::log(u) / std::log1p(-p)));
}

}  // namespace

PlantedGraph generateSbmGraph(const std::vector<int>& blockSizes, const Eigen::MatrixXd& blockMatrix, bool directed,
                              std::uint64_t seed) {
  const auto K = static_cast<int>(blockSizes.size());
  if (blockMatrix.rows() != K || blockMatrix.cols() != K)
    throw UsageError("the block matrix must be K x K for K block sizes");
  std::vector<int> first(K + 1, 0);
  for (int k = 0; k < K; ++k) first[k + 1] = first[k] + blockSizes[k];
  const int n = first[K];
  PlantedGraph out;
  out.graph = namedNodes(n, directed);
  out.blockMatrix = blockMatrix;
  out.memberships = Eigen::MatrixXd::Zero(n, K);
  out.blocks.resize(n);
  std::vector<std::string> label(n);
  for (int k = 0; k < K; ++k)
    for (int v = first[k]; v < first[k + 1]; ++v) {
      out.blocks[v] = k;
      out.memberships(v, k) = 1.0;
      label[v] = std::to_string(k);
    }
  out.graph.attributeNames = {"block"};
  out.graph.attributes = {label};

  Rng rng(seed);
  for (int k = 0; k < K; ++k)
    for (int l = directed ? 0 : k; l < K; ++l) {
      const double p = blockMatrix(k, l);
      if (p <= 0.0) continue;
      const std::int64_t rows = blockSizes[k], cols = blockSizes[l];
      // Pairs of the block pair, numbered r * cols + c; the diagonal of the same block is skipped
      // (no self-loops) and an undirected block with itself keeps r < c only.
      const std::int64_t pairs = rows * cols;
      for (std::int64_t at = geometricSkip(rng, p); at < pairs; at += 1 + geometricSkip(rng, p)) {
        const auto r = static_cast<int>(at / cols), c = static_cast<int>(at % cols);
        const int i = first[k] + r, j = first[l] + c;
        if (i == j || (!directed && k == l && i > j)) continue;
        out.graph.edges.push_back({i, j, 1.0});
      }
    }
  // An undirected block with itself visited both triangles with the same probability, so
  // dropping i > j keeps each unordered pair with probability p, as wanted.
  sortEdges(out.graph);
  return out;
}

PlantedGraph generateAssortativeSbm(int nodes, int blocks, double meanDegree, double inOutRatio, bool directed,
                                    std::uint64_t seed) {
  if (nodes < blocks || blocks < 1) throw UsageError("need at least one node per block");
  std::vector<int> sizes(blocks, nodes / blocks);
  for (int k = 0; k < nodes % blocks; ++k) ++sizes[k];
  // Mean degree d = (n/K) p_in + (n - n/K) p_out with p_in = ratio * p_out.
  const double perBlock = double(nodes) / blocks;
  const double pOut = meanDegree / (perBlock * inOutRatio + (nodes - perBlock));
  Eigen::MatrixXd B = Eigen::MatrixXd::Constant(blocks, blocks, pOut);
  B.diagonal().setConstant(std::min(1.0, pOut * inOutRatio));
  return generateSbmGraph(sizes, B, directed, seed);
}

PlantedGraph generateMmsbGraph(int nodes, const Eigen::MatrixXd& blockMatrix, double alpha, bool directed,
                               std::uint64_t seed) {
  const auto K = blockMatrix.rows();
  PlantedGraph out;
  out.graph = namedNodes(nodes, directed);
  out.blockMatrix = blockMatrix;
  out.memberships.resize(nodes, K);
  Rng rng(seed);
  std::vector<std::string> label(nodes);
  out.blocks.resize(nodes);
  for (int v = 0; v < nodes; ++v) {
    out.memberships.row(v) = sampleSymmetricDirichlet(rng, K, alpha).transpose();
    Eigen::Index best = 0;
    out.memberships.row(v).maxCoeff(&best);
    out.blocks[v] = static_cast<int>(best);
    label[v] = std::to_string(best);
  }
  out.graph.attributeNames = {"block"};
  out.graph.attributes = {label};
  const auto draw = [&](int v) {
    double u = rng.uniform(), acc = 0.0;
    for (Eigen::Index k = 0; k < K; ++k) {
      acc += out.memberships(v, k);
      if (u < acc) return k;
    }
    return K - 1;
  };
  for (int i = 0; i < nodes; ++i)
    for (int j = directed ? 0 : i + 1; j < nodes; ++j) {
      if (i == j) continue;
      const auto zs = draw(i), zr = draw(j);
      if (rng.uniform() < blockMatrix(zs, zr)) out.graph.edges.push_back({i, j, 1.0});
    }
  return out;
}

}  // namespace latent::core
