// SPDX-License-Identifier: GPL-3.0-or-later
// How long the GUI thread is kept from its event loop while two fits run with their run tabs
// open and drawing live (issue 5: never more than 50 ms). A timer asks to fire every few
// milliseconds; the longest gap between two firings, less the interval, is the worst block.
//
//   latent-gui-responsiveness [--seconds 30] [--probe-ms 5] [--threads 1]
//
// Run under xvfb-run (a real X server) or with QT_QPA_PLATFORM=offscreen. It imports the State of
// the Union and InstEval samples into a temporary project, starts lda-gibbs (K = 20) on the first
// and pmf (SGD) on the second, opens both run tabs, measures, stops both, and prints one JSON line.
#include <QApplication>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/jobs/samples.hpp"
#include "core/store/project.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_view.hpp"

using namespace latent;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  double seconds = 30.0;
  int probeMs = 5, threads = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--seconds")
      seconds = std::stod(argv[i + 1]);
    else if (key == "--probe-ms")
      probeMs = std::stoi(argv[i + 1]);
    else if (key == "--threads")
      threads = std::stoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }

  QTemporaryDir dir;
  const auto file = std::filesystem::path(dir.filePath(QStringLiteral("probe.latent")).toStdString());
  {
    core::Project project(file);
    core::importSample(project, "sotu");
    core::importSample(project, "insteval");
  }
  ui::MainWindow window;
  window.resize(1400, 900);
  window.show();
  if (!window.openProject(QString::fromStdString(file.string()), nullptr, false)) return 1;

  std::vector<ui::JobController*> fits;
  for (auto request :
       {core::RunRequest{"lda-gibbs", "sotu", {{"k", 20}, {"iterations", 100000}}, 1, threads, 0.1, 10, {}, nullptr},
        core::RunRequest{
            "pmf", "insteval", {{"solver", "sgd"}, {"iterations", 100000}}, 1, threads, 0.1, 1, {}, nullptr}}) {
    auto* fit = window.runManager()->start(file, request);
    QObject::connect(fit, &ui::JobController::created, &window, [&window](qint64 runId) { window.openRun(runId); });
    // A fit that ends before the measurement is over makes the measurement meaningless.
    QObject::connect(fit, &ui::JobController::ended, &app, [fit, &app] {
      if (fit->stopRequested()) return;
      std::fprintf(stderr, "%s ended early: %s\n", fit->request().model.c_str(), qPrintable(fit->error()));
      app.exit(1);
    });
    fits.push_back(fit);
  }

  // Measure once both runs report, so the start-up (reading the data) is not counted as idle time.
  std::vector<double> gaps;
  QElapsedTimer clock;
  qint64 last = -1;
  QTimer probe;
  probe.setTimerType(Qt::PreciseTimer);
  probe.setInterval(probeMs);
  QObject::connect(&probe, &QTimer::timeout, [&] {
    const qint64 now = clock.nsecsElapsed();
    if (last >= 0) gaps.push_back(double(now - last) / 1e6);
    last = now;
  });
  QTimer starter;
  starter.setInterval(20);
  QObject::connect(&starter, &QTimer::timeout, [&] {
    const bool reporting = std::all_of(fits.begin(), fits.end(), [](auto* f) { return !f->reports().isEmpty(); });
    if (!reporting) return;
    starter.stop();
    clock.start();
    probe.start();
    QTimer::singleShot(int(seconds * 1000), [&] {
      probe.stop();
      for (auto* f : fits) f->requestStop();
      window.runManager()->waitAll();
      app.quit();
    });
  });
  starter.start();
  if (app.exec() != 0) return 1;

  std::vector<double> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  auto quantile = [&](double q) { return sorted.empty() ? 0.0 : sorted[std::size_t(q * double(sorted.size() - 1))]; };
  nlohmann::json out = {{"seconds", seconds},
                        {"probe_ms", probeMs},
                        {"ticks", gaps.size()},
                        {"worst_gap_ms", sorted.empty() ? 0.0 : sorted.back()},
                        {"worst_block_ms", sorted.empty() ? 0.0 : std::max(0.0, sorted.back() - probeMs)},
                        {"p99_gap_ms", quantile(0.99)},
                        {"median_gap_ms", quantile(0.5)},
                        {"gaps_over_50ms", std::count_if(gaps.begin(), gaps.end(), [](double g) { return g > 50.0; })}};
  for (auto* f : fits) out["reports"][f->request().model] = f->reports().size();
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
