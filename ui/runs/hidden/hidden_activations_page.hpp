// SPDX-License-Identifier: GPL-3.0-or-later
// The Activations page of a harmonium run: the documents to pick from (filtered as typed), the
// picked document's hidden activations as bars, and every document on the first two principal
// components of the activations, coloured by label; picking in the list or on the map shows the
// same document in both.
#pragma once

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;

namespace latent::ui {

class ActivationBarsView;
class ActivationMapView;
class HiddenDocumentFilter;
class HiddenDocumentModel;
struct HiddenRunData;

class HiddenActivationsPage final : public QWidget {
  Q_OBJECT

 public:
  explicit HiddenActivationsPage(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);
  const std::shared_ptr<const HiddenRunData>& data() const noexcept { return m_data; }

  // Shows a document (corpus order) in the bars, rings it on the map and selects it in the list
  // (clearing a filter that hides it).
  void selectDocument(int document);
  int selectedDocument() const noexcept { return m_document; }

  QLineEdit* filterBox() const noexcept { return m_filterBox; }
  QTableView* documentTable() const noexcept { return m_documents; }
  ActivationBarsView* bars() const noexcept { return m_bars; }
  ActivationMapView* map() const noexcept { return m_map; }
  QString documentHeaderText() const;

 Q_SIGNALS:
  void documentShown(int document);

 private:
  void show(int document);

  std::shared_ptr<const HiddenRunData> m_data;
  int m_document = -1;
  QLineEdit* m_filterBox = nullptr;
  QTableView* m_documents = nullptr;
  HiddenDocumentModel* m_model = nullptr;
  HiddenDocumentFilter* m_filter = nullptr;
  QLabel* m_documentHeader = nullptr;
  QLabel* m_mapHeader = nullptr;
  QLabel* m_mapHint = nullptr;
  ActivationBarsView* m_bars = nullptr;
  ActivationMapView* m_map = nullptr;
  QSplitter* m_splitter = nullptr;
};

}  // namespace latent::ui
