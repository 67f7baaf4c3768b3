// SPDX-License-Identifier: GPL-3.0-or-later
// EmbeddingPages: when the embedding pages apply, their loading and their order.
#include "ui/runs/embeddings/embedding_pages.hpp"

#include <QTabWidget>

#include "core/results/embedding_results.hpp"
#include "ui/runs/embeddings/embedding_components_page.hpp"
#include "ui/runs/embeddings/embedding_map_page.hpp"
#include "ui/runs/embeddings/embedding_run_data.hpp"

namespace latent::ui {

EmbeddingPages::EmbeddingPages(RunPagesContext context, QObject* parent) : RunPages(std::move(context), parent) {}

void EmbeddingPages::update(const core::RunRecord&, const RunHoldings& holdings) {
  // Decided by what the run holds: the decomposition is written once, as the final result.
  if (holdings.kind != core::DataKind::Corpus ||
      !holdings.holdsResult({core::embedding::kWordVectors, core::embedding::kSingularValues})) {
    cancel();
    return;
  }
  load([file = context().projectFile, id = context().runId] { return loadEmbeddingRun(file, id); },
       [this](EmbeddingRunLoad loaded) {
         if (!loaded.error.isEmpty()) {
           Q_EMIT failed(tr("The embeddings could not be read: %1").arg(loaded.error));
           return;
         }
         if (!loaded.data) return;
         const bool first = !m_components;
         if (first) {
           m_components = new EmbeddingComponentsPage(context().pages);
           m_map = new EmbeddingMapPage(context().pages);
           m_components->hide();
           m_map->hide();
         }
         m_components->setData(loaded.data);
         m_map->setData(loaded.data);
         showPage(m_components, tr("Components"), 0);
         showPage(m_map, tr("Map"), 1);
         if (first) context().pages->setCurrentWidget(m_components);
       });
}

}  // namespace latent::ui
