// SPDX-License-Identifier: GPL-3.0-or-later
// CurveControls: the axis, scale and comparison choices of a training chart.
#include "ui/runs/curve_controls.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>

#include "core/store/project.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/runs/metrics_chart.hpp"
#include "ui/util/background.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

constexpr int kMaxOverlays = 8;  // beyond that the colours and the caption stop being readable

std::string heldoutKeyOf(const std::string& model) {
  const auto* info = findModel(model);
  return info ? info->heldoutKey : std::string();
}

}  // namespace

QString comparisonLabel(const core::RunRecord& run, const core::RunRecord& reference) {
  QStringList differences;
  if (run.options.is_object())
    for (const auto& [key, value] : run.options.items()) {
      const bool same =
          run.model == reference.model && reference.options.contains(key) && reference.options[key] == value;
      if (same) continue;
      if (differences.size() == 3) {
        differences << QStringLiteral("…");
        break;
      }
      differences << QStringLiteral("%1 %2").arg(qs(key),
                                                 qs(value.is_string() ? value.get<std::string>() : value.dump()));
    }
  if (run.model == reference.model && run.seed != reference.seed && differences.size() < 3)
    differences << QStringLiteral("seed %1").arg(run.seed);
  QString label = QStringLiteral("#%1 %2").arg(run.id).arg(qs(run.model));
  if (!differences.isEmpty()) label += QStringLiteral(" · ") + differences.join(QStringLiteral(", "));
  return label;
}

std::vector<core::RunRecord> comparableCurves(const std::vector<core::RunRecord>& runs,
                                              const core::RunRecord& reference) {
  const std::string key = heldoutKeyOf(reference.model);
  std::vector<core::RunRecord> out;
  if (key.empty() || reference.heldout <= 0) return out;
  for (const auto& run : runs)
    if (run.id != reference.id && run.datasetId == reference.datasetId && run.heldout == reference.heldout &&
        heldoutKeyOf(run.model) == key && run.finalMetrics.contains(key))
      out.push_back(run);
  return out;
}

CurveControls::CurveControls(MetricsChart* chart, QWidget* parent) : QWidget(parent), m_chart(chart) {
  m_xAxis = new QComboBox(this);
  m_xAxis->addItem(tr("Iteration"));
  m_xAxis->addItem(tr("Seconds"));
  m_xAxis->setToolTip(
      tr("Draw the curves against the iteration or against wall-clock time since the start "
         "(time compares fast and slow models fairly)"));
  m_log = new QCheckBox(tr("Log scale"), this);
  m_log->setToolTip(
      tr("A logarithmic scale for the held-out metric: early perplexities can be many times the final ones"));
  m_compare = new QPushButton(tr("Compare with"), this);
  m_compare->setToolTip(
      tr("Overlay the held-out curves of other runs on this dataset (same held-out metric and fraction)"));
  m_menu = new QMenu(m_compare);
  m_compare->setMenu(m_menu);
  m_compare->setEnabled(false);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Against:"), this));
  layout->addWidget(m_xAxis);
  layout->addSpacing(8);
  layout->addWidget(m_log);
  layout->addSpacing(8);
  layout->addWidget(m_compare);
  layout->addStretch(1);

  connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this](int index) {
    m_chart->setXAxis(index == 1 ? MetricsChart::XAxis::Seconds : MetricsChart::XAxis::Iteration);
  });
  connect(m_log, &QCheckBox::toggled, m_chart, &MetricsChart::setLogHeldout);
  connect(m_menu, &QMenu::aboutToShow, this, &CurveControls::fillMenu);
}

void CurveControls::setRun(const std::filesystem::path& projectFile, const core::RunRecord& run) {
  const bool another = run.id != m_run.id || projectFile != m_projectFile;
  m_projectFile = projectFile;
  m_run = run;
  m_compare->setEnabled(!heldoutKeyOf(run.model).empty() && run.heldout > 0);
  if (another && !m_compared.empty()) {
    m_compared.clear();
    applyOverlays();
  }
  // Read the candidates now, so the menu opens filled (and tests can wait for them).
  const int generation = ++m_generation;
  runInBackground(
      this,
      [file = m_projectFile, reference = m_run] {
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          return comparableCurves(core::listRuns(project, reference.datasetId), reference);
        } catch (const std::exception&) {
          return std::vector<core::RunRecord>{};  // nothing to offer; the run's own curves still show
        }
      },
      [this, generation](std::vector<core::RunRecord> candidates) {
        if (generation != m_generation) return;
        m_candidates = std::move(candidates);
        Q_EMIT candidatesLoaded();
      });
}

void CurveControls::fillMenu() {
  m_menu->clear();
  if (m_candidates.empty()) {
    m_menu->addAction(tr("(no other run of this dataset has the same held-out metric)"))->setEnabled(false);
    return;
  }
  for (const auto& run : m_candidates) {
    QAction* action = m_menu->addAction(comparisonLabel(run, m_run));
    action->setCheckable(true);
    action->setChecked(m_compared.count(run.id) > 0);
    action->setEnabled(action->isChecked() || static_cast<int>(m_compared.size()) < kMaxOverlays);
    const qint64 id = run.id;
    connect(action, &QAction::toggled, this, [this, id](bool on) { compareWith(id, on); });
  }
  if (!m_compared.empty()) {
    m_menu->addSeparator();
    connect(m_menu->addAction(tr("Clear Comparison")), &QAction::triggered, this, [this] {
      m_compared.clear();
      applyOverlays();
    });
  }
}

void CurveControls::compareWith(qint64 runId, bool on) {
  if (!on) {
    m_compared.erase(runId);
    applyOverlays();
    return;
  }
  const auto it = std::find_if(m_candidates.begin(), m_candidates.end(), [&](const auto& r) { return r.id == runId; });
  if (it == m_candidates.end()) return;
  const QString label = comparisonLabel(*it, m_run);
  runInBackground(
      this,
      [file = m_projectFile, runId] {
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          return core::loadMetrics(project, runId);
        } catch (const std::exception&) {
          return std::vector<core::MetricRow>{};
        }
      },
      [this, runId, label](std::vector<core::MetricRow> rows) {
        m_compared[runId] = {label, std::move(rows)};
        applyOverlays();
      });
}

void CurveControls::applyOverlays() {
  QVector<MetricsChart::Overlay> overlays;
  for (const auto& [id, entry] : m_compared)
    overlays.push_back({id, entry.first, MetricsChart::heldoutSamples(entry.second)});
  m_chart->setOverlays(std::move(overlays));
  m_compare->setText(m_compared.empty() ? tr("Compare with") : tr("Compare with (%1)").arg(m_compared.size()));
  Q_EMIT overlaysChanged();
}

}  // namespace latent::ui
