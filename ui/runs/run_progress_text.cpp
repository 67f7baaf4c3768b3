// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/runs/run_progress_text.hpp"

#include <QCoreApplication>
#include <QStringList>

#include "ui/util/format.hpp"

namespace latent::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("RunProgress", text); }

}  // namespace

QString phaseText(const core::IterationReport& report) {
  // Before the chain it keeps, a model with restarts reports its starts (FitPhase).
  const QString phase = report.phase == core::FitPhase::WarpStart ? tr("warp start") : tr("restarts");
  return report.start > 0 ? tr("%1: start %2, sweep %3").arg(phase).arg(report.start).arg(report.iteration)
                          : tr("%1: sweep %2").arg(phase).arg(report.iteration);
}

qint64 plannedIterations(const core::RunRequest& request) {
  if (request.options.is_object() && request.options.contains("iterations") &&
      request.options["iterations"].is_number())
    return request.options["iterations"].get<qint64>();
  if (const auto* info = findModel(request.model))
    for (const auto& spec : info->options)
      if (spec.name == "iterations" && spec.defaultValue.is_number()) return spec.defaultValue.get<qint64>();
  return 0;
}

std::optional<double> secondsLeft(const QVector<core::IterationReport>& reports, qint64 planned) {
  if (planned <= 0 || reports.isEmpty() || !reports.back().inChain()) return std::nullopt;
  // The chain's first report: the restarts before it run at another pace.
  qsizetype first = reports.size() - 1;
  while (first > 0 && reports[first - 1].inChain()) --first;
  const auto& a = reports[first];
  const auto& b = reports.back();
  if (b.iteration <= a.iteration || b.iteration >= planned) return std::nullopt;
  const double pace = (b.seconds - a.seconds) / static_cast<double>(b.iteration - a.iteration);
  return pace * static_cast<double>(planned - b.iteration);
}

QString progressText(const QVector<core::IterationReport>& reports, qint64 planned, double elapsedSeconds) {
  QStringList parts;
  if (reports.isEmpty()) {
    parts << tr("waiting for the first iteration");
  } else if (const auto& last = reports.back(); !last.inChain()) {
    parts << phaseText(last);
  } else {
    parts << (planned > 0 ? tr("iteration %1 / %2").arg(last.iteration).arg(planned)
                          : tr("iteration %1").arg(last.iteration));
  }
  parts << formatSeconds(elapsedSeconds);
  if (const auto left = secondsLeft(reports, planned)) parts << tr("about %1 left").arg(formatSeconds(*left));
  return parts.join(QStringLiteral(" · "));
}

}  // namespace latent::ui
