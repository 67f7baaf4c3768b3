// SPDX-License-Identifier: GPL-3.0-or-later
// The "Gibbs sampler" page (000 Fig. 27.8), for a finished corpus run that kept its sampler's
// random start (the initial_token_topics matrix) and held no documents out.
#pragma once

#include <QPointer>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class GibbsStateView;

class GibbsPages final : public RunPages {
  Q_OBJECT

 public:
  GibbsPages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  QPointer<GibbsStateView> m_view;
};

}  // namespace latent::ui
