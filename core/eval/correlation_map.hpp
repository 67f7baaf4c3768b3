// SPDX-License-Identifier: GPL-3.0-or-later
// A map of items from their correlations, for drawing them as a graph (the CTM's topic graph,
// 000 Fig. 27.10): classical scaling (Torgerson) of the distances sqrt(2 (1 - r)), so that items
// that go together sit together and the layout is the same on every call, each axis stretched over
// the square, then a few passes that push apart items closer than a minimum separation so that
// every node stays visible.
#pragma once

#include <Eigen/Core>

namespace latent::core {

// Positions in the unit square (each axis from 0 to 1), one row per item of the K x K correlation matrix. Items closer
// than `separation` (a fraction of the square's side) are pushed apart where they can be.
Eigen::MatrixX2d correlationMap(const Eigen::MatrixXd& correlation, double separation = 0.1);

// The smallest threshold that keeps at most `edges` of the strongest positive correlations between
// two different items (1 when there are none), for a first view that is neither empty nor a hairball.
double strongestCorrelationsThreshold(const Eigen::MatrixXd& correlation, int edges);

}  // namespace latent::core
