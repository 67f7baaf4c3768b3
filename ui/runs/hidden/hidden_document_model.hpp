// SPDX-License-Identifier: GPL-3.0-or-later
// The documents of a harmonium run as a list to pick from: number, title and label (when the
// corpus has labels), with a filter on the typed text over every column.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>

namespace latent::ui {

struct HiddenRunData;

class HiddenDocumentModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { IndexColumn, TitleColumn, LabelColumn, ColumnCount };
  static constexpr int DocumentRole = Qt::UserRole + 10;  // the document's position in the corpus
  static constexpr int SearchRole = Qt::UserRole + 11;    // what the filter looks in: number, title, id, label, time

  explicit HiddenDocumentModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const HiddenRunData> data);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const HiddenRunData> m_data;
};

// Keeps the documents whose number, title, id or label contains the typed text (ignoring case).
class HiddenDocumentFilter final : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit HiddenDocumentFilter(QObject* parent = nullptr);
  void setText(const QString& text);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QString m_text;
};

}  // namespace latent::ui
