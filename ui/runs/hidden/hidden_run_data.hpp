// SPDX-License-Identifier: GPL-3.0-or-later
// What the hidden-unit pages of a harmonium run (rbm, rsm, gb-efh, rbm-ratings) read from the
// project, loaded off the GUI thread and shared read-only by the pages: the weights and biases
// (final, or a snapshot), the cases' hidden activations when stored, the visible units' names (a
// corpus' vocabulary, a table's columns, a ratings dataset's items), the cases (documents, a
// table's rows, users) and their labels, the posterior of a Bayesian harmonium when stored, and
// what hidden_analysis computes from them.
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>

#include <Eigen/Core>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "ui/runs/hidden/hidden_analysis.hpp"

class QPalette;

namespace latent::ui {

// Words listed per unit in the table (and kept for tooltips).
inline constexpr int kHiddenTopWords = 10;
// Rows of the weight heat map: enough words to see each unit's group, few enough to read them.
inline constexpr int kHeatMapWords = 60;
// Label colours: the most frequent labels get their own, the rest share one ("other labels").
inline constexpr int kHiddenLabelColours = 12;

// The data side, read once per run and shared by every later (live) load: a corpus, a numeric
// table whose columns are the visible units and whose rows are the cases (each row a "document"
// here: id and title its row name, label its row label, no words counted), or a ratings dataset
// whose items are the visible units and whose users are the cases (id and title the user id, its
// ratings counted as its tokens, no labels; hidden_ratings_data).
struct HiddenCorpus {
  bool table = false;              // a numeric table's rows and columns rather than a corpus
  bool graph = false;              // (with table) a graph's adjacency rows: nodes as rows and columns
  bool ratings = false;            // a ratings dataset's items and users rather than a corpus
  std::vector<std::string> words;  // index = word id = row of the weights (a table: its columns)
  std::vector<core::DocumentHeader> documents;
  // Each document's label as an index into labelNames, -1 when it has none; labelNames by
  // frequency, the last one "other labels" when there are more than kHiddenLabelColours.
  std::vector<int> labels;
  QStringList labelNames;
  std::vector<std::int64_t> labelCounts;
  bool otherLabels = false;  // the last of labelNames gathers the less frequent labels
};

struct HiddenRunData {
  core::RunRecord run;
  std::int64_t iteration = -1;  // -1: the final result; else the snapshot's epoch
  std::shared_ptr<const HiddenCorpus> corpus;
  // On ratings (rbm-ratings) the V = I items' expected-rating effects E[r | h = e_k] - E[r | h = 0]
  // (rating_effects) stand in for the weights, and visibleBias is empty.
  Eigen::MatrixXd weights;      // V x K
  Eigen::VectorXd visibleBias;  // V
  Eigen::VectorXd hiddenBias;   // K
  Eigen::MatrixXd activations;  // D x K in corpus order; 0 x 0 when not stored (snapshots)

  // A Bayesian harmonium's posterior (gb-efh, core/results/hidden_results.hpp); each 0 x 0 when
  // not stored.
  Eigen::MatrixXd weightsSd;    // V x K
  Eigen::VectorXd priorMean;    // V (empty when not stored)
  Eigen::VectorXd priorSd;      // V
  Eigen::MatrixXd weightTrace;  // T x 4: W_11, W_12, W_21, W_22 after each iteration

  // A categorical RBM on ratings: the rating levels, and E[r | h = 0] per item; else empty.
  std::vector<double> ratingLevels;  // R, ascending
  Eigen::VectorXd baseRating;        // I

  std::vector<UnitWords> topWords;     // kHiddenTopWords each way per unit
  std::vector<double> meanActivation;  // per unit; empty without activations
  // The activations' scale: 0 to 1 when they are probabilities (binary hidden units), else from
  // the least to the largest activation, zero included (gb-efh's Gaussian hidden units).
  double activationLow = 0.0, activationHigh = 1.0;
  ActivationProjection projection;  // empty without activations
  WeightLayout layout;              // the heat map's rows and columns

  int unitCount() const noexcept { return static_cast<int>(weights.cols()); }
  int wordCount() const noexcept { return static_cast<int>(weights.rows()); }
  int documentCount() const noexcept { return corpus ? static_cast<int>(corpus->documents.size()) : 0; }
  bool hasActivations() const noexcept { return activations.rows() > 0 && activations.rows() == documentCount(); }
  bool hasLabels() const noexcept { return corpus && !corpus->labelNames.isEmpty(); }
  bool isTable() const noexcept { return corpus && corpus->table; }
  bool isGraph() const noexcept { return corpus && corpus->graph; }
  bool isRatings() const noexcept { return corpus && corpus->ratings; }
  bool activationsAreProbabilities() const noexcept { return activationLow == 0.0 && activationHigh == 1.0; }
  bool hasTrace() const noexcept { return weightTrace.rows() > 0 && weightTrace.cols() == 4; }
  bool hasPosteriorSd() const noexcept {
    return weightsSd.rows() == weights.rows() && weightsSd.cols() == weights.cols();
  }
  bool hasPrior() const noexcept { return priorMean.size() == weights.rows() && priorSd.size() == weights.rows(); }
  // What the cases and the visible units are called: "document"/"documents" and "word"/"words"
  // for a corpus, "row"/"rows" and "column"/"columns" for a table, "user"/"users" and
  // "item"/"items" for ratings.
  QString caseNoun(bool plural = false) const;
  QString visibleNoun(bool plural = false) const;
  QString wordText(int word) const;
  QString unitName(int unit) const;  // "Unit 3"
  // "raises a, b, c; lowers x, y": the unit's first `count` words each way, for tooltips.
  QString unitSummary(int unit, int count = 5) const;
  QString documentTitle(int document) const;
  QString documentLabel(int document) const;  // the corpus' label as imported; empty when none
  // "the final result" or "the snapshot of epoch 40".
  QString sourceText() const;
};

// The colour of a document's label on `palette` (the quiet text colour for "other labels" and for
// documents with none).
QColor hiddenLabelColour(const HiddenRunData& data, int label, const QPalette& palette);

struct HiddenRunLoad {
  // Null on error, for a run on a graph, or one without weights and biases (on ratings, without
  // rating_weights, rating_visible_bias, rating_levels and hidden_bias).
  std::shared_ptr<const HiddenRunData> data;
  QString error;
  bool unchanged = false;  // `previous` already shows the result found
};

// Reads a run's hidden-unit result through its own read-only connection: call it off the GUI
// thread. The final matrices, else the latest snapshot holding the weights and biases. With
// `previous` (of the same run) its corpus is reused, and when it already shows the iteration
// found the load stops there (unchanged). A table's run reads the table's columns and rows, a
// ratings run its items and users (hidden_ratings_data).
HiddenRunLoad loadHiddenRun(const std::filesystem::path& projectFile, std::int64_t runId,
                            std::shared_ptr<const HiddenRunData> previous = nullptr);

}  // namespace latent::ui
