// SPDX-License-Identifier: GPL-3.0-or-later
// The node-link layout (issue 18's document network, issue 20's graph drawing): linked nodes sit
// closer than unlinked ones, two groups joined by one edge are drawn apart, the drawing fits the
// unit square and is the same for the same seed.
#include <QtTest>

#include "core/data/graph_layout.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

// Two cliques of 12 nodes, joined by the single edge 0-12.
std::vector<core::Edge> twoCliques() {
  std::vector<core::Edge> edges;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 12; ++i)
      for (int j = i + 1; j < 12; ++j) edges.push_back({12 * c + i, 12 * c + j, 1.0});
  edges.push_back({0, 12, 1.0});
  return edges;
}

}  // namespace

class GraphLayoutTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void groupsAreDrawnApartWithinTheUnitSquare() {
    const auto edges = twoCliques();
    const auto xy = core::layoutGraph(24, edges, 5);
    QCOMPARE(xy.rows(), Eigen::Index(24));
    QVERIFY(xy.cwiseAbs().maxCoeff() <= 1.0);
    double within = 0.0, across = 0.0;
    int nWithin = 0, nAcross = 0;
    for (int i = 0; i < 24; ++i)
      for (int j = i + 1; j < 24; ++j) {
        const double d = (xy.row(i) - xy.row(j)).norm();
        if (i / 12 == j / 12) {
          within += d;
          ++nWithin;
        } else {
          across += d;
          ++nAcross;
        }
      }
    QVERIFY2(across / nAcross > 2.0 * within / nWithin,
             (std::to_string(across / nAcross) + " " + std::to_string(within / nWithin)).c_str());
    QVERIFY(core::layoutGraph(24, edges, 5) == xy);
    QVERIFY(core::layoutGraph(24, edges, 6) != xy);
  }

  void smallAndEdgelessGraphsAndTheLimit() {
    QCOMPARE(core::layoutGraph(0, {}, 1).rows(), Eigen::Index(0));
    QCOMPARE(core::layoutGraph(1, {}, 1), Eigen::MatrixX2d::Zero(1, 2).eval());
    const auto scattered = core::layoutGraph(30, {}, 1);
    QVERIFY(scattered.allFinite() && scattered.cwiseAbs().maxCoeff() <= 1.0);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::layoutGraph(core::kMaxLayoutNodes + 1, {}, 1));
  }
};

LATENT_TEST_CASE(GraphLayoutTest)
#include "tst_graph_layout.moc"
