// SPDX-License-Identifier: GPL-3.0-or-later
// KChoicePages: when the Choosing K page applies (from the model catalogue), its loading, and
// where it goes.
#include "ui/runs/k_choice/k_choice_pages.hpp"

#include <QTabWidget>

#include <algorithm>
#include <exception>
#include <optional>

#include "ui/runs/k_choice/k_choice_view.hpp"
#include "ui/util/format.hpp"

namespace latent::ui {

KChoicePages::KChoicePages(RunPagesContext context, QObject* parent) : RunPages(std::move(context), parent) {}

void KChoicePages::update(const core::RunRecord& run, const RunHoldings&) {
  const auto* info = findModel(run.model);
  const bool hasK =
      info && std::any_of(info->options.begin(), info->options.end(), [](const auto& o) { return o.name == "k"; });
  if (run.status != core::RunStatus::Finished || !hasK || info->heldoutKey.empty() || run.heldout <= 0) {
    cancel();
    return;
  }
  load(
      [file = context().projectFile, id = context().runId]() -> std::optional<KChoiceData> {
        try {
          return loadKChoice(file, id);
        } catch (const std::exception&) {
          return std::nullopt;  // an extra page: without it the run's own pages still show
        }
      },
      [this](std::optional<KChoiceData> data) {
        if (data && data->distinctK >= 2) {
          if (!m_view) m_view = new KChoiceView(context().pages);
          m_view->setData(std::move(*data));
          // Read beside the curves it summarises: just after the Training page.
          if (!isShown(m_view)) showPage(m_view, tr("Choosing K"), trainingIndex() + 1);
        } else if (m_view) {
          hidePage(m_view);
        }
      });
}

}  // namespace latent::ui
