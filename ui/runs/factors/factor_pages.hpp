// SPDX-License-Identifier: GPL-3.0-or-later
// The page of a factor model's results ("Factors"), for a ratings run that holds item factors.
#pragma once

#include <QPointer>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class FactorPage;

class FactorPages final : public RunPages {
  Q_OBJECT

 public:
  FactorPages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  QPointer<FactorPage> m_page;
};

}  // namespace latent::ui
