// SPDX-License-Identifier: GPL-3.0-or-later
// Every built-in sample imports, with the counts its README states.
#include <QtTest>

#include <algorithm>

#include "core/jobs/samples.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

class SamplesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everySampleImports() {
    test::Scratch scratch;
    core::Project p(scratch.path("samples.latent"));
    for (const auto& s : core::builtInSamples()) {
      const auto result = core::importSample(p, s.name);
      QCOMPARE(result.dataset.name, s.name);
      QVERIFY(result.dataset.kind == s.kind);
    }
    QCOMPARE(p.datasets().size(), core::builtInSamples().size());

    QCOMPARE(p.resolveDataset("sotu").summary["documents"].get<int>(), 240);
    const auto sotu = core::listDocuments(p, p.resolveDataset("sotu").id);
    QCOMPARE(sotu.front().title, std::string("George Washington, 1790"));
    QCOMPARE(sotu.front().time, std::string("1790"));
    QCOMPARE(sotu.back().label, std::string("Republican"));

    const auto toy = core::loadCorpus(p, p.resolveDataset("gibbs-toy").id);
    QCOMPARE(toy.documentCount(), std::size_t{16});
    QCOMPARE(toy.tokenCount(), std::size_t{256});
    QCOMPARE(toy.vocabularySize(), std::size_t{5});

    const auto cora = p.resolveDataset("cora").summary;
    QCOMPARE(cora["documents"].get<int>(), 2410);
    QCOMPARE(cora["tokens"].get<int>(), 136394);
    QCOMPARE(cora["vocabulary"].get<int>(), 2961);
    // With its titles and its citations, each from the citing paper to the cited one.
    QCOMPARE(cora["links"].get<int>(), 4356);
    const auto coraId = p.resolveDataset("cora").id;
    QCOMPARE(core::listDocuments(p, coraId).front().title,
             std::string("The megaprior heuristic for discovering protein sequence patterns."));
    const auto coraLinks = core::loadCorpus(p, coraId).links;
    QCOMPARE(coraLinks.size(), std::size_t{4356});
    QVERIFY(std::find_if(coraLinks.begin(), coraLinks.end(),
                         [](const auto& l) { return l.source == 484 && l.target == 0; }) != coraLinks.end());

    // Sampson's monks with their names and four groups, liking at T4 as arcs.
    const auto monks = core::loadGraph(p, p.resolveDataset("sampson").id);
    QVERIFY(monks.directed);
    QCOMPARE(monks.nodeCount(), std::size_t{18});
    QCOMPARE(monks.edgeCount(), std::size_t{56});
    QCOMPARE(monks.nodeNames.front(), std::string("John Bosco"));
    const auto group = monks.attributeIndex("group");
    QVERIFY(group.has_value());
    std::map<std::string, int> sizes;
    for (const auto& g : monks.attributes[*group]) ++sizes[g];
    QCOMPARE(sizes["Young Turks"], 7);
    QCOMPARE(sizes["Loyal Opposition"], 5);
    QCOMPARE(sizes["Outcasts"], 3);
    QCOMPARE(sizes["Waverers"], 3);

    const auto karate = core::loadGraph(p, p.resolveDataset("karate").id);
    QVERIFY(!karate.directed);
    QCOMPARE(karate.nodeCount(), std::size_t{34});
    QCOMPARE(karate.edgeCount(), std::size_t{78});
    QCOMPARE(core::loadGraph(p, p.resolveDataset("davis").id).edgeCount(), std::size_t{89});

    const auto insteval = core::loadRatings(p, p.resolveDataset("insteval").id);
    QCOMPARE(insteval.ratings.size(), std::size_t{73421});
    QCOMPARE(insteval.userCount(), std::size_t{2972});
    QCOMPARE(insteval.itemCount(), std::size_t{1128});
  }

  void unknownSampleNamesTheOthers() {
    test::Scratch scratch;
    core::Project p(scratch.path("x.latent"));
    try {
      core::importSample(p, "movielens");
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY(std::string(e.what()).find("sotu") != std::string::npos);
    }
  }
};

LATENT_TEST_CASE(SamplesTest)
#include "tst_samples.moc"
