// SPDX-License-Identifier: GPL-3.0-or-later
// Speed of the LDA Gibbs samplers: tokens sampled per second, memory, and the held-out perplexity
// reached, on a corpus drawn from LDA with Zipf-like topics (see README.md for the protocol).
#include <tbb/task_arena.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/eval/heldout.hpp"
#include "core/models/topic/alias_table.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/util/clock.hpp"
#include "core/util/random.hpp"

using namespace latent::core;

namespace {

struct Arguments {
  int vocabulary = 30000;
  int documents = 2000;
  int meanLength = 1000;
  int trueTopics = 100;
  double trueAlpha = 0.1;
  double topicConcentration = 300.0;  // Dirichlet(c * m) topics, m the Zipf base measure
  std::uint64_t corpusSeed = 1;
  std::string writeCorpus, readCorpus;
  nlohmann::json options = nlohmann::json::object();
  int threads = 1;
  std::uint64_t seed = 1;
  double heldout = 0.1;
  int evalEvery = 1000000;
};

// Topics ~ Dirichlet(c m) with m_v proportional to 1/(v + 10) (Zipf-Mandelbrot): frequent words
// are shared by many topics and rare words belong to few, so the corpus's word frequencies fall off
// like Zipf's law as in real text with stop words removed (the commonest word about 1% of tokens).
// Documents: theta ~ Dir(alpha), length ~ Poisson(mean) (normal approximation).
Corpus generateCorpus(const Arguments& a) {
  Rng rng(a.corpusSeed);
  std::vector<double> base(static_cast<std::size_t>(a.vocabulary));
  double harmonic = 0.0;
  for (int v = 0; v < a.vocabulary; ++v) harmonic += 1.0 / (v + 10);
  for (int v = 0; v < a.vocabulary; ++v)
    base[static_cast<std::size_t>(v)] = a.topicConcentration / ((v + 10) * harmonic);
  std::vector<topic::AliasTable> topics(static_cast<std::size_t>(a.trueTopics));
  std::vector<double> weights(static_cast<std::size_t>(a.vocabulary));
  for (auto& t : topics) {
    for (int v = 0; v < a.vocabulary; ++v)
      weights[static_cast<std::size_t>(v)] = rng.gamma(base[static_cast<std::size_t>(v)]) + 1e-300;
    t.build(weights);
  }
  Corpus corpus;
  for (int v = 0; v < a.vocabulary; ++v) corpus.words.push_back("w" + std::to_string(v));
  std::vector<double> theta(static_cast<std::size_t>(a.trueTopics));
  std::vector<std::int32_t> doc;
  for (int d = 0; d < a.documents; ++d) {
    for (auto& x : theta) x = rng.gamma(a.trueAlpha) + 1e-300;
    const topic::AliasTable mix(theta);
    const int length =
        std::max(1, static_cast<int>(std::lround(a.meanLength + std::sqrt(a.meanLength) * rng.normal())));
    doc.clear();
    for (int i = 0; i < length; ++i) doc.push_back(topics[static_cast<std::size_t>(mix.draw(rng))].draw(rng));
    corpus.addDocument(std::to_string(d + 1), "", doc);
  }
  return corpus;
}

void writeBinary(const Corpus& c, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  const std::int64_t V = static_cast<std::int64_t>(c.vocabularySize()),
                     D = static_cast<std::int64_t>(c.documentCount());
  out.write(reinterpret_cast<const char*>(&V), sizeof V);
  out.write(reinterpret_cast<const char*>(&D), sizeof D);
  out.write(reinterpret_cast<const char*>(c.offsets.data()),
            static_cast<std::streamsize>(c.offsets.size() * sizeof(std::int64_t)));
  out.write(reinterpret_cast<const char*>(c.tokens.data()),
            static_cast<std::streamsize>(c.tokens.size() * sizeof(std::int32_t)));
}

Corpus readBinary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::int64_t V = 0, D = 0;
  in.read(reinterpret_cast<char*>(&V), sizeof V);
  in.read(reinterpret_cast<char*>(&D), sizeof D);
  Corpus c;
  for (std::int64_t v = 0; v < V; ++v) c.words.push_back("w" + std::to_string(v));
  c.offsets.resize(static_cast<std::size_t>(D) + 1);
  in.read(reinterpret_cast<char*>(c.offsets.data()),
          static_cast<std::streamsize>(c.offsets.size() * sizeof(std::int64_t)));
  c.tokens.resize(static_cast<std::size_t>(c.offsets.back()));
  in.read(reinterpret_cast<char*>(c.tokens.data()),
          static_cast<std::streamsize>(c.tokens.size() * sizeof(std::int32_t)));
  c.documentIds.resize(static_cast<std::size_t>(D));
  c.titles.resize(static_cast<std::size_t>(D));
  if (!in) throw std::runtime_error("cannot read corpus " + path);
  return c;
}

long statusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field) + 1));
  return -1;
}

class Progress final : public TrainingObserver {
 public:
  bool onReport(const IterationReport& r) override {
    std::cerr << "iteration " << r.iteration << " objective " << r.trainObjective;
    if (r.heldout) std::cerr << " held-out " << *r.heldout;
    std::cerr << " " << r.seconds << " s\n";
    return true;
  }
};

}  // namespace

int main(int argc, char** argv) {
  Arguments a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--vocabulary")
      a.vocabulary = std::stoi(value);
    else if (key == "--documents")
      a.documents = std::stoi(value);
    else if (key == "--mean-length")
      a.meanLength = std::stoi(value);
    else if (key == "--true-topics")
      a.trueTopics = std::stoi(value);
    else if (key == "--write-corpus")
      a.writeCorpus = value;
    else if (key == "--corpus")
      a.readCorpus = value;
    else if (key == "--threads")
      a.threads = std::stoi(value);
    else if (key == "--seed")
      a.seed = std::stoull(value);
    else if (key == "--heldout")
      a.heldout = std::stod(value);
    else if (key == "--eval-every")
      a.evalEvery = std::stoi(value);
    else if (key.rfind("--", 0) == 0) {  // a model option: --k 100 --sampler alias ...
      const auto name = key.substr(2);
      const auto* spec = [&]() -> const OptionSpec* {
        for (const auto& o : ldaGibbsModel().info().options)
          if (o.name == name) return &o;
        return nullptr;
      }();
      if (!spec) {
        std::cerr << "unknown argument " << key << "\n";
        return 2;
      }
      a.options[name] = parseOptionValue(*spec, value);
    }
  }
  if (!a.writeCorpus.empty()) {
    const auto corpus = generateCorpus(a);
    writeBinary(corpus, a.writeCorpus);
    std::cout << nlohmann::json{{"documents", corpus.documentCount()},
                                {"tokens", corpus.tokenCount()},
                                {"vocabulary", corpus.vocabularySize()}}
                     .dump()
              << "\n";
    return 0;
  }
  const Corpus corpus = a.readCorpus.empty() ? generateCorpus(a) : readBinary(a.readCorpus);
  auto split = splitForDocumentCompletion(corpus, a.heldout, a.seed);
  FitData data;
  data.corpus = &split.train;
  data.heldout = &split.heldout;
  data.trainDocuments = split.trainDocuments;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  FitSettings settings;
  if (!a.options.contains("snapshot_every")) a.options["snapshot_every"] = 0;
  settings.options = resolveOptions(ldaGibbsModel().info(), a.options);
  settings.seed = a.seed;
  settings.threads = a.threads;
  settings.evalEvery = a.evalEvery;
  const long rssBefore = statusKb("VmRSS:");
  Progress progress;
  FitResult result;
  const Stopwatch clock;
  tbb::task_arena arena(a.threads);
  arena.execute([&] { result = ldaGibbsModel().make()->fit(data, settings, progress, {}); });
  const double total = clock.seconds();
  const auto& m = result.finalMetrics;
  const double tokens = static_cast<double>(split.train.tokenCount());
  nlohmann::json out = {{"k", settings.options["k"]},
                        {"sampler", settings.options["sampler"]},
                        {"mh_steps", settings.options["mh_steps"]},
                        {"threads", a.threads},
                        {"iterations", result.iterations},
                        {"train_tokens", split.train.tokenCount()},
                        {"tokens_per_second", m.value("tokens_per_second", 0.0)},
                        {"tokens_per_cpu_second", m.value("tokens_per_cpu_second", 0.0)},
                        {"sampling_cpu_seconds", m.value("sampling_cpu_seconds", 0.0)},
                        {"sampling_seconds", m.value("sampling_seconds", 0.0)},
                        {"fit_seconds", total},
                        {"warp_start_seconds", m.value("warp_start_seconds", 0.0)},
                        {"heldout_perplexity", m.value("heldout_perplexity", 0.0)},
                        {"train_objective", m.value("train_objective", 0.0)},
                        {"alpha_sum", m.value("alpha_sum", 0.0)},
                        {"beta", m.value("beta", 0.0)},
                        {"sampler_memory_bytes_per_token", m.value("sampler_memory_bytes", std::int64_t{0}) / tokens},
                        {"rss_before_fit_kb", rssBefore},
                        {"peak_rss_kb", statusKb("VmHWM:")},
                        {"topic_word_bytes", 8.0 * static_cast<double>(settings.options["k"].get<std::int64_t>()) *
                                                 static_cast<double>(corpus.vocabularySize())}};
  std::cout << out.dump() << "\n";
  return 0;
}
