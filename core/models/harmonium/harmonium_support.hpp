// SPDX-License-Identifier: GPL-3.0-or-later
// What the harmoniums share: the training options with one name, meaning and help in every model,
// the learning-rate schedule, and the layout of their results (results/hidden_results.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/models/harmonium/rbm_training.hpp"
#include "core/models/harmonium/replicated_softmax.hpp"
#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/results/hidden_results.hpp"

namespace latent::core::harmonium {

// Adds the rows every harmonium's options struct `O` has, under the same names: hidden (k),
// iterations (epochs), learning_rate, decay, momentum, weight_decay, batch_size, cd_steps,
// snapshot_every.
template <typename O>
OptionTable<O>& addTrainingOptions(OptionTable<O>& table) {
  return table.add(integerOption("k", 1, 10000, "Number of hidden units."), &O::hidden)
      .add(integerOption("iterations", 1, 1e7, "Passes over the training data (epochs)."), &O::iterations)
      .add(realOption("learning_rate", 0.0, kNoMaximum, true,
                      "Step size of the updates in the first epoch; too large and training diverges."),
           &O::learningRate)
      .add(realOption("decay", 0.0, 1.0, true,
                      "The step size is multiplied by this after every epoch (1 keeps it fixed)."),
           &O::decay)
      .add(realOption("momentum", 0.0, 1.0, false,
                      "Share of the previous update added to the next one: smooths the noisy CD gradients."),
           &O::momentum)
      .add(realOption("weight_decay", 0.0, kNoMaximum, false,
                      "Pulls the weights towards zero (an L2 penalty); the biases are not penalised."),
           &O::weightDecay)
      .add(integerOption("batch_size", 1, 1e7, "Cases per update (minibatch)."), &O::batchSize)
      .add(integerOption("cd_steps", 1, 1000,
                         "Gibbs steps of the negative phase (k of CD-k): more is closer to the true gradient "
                         "and slower."),
           &O::cdSteps)
      .add(integerOption("snapshot_every", 0, 1e7,
                         "Save the weights to the project every N epochs, so the views follow training and a "
                         "stopped run keeps them; 0 saves only at the end."),
           &O::snapshotEvery);
}

// The minibatch settings of an options struct with the rows above.
template <typename O>
ContrastiveDivergence contrastiveDivergence(const O& options) {
  ContrastiveDivergence cd;
  cd.momentum = options.momentum;
  cd.weightDecay = options.weightDecay;
  cd.batchSize = options.batchSize;
  cd.gibbsSteps = static_cast<int>(options.cdSteps);
  return cd;
}

// The persistent-CD rows, for options structs with `persistent` and `particles` as well.
template <typename O>
OptionTable<O>& addPersistentOptions(OptionTable<O>& table) {
  return table
      .add(booleanOption("persistent",
                         "Persistent CD: the negative phase continues chains kept from update to update instead "
                         "of starting at the data; closer to the likelihood's gradient."),
           &O::persistent)
      .add(integerOption("particles", 1, 1e6, "Persistent CD: the number of chains kept."), &O::particles);
}

// contrastiveDivergence() with the persistent-CD settings of addPersistentOptions().
template <typename O>
ContrastiveDivergence persistentContrastiveDivergence(const O& options) {
  ContrastiveDivergence cd = contrastiveDivergence(options);
  cd.persistent = options.persistent;
  cd.particles = options.particles;
  return cd;
}

// A number as printf's %g writes it, for messages ("0.5", "1e-06").
std::string shortNumber(double v);

// The step size of epoch `epoch` (1-based): rate * decay^(epoch - 1).
double learningRateAt(double rate, double decay, std::int64_t epoch);

// The order of the cases in epoch `epoch`: a permutation of 0..cases-1 drawn from the stream of
// the seed and the epoch (the same for every thread count).
void shuffledOrder(std::vector<Eigen::Index>& order, Eigen::Index cases, std::uint64_t seed, std::int64_t epoch);

// The held-out documents whole (observed and scored halves together) as count rows over a
// vocabulary of V words.
WordCounts heldoutWordCounts(const HeldoutDocuments& heldout, Eigen::Index V);

// The matrices of a snapshot: W and the biases.
std::vector<NamedMatrix> parameterMatrices(const RbmParameters& p);

// The 0/1 cases a binary harmonium fits, training and held-out: a corpus's documents as word
// occurrences (held-out documents whole), or a table's rows (FitData::heldoutRows held out), whose
// values must all be 0 or 1 (else UsageError naming `model`, the column and the row).
struct BinaryCases {
  BinaryData train, heldout;
  std::vector<std::string> visibleNames;  // a table's columns; empty for a corpus
};
BinaryCases binaryCases(const FitData& data, const std::string& model);

// hidden_activations in the data's order: a corpus's (below), or a table's rows in table order.
Eigen::MatrixXd activationsInDataOrder(const FitData& data, const Eigen::MatrixXd& train,
                                       const Eigen::MatrixXd& heldout);

// hidden_activations in corpus order (fullDocumentCount x K): training rows from `train` (one
// row per document of data.corpus), held-out rows from `heldout` (one row per held-out document,
// computed from all of its words).
Eigen::MatrixXd activationsInCorpusOrder(const FitData& data, const Eigen::MatrixXd& train,
                                         const Eigen::MatrixXd& heldout);

}  // namespace latent::core::harmonium
