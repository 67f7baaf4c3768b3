// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenPages: when the hidden-unit pages apply, their loading, the live following, their order.
#include "ui/runs/hidden/hidden_pages.hpp"

#include <QTabWidget>

#include "core/results/hidden_results.hpp"
#include "ui/runs/hidden/hidden_activations_page.hpp"
#include "ui/runs/hidden/hidden_chain_page.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_units_page.hpp"
#include "ui/runs/hidden/hidden_weights_page.hpp"
#include "ui/util/format.hpp"

namespace latent::ui {

HiddenPages::HiddenPages(RunPagesContext context, QObject* parent) : RunPages(std::move(context), parent) {}

HiddenWeightsPage* HiddenPages::weights() {
  if (!m_weights) {
    m_weights = new HiddenWeightsPage(context().pages);
    m_weights->hide();
    // Live snapshots only (see follow()): the page appears with the first one.
    connect(m_weights, &HiddenWeightsPage::snapshotShown, this, [this] {
      if (!isShown(m_weights)) showPage(m_weights, tr("Weights"), 0);
    });
  }
  return m_weights;
}

void HiddenPages::update(const core::RunRecord& run, const RunHoldings& holdings) {
  // Decided by what the run holds, not by its model: any corpus, table or graph run with a
  // harmonium's weights (rbm fits a graph's adjacency rows), or ratings run with a categorical RBM's
  // (rbm-ratings).
  const bool ratings = holdings.kind == core::DataKind::Ratings;
  if (holdings.kind != core::DataKind::Corpus && holdings.kind != core::DataKind::Table &&
      holdings.kind != core::DataKind::Graph && !ratings) {
    cancel();
    return;
  }
  if (run.status == core::RunStatus::Running) {
    cancel();
    // Nothing may be stored yet when a run starts: the family its model declares says whether
    // snapshots of weights will come, so other corpus (or table, or ratings) runs are not polled
    // for them.
    const auto* info = findModel(run.model);
    if (holdings.holds(ratings ? core::hidden::kRatingWeights : core::hidden::kWeights) ||
        (info && info->family == core::ResultFamily::HiddenUnits))
      follow();
    return;
  }
  const bool holdsResult =
      ratings ? holdings.holdsResult({core::hidden::kRatingWeights, core::hidden::kRatingVisibleBias,
                                      core::hidden::kRatingLevels, core::hidden::kHiddenBias})
              : holdings.holdsResult({core::hidden::kWeights, core::hidden::kVisibleBias, core::hidden::kHiddenBias});
  if (!holdsResult) {
    cancel();
    return;
  }
  load([file = context().projectFile, id = context().runId] { return loadHiddenRun(file, id); },
       [this](HiddenRunLoad loaded) {
         if (!loaded.error.isEmpty()) {
           Q_EMIT failed(tr("The hidden units could not be read: %1").arg(loaded.error));
           return;
         }
         if (!loaded.data) return;
         const bool first = !m_units;
         if (first) {
           m_units = new HiddenUnitsPage(context().pages);
           m_activations = new HiddenActivationsPage(context().pages);
           m_units->hide();
           m_activations->hide();
         }
         m_units->setData(loaded.data);
         weights()->setData(loaded.data);
         showPage(m_units, tr("Hidden units"), 0);
         // Snapshots hold no activations: a run stopped before its end has no Activations page.
         if (loaded.data->hasActivations()) {
           m_activations->setData(loaded.data);
           showPage(m_activations, tr("Activations"), 1);
         } else {
           m_activations->setData(nullptr);
           hidePage(m_activations);
         }
         showPage(m_weights, tr("Weights"), isShown(m_activations) ? 2 : 1);
         // A Bayesian harmonium's chain (gb-efh stores the trace of its weights) after the weights.
         if (loaded.data->hasTrace()) {
           if (!m_chain) m_chain = new HiddenChainPage(context().pages);
           m_chain->setData(loaded.data);
           showPage(m_chain, tr("Langevin chain"), context().pages->indexOf(m_weights) + 1);
         } else if (m_chain) {
           m_chain->setData(nullptr);
           hidePage(m_chain);
         }
         // A finished run is read for its results: the units come first.
         if (first) context().pages->setCurrentWidget(m_units);
       });
}

// While a harmonium's run goes, its Weights page follows the latest snapshot.
void HiddenPages::follow() {
  if (!controller()) return;
  auto* page = weights();
  if (!page->isFollowing()) page->follow(context().projectFile, context().runId, controller());
}

}  // namespace latent::ui
