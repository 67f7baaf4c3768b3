// SPDX-License-Identifier: GPL-3.0-or-later
// ImportOptionsForm: fields per kind; formats listed here by their enum so they do not depend
// on the readers being present.
#include "ui/import/import_options_form.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include <climits>

#include "ui/util/preferences.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/wheel_guard.hpp"

namespace latent::ui {
namespace {

struct FormatEntry {
  const char* name;  // the command line's
  const char* label;
  int value;
};

const FormatEntry kCorpusFormats[] = {
    {"auto", QT_TRANSLATE_NOOP("ImportOptionsForm", "Detect from the file"),
     static_cast<int>(core::CorpusFormat::Auto)},
    {"dir", QT_TRANSLATE_NOOP("ImportOptionsForm", "Folder of .txt files"),
     static_cast<int>(core::CorpusFormat::Folder)},
    {"lines", QT_TRANSLATE_NOOP("ImportOptionsForm", "One document per line"),
     static_cast<int>(core::CorpusFormat::Lines)},
    {"csv", QT_TRANSLATE_NOOP("ImportOptionsForm", "CSV / TSV with a text column"),
     static_cast<int>(core::CorpusFormat::Csv)},
    {"jsonl", QT_TRANSLATE_NOOP("ImportOptionsForm", "JSON Lines"), static_cast<int>(core::CorpusFormat::JsonLines)},
    {"uci", QT_TRANSLATE_NOOP("ImportOptionsForm", "UCI bag of words (docword + vocab)"),
     static_cast<int>(core::CorpusFormat::Uci)},
    {"ldac", QT_TRANSLATE_NOOP("ImportOptionsForm", "LDA-C (N id:count … + vocab)"),
     static_cast<int>(core::CorpusFormat::Ldac)},
    {"responses", QT_TRANSLATE_NOOP("ImportOptionsForm", "Survey answers (CSV / TSV, a column per question)"),
     static_cast<int>(core::CorpusFormat::Responses)},
};
const FormatEntry kGraphFormats[] = {
    {"auto", QT_TRANSLATE_NOOP("ImportOptionsForm", "Detect from the file"), static_cast<int>(core::GraphFormat::Auto)},
    {"edges", QT_TRANSLATE_NOOP("ImportOptionsForm", "Edge list (CSV/TSV)"),
     static_cast<int>(core::GraphFormat::EdgeList)},
    {"matrix", QT_TRANSLATE_NOOP("ImportOptionsForm", "Adjacency matrix (CSV)"),
     static_cast<int>(core::GraphFormat::Matrix)},
    {"gml", QT_TRANSLATE_NOOP("ImportOptionsForm", "GML"), static_cast<int>(core::GraphFormat::Gml)},
    {"graphml", QT_TRANSLATE_NOOP("ImportOptionsForm", "GraphML"), static_cast<int>(core::GraphFormat::GraphMl)},
    {"pajek", QT_TRANSLATE_NOOP("ImportOptionsForm", "Pajek .net"), static_cast<int>(core::GraphFormat::Pajek)},
};
const FormatEntry kRatingsFormats[] = {
    {"auto", QT_TRANSLATE_NOOP("ImportOptionsForm", "Detect from the file"),
     static_cast<int>(core::RatingsFormat::Auto)},
    {"movielens", QT_TRANSLATE_NOOP("ImportOptionsForm", "MovieLens (100K, 1M, latest)"),
     static_cast<int>(core::RatingsFormat::MovieLens)},
    {"csv", QT_TRANSLATE_NOOP("ImportOptionsForm", "CSV with user, item, rating columns"),
     static_cast<int>(core::RatingsFormat::Csv)},
};
const FormatEntry kTableFormats[] = {
    {"auto", QT_TRANSLATE_NOOP("ImportOptionsForm", "Detect from the file"), static_cast<int>(core::TableFormat::Auto)},
    {"csv", QT_TRANSLATE_NOOP("ImportOptionsForm", "CSV / TSV with a header line"),
     static_cast<int>(core::TableFormat::Csv)},
};

std::string trimmed(const QLineEdit* edit) { return edit ? utf8(edit->text().trimmed()) : std::string(); }

}  // namespace

ImportOptionsForm::ImportOptionsForm(core::DataKind kind, QWidget* parent) : QWidget(parent), m_kind(kind) {
  auto* form = new QFormLayout(this);
  m_form = form;
  form->setContentsMargins(0, 0, 0, 0);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_format = new QComboBox(this);
  guardWheel(m_format);
  auto addFormats = [this](const auto& formats) {
    for (const auto& f : formats) {
      m_format->addItem(tr(f.label), f.value);
      m_format->setItemData(m_format->count() - 1, QString::fromLatin1(f.name), Qt::UserRole + 1);
    }
  };
  switch (kind) {
    case core::DataKind::Corpus:
      addFormats(kCorpusFormats);
      break;
    case core::DataKind::Graph:
      addFormats(kGraphFormats);
      break;
    case core::DataKind::Ratings:
      addFormats(kRatingsFormats);
      break;
    case core::DataKind::Table:
      addFormats(kTableFormats);
      break;
  }
  form->addRow(tr("Format"), m_format);
  connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
    updateFields();
    Q_EMIT changed();
  });

  if (kind == core::DataKind::Corpus) {
    m_textColumn = addText(form, tr("Text column"), QStringLiteral("text"),
                           tr("CSV and JSON Lines: the column (field) holding the text."));
    m_titleColumn = addText(form, tr("Title column"), tr("none"), tr("Optional: a column with document titles."));
    m_timeColumn = addText(form, tr("Time column"), tr("none"), tr("Optional: a year or date per document."));
    m_labelColumn = addText(form, tr("Label column"), tr("none"), tr("Optional: a known category per document."));
    m_labelSeparator = addText(form, tr("Label separator"), tr("one label"),
                               tr("Optional: the label column holds several labels split by this, e.g. ;"));
    m_idColumn =
        addText(form, tr("Id column"), QStringLiteral("id"), tr("Optional: document ids; else the record number."));
    m_metadataColumns = addText(form, tr("Metadata columns"), tr("none"),
                                tr("Optional: further columns kept with each document (party, rating), comma "
                                   "separated, or all."));
    m_metadataFile = addFile(form, tr("Metadata file"),
                             tr("Optional: a CSV with a row per document (year, party, author), matched by id or file "
                                "name; the time and label columns may come from it."),
                             tr("CSV files (*.csv *.tsv);;All files (*)"));
    m_metadataKey = addText(form, tr("Metadata key"), tr("id, else file"),
                            tr("The metadata file's column that names each document (its id or file name)."));
    connect(m_metadataFile, &QLineEdit::textChanged, this, [this] { updateFields(); });
    m_textColumn->setObjectName(QStringLiteral("textColumn"));
    m_titleColumn->setObjectName(QStringLiteral("titleColumn"));
    m_idColumn->setObjectName(QStringLiteral("idColumn"));
    m_timeColumn->setObjectName(QStringLiteral("timeColumn"));
    m_labelColumn->setObjectName(QStringLiteral("labelColumn"));
    m_labelSeparator->setObjectName(QStringLiteral("labelSeparator"));
    m_metadataColumns->setObjectName(QStringLiteral("metadataColumns"));
    m_metadataFile->setObjectName(QStringLiteral("metadataFile"));
    m_metadataKey->setObjectName(QStringLiteral("metadataKey"));
    m_vocabulary =
        addFile(form, tr("Vocabulary file"), tr("UCI and LDA-C: one word per line; found next to the data when empty."),
                tr("Vocabulary (*.txt *.vocab);;All files (*)"));
    m_vocabulary->setObjectName(QStringLiteral("vocabularyFile"));
    m_stopWords = new QComboBox(this);
    guardWheel(m_stopWords);
    m_stopWords->addItem(tr("Default (English for text, none for bag of words)"), QString());
    m_stopWords->addItem(tr("English (built in)"), QStringLiteral("en"));
    m_stopWords->addItem(tr("None: keep every word (for LDA-HMM)"), QStringLiteral("none"));
    m_stopWords->addItem(tr("From a file…"), QStringLiteral("file"));
    m_stopWords->setToolTip(
        tr("Words dropped before counting: very common words that carry no topic. Keep them (None) for LDA-HMM, "
           "which learns the function words as syntactic classes and needs them."));
    form->addRow(tr("Stop words"), m_stopWords);
    m_stopFile = addFile(form, tr("Stop-word file"), tr("One word per line; # starts a comment."),
                         tr("Text files (*.txt);;All files (*)"));
    // The list starts from the user's preference (Edit > Preferences): a known choice, or a file.
    const QString preferred = loadPreferences().stopWords;
    if (const int known = m_stopWords->findData(preferred); known >= 0) {
      m_stopWords->setCurrentIndex(known);
    } else {
      m_stopWords->setCurrentIndex(m_stopWords->findData(QStringLiteral("file")));
      m_stopFile->setText(preferred);
    }
    m_minDf = new QSpinBox(this);
    guardWheel(m_minDf);
    m_minDf->setRange(1, INT_MAX);
    m_minDf->setValue(kTextMinDf);
    m_minDf->setObjectName(QStringLiteral("minDf"));
    m_minDf->setToolTip(
        tr("Drop words found in fewer documents than this: mostly names and typos. The default, "
           "3, is what the built-in SOTU sample uses; bag-of-words files start at 1."));
    form->addRow(tr("Minimum document frequency"), m_minDf);
    m_maxDf = new QDoubleSpinBox(this);
    guardWheel(m_maxDf);
    m_maxDf->setRange(0.01, 1.0);
    m_maxDf->setSingleStep(0.05);
    m_maxDf->setValue(kTextMaxDf);
    m_maxDf->setObjectName(QStringLiteral("maxDf"));
    m_maxDf->setToolTip(
        tr("Drop words found in more than this fraction of documents: they carry no topic. The "
           "default, 0.9, is what the built-in SOTU sample uses; bag-of-words files start at 1."));
    form->addRow(tr("Maximum document fraction"), m_maxDf);
    m_maxVocab = new QSpinBox(this);
    guardWheel(m_maxVocab);
    m_maxVocab->setRange(0, INT_MAX);
    m_maxVocab->setSpecialValueText(tr("no cap"));
    m_maxVocab->setGroupSeparatorShown(true);
    m_maxVocab->setToolTip(tr("Keep only this many of the most frequent words (0: no cap)."));
    form->addRow(tr("Vocabulary cap"), m_maxVocab);
    m_minLength = new QSpinBox(this);
    guardWheel(m_minLength);
    m_minLength->setRange(1, 50);
    m_minLength->setValue(static_cast<int>(core::TokenizerOptions{}.minLength));
    m_minLength->setObjectName(QStringLiteral("minLength"));
    m_minLength->setToolTip(tr("Words of letters shorter than this many characters are dropped (stray initials)."));
    form->addRow(tr("Shortest word"), m_minLength);
    connect(m_minLength, &QSpinBox::valueChanged, this, &ImportOptionsForm::changed);
    connect(m_stopWords, &QComboBox::currentIndexChanged, this, [this] {
      updateFields();
      Q_EMIT changed();
    });
    for (auto* box : {m_minDf, m_maxVocab}) connect(box, &QSpinBox::valueChanged, this, &ImportOptionsForm::changed);
    connect(m_maxDf, &QDoubleSpinBox::valueChanged, this, &ImportOptionsForm::changed);
    const auto edited = [this] {
      if (!m_settingDefaults) m_pruneEdited = true;
    };
    connect(m_minDf, &QSpinBox::valueChanged, this, edited);
    connect(m_maxDf, &QDoubleSpinBox::valueChanged, this, edited);
  } else if (kind == core::DataKind::Graph) {
    m_nodes = addFile(form, tr("Nodes file"),
                      tr("Optional CSV: an id column, a name column, other columns become node attributes."),
                      tr("CSV files (*.csv *.tsv *.txt);;All files (*)"));
    m_direction = new QComboBox(this);
    guardWheel(m_direction);
    m_direction->addItem(tr("As the file declares"), 0);
    m_direction->addItem(tr("Directed"), 1);
    m_direction->addItem(tr("Undirected"), 2);
    m_direction->setToolTip(
        tr("Edge lists are undirected unless you say so; GML, GraphML and Pajek say it themselves."));
    form->addRow(tr("Edges are"), m_direction);
    connect(m_direction, &QComboBox::currentIndexChanged, this, &ImportOptionsForm::changed);
    m_relationColumn =
        addText(form, tr("Relation column"), tr("none (one relation)"),
                tr("Edge lists with a header: the column naming each row's relation (such as Sampson's like, esteem, "
                   "praise); the graph keeps one relation per value, and models of one relation fit the first."));
    m_where = addText(form, tr("Keep rows where"), tr("every row"),
                      tr("Edge lists with a header: column=value keeps only the rows with that value (wave=T4)."));
    m_relationColumn->setObjectName(QStringLiteral("relationColumn"));
    m_where->setObjectName(QStringLiteral("where"));
  } else if (kind == core::DataKind::Table) {
    m_tableIdColumn = addText(form, tr("Id column"), tr("none (rows are numbered)"),
                              tr("Optional: the column naming the rows; else they are named 1 to N."));
    m_tableLabelColumn = addText(form, tr("Label column"), tr("none"),
                                 tr("Optional: a column with a known class per row, kept apart from the features."));
    m_tableColumns = addText(form, tr("Feature columns"), tr("every other column"),
                             tr("Optional: the columns to keep as features, separated by commas (A,B,C)."));
  } else {
    m_items = addFile(form, tr("Items file"),
                      tr("Item names: u.item, movies.dat, movies.csv, or a CSV with id and name columns."),
                      tr("Item files (*.item *.dat *.csv *.tsv);;All files (*)"));
    m_userColumn = addText(form, tr("User column"), QStringLiteral("user"), tr("Generic CSV: the column of user ids."));
    m_itemColumn = addText(form, tr("Item column"), QStringLiteral("item"), tr("Generic CSV: the column of item ids."));
    m_ratingColumn =
        addText(form, tr("Rating column"), QStringLiteral("rating"), tr("Generic CSV: the column of values."));
    m_ratingTimeColumn = addText(form, tr("Time column"), tr("none"), tr("Optional: a time stamp per rating."));
  }
  updateFields();
}

QLineEdit* ImportOptionsForm::addText(QFormLayout* form, const QString& label, const QString& placeholder,
                                      const QString& help) {
  auto* edit = new QLineEdit(this);
  edit->setPlaceholderText(placeholder);
  edit->setToolTip(help);
  form->addRow(label, edit);
  connect(edit, &QLineEdit::textChanged, this, &ImportOptionsForm::changed);
  return edit;
}

QLineEdit* ImportOptionsForm::addFile(QFormLayout* form, const QString& label, const QString& help,
                                      const QString& filter) {
  auto* edit = new QLineEdit(this);
  edit->setToolTip(help);
  edit->setPlaceholderText(tr("none"));
  auto* browse = new QToolButton(this);
  browse->setText(tr("…"));
  browse->setToolTip(tr("Choose a file"));
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(edit, 1);
  row->addWidget(browse);
  form->addRow(label, row);
  connect(edit, &QLineEdit::textChanged, this, &ImportOptionsForm::changed);
  connect(browse, &QToolButton::clicked, this, [this, edit, label, filter] {
    const QString file = QFileDialog::getOpenFileName(this, label, edit->text(), filter);
    if (!file.isEmpty()) edit->setText(file);
  });
  return edit;
}

bool ImportOptionsForm::setFormat(const QString& name) {
  const int index = m_format->findData(name, Qt::UserRole + 1);
  if (index < 0) return false;
  m_format->setCurrentIndex(index);
  return true;
}

void ImportOptionsForm::setDetectedFormat(core::CorpusFormat format) {
  if (m_kind != core::DataKind::Corpus || format == m_detected) return;
  m_detected = format;
  updateFields();
}

core::CorpusFormat ImportOptionsForm::effectiveCorpusFormat() const {
  const auto chosen = static_cast<core::CorpusFormat>(m_format->currentData().toInt());
  return chosen == core::CorpusFormat::Auto ? m_detected : chosen;
}

void ImportOptionsForm::showRow(QWidget* field, bool visible) {
  for (int row = 0; row < m_form->rowCount(); ++row) {
    auto* item = m_form->itemAt(row, QFormLayout::FieldRole);
    if (item && (item->widget() == field || (item->layout() && item->layout()->indexOf(field) >= 0))) {
      m_form->setRowVisible(row, visible);
      return;
    }
  }
}

void ImportOptionsForm::updateFields() {
  if (m_kind != core::DataKind::Corpus) return;
  // Fields that do not apply to the format are hidden, not greyed: a folder of texts has no text
  // column. With "Detect from the file" they follow the format the preview found.
  const auto format = effectiveCorpusFormat();
  const bool columns = format == core::CorpusFormat::Csv || format == core::CorpusFormat::JsonLines;
  const bool bag = core::isBagOfWords(format);
  const bool metadataFile = !m_metadataFile->text().trimmed().isEmpty();
  for (auto* edit : {m_textColumn, m_titleColumn}) showRow(edit, columns);
  showRow(m_idColumn, columns || format == core::CorpusFormat::Responses);
  // A metadata file gives any format its times, labels and metadata, so these name its columns.
  for (auto* edit : {m_timeColumn, m_labelColumn, m_metadataColumns}) showRow(edit, columns || metadataFile);
  showRow(m_labelSeparator, columns || metadataFile);
  showRow(m_metadataKey, metadataFile);
  showRow(m_vocabulary, format == core::CorpusFormat::Uci || format == core::CorpusFormat::Ldac);
  showRow(m_stopFile, m_stopWords->currentData().toString() == QLatin1String("file"));
  showRow(m_minLength, !bag);
  if (!m_pruneEdited && format != core::CorpusFormat::Auto) {
    m_settingDefaults = true;
    m_minDf->setValue(bag ? 1 : kTextMinDf);
    m_maxDf->setValue(bag ? 1.0 : kTextMaxDf);
    m_settingDefaults = false;
  }
}

void ImportOptionsForm::apply(ImportSettings& s) const {
  switch (m_kind) {
    case core::DataKind::Corpus: {
      auto& r = s.corpus;
      r.read.format = static_cast<core::CorpusFormat>(m_format->currentData().toInt());
      r.read.textColumn = trimmed(m_textColumn);
      r.read.titleColumn = trimmed(m_titleColumn);
      r.read.timeColumn = trimmed(m_timeColumn);
      r.read.labelColumn = trimmed(m_labelColumn);
      r.read.idColumn = trimmed(m_idColumn);
      r.labelSeparator = utf8(m_labelSeparator->text());
      r.read.metadataColumns.clear();
      for (const auto& name : m_metadataColumns->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty()) r.read.metadataColumns.push_back(utf8(name.trimmed()));
      r.metadataFile = toPath(m_metadataFile->text().trimmed());
      r.metadataKey = trimmed(m_metadataKey);
      r.read.vocabulary = toPath(m_vocabulary->text().trimmed());
      const QString stop = m_stopWords->currentData().toString();
      if (stop.isEmpty())
        r.stopWords.reset();
      else if (stop == QLatin1String("file"))
        r.stopWords = trimmed(m_stopFile);
      else
        r.stopWords = utf8(stop);
      r.prune.minDocumentFrequency = m_minDf->value();
      r.prune.maxDocumentFraction = m_maxDf->value();
      r.prune.maxVocabulary = m_maxVocab->value();
      r.tokenizer.minLength = static_cast<std::size_t>(m_minLength->value());
      break;
    }
    case core::DataKind::Graph: {
      auto& r = s.graph;
      r.read.format = static_cast<core::GraphFormat>(m_format->currentData().toInt());
      r.read.nodes = toPath(m_nodes->text().trimmed());
      const int direction = m_direction->currentData().toInt();
      if (direction == 0)
        r.read.directed.reset();
      else
        r.read.directed = direction == 1;
      r.read.relationColumn = trimmed(m_relationColumn);
      r.read.where = trimmed(m_where);
      break;
    }
    case core::DataKind::Ratings: {
      auto& r = s.ratings;
      r.read.format = static_cast<core::RatingsFormat>(m_format->currentData().toInt());
      r.read.items = toPath(m_items->text().trimmed());
      r.read.userColumn = trimmed(m_userColumn);
      r.read.itemColumn = trimmed(m_itemColumn);
      r.read.ratingColumn = trimmed(m_ratingColumn);
      r.read.timeColumn = trimmed(m_ratingTimeColumn);
      break;
    }
    case core::DataKind::Table: {
      auto& r = s.table;
      r.read.format = static_cast<core::TableFormat>(m_format->currentData().toInt());
      r.read.idColumn = trimmed(m_tableIdColumn);
      r.read.labelColumn = trimmed(m_tableLabelColumn);
      r.read.columns = core::splitColumnList(trimmed(m_tableColumns));
      break;
    }
  }
}

}  // namespace latent::ui
