// SPDX-License-Identifier: GPL-3.0-or-later
// A seeded Fruchterman-Reingold layout by igraph, scaled to the unit square.
#include "core/data/graph_layout.hpp"

#include <algorithm>
#include <cmath>
#include <new>
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
  normalise(xy);
  return xy;
}

}  // namespace latent::core
