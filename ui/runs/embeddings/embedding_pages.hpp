// SPDX-License-Identifier: GPL-3.0-or-later
// The pages of an embedding run's results (lsa), once it holds its singular values and word
// vectors: Components (the scree plot and each component's words) and Map (documents or words on
// two components, with nearest neighbours).
#pragma once

#include <QPointer>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class EmbeddingComponentsPage;
class EmbeddingMapPage;

class EmbeddingPages final : public RunPages {
  Q_OBJECT

 public:
  EmbeddingPages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  QPointer<EmbeddingComponentsPage> m_components;
  QPointer<EmbeddingMapPage> m_map;
};

}  // namespace latent::ui
