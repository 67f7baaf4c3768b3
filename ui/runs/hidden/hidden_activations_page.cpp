// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenActivationsPage: layout, keeping the list, the bars and the map on one document, texts.
#include "ui/runs/hidden/hidden_activations_page.hpp"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/runs/hidden/activation_bars_view.hpp"
#include "ui/runs/hidden/activation_map_view.hpp"
#include "ui/runs/hidden/hidden_document_model.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {

HiddenActivationsPage::HiddenActivationsPage(QWidget* parent) : QWidget(parent) {
  // Left: the documents.
  m_filterBox = new QLineEdit(this);
  m_filterBox->setPlaceholderText(tr("Filter documents by title, id or label"));
  m_filterBox->setClearButtonEnabled(true);
  m_model = new HiddenDocumentModel(this);
  m_filter = new HiddenDocumentFilter(this);
  m_filter->setSourceModel(m_model);
  m_documents = new QTableView(this);
  m_documents->setModel(m_filter);
  makeCompact(m_documents);
  m_documents->setSortingEnabled(true);
  m_documents->sortByColumn(HiddenDocumentModel::IndexColumn, Qt::AscendingOrder);
  m_documents->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_documents->setSelectionMode(QAbstractItemView::SingleSelection);
  m_documents->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_documents->setTextElideMode(Qt::ElideRight);
  // The titles take what the number and a label of fixed width leave, without a scroll bar across.
  m_documents->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* dh = m_documents->horizontalHeader();
  dh->setSectionResizeMode(QHeaderView::ResizeToContents);
  dh->setSectionResizeMode(HiddenDocumentModel::TitleColumn, QHeaderView::Stretch);
  dh->setSectionResizeMode(HiddenDocumentModel::LabelColumn, QHeaderView::Interactive);
  m_documents->setColumnWidth(HiddenDocumentModel::LabelColumn, 110);
  enableTableExport(m_documents,
                    [this] { return m_data ? tr("run-%1-documents.csv").arg(m_data->run.id) : QString(); });
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(m_filterBox);
  leftLayout->addWidget(m_documents, 1);

  // Right: the picked document's bars over the map of all documents.
  m_documentHeader = new QLabel(this);
  m_documentHeader->setTextFormat(Qt::RichText);
  m_documentHeader->setWordWrap(true);
  m_bars = new ActivationBarsView(this);
  enableFigureExport(m_bars, [this] {
    return QStringLiteral("run-%1-document-%2-activations").arg(m_data ? m_data->run.id : 0).arg(m_document + 1);
  });
  auto* top = new QWidget(this);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(m_documentHeader);
  topLayout->addWidget(m_bars, 1);

  m_mapHeader = new QLabel(this);
  m_mapHeader->setTextFormat(Qt::RichText);
  m_mapHeader->setWordWrap(true);
  m_mapHint = new QLabel(this);
  m_mapHint->setWordWrap(true);
  m_mapHint->setForegroundRole(QPalette::PlaceholderText);
  m_map = new ActivationMapView(this);
  enableFigureExport(m_map,
                     [this] { return QStringLiteral("run-%1-activation-map").arg(m_data ? m_data->run.id : 0); });
  auto* bottom = new QWidget(this);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(0, 0, 0, 0);
  bottomLayout->addWidget(m_mapHeader);
  bottomLayout->addWidget(m_map, 1);
  bottomLayout->addWidget(m_mapHint);

  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(top);
  right->addWidget(bottom);
  // The map needs the height more than the bars, which read at any height.
  right->setStretchFactor(0, 1);
  right->setStretchFactor(1, 2);
  right->setChildrenCollapsible(false);

  m_splitter = new QSplitter(Qt::Horizontal, this);
  m_splitter->addWidget(left);
  m_splitter->addWidget(right);
  m_splitter->setStretchFactor(0, 2);
  m_splitter->setStretchFactor(1, 5);
  m_splitter->setChildrenCollapsible(false);
  left->setMinimumWidth(260);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_splitter, 1);

  connect(m_filterBox, &QLineEdit::textChanged, m_filter, &HiddenDocumentFilter::setText);
  connect(m_documents->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid()) return;
            const int document = current.data(HiddenDocumentModel::DocumentRole).toInt();
            if (document != m_document) show(document);
          });
  connect(m_map, &ActivationMapView::documentClicked, this, &HiddenActivationsPage::selectDocument);
}

QString HiddenActivationsPage::documentHeaderText() const { return m_documentHeader->text(); }

void HiddenActivationsPage::setData(std::shared_ptr<const HiddenRunData> data) {
  m_data = std::move(data);
  m_document = -1;
  m_model->setData(m_data);
  m_bars->setData(m_data);
  m_map->setData(m_data);
  m_documentHeader->clear();
  m_mapHeader->clear();
  m_mapHint->clear();
  if (!m_data) return;
  m_documents->setColumnHidden(HiddenDocumentModel::LabelColumn, !m_data->hasLabels());
  const bool table = m_data->isTable(), ratings = m_data->isRatings();
  m_filterBox->setPlaceholderText(ratings ? tr("Filter users by id")
                                  : table ? tr("Filter rows by name or label")
                                          : tr("Filter documents by title, id or label"));
  m_mapHeader->setText(
      tr("<b>All %1</b> on the first two principal components of their hidden activations")
          .arg(countOf(m_data->documentCount(), m_data->caseNoun(), m_data->caseNoun(true)).toHtmlEscaped()));
  QString hint = ratings ? tr("Users whose ratings switch on the same units lie close together.")
                 : table ? tr("Rows that switch on the same units lie close together.")
                         : tr("Documents that switch on the same units lie close together.");
  if (m_data->hasLabels())
    hint += QLatin1Char(' ') + (table ? tr("Colour: the row's label in the table, which the model did not see.")
                                      : tr("Colour: the document's label in the corpus, which the model did not see."));
  hint += QLatin1Char(' ') + (ratings ? tr("Click a dot to show that user's activations; hover it for its id.")
                              : table ? tr("Click a dot to show that row's activations; hover it for its name.")
                                      : tr("Click a dot to show that document's activations; hover it for its title."));
  m_mapHint->setText(hint);
  if (m_data->documentCount() > 0) selectDocument(0);
}

void HiddenActivationsPage::selectDocument(int document) {
  if (!m_data || document < 0 || document >= m_data->documentCount()) return;
  QModelIndex at = m_filter->mapFromSource(m_model->index(document, HiddenDocumentModel::TitleColumn));
  if (!at.isValid()) {
    // The filter hides it: a document picked on the map is shown in the list all the same.
    m_filterBox->clear();
    at = m_filter->mapFromSource(m_model->index(document, HiddenDocumentModel::TitleColumn));
  }
  show(document);
  if (at.isValid()) {
    m_documents->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_documents->scrollTo(at);
  }
}

void HiddenActivationsPage::show(int document) {
  m_document = document;
  m_bars->setDocument(document);
  m_map->setSelected(document);
  const QString label = m_data->documentLabel(document);
  m_documentHeader->setText(
      (m_data->isRatings() ? tr("<b>%1</b>%2 — the probability that each hidden unit is on, given the user's "
                                "ratings")
       : m_data->isTable() ? tr("<b>%1</b>%2 — each hidden unit's activation, given the row's values")
                           : tr("<b>%1</b>%2 — the probability that each hidden unit is on, given the document's "
                                "words"))
          .arg(m_data->documentTitle(document).toHtmlEscaped(),
               label.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(label.toHtmlEscaped())));
  Q_EMIT documentShown(document);
}

}  // namespace latent::ui
