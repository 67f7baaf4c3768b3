// SPDX-License-Identifier: GPL-3.0-or-later
// What a running job has reached, in words, for the Run panel's rows and the run's own view: the
// phase (restarts, warp start, the chain), the iteration out of those planned, the time so far and
// an estimate of the time left.
#pragma once

#include <QString>
#include <QVector>

#include <optional>

#include "core/jobs/fit_job.hpp"
#include "core/models/training.hpp"

namespace latent::ui {

// The iterations a run was asked for: its `iterations` option, else the model's default (0 when
// the model has no such option).
qint64 plannedIterations(const core::RunRequest& request);

// Seconds the chain still needs at its pace so far (between its first and its last report), or
// nothing before the chain has two reports or when the planned count is unknown or reached.
std::optional<double> secondsLeft(const QVector<core::IterationReport>& reports, qint64 planned);

// A report before the chain, in words: "restarts: start 2, sweep 10", "warp start: sweep 40".
QString phaseText(const core::IterationReport& report);

// "restarts: start 2, sweep 10", or "iteration 120 / 500 · 14 s · about 45 s left", or "starting…".
QString progressText(const QVector<core::IterationReport>& reports, qint64 planned, double elapsedSeconds);

}  // namespace latent::ui
