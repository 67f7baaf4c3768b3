// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenUnitsPage: layout, the table's look and export, the texts that say what is shown.
#include "ui/runs/hidden/hidden_units_page.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_unit_model.hpp"
#include "ui/util/bar_delegate.hpp"
#include "ui/util/format.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {

HiddenUnitsPage::HiddenUnitsPage(QWidget* parent) : QWidget(parent) {
  m_header = new QLabel(this);
  m_header->setTextFormat(Qt::RichText);
  m_header->setWordWrap(true);
  m_model = new HiddenUnitModel(this);
  m_sort = new QSortFilterProxyModel(this);
  m_sort->setSourceModel(m_model);
  m_sort->setSortRole(kHiddenSortRole);
  m_sort->setSortCaseSensitivity(Qt::CaseInsensitive);
  m_table = new QTableView(this);
  m_table->setModel(m_sort);
  makeCompact(m_table);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(HiddenUnitModel::UnitColumn, Qt::AscendingOrder);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setTextElideMode(Qt::ElideRight);
  m_table->setItemDelegateForColumn(HiddenUnitModel::MeanColumn, new BarDelegate(QStringLiteral("0.000"), m_table));
  auto* header = m_table->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::Interactive);
  header->setSectionResizeMode(HiddenUnitModel::UnitColumn, QHeaderView::ResizeToContents);
  // The two word lists share what the unit number and the bar leave.
  header->setSectionResizeMode(HiddenUnitModel::RaisesColumn, QHeaderView::Stretch);
  header->setSectionResizeMode(HiddenUnitModel::LowersColumn, QHeaderView::Stretch);
  m_table->setColumnWidth(HiddenUnitModel::MeanColumn, 150);
  enableTableExport(m_table, [this] { return m_data ? tr("run-%1-hidden-units.csv").arg(m_data->run.id) : QString(); });
  m_hint = new QLabel(this);
  m_hint->setWordWrap(true);
  m_hint->setForegroundRole(QPalette::PlaceholderText);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_header);
  layout->addWidget(m_table, 1);
  layout->addWidget(m_hint);
}

QString HiddenUnitsPage::headerText() const { return m_header->text(); }

void HiddenUnitsPage::setData(std::shared_ptr<const HiddenRunData> data) {
  m_data = std::move(data);
  m_model->setData(m_data);
  if (!m_data) {
    m_header->clear();
    m_hint->clear();
    return;
  }
  const auto& d = *m_data;
  m_table->setColumnHidden(HiddenUnitModel::MeanColumn, d.meanActivation.empty());
  const QString units = countOf(d.unitCount(), tr("hidden unit"), tr("hidden units"));
  if (d.isRatings())
    m_header->setText(tr("<b>%1</b>, from %2: each is an on-or-off feature of a user's taste; an item's number to a "
                         "unit is how much the unit, on alone with every other unit off, raises (positive) or lowers "
                         "(negative) the item's expected rating.")
                          .arg(units, d.sourceText().toHtmlEscaped()));
  else if (d.isGraph())
    m_header->setText(tr("<b>%1</b>, from %2: each is an on-or-off feature of a node, shared by nodes that link "
                         "alike; a node's weight to a unit says how much the unit being on raises (positive) or "
                         "lowers (negative) the odds of a link to that node.")
                          .arg(units, d.sourceText().toHtmlEscaped()));
  else if (d.isTable() && d.run.model == "rbm-gaussian")
    m_header->setText(tr("<b>%1</b>, from %2: each is an on-or-off feature of a row; a column's weight to a unit says "
                         "how far the unit being on moves the column's mean up (positive) or down (negative), in "
                         "standard deviations of the column.")
                          .arg(units, d.sourceText().toHtmlEscaped()));
  else if (d.isTable())
    m_header->setText(tr("<b>%1</b>, from %2: each is a hidden feature of a row; a column's weight to a unit says "
                         "how much the unit raises (positive) or lowers (negative) the odds that the column is 1.")
                          .arg(units, d.sourceText().toHtmlEscaped()));
  else
    m_header->setText(tr("<b>%1</b>, from %2: each is an on-or-off feature of a document; a word's weight to a unit "
                         "says how much the unit being on raises (positive) or lowers (negative) the word's odds.")
                          .arg(units, d.sourceText().toHtmlEscaped()));
  QString hint = tr("Click a column's title to sort by it; right-click to copy rows or export the table as CSV.");
  if (d.meanActivation.empty())
    hint += QLatin1Char(' ') + tr("The %1' activations are stored with the final result only.").arg(d.caseNoun(true));
  m_hint->setText(hint);
}

}  // namespace latent::ui
