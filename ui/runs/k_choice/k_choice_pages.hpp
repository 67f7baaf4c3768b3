// SPDX-License-Identifier: GPL-3.0-or-later
// The "Choosing K" page, for a finished run of a model with a `k` option and a held-out number,
// once two or more finished runs differ from it only in K (a sweep, or runs made again with
// another K).
#pragma once

#include <QPointer>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class KChoiceView;

class KChoicePages final : public RunPages {
  Q_OBJECT

 public:
  KChoicePages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  QPointer<KChoiceView> m_view;
};

}  // namespace latent::ui
