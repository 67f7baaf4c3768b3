// SPDX-License-Identifier: GPL-3.0-or-later
// BlockPages: when the block-model pages apply, their loading, the live following, and their order.
#include "ui/runs/blocks/block_pages.hpp"

#include <QTabWidget>

#include "core/models/network/block_model_results.hpp"
#include "ui/runs/blocks/block_matrix_page.hpp"
#include "ui/runs/blocks/block_network_view.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/blocks/membership_page.hpp"
#include "ui/runs/blocks/relations_page.hpp"

namespace latent::ui {

BlockPages::BlockPages(RunPagesContext context, QObject* parent) : RunPages(std::move(context), parent) {}

MembershipPage* BlockPages::memberships() {
  if (!m_memberships) {
    m_memberships = new MembershipPage(context().pages);
    m_memberships->hide();
    // Live snapshots only (see follow()): the page appears with the first one.
    connect(m_memberships, &MembershipPage::snapshotShown, this, [this] {
      if (!isShown(m_memberships)) showPage(m_memberships, tr("Memberships"), 0);
    });
  }
  return m_memberships;
}

void BlockPages::update(const core::RunRecord& run, const RunHoldings& holdings) {
  if (holdings.kind != core::DataKind::Graph) {
    cancel();
    return;
  }
  if (run.status == core::RunStatus::Running) {
    cancel();
    follow();
    return;
  }
  // Once the run has ended: a stopped run shows its final matrices, an interrupted one its latest
  // snapshot.
  if (!holdings.holdsResult({core::kMemberships, core::kBlockMatrix})) {
    cancel();
    return;
  }
  load([file = context().projectFile, id = context().runId] { return loadBlockRun(file, id); },
       [this](BlockRunLoad loaded) {
         if (!loaded.error.isEmpty()) {
           Q_EMIT failed(tr("The blocks could not be read: %1").arg(loaded.error));
           return;
         }
         if (!loaded.data) return;
         const bool first = !m_blocks;
         if (first) m_blocks = new BlockMatrixPage(context().pages);
         m_blocks->setData(loaded.data);
         memberships()->setData(loaded.data);
         showPage(m_blocks, tr("Blocks"), 0);
         showPage(m_memberships, tr("Memberships"), 1);
         // Several relations (irm-multi): all of them side by side, with the features.
         if (loaded.data->multiRelational()) {
           if (!m_relations) m_relations = new RelationsPage(context().pages);
           m_relations->setData(loaded.data);
           showPage(m_relations, tr("Relations"), 1);
         }
         if (!m_network) m_network = new BlockNetworkView(context().pages);
         m_network->setData(loaded.data);
         showPage(m_network, tr("Network"), loaded.data->multiRelational() ? 3 : 2);
         // A finished run is read for its results. Mixed memberships (each node spread over
         // several blocks) are the point of the model that found them, and the simplex shows
         // them; hard ones are read from the permuted adjacency matrix first.
         if (first)
           context().pages->setCurrentWidget(loaded.data->multiRelational() ? static_cast<QWidget*>(m_relations)
                                             : loaded.data->mixed           ? static_cast<QWidget*>(m_memberships)
                                                                            : m_blocks);
       });
}

// While a graph run goes, its Memberships page follows the latest snapshot.
void BlockPages::follow() {
  if (!controller()) return;
  auto* page = memberships();
  if (!page->isFollowing()) page->follow(context().projectFile, context().runId, controller());
}

}  // namespace latent::ui
