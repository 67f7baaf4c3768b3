// SPDX-License-Identifier: GPL-3.0-or-later
// The pages of a block model's results, for a graph run that holds memberships and a block
// matrix: Blocks, Memberships and Network (the graph drawn coloured by the blocks) once the run has
// ended, and while it goes the Memberships page following its latest snapshot.
#pragma once

#include <QPointer>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class BlockMatrixPage;
class BlockNetworkView;
class MembershipPage;
class RelationsPage;

class BlockPages final : public RunPages {
  Q_OBJECT

 public:
  BlockPages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  void follow();
  MembershipPage* memberships();

  QPointer<BlockMatrixPage> m_blocks;
  QPointer<MembershipPage> m_memberships;
  QPointer<RelationsPage> m_relations;  // multi-relational irm runs
  QPointer<BlockNetworkView> m_network;
};

}  // namespace latent::ui
