// SPDX-License-Identifier: GPL-3.0-or-later
// RelationsPage: the caption and the matrices of a multi-relational irm run.
#include "ui/runs/blocks/relations_page.hpp"

#include <QLabel>
#include <QVBoxLayout>

#include <set>

#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/blocks/relation_matrices_view.hpp"
#include "ui/util/figure_export.hpp"

namespace latent::ui {

RelationsPage::RelationsPage(QWidget* parent) : QWidget(parent) {
  m_caption = new QLabel(this);
  m_caption->setWordWrap(true);
  m_view = new RelationMatricesView(this);
  enableFigureExport(m_view, [this] { return QStringLiteral("run-%1-relations").arg(m_data ? m_data->run.id : 0); });
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_caption);
  layout->addWidget(m_view, 1);
}

void RelationsPage::setData(std::shared_ptr<const BlockRunData> data) {
  m_data = std::move(data);
  m_view->setData(m_data);
  m_caption->setText(captionText());
}

QString RelationsPage::captionText() const {
  if (!m_data) return {};
  QString text = tr("%n relation(s) fitted with one partition of the nodes into %1 blocks: ", nullptr,
                    static_cast<int>(m_data->relationNames.size()))
                     .arg(m_data->blockCount()) +
                 m_data->relationNames.join(QStringLiteral(", ")) + QStringLiteral(". ") +
                 tr("Rows and columns are ordered by block, with lines where the block changes.");
  if (!m_data->featureNames.isEmpty()) {
    const std::set<int> clusters(m_data->featureBlocks.begin(), m_data->featureBlocks.end());
    text +=
        QStringLiteral(" ") + tr("The node features (%1), clustered into %n group(s) of features, are on the right; "
                                 "grey marks a node without a value.",
                                 nullptr, static_cast<int>(clusters.size()))
                                  .arg(m_data->featureNames.join(QStringLiteral(", ")));
  }
  return text;
}

}  // namespace latent::ui
