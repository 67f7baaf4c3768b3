// SPDX-License-Identifier: GPL-3.0-or-later
// Supervised LDA against truth with a categorical response: the classes of held-out documents,
// cut from a response drawn from sLDA, are predicted from their text alone well above the share of
// the majority class. (The Gaussian response's recovery is in tests/models/tst_slda.cpp; this fit
// takes ten times as long per iteration, in the categorical M step.)
#include <QtTest>

#include <algorithm>
#include <vector>

#include "core/data/document_fields.hpp"
#include "result_matrix.hpp"
#include "slda_fit.hpp"
#include "test_case.hpp"

using namespace latent;

class SldaEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Without the logistic baseline, which is not what this test checks.
  void predictsHeldoutClasses() {
    auto truth = core::generateSldaCorpus(test::sldaSpec(400, 11));
    test::cutIntoLevels(truth);
    const auto run =
        test::fitSlda(truth.lda.corpus, {{"k", 4}, {"iterations", 30}, {"response", "level"}, {"baselines", false}});
    const double accuracy = run.result.finalMetrics.at("heldout_accuracy").get<double>();
    const auto field = core::documentField(truth.lda.corpus, "level");
    std::vector<int> sizes(3, 0);
    for (const auto c : field.codes) ++sizes[static_cast<std::size_t>(c)];
    const double majority = *std::max_element(sizes.begin(), sizes.end()) / 400.0;
    qInfo("held-out accuracy %.3f (majority class %.3f)", accuracy, majority);
    QVERIFY(accuracy > majority + 0.2);
  }
};

LATENT_TEST_CASE(SldaEvidenceTest)
#include "tst_slda_evidence.moc"
