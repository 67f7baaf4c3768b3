// SPDX-License-Identifier: GPL-3.0-or-later
// FactorPages: when the factor page applies, its loading, and where it goes.
#include "ui/runs/factors/factor_pages.hpp"

#include <QTabWidget>

#include "core/models/ratings/factor_model_results.hpp"
#include "ui/runs/factors/factor_page.hpp"
#include "ui/runs/factors/factor_run_data.hpp"

namespace latent::ui {

FactorPages::FactorPages(RunPagesContext context, QObject* parent) : RunPages(std::move(context), parent) {}

void FactorPages::update(const core::RunRecord& run, const RunHoldings& holdings) {
  // Once the run has ended (a stopped or failed run shows its latest snapshot).
  if (holdings.kind != core::DataKind::Ratings || !holdings.holds(core::kItemFactors) ||
      run.status == core::RunStatus::Running) {
    cancel();
    return;
  }
  load([file = context().projectFile, id = context().runId] { return loadFactorRun(file, id); },
       [this](FactorRunLoad loaded) {
         if (!loaded.error.isEmpty()) {
           Q_EMIT failed(tr("The factors could not be read: %1").arg(loaded.error));
           return;
         }
         if (!loaded.data) return;
         const bool first = !m_page;
         if (first) m_page = new FactorPage(context().pages);
         m_page->setData(loaded.data);
         showPage(m_page, tr("Factors"), 0);
         // A finished run is read for its results: the factors come first.
         if (first) context().pages->setCurrentWidget(m_page);
       });
}

}  // namespace latent::ui
