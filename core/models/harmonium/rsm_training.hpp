// SPDX-License-Identifier: GPL-3.0-or-later
// Fitting replicated softmax by contrastive divergence (000 Alg. 27.3 with the conditionals of
// eq. 27.129; Salakhutdinov & Hinton 2009 §3) or persistent CD (000 Alg. 27.4) in minibatches:
// each document's reconstruction is as long as the document, each persistent chain keeps the
// length of a training document, and the hidden biases' gradient carries the length.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/harmonium/adaptive_steps.hpp"
#include "core/models/harmonium/rbm_training.hpp"
#include "core/models/harmonium/replicated_softmax.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {

// Random weights ~ N(0, scale^2), visible biases at logWordFrequencies(counts) (the unigram
// model), hidden biases zero.
RbmParameters initialRsmParameters(const WordCounts& counts, Eigen::Index hidden, std::uint64_t seed,
                                   double scale = 0.01);

class RsmTrainer {
 public:
  // With settings.persistent, `lengths` gives the particles' lengths: particle s keeps
  // lengths[s mod size], so the chains follow the training documents' distribution of lengths
  // (pass them in a shuffled order).
  RsmTrainer(const ContrastiveDivergence& settings, RbmParameters initial, std::uint64_t seed,
             const Eigen::VectorXd& lengths = {});

  // One pass over the documents in `order` (row indices of `counts`), a minibatch at a time, each
  // followed by a step along gradient - weightDecay * W, the gradient being that of the
  // minibatch's mean per-word log-likelihood, mean_d log p(v_d) / L_d: Adam's step with
  // settings.adaptive, else W += momentum * dW_prev + rate * (...). False when `stop` was
  // requested; the parameters are then those after the last complete minibatch. The stop is
  // looked at before every document's sampling, every particle's sweeps and every block of the
  // gradient's words, so a stop does not wait for the minibatch (one takes about a second at
  // K = 200 on a large vocabulary); the minibatch under way is then dropped.
  bool epoch(const WordCounts& counts, const Eigen::VectorXd& lengths, std::span<const Eigen::Index> order,
             double learningRate, const std::stop_token& stop);

  const RbmParameters& parameters() const { return m_params; }
  // The mean over the last epoch's words of log p(w | h), h drawn from p(h | document): how well
  // one upward and downward pass reconstructs the documents (a monitor, not the likelihood).
  double reconstructionLogLikelihood() const { return m_reconstruction; }
  std::int64_t updates() const { return m_updates; }
  // Documents and particles sampled so far, counted as each task's range ends: lets another
  // thread see the work done.
  std::int64_t rowsSampled() const { return m_rowsSampled.load(std::memory_order_relaxed); }

 private:
  // PCD's negative phase: settings.gibbsSteps sweeps of every particle. False when stopped; a
  // particle is then either advanced or left as it was, each a state of its chain.
  bool advanceParticles(const std::stop_token& stop);
  // Returns the minibatch's summed reconstruction log-likelihood, or nothing when stopped (the
  // parameters then unchanged).
  std::optional<double> update(const WordCounts& counts, const Eigen::VectorXd& lengths,
                               std::span<const Eigen::Index> rows, double learningRate, const std::stop_token& stop);

  ContrastiveDivergence m_settings;
  RbmParameters m_params;
  RbmParameters m_velocity;
  // With settings.adaptive: Adam's moments, and the step's gradient (kept to allocate nothing).
  std::optional<AdaptiveSteps> m_adaptive;
  RbmParameters m_step;
  std::uint64_t m_seed;
  std::int64_t m_updates = 0;
  std::atomic<std::int64_t> m_rowsSampled{0};
  double m_reconstruction = 0.0;
  // Working matrices, kept to allocate nothing per minibatch: B x K hidden, B x V words.
  Eigen::MatrixXd m_dataHidden, m_negativeHidden, m_scaledNegativeHidden, m_gradient;
  Eigen::VectorXd m_batchLengths;
  RowMatrix m_wordProbabilities, m_negativeCounts;
  std::vector<double> m_rowReconstruction;
  // PCD: the particles' word counts (S x V), lengths, hidden probabilities and streams.
  RowMatrix m_particles;
  Eigen::VectorXd m_particleLengths;
  Eigen::MatrixXd m_particleHidden;
  std::vector<Rng> m_particleRngs;
};

}  // namespace latent::core::harmonium
