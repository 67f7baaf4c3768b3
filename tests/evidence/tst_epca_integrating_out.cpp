// SPDX-License-Identifier: GPL-3.0-or-later
// 003's point made on one model: ePCA's documents' coordinates as point estimates (the degenerate
// EM of 003 §3.5) against the same model with them integrated out (variational EM, 000 eq.
// 27.10), on short documents drawn from a two-dimensional ePCA, fitted with ever more components.
// The point estimate's full folding-in keeps improving with K while its document completion turns
// up; integrating out predicts held-out documents better once K is too large, and its full
// folding-in is less optimistic.
#include <QtTest>

#include <algorithm>
#include <vector>

#include "core/eval/heldout.hpp"
#include "core/models/topic/epca.hpp"
#include "generated_epca.hpp"
#include "quiet_observer.hpp"
#include "test_case.hpp"

using namespace latent;

class EpcaIntegratingOutTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void integratingOutOverfitsLess() {
    // 20 words per document from 120: too few to pin down a point in many dimensions.
    const auto truth = test::generateEpca(400, 120, 2, 20, 31);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.25, 5);
    core::FitData data;
    data.corpus = &split.train;
    data.heldout = &split.heldout;
    data.trainDocuments = split.trainDocuments;
    data.fullDocumentCount = static_cast<std::int64_t>(truth.corpus.documentCount());
    const std::vector<int> components = {1, 2, 4, 8, 16};
    std::vector<double> completion[2], folding[2];
    qInfo("%4s %14s %14s %14s %14s", "K", "map completion", "map full", "vb completion", "vb full");
    for (const int K : components) {
      for (int v = 0; v < 2; ++v) {
        core::FitSettings settings;
        settings.options = core::resolveOptions(
            core::epcaModel().info(),
            {{"k", K}, {"iterations", 300}, {"inference", v == 0 ? "map" : "variational"}, {"tolerance", 1e-7}});
        settings.seed = 2;
        settings.evalEvery = 1000000;
        test::QuietObserver quiet;
        const auto result = core::epcaModel().make()->fit(data, settings, quiet, {});
        QVERIFY(result.status != core::FitStatus::Cancelled && result.status != core::FitStatus::Failed);
        completion[v].push_back(result.finalMetrics["heldout_perplexity"].get<double>());
        folding[v].push_back(result.finalMetrics["heldout_perplexity_full_folding_in"].get<double>());
      }
      qInfo("%4d %14.2f %14.2f %14.2f %14.2f", K, completion[0].back(), folding[0].back(), completion[1].back(),
            folding[1].back());
    }
    const std::size_t last = components.size() - 1;
    // The point estimate: full folding-in better at every step up in K; document completion not.
    for (std::size_t i = 1; i <= last; ++i) QVERIFY(folding[0][i] < folding[0][i - 1]);
    QVERIFY(completion[0][last] > completion[0][1]);
    // Integrating out: better held-out prediction at the largest K, and a smaller gap between the
    // two protocols there.
    QVERIFY(completion[1][last] < completion[0][last]);
    QVERIFY(completion[1][last] < 1.05 * *std::min_element(completion[1].begin(), completion[1].end()));
    QVERIFY(completion[1][last] / folding[1][last] < completion[0][last] / folding[0][last]);
  }
};

LATENT_TEST_CASE(EpcaIntegratingOutTest)
#include "tst_epca_integrating_out.moc"
