// SPDX-License-Identifier: GPL-3.0-or-later
// The documents of a topic-model run as a table: number, title, kept words, the topic with the
// largest proportion, and whether the document was used for training or held out.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <QVector>

#include <memory>

namespace latent::ui {

struct TopicRunData;

class RunDocumentModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { IndexColumn, TitleColumn, WordsColumn, TopicColumn, SetColumn, ColumnCount };
  static constexpr int DocumentIndexRole = Qt::UserRole + 10;
  static constexpr int DocumentIdRole = Qt::UserRole + 11;

  explicit RunDocumentModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const TopicRunData> data);
  void setColours(QVector<QColor> colours);
  void setLabels(QStringList labels);
  int mainTopic(int row) const;  // -1 without proportions

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const TopicRunData> m_data;
  std::vector<int> m_mainTopic;
  QVector<QColor> m_colours;
  QStringList m_labels;
};

// Keeps the documents whose title or id contains the typed text (case-insensitive).
class RunDocumentFilter final : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit RunDocumentFilter(QObject* parent = nullptr);
  void setText(const QString& text);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QString m_text;
};

}  // namespace latent::ui
