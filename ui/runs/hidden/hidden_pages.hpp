// SPDX-License-Identifier: GPL-3.0-or-later
// The pages of a harmonium's results (the hidden-units family: rbm, rsm, gb-efh, rbm-ratings), for
// a corpus or table run that holds weights and biases, or a ratings run that holds a categorical
// RBM's (its units' effects on the items' expected ratings standing in for the weights): Hidden
// units, Activations (when the cases' activations are stored), Weights and, when the run traced
// its weights (gb-efh), Langevin chain once the run has ended, and while it goes the Weights page
// following its latest snapshot.
#pragma once

#include <QPointer>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class HiddenActivationsPage;
class HiddenChainPage;
class HiddenUnitsPage;
class HiddenWeightsPage;

class HiddenPages final : public RunPages {
  Q_OBJECT

 public:
  HiddenPages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  void follow();
  HiddenWeightsPage* weights();

  QPointer<HiddenUnitsPage> m_units;
  QPointer<HiddenActivationsPage> m_activations;
  QPointer<HiddenWeightsPage> m_weights;
  QPointer<HiddenChainPage> m_chain;
};

}  // namespace latent::ui
