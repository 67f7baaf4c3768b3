// SPDX-License-Identifier: GPL-3.0-or-later
// What storing and reading a large sparse topic-word matrix costs: saveSparseMatrix of a
// topic-word-like FilledSparseMatrix (each topic's fill, and in each word's column a fixed number
// of topics with their own values), as a run's final result with a float32 dense form, then, in a
// second call, loadStoredMatrix of it. Prints one JSON line per call.
//
//   latent-sparse-store --project FILE --save --topics K --words V --per-word E
//   latent-sparse-store --project FILE --load RUN
//
// FILE must hold a dataset (the run is made on its first one). peak_rss_mb is the process's peak
// resident memory (getrusage) at the end, the matrix made or read included.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/data/filled_sparse_matrix.hpp"
#include "core/store/project.hpp"
#include "core/store/run_maintenance.hpp"
#include "core/store/run_store.hpp"
#include "peak_rss.hpp"

using namespace latent;
using bench::peakRssMb;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

core::FilledSparseMatrix topicWordLike(std::int64_t topics, std::int64_t words, std::int64_t perWord) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(1e-7, 1e-2);
  std::uniform_int_distribution<std::int64_t> offset(0, topics - 1);
  core::FilledSparseMatrix m;
  m.rows = topics;
  m.cols = words;
  m.rowFill.resize(static_cast<std::size_t>(topics));
  for (auto& fill : m.rowFill) fill = value(random) / 100.0;
  m.columnStarts.reserve(static_cast<std::size_t>(words) + 1);
  m.rowIndices.reserve(static_cast<std::size_t>(words * perWord));
  m.values.reserve(static_cast<std::size_t>(words * perWord));
  m.columnStarts.push_back(0);
  for (std::int64_t w = 0; w < words; ++w) {
    // perWord distinct topics: a run of consecutive ones from a random start, in order.
    const std::int64_t first = offset(random);
    const auto begin = m.rowIndices.size();
    for (std::int64_t i = 0; i < perWord; ++i) {
      m.rowIndices.push_back(static_cast<std::int32_t>((first + i) % topics));
      m.values.push_back(value(random));
    }
    std::sort(m.rowIndices.begin() + static_cast<std::ptrdiff_t>(begin), m.rowIndices.end());
    m.columnStarts.push_back(static_cast<std::int64_t>(m.values.size()));
  }
  return m;
}

int usage() {
  std::fprintf(stderr,
               "usage: latent-sparse-store --project FILE --save --topics K --words V --per-word E\n"
               "       latent-sparse-store --project FILE --load RUN\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file;
  bool save = false;
  std::int64_t run = -1, topics = 0, words = 0, perWord = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    const bool hasValue = i + 1 < argc;
    if (key == "--project" && hasValue)
      file = argv[++i];
    else if (key == "--save")
      save = true;
    else if (key == "--load" && hasValue)
      run = std::stoll(argv[++i]);
    else if (key == "--topics" && hasValue)
      topics = std::stoll(argv[++i]);
    else if (key == "--words" && hasValue)
      words = std::stoll(argv[++i]);
    else if (key == "--per-word" && hasValue)
      perWord = std::stoll(argv[++i]);
    else
      return usage();
  }
  if (file.empty() || save == (run >= 0) || (save && (topics <= 0 || words <= 0 || perWord <= 0 || perWord > topics)))
    return usage();

  core::Project project(file);
  nlohmann::json out;
  if (save) {
    const auto matrix = topicWordLike(topics, words, perWord);
    core::RunRecord record;
    record.datasetId = project.datasets().front().id;
    record.model = "lda-gibbs";
    record.appVersion = "benchmark";
    run = core::createRun(project, record);
    const auto start = std::chrono::steady_clock::now();
    core::saveSparseMatrix(project, run, "topic_word", -1, matrix, core::MatrixElement::Float32);
    out["save_seconds"] = secondsSince(start);
    out["run"] = run;
    out["entries"] = static_cast<std::int64_t>(matrix.entries());
  } else {
    const auto start = std::chrono::steady_clock::now();
    const auto stored = core::loadStoredMatrix(project, run, "topic_word", -1);
    out["load_seconds"] = secondsSince(start);
    out["form"] = !stored                                                     ? "none"
                  : std::holds_alternative<core::FilledSparseMatrix>(*stored) ? "sparse"
                  : std::holds_alternative<Eigen::MatrixXf>(*stored)          ? "float32"
                                                                              : "float64";
  }
  out["stored_mb"] = static_cast<double>(core::runStorage(project, run).matrixBytes) / 1e6;
  out["peak_rss_mb"] = peakRssMb();
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
