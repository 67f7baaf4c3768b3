// SPDX-License-Identifier: GPL-3.0-or-later
// Fitting a binary RBM by contrastive divergence (000 §27.7.2.4, Alg. 27.3) or persistent CD
// (000 §27.7.2.5, Alg. 27.4) in minibatches, with momentum and weight decay (000 §27.7.2).
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {

struct ContrastiveDivergence {
  double momentum = 0.5;      // share of the previous update kept (000 §27.7.2, "momentum term")
  double weightDecay = 1e-4;  // l2 penalty on W ("weight decay"); the biases are not penalised
  Eigen::Index batchSize = 100;
  int gibbsSteps = 1;            // k of CD-k; for PCD, the Gibbs sweeps of the particles per update
  bool persistent = false;       // PCD: the negative phase runs chains kept from update to update
  bool adaptive = false;         // Adam's steps (adaptive_steps.hpp), momentum being its beta_1
  Eigen::Index particles = 100;  // PCD's chains (S of Alg. 27.4)
};

// Small random weights, visible biases at baseRateBiases(data), hidden biases zero: a start from
// which CD moves quickly.
RbmParameters initialParameters(const BinaryData& data, Eigen::Index hidden, std::uint64_t seed);

class RbmTrainer {
 public:
  RbmTrainer(const ContrastiveDivergence& settings, RbmParameters initial, std::uint64_t seed);

  // One pass over the cases in `order` (row indices of `data`), a minibatch at a time, each
  // followed by W += momentum * dW_prev + rate * (gradient - weightDecay * W). Returns false when
  // `stop` was requested; the parameters are then those after the last complete minibatch.
  bool epoch(const BinaryData& data, std::span<const Eigen::Index> order, double learningRate, std::stop_token stop);

  const RbmParameters& parameters() const { return m_params; }
  // Mean squared difference between each case and its one-step reconstruction E[v | h], h drawn
  // from p(h | v), after the last epoch, over the units of the first 100 cases (a fixed set, so
  // that the curve follows the model): a monitor, not the likelihood.
  double reconstructionError() const { return m_reconstructionError; }
  std::int64_t updates() const { return m_updates; }

 private:
  void update(const BinaryData& data, std::span<const Eigen::Index> rows, double learningRate);
  double monitorReconstruction(const BinaryData& data);
  // Copies rows of `data` into m_batch, in the order given.
  void gatherRows(const BinaryData& data, std::span<const Eigen::Index> rows);
  // E[h | v] of sparse rows, from m_weightRows.
  void hiddenOf(const BinaryData& visible, Eigen::MatrixXd& out) const;
  // E[v | h] into m_visible, in single precision: it only steers the draws of v (and the monitor).
  void visibleOf(const Eigen::MatrixXd& hidden);
  void addOuterProducts(const BinaryData& visible, const Eigen::MatrixXd& hidden, double scale, RowMatrix& into);
  // Streams base + i of the seed for rows i < rows.
  Rng* rowStreams(std::uint64_t base, Eigen::Index rows);

  ContrastiveDivergence m_settings;
  RbmParameters m_params;
  std::uint64_t m_seed;
  std::int64_t m_updates = 0;
  std::int64_t m_epochs = 0;
  double m_reconstructionError = 0.0;
  std::vector<Rng> m_rowRngs;
  std::vector<Eigen::Index> m_monitorRows;
  // Working matrices, kept to allocate nothing per minibatch: the visible states are sparse (a
  // document's words, and the few words a reconstruction draws), their probabilities dense.
  BinaryData m_batch, m_negative;
  Eigen::MatrixXd m_dataHidden, m_hidden, m_negativeHidden;
  Eigen::MatrixXf m_hiddenSingle;
  RowMatrixF m_visible;
  // W by rows, where training keeps it (a visible unit's K weights side by side, as the sparse
  // products read and write them), copied into m_params and into single precision for E[v | h]
  // after every update; the updates' momentum terms alike.
  RowMatrix m_weightRows, m_weightVelocity, m_hiddenRows;
  RowMatrixF m_weightsSingle;
  Eigen::VectorXd m_visibleVelocity, m_hiddenVelocity;
  // PCD: the particles' visible states (S x R) and each particle's own stream.
  BinaryData m_particles;
  std::vector<Rng> m_particleRngs;
};

}  // namespace latent::core::harmonium
