// SPDX-License-Identifier: GPL-3.0-or-later
// What the hidden-unit pages of a harmonium run (rbm, rsm) read from the project, loaded off the
// GUI thread and shared read-only by the three pages: the weights and biases (final, or a
// snapshot), the documents' hidden activations when stored, the vocabulary, the documents and
// their labels, and what hidden_analysis computes from them.
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

// The corpus side, read once per run and shared by every later (live) load.
struct HiddenCorpus {
  std::vector<std::string> words;  // index = word id = row of the weights
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
  Eigen::MatrixXd weights;      // V x K
  Eigen::VectorXd visibleBias;  // V
  Eigen::VectorXd hiddenBias;   // K
  Eigen::MatrixXd activations;  // D x K in corpus order; 0 x 0 when not stored (snapshots)

  std::vector<UnitWords> topWords;     // kHiddenTopWords each way per unit
  std::vector<double> meanActivation;  // per unit; empty without activations
  ActivationProjection projection;     // empty without activations
  WeightLayout layout;                 // the heat map's rows and columns

  int unitCount() const noexcept { return static_cast<int>(weights.cols()); }
  int wordCount() const noexcept { return static_cast<int>(weights.rows()); }
  int documentCount() const noexcept { return corpus ? static_cast<int>(corpus->documents.size()) : 0; }
  bool hasActivations() const noexcept { return activations.rows() > 0 && activations.rows() == documentCount(); }
  bool hasLabels() const noexcept { return corpus && !corpus->labelNames.isEmpty(); }
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
  // Null on error, for a run that is not a corpus', or one without weights and biases.
  std::shared_ptr<const HiddenRunData> data;
  QString error;
  bool unchanged = false;  // `previous` already shows the result found
};

// Reads a run's hidden-unit result through its own read-only connection: call it off the GUI
// thread. The final matrices, else the latest snapshot holding the weights and biases. With
// `previous` (of the same run) its corpus is reused, and when it already shows the iteration
// found the load stops there (unchanged).
HiddenRunLoad loadHiddenRun(const std::filesystem::path& projectFile, std::int64_t runId,
                            std::shared_ptr<const HiddenRunData> previous = nullptr);

}  // namespace latent::ui
