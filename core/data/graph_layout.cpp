// SPDX-License-Identifier: GPL-3.0-or-later
// A seeded Fruchterman-Reingold layout by igraph, scaled to the unit square.
#include "core/data/graph_layout.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <numeric>
#include <string>
#include <vector>

#include "core/util/errors.hpp"
#include "core/util/igraph_session.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kLayoutStream = 0x4C41594F'55544752ULL;  // "LAYOUTGR"
constexpr igraph_integer_t kLayoutIterations = 500;

void checked(igraph_error_t rc) {
  if (rc != IGRAPH_SUCCESS) throw std::bad_alloc();  // the calls here fail only for memory
}

struct LayoutGraph {
  igraph_t graph;
  ~LayoutGraph() { igraph_destroy(&graph); }
};
struct LayoutMatrix {
  igraph_matrix_t m;
  ~LayoutMatrix() { igraph_matrix_destroy(&m); }
};
struct LayoutEdges {
  igraph_vector_int_t v;
  ~LayoutEdges() { igraph_vector_int_destroy(&v); }
};

// Centres the drawing and scales it so that all but the farthest 1% of nodes fall within [-1, 1];
// those few (a far-flung isolated node) are pulled in to the border.
void normalise(Eigen::MatrixX2d& xy) {
  if (xy.rows() == 0) return;
  xy.rowwise() -= xy.colwise().mean();
  std::vector<double> reach(static_cast<std::size_t>(xy.rows()));
  for (Eigen::Index i = 0; i < xy.rows(); ++i) reach[static_cast<std::size_t>(i)] = xy.row(i).cwiseAbs().maxCoeff();
  const auto at = static_cast<std::size_t>(0.99 * double(reach.size() - 1));
  std::nth_element(reach.begin(), reach.begin() + static_cast<std::ptrdiff_t>(at), reach.end());
  const double scale = reach[at] > 0.0 ? reach[at] : 1.0;
  xy = (xy / scale).cwiseMax(-1.0).cwiseMin(1.0);
}

// Each node's connected component, numbered by size (0 the largest), ties by first node.
std::vector<std::int64_t> componentsBySize(std::int64_t nodes, std::span<const Edge> edges) {
  std::vector<std::int64_t> parent(static_cast<std::size_t>(nodes));
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](std::int64_t x) {
    while (parent[static_cast<std::size_t>(x)] != x)
      x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    return x;
  };
  for (const Edge& e : edges) parent[static_cast<std::size_t>(root(e.source))] = root(e.target);
  std::vector<std::int64_t> size(static_cast<std::size_t>(nodes), 0), first(static_cast<std::size_t>(nodes), nodes);
  for (std::int64_t i = 0; i < nodes; ++i) {
    const auto r = static_cast<std::size_t>(root(i));
    ++size[r];
    first[r] = std::min(first[r], i);
  }
  std::vector<std::int64_t> roots;
  for (std::int64_t i = 0; i < nodes; ++i)
    if (root(i) == i) roots.push_back(i);
  std::sort(roots.begin(), roots.end(), [&](std::int64_t a, std::int64_t b) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    return size[ua] != size[ub] ? size[ua] > size[ub] : first[ua] < first[ub];
  });
  std::vector<std::int64_t> rank(static_cast<std::size_t>(nodes), 0), component(static_cast<std::size_t>(nodes));
  for (std::size_t c = 0; c < roots.size(); ++c)
    rank[static_cast<std::size_t>(roots[c])] = static_cast<std::int64_t>(c);
  for (std::int64_t i = 0; i < nodes; ++i)
    component[static_cast<std::size_t>(i)] = rank[static_cast<std::size_t>(root(i))];
  return component;
}

// A graph in pieces (a citation network has a large connected part and many small ones): force
// layouts push the pieces far apart, which would shrink the large part to a dot. It fills the disc
// of radius kCoreRadius instead, and every other node sits on a ring around it, piece after piece.
constexpr double kCoreRadius = 0.85;
constexpr double kRingRadius = 0.97;

void placeOutsideTheLargestComponent(Eigen::MatrixX2d& xy, const std::vector<std::int64_t>& component) {
  std::vector<Eigen::Index> core, rest;
  for (Eigen::Index i = 0; i < xy.rows(); ++i) (component[static_cast<std::size_t>(i)] == 0 ? core : rest).push_back(i);
  if (rest.empty()) {
    normalise(xy);
    return;
  }
  Eigen::MatrixX2d inner(static_cast<Eigen::Index>(core.size()), 2);
  for (std::size_t k = 0; k < core.size(); ++k) inner.row(static_cast<Eigen::Index>(k)) = xy.row(core[k]);
  normalise(inner);
  for (std::size_t k = 0; k < core.size(); ++k) xy.row(core[k]) = kCoreRadius * inner.row(static_cast<Eigen::Index>(k));
  std::stable_sort(rest.begin(), rest.end(), [&](Eigen::Index a, Eigen::Index b) {
    return component[static_cast<std::size_t>(a)] < component[static_cast<std::size_t>(b)];
  });
  constexpr double kTurn = 6.283185307179586;
  for (std::size_t k = 0; k < rest.size(); ++k) {
    const double angle = kTurn * double(k) / double(rest.size());
    xy(rest[k], 0) = kRingRadius * std::cos(angle);
    xy(rest[k], 1) = kRingRadius * std::sin(angle);
  }
}

}  // namespace

Eigen::MatrixX2d layoutGraph(std::int64_t nodes, std::span<const Edge> edges, std::uint64_t seed) {
  if (nodes > kMaxLayoutNodes)
    throw UsageError("a graph of " + std::to_string(nodes) + " nodes is too large to draw (at most " +
                     std::to_string(kMaxLayoutNodes) + ")");
  Eigen::MatrixX2d xy(nodes, 2);
  if (nodes == 0) return xy;
  if (nodes == 1) return Eigen::MatrixX2d::Zero(1, 2);

  IgraphSession session;
  LayoutEdges list;
  checked(igraph_vector_int_init(&list.v, static_cast<igraph_integer_t>(2 * edges.size())));
  for (std::size_t e = 0; e < edges.size(); ++e) {
    VECTOR(list.v)[2 * e] = edges[e].source;
    VECTOR(list.v)[2 * e + 1] = edges[e].target;
  }
  LayoutGraph g;
  checked(igraph_create(&g.graph, &list.v, static_cast<igraph_integer_t>(nodes), IGRAPH_UNDIRECTED));
  // A seeded start and generator, so the same graph is drawn the same way every time (igraph's
  // generator is process-wide; the session holds it alone).
  checked(igraph_rng_seed(igraph_rng_default(), static_cast<igraph_uint_t>(seed)));
  LayoutMatrix start;
  checked(igraph_matrix_init(&start.m, static_cast<igraph_integer_t>(nodes), 2));
  Rng rng(seed, kLayoutStream);
  const double radius = std::sqrt(double(nodes));
  for (std::int64_t i = 0; i < nodes; ++i) {
    MATRIX(start.m, i, 0) = radius * (2.0 * rng.uniform() - 1.0);
    MATRIX(start.m, i, 1) = radius * (2.0 * rng.uniform() - 1.0);
  }
  checked(igraph_layout_fruchterman_reingold(&g.graph, &start.m, /*use_seed=*/true, kLayoutIterations,
                                             /*start_temp=*/radius / 10.0, IGRAPH_LAYOUT_AUTOGRID, nullptr, nullptr,
                                             nullptr, nullptr, nullptr));
  for (std::int64_t i = 0; i < nodes; ++i) {
    xy(i, 0) = MATRIX(start.m, i, 0);
    xy(i, 1) = MATRIX(start.m, i, 1);
  }
  const auto component = componentsBySize(nodes, edges);
  // Only a graph with a connected part worth drawing apart: a graph without links stays a scatter.
  if (!edges.empty())
    placeOutsideTheLargestComponent(xy, component);
  else
    normalise(xy);
  return xy;
}

}  // namespace latent::core
