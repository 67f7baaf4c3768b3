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
  const auto relations = m_data->relationNames.size();
  QString text = (relations == 1 ? tr("One relation fitted") : tr("%1 relations fitted").arg(relations)) +
                 tr(" with one partition of the nodes into %1 blocks: ").arg(m_data->blockCount()) +
                 m_data->relationNames.join(QStringLiteral(", ")) + QStringLiteral(". ") +
                 tr("Rows and columns are ordered by block, with lines where the block changes.");
  if (!m_data->featureNames.isEmpty()) {
    const auto clusters = std::set<int>(m_data->featureBlocks.begin(), m_data->featureBlocks.end()).size();
    text += QStringLiteral(" ") +
            tr("The node features (%1) are on the right, grouped into %2; grey marks a node without a value.")
                .arg(m_data->featureNames.join(QStringLiteral(", ")),
                     clusters == 1 ? tr("one cluster") : tr("%1 clusters").arg(clusters));
  }
  return text;
}

}  // namespace latent::ui
