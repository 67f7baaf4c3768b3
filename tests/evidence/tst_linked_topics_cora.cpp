// SPDX-License-Identifier: GPL-3.0-or-later
// The linked-document models on a real citation corpus and on their own generative processes at
// a size the unit tests cannot afford. Cora (2,410 papers, 4,356 citations; LATENT_CORA_DIR names
// the folder with docword.cora.txt, vocab.cora.txt and links.csv): link-lda and lda-mmsb with
// K = 20 on three seeds, 20% of the documents and of the links held out, their held-out AUC and
// precision at 10 printed beside the two baselines (LDA topics by cosine, MMSB on the links alone)
// and beside link-lda with outgoing bags (the reason for its undirected default). What is asserted
// is what held on every seed; the rest is printed to be read.
#include <QtTest>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/models/fit_data.hpp"
#include "core/models/links/lda_mmsb.hpp"
#include "core/models/links/link_lda.hpp"
#include "linked_cora.hpp"
#include "quiet_observer.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::FitResult fitLinkedCora(const core::ModelDefinition& model, const core::FitData& data,
                              const nlohmann::json& options, std::uint64_t seed) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(model.info(), options);
  settings.seed = seed;
  settings.evalEvery = 100;
  test::QuietObserver observer;
  return model.make()->fit(data, settings, observer, {});
}

double linkedCoraMetric(const core::FitResult& r, const char* key) { return r.finalMetrics.at(key).get<double>(); }

}  // namespace

class LinkedTopicsCoraEvidence : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void coraAgainstTheBaselines() {
    const char* dir = std::getenv("LATENT_CORA_DIR");
    if (!dir || !*dir) QSKIP("LATENT_CORA_DIR is not set (the folder of docword.cora.txt, vocab.cora.txt, links.csv)");
    test::Scratch scratch;
    const core::Corpus cora = test::loadLinkedCora(dir, scratch.path("cora.latent"));
    QCOMPARE(cora.documentCount(), std::size_t{2410});
    QVERIFY(cora.links.size() > 4000);
    std::map<std::string, std::vector<double>> auc, precision, newAuc, newPrecision;
    const auto record = [&](const std::string& name, double a, double p, double na, double np) {
      auc[name].push_back(a);
      precision[name].push_back(p);
      newAuc[name].push_back(na);
      newPrecision[name].push_back(np);
    };
    for (const std::uint64_t seed : {1, 2, 3}) {
      const core::PreparedData prepared(cora, 0.2, seed);
      const auto& data = prepared.data();
      const nlohmann::json common = {{"k", 20}, {"iterations", 300}};
      auto options = common;
      const auto linkLda = fitLinkedCora(core::linkLdaModel(), data, options, seed);
      options["baselines"] = false;
      options["direction"] = "outgoing";
      const auto outgoing = fitLinkedCora(core::linkLdaModel(), data, options, seed);
      options.erase("direction");
      const auto ldaMmsb = fitLinkedCora(core::ldaMmsbModel(), data, options, seed);
      for (const auto* r : {&linkLda, &outgoing, &ldaMmsb}) QCOMPARE(r->status, core::FitStatus::MaxIterations);
      const auto row = [&](const std::string& name, const core::FitResult& r) {
        record(name, linkedCoraMetric(r, "heldout_auc"), linkedCoraMetric(r, "heldout_precision_at_10"),
               linkedCoraMetric(r, "new_document_auc"), linkedCoraMetric(r, "new_document_precision_at_10"));
        std::printf(
            "seed %llu %-22s AUC %.3f  P@10 %.3f  new AUC %.3f  new P@10 %.3f  link perplexity %.3f  word "
            "perplexity %.1f  %.4f s/sweep\n",
            static_cast<unsigned long long>(seed), name.c_str(), linkedCoraMetric(r, "heldout_auc"),
            linkedCoraMetric(r, "heldout_precision_at_10"), linkedCoraMetric(r, "new_document_auc"),
            linkedCoraMetric(r, "new_document_precision_at_10"), linkedCoraMetric(r, "heldout_link_perplexity"),
            linkedCoraMetric(r, "heldout_perplexity"), linkedCoraMetric(r, "seconds_per_sweep"));
      };
      row("link-lda", linkLda);
      row("link-lda outgoing", outgoing);
      row("lda-mmsb", ldaMmsb);
      record("baseline lda cosine", linkedCoraMetric(linkLda, "baseline_auc_lda_cosine"),
             linkedCoraMetric(linkLda, "baseline_precision_at_10_lda_cosine"),
             linkedCoraMetric(linkLda, "baseline_new_document_auc_lda_cosine"),
             linkedCoraMetric(linkLda, "baseline_new_document_precision_at_10_lda_cosine"));
      record("baseline mmsb", linkedCoraMetric(linkLda, "baseline_auc_mmsb"),
             linkedCoraMetric(linkLda, "baseline_precision_at_10_mmsb"), 0.0, 0.0);
      std::printf(
          "seed %llu baselines: LDA cosine AUC %.3f P@10 %.3f new AUC %.3f new P@10 %.3f; MMSB AUC %.3f "
          "P@10 %.3f\n",
          static_cast<unsigned long long>(seed), auc["baseline lda cosine"].back(),
          precision["baseline lda cosine"].back(), newAuc["baseline lda cosine"].back(),
          newPrecision["baseline lda cosine"].back(), auc["baseline mmsb"].back(), precision["baseline mmsb"].back());
      std::fflush(stdout);
    }
    const auto mean = [](const std::vector<double>& v) {
      double s = 0.0;
      for (const double x : v) s += x;
      return s / double(v.size());
    };
    for (const auto& [name, values] : auc)
      std::printf("mean %-22s AUC %.3f  P@10 %.3f  new AUC %.3f  new P@10 %.3f\n", name.c_str(), mean(values),
                  mean(precision[name]), mean(newAuc[name]), mean(newPrecision[name]));
    // What held on every seed (the rest, printed above, did not): both models rank hidden links
    // above both baselines by AUC; link-lda's top 10 hold more hidden links than LDA cosine's, for
    // training and for new documents; lda-mmsb places new documents' links above LDA cosine by AUC;
    // link-lda's undirected bags beat outgoing ones. Where they lose: link-lda's new-document AUC
    // (it cannot predict who will cite a new document) and lda-mmsb's precision at 10.
    for (std::size_t i = 0; i < 3; ++i) {
      for (const char* name : {"link-lda", "lda-mmsb"}) {
        QVERIFY2(auc[name][i] > auc["baseline lda cosine"][i], name);
        QVERIFY2(auc[name][i] > auc["baseline mmsb"][i], name);
        QVERIFY2(newAuc[name][i] > 0.7, name);
      }
      QVERIFY(precision["link-lda"][i] > precision["baseline lda cosine"][i]);
      QVERIFY(newPrecision["link-lda"][i] > newPrecision["baseline lda cosine"][i]);
      QVERIFY(newAuc["lda-mmsb"][i] > newAuc["baseline lda cosine"][i]);
      QVERIFY(auc["link-lda"][i] > auc["link-lda outgoing"][i]);
      QVERIFY(newAuc["link-lda"][i] > newAuc["link-lda outgoing"][i]);
    }
  }
};

LATENT_TEST_CASE(LinkedTopicsCoraEvidence)
#include "tst_linked_topics_cora.moc"
