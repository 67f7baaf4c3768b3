// SPDX-License-Identifier: GPL-3.0-or-later
// What opening a finished topic run costs the app: the time and memory of loadTopicRun (what every
// topic page reads, off the GUI thread) and of the Topic map page's computation, as the run tab does
// them, one after the other (the map's only where the page computes it: intertopicMapRefusal).
// Prints one JSON line.
//
//   latent-topic-views-load --project FILE --run ID [--no-map]
//
// peak_rss_mb is the process's peak resident memory after each step (getrusage), so the second
// figure includes the first step's data, which the app holds too while the map is computed.
#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <future>
#include <string>

#include <nlohmann/json.hpp>

#include "peak_rss.hpp"
#include "ui/runs/topics/intertopic_map_data.hpp"
#include "ui/runs/topics/topic_run_data.hpp"

using namespace latent;
using bench::peakRssMb;

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  std::string project;
  long long runId = -1;
  bool map = true;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--project" && i + 1 < argc)
      project = argv[++i];
    else if (key == "--run" && i + 1 < argc)
      runId = std::stoll(argv[++i]);
    else if (key == "--no-map")
      map = false;
    else {
      std::fprintf(stderr, "usage: latent-topic-views-load --project FILE --run ID [--no-map]\n");
      return 2;
    }
  }
  if (project.empty() || runId < 0) {
    std::fprintf(stderr, "usage: latent-topic-views-load --project FILE --run ID [--no-map]\n");
    return 2;
  }

  nlohmann::json out;
  QElapsedTimer clock;
  clock.start();
  // Off the main thread, as the app reads it (a project is never opened on the GUI thread).
  const auto loaded = std::async(std::launch::async, [&] { return ui::loadTopicRun(project, runId); }).get();
  out["load_seconds"] = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
  out["load_peak_rss_mb"] = peakRssMb();
  if (!loaded.data) {
    std::fprintf(stderr, "the run's topics could not be read: %s\n",
                 loaded.error.isEmpty() ? "it has none" : loaded.error.toStdString().c_str());
    return 1;
  }
  out["topics"] = loaded.data->topicCount();
  out["words"] = loaded.data->vocabularySize();
  out["documents"] = loaded.data->documents.size();
  if (map) {
    clock.restart();
    const auto refusal = ui::intertopicMapRefusal(*loaded.data);
    const auto computed = refusal.isEmpty() ? ui::computeIntertopicMap(*loaded.data) : nullptr;
    out["map_seconds"] = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
    out["map_peak_rss_mb"] = peakRssMb();
    out["map"] = computed ? "computed" : refusal.isEmpty() ? "none" : "refused: " + refusal.toStdString();
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
