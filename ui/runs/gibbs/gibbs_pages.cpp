// SPDX-License-Identifier: GPL-3.0-or-later
// GibbsPages: when the Gibbs sampler page applies, its loading, and where it goes.
#include "ui/runs/gibbs/gibbs_pages.hpp"

#include <QTabWidget>

#include <exception>
#include <memory>

#include "core/models/topic/lda_gibbs.hpp"
#include "ui/runs/gibbs/gibbs_state_view.hpp"
#include "ui/util/figure_export.hpp"

namespace latent::ui {

GibbsPages::GibbsPages(RunPagesContext context, QObject* parent) : RunPages(std::move(context), parent) {}

void GibbsPages::update(const core::RunRecord& run, const RunHoldings& holdings) {
  // The start is kept for the training documents only, so a run that held some out cannot show it.
  if (run.status != core::RunStatus::Finished || run.heldout > 0 || holdings.kind != core::DataKind::Corpus ||
      !holdings.holds(core::kInitialTokenTopics)) {
    cancel();
    return;
  }
  load(
      [file = context().projectFile, id = context().runId]() -> std::shared_ptr<const GibbsStateData> {
        try {
          return loadGibbsState(file, id);
        } catch (const std::exception&) {
          return nullptr;  // an extra page: without it the run's other pages still show
        }
      },
      [this](std::shared_ptr<const GibbsStateData> data) {
        if (!data) return;
        if (!m_view) {
          m_view = new GibbsStateView(context().pages);
          enableFigureExport(m_view, [id = context().runId] { return tr("run-%1-gibbs-sampler").arg(id); });
        }
        m_view->setData(std::move(data));
        showPage(m_view, tr("Gibbs sampler"), trainingIndex());
      });
}

}  // namespace latent::ui
