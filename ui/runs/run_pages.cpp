// SPDX-License-Identifier: GPL-3.0-or-later
// RunPages: what the run holds, and the tab handling every family shares.
#include "ui/runs/run_pages.hpp"

#include <QTabWidget>

#include <algorithm>
#include <map>

#include "ui/jobs/job_controller.hpp"

namespace latent::ui {

bool RunHoldings::holds(std::string_view name) const {
  return std::any_of(matrices.begin(), matrices.end(), [&](const auto& m) { return m.first == name; });
}

bool RunHoldings::holdsResult(std::initializer_list<std::string_view> names) const {
  std::map<std::int64_t, std::size_t> held;  // iteration -> how many of `names` it holds
  for (const auto& [name, iteration] : matrices)
    if (std::find(names.begin(), names.end(), name) != names.end()) ++held[iteration];
  return std::any_of(held.begin(), held.end(), [&](const auto& h) { return h.second == names.size(); });
}

RunPages::RunPages(RunPagesContext context, QObject* parent) : QObject(parent), m_context(std::move(context)) {}

void RunPages::setController(JobController* controller) { m_controller = controller; }

JobController* RunPages::controller() const { return m_controller; }

void RunPages::cancel() {
  ++m_generation;
  m_pending = false;
}

void RunPages::showPage(QWidget* page, const QString& title, int index) {
  auto* pages = m_context.pages;
  if (const int at = pages->indexOf(page); at >= 0)
    pages->setTabText(at, title);
  else
    pages->insertTab(index, page, title);
}

void RunPages::hidePage(QWidget* page) {
  if (const int at = m_context.pages->indexOf(page); at >= 0) m_context.pages->removeTab(at);
}

bool RunPages::isShown(const QWidget* page) const {
  return page && m_context.pages->indexOf(const_cast<QWidget*>(page)) >= 0;
}

int RunPages::trainingIndex() const { return m_context.pages->indexOf(m_context.training); }

}  // namespace latent::ui
