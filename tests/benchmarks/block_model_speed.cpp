// SPDX-License-Identifier: GPL-3.0-or-later
// Seconds per sweep of the block models (sbm, mmsb) on generated graphs of growing size
// with a fixed mean degree: the cost should grow with the number of edges, not nodes squared.
#include <tbb/task_arena.h>

#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/data/synthetic_graph.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/model.hpp"
#include "core/util/clock.hpp"

using namespace latent::core;

namespace {

// The models this benchmark knows, and the options that keep their start-up work small so that
// the timed part is the sweeps (any of them can be overridden on the command line).
struct BenchModel {
  std::string name;
  nlohmann::json quickStart;
};

const std::vector<BenchModel>& benchModels() {
  static const std::vector<BenchModel> models = {
      // One start of one sweep, no merge-split search: the chain's sweeps are what is timed.
      {"sbm", {{"restarts", 1}, {"anneal_sweeps", 1}, {"start_sweeps", 1}}},
      // One chain, no restarts; non-edges subsampled (the setting for large graphs).
      {"mmsb", {{"restarts", 1}, {"non_edges", "sampled"}}},
  };
  return models;
}

struct Arguments {
  std::string model = "sbm";
  std::vector<int> nodes = {1000, 10000, 100000};
  double degree = 20.0;
  double inOutRatio = 10.0;
  int blocks = 10;
  bool directed = false;
  int threads = 1;
  std::uint64_t seed = 1;
  nlohmann::json options = nlohmann::json::object();
};

// Times of the reports: seconds per iteration between the first and the last one, so that the
// start-up work before the first report is left out. Processor time too (all threads of the
// process), the steadier figure on a shared machine. Reports of a start-up phase (restarts, outside
// the chain) count as start-up too.
class SweepClock final : public TrainingObserver {
 public:
  bool onReport(const IterationReport& r) override {
    if (!r.inChain()) return true;
    const double cpu = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    if (m_first < 0) {
      m_first = r.iteration;
      m_firstSeconds = r.seconds;
      m_firstCpu = cpu;
    }
    m_last = r.iteration;
    m_lastSeconds = r.seconds;
    m_lastCpu = cpu;
    return true;
  }
  double secondsPerIteration() const { return perIteration(m_lastSeconds - m_firstSeconds); }
  double cpuSecondsPerIteration() const { return perIteration(m_lastCpu - m_firstCpu); }
  double startSeconds() const { return m_firstSeconds; }

 private:
  double perIteration(double span) const {
    return m_last > m_first ? span / static_cast<double>(m_last - m_first) : 0.0;
  }
  std::int64_t m_first = -1, m_last = -1;
  double m_firstSeconds = 0.0, m_lastSeconds = 0.0, m_firstCpu = 0.0, m_lastCpu = 0.0;
};

long peakRssKb() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

std::vector<int> parseList(const std::string& text) {
  std::vector<int> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(std::stoi(item));
  return out;
}

const OptionSpec* findOption(const ModelInfo& info, const std::string& name) {
  for (const auto& o : info.options)
    if (o.name == name) return &o;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  Arguments a;
  std::vector<std::pair<std::string, std::string>> modelOptions;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--directed") {
      a.directed = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "missing value after " << key << "\n";
      return 2;
    }
    const std::string value = argv[++i];
    if (key == "--model")
      a.model = value;
    else if (key == "--nodes")
      a.nodes = parseList(value);
    else if (key == "--degree")
      a.degree = std::stod(value);
    else if (key == "--ratio")
      a.inOutRatio = std::stod(value);
    else if (key == "--k")
      a.blocks = std::stoi(value);
    else if (key == "--threads")
      a.threads = std::stoi(value);
    else if (key == "--seed")
      a.seed = std::stoull(value);
    else if (key.rfind("--", 0) == 0)
      modelOptions.emplace_back(key.substr(2), value);  // --iterations 20 ...
    else {
      std::cerr << "unknown argument " << key << "\n";
      return 2;
    }
  }
  const BenchModel* bench = nullptr;
  for (const auto& m : benchModels())
    if (m.name == a.model) bench = &m;
  if (!bench) {
    std::cerr << "unknown model " << a.model << "\n";
    return 2;
  }
  auto model = createModel(a.model);
  const ModelInfo& info = model->info();
  a.options = bench->quickStart;
  a.options["k"] = a.blocks;
  a.options["iterations"] = 20;
  a.options["snapshot_every"] = 0;
  for (const auto& [name, value] : modelOptions) {
    const auto* spec = findOption(info, name);
    if (!spec) {
      std::cerr << "unknown option --" << name << " of " << a.model << "\n";
      return 2;
    }
    a.options[name] = parseOptionValue(*spec, value);
  }

  tbb::task_arena arena(a.threads);
  for (const int n : a.nodes) {
    const Stopwatch generation;
    const auto planted = generateAssortativeSbm(n, a.blocks, a.degree, a.inOutRatio, a.directed, a.seed);
    const double generationSeconds = generation.seconds();
    const PreparedData prepared(planted.graph, 0.0, a.seed);
    const FitData& data = prepared.data();
    FitSettings settings;
    settings.options = resolveOptions(info, a.options);
    settings.seed = a.seed;
    settings.threads = a.threads;
    settings.evalEvery = 1000000;  // no held-out pairs anyway; keep evaluation out of the timing
    SweepClock clock;
    FitResult result;
    const Stopwatch fitClock;
    arena.execute([&] { result = model->fit(data, settings, clock, {}); });
    const double fitSeconds = fitClock.seconds();
    const double perSweep = clock.secondsPerIteration();
    const auto edges = static_cast<double>(planted.graph.edgeCount());
    nlohmann::json out = {{"model", a.model},
                          {"nodes", n},
                          {"edges", planted.graph.edgeCount()},
                          {"directed", a.directed},
                          {"k", a.blocks},
                          {"threads", a.threads},
                          {"iterations", result.iterations},
                          {"seconds_per_sweep", perSweep},
                          {"cpu_seconds_per_sweep", clock.cpuSecondsPerIteration()},
                          {"cpu_microseconds_per_edge_per_sweep", 1e6 * clock.cpuSecondsPerIteration() / edges},
                          {"start_seconds", clock.startSeconds()},
                          {"fit_seconds", fitSeconds},
                          {"generation_seconds", generationSeconds},
                          {"nmi", result.finalMetrics.value("nmi", 0.0)},
                          {"peak_rss_kb", peakRssKb()},
                          {"options", settings.options}};
    std::cout << out.dump() << std::endl;
  }
  return 0;
}
