// SPDX-License-Identifier: GPL-3.0-or-later
// The kind-specific part of the import dialog: format and the options of DESIGN §6's import
// commands (columns, vocabulary, stop words and pruning for corpora; nodes file and direction
// for graphs; items file and columns for ratings; id, label and feature columns for numeric tables).
#pragma once

#include <QWidget>

#include "core/data/data_kind.hpp"
#include "ui/import/import_settings.hpp"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace latent::ui {

class ImportOptionsForm final : public QWidget {
  Q_OBJECT

 public:
  explicit ImportOptionsForm(core::DataKind kind, QWidget* parent = nullptr);

  // Writes format and options into the request of the form's kind (source and name untouched).
  void apply(ImportSettings& settings) const;
  QComboBox* formatCombo() const noexcept { return m_format; }
  // Sets the format by its command-line name ("lines", "edges", "csv"); false when unknown.
  bool setFormat(const QString& name);
  // Corpora: the format the preview read the source as. With "Detect from the file" chosen, it
  // decides which fields show (a folder has no text column) and the pruning defaults.
  void setDetectedFormat(core::CorpusFormat format);
  // Corpora: the pruning defaults for text (min-df 3, max-df 0.9: those of the SOTU sample) or
  // for a bag of words (1 and 1.0: its vocabulary was chosen by whoever made it); the user's own
  // values are kept once edited.
  static constexpr int kTextMinDf = 3;
  static constexpr double kTextMaxDf = 0.9;

 Q_SIGNALS:
  void changed();

 private:
  QLineEdit* addText(QFormLayout* form, const QString& label, const QString& placeholder, const QString& help);
  QLineEdit* addFile(QFormLayout* form, const QString& label, const QString& help, const QString& filter);
  // Shows the fields that apply to the format and sets the pruning defaults.
  void updateFields();
  // Shows a field's row (label and field) or hides it.
  void showRow(QWidget* field, bool visible);
  core::CorpusFormat effectiveCorpusFormat() const;

  core::DataKind m_kind;
  QFormLayout* m_form = nullptr;
  QComboBox* m_format = nullptr;
  core::CorpusFormat m_detected = core::CorpusFormat::Auto;
  bool m_pruneEdited = false;
  bool m_settingDefaults = false;
  // Corpus.
  QLineEdit *m_textColumn = nullptr, *m_titleColumn = nullptr, *m_timeColumn = nullptr, *m_labelColumn = nullptr,
            *m_idColumn = nullptr, *m_vocabulary = nullptr, *m_stopFile = nullptr;
  QLineEdit *m_labelSeparator = nullptr, *m_metadataColumns = nullptr, *m_metadataFile = nullptr,
            *m_metadataKey = nullptr;
  QComboBox* m_stopWords = nullptr;
  QSpinBox *m_minDf = nullptr, *m_maxVocab = nullptr, *m_minLength = nullptr;
  QDoubleSpinBox* m_maxDf = nullptr;
  // Graph.
  QLineEdit* m_nodes = nullptr;
  QComboBox* m_direction = nullptr;
  QLineEdit* m_relationColumn = nullptr;  // edge lists: several relations
  QLineEdit* m_where = nullptr;
  // Ratings.
  QLineEdit *m_items = nullptr, *m_userColumn = nullptr, *m_itemColumn = nullptr, *m_ratingColumn = nullptr,
            *m_ratingTimeColumn = nullptr;
  // Numeric table.
  QLineEdit *m_tableIdColumn = nullptr, *m_tableLabelColumn = nullptr, *m_tableColumns = nullptr;
};

}  // namespace latent::ui
