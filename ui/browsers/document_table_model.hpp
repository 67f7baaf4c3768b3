// SPDX-License-Identifier: GPL-3.0-or-later
// The documents of a corpus as a table (index, id, title, time, label, tokens, then one column per
// metadata name), and the filter the search box drives: title/id text, or the documents that
// contain a searched word.
#pragma once

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

#include <vector>

#include "core/store/corpus_store.hpp"

namespace latent::ui {

class DocumentTableModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { IndexColumn, IdColumn, TitleColumn, TimeColumn, LabelColumn, TokensColumn, ColumnCount };
  static constexpr int DocumentIndexRole = Qt::UserRole + 1;

  explicit DocumentTableModel(QObject* parent = nullptr);

  // `metadata` (from metadataColumnsOf, off the GUI thread): a column per name after Tokens.
  void setDocuments(std::vector<core::DocumentHeader> documents,
                    std::vector<core::Corpus::MetadataColumn> metadata = {});
  int metadataColumnCount() const noexcept { return static_cast<int>(m_metadata.size()); }
  const core::DocumentHeader& document(int row) const { return m_documents.at(static_cast<std::size_t>(row)); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<core::DocumentHeader> m_documents;
  std::vector<core::Corpus::MetadataColumn> m_metadata;
};

// The metadata columns of these documents (their stored JSON objects read).
std::vector<core::Corpus::MetadataColumn> metadataColumnsOf(const std::vector<core::DocumentHeader>& documents);

class DocumentFilter final : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit DocumentFilter(QObject* parent = nullptr);

  // Case-insensitive substring of the title or the id.
  void setText(const QString& text);
  // Documents (by index) that contain the searched word; cleared by setText.
  void setWordMatches(QSet<qint64> documents);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QString m_text;
  QSet<qint64> m_wordMatches;
};

}  // namespace latent::ui
