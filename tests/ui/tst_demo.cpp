// SPDX-License-Identifier: GPL-3.0-or-later
// The demo driver behind --demo/--screenshot: a demo imports its sample into a temporary
// project, shows it, and writes the window as PNG.
#include <QImage>
#include <QLabel>
#include <QTabWidget>
#include <QtTest>

#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/browsers/corpus_browser.hpp"
#include "ui/demo/demo_catalogue.hpp"
#include "ui/demo/demo_driver.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/blocks/relation_matrices_view.hpp"
#include "ui/runs/blocks/relations_page.hpp"
#include "ui/runs/gibbs/gibbs_state_view.hpp"
#include "ui/runs/k_choice/k_choice_view.hpp"
#include "ui/runs/retrieval/precision_recall_view.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/document_network_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/network_canvas.hpp"
#include "ui/widgets/project_tree.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestDemo : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }

  void catalogueKnowsItsDemos() {
    for (const char* name : {"corpus-unigram",    "corpus-lda",
                             "gibbs-toy",         "sampson",
                             "sampson-mmsb",      "karate",
                             "insteval",          "ratings-pmf",
                             "folding-in",        "bayesian-harmonium",
                             "rsm-vs-lda",        "ratings-rbm",
                             "words-on-a-map",    "ways-to-factor",
                             "survey-map",        "topics-together",
                             "topics-over-time",  "response-year",
                             "function-words",    "topics-by-party",
                             "sampson-relations", "citations-cora"})
      QVERIFY2(ui::findDemo(QString::fromLatin1(name)).has_value(), name);
    QVERIFY(!ui::findDemo(QStringLiteral("no-such-demo")));
    // folding-in fits PLSA for six K on Cora, 10% held out.
    const auto folding = ui::findDemo(QStringLiteral("folding-in"));
    QCOMPARE(folding->model, QStringLiteral("plsa"));
    QCOMPARE(folding->kValues, (QList<int>{5, 10, 20, 40, 80, 160}));
    QCOMPARE(folding->heldout, 0.1);
    // corpus-lda fits 10 topics to the State of the Union by collapsed Gibbs sampling.
    const auto lda = ui::findDemo(QStringLiteral("corpus-lda"));
    QCOMPARE(lda->sample, QStringLiteral("sotu"));
    QCOMPARE(lda->model, QStringLiteral("lda-gibbs"));
    QCOMPARE(lda->options.value(QStringLiteral("k")).toInt(), 10);
    // response-year fits sLDA to the State of the Union with the year as the response.
    const auto year = ui::findDemo(QStringLiteral("response-year"));
    QCOMPARE(year->model, QStringLiteral("slda"));
    QCOMPARE(year->options.value(QStringLiteral("response")).toString(), QStringLiteral("time"));
    // topics-by-party fits DMR to the State of the Union with the year and the party as features.
    const auto dmr = ui::findDemo(QStringLiteral("topics-by-party"));
    QCOMPARE(dmr->sample, QStringLiteral("sotu"));
    QCOMPARE(dmr->model, QStringLiteral("dmr"));
    QCOMPARE(dmr->options.value(QStringLiteral("features")).toString(), QStringLiteral("time,label"));
    // sampson-relations fits the multi-relational IRM to Sampson's eight relations with cloisterville.
    const auto relations = ui::findDemo(QStringLiteral("sampson-relations"));
    QCOMPARE(relations->sample, QStringLiteral("sampson-relations"));
    QCOMPARE(relations->model, QStringLiteral("irm-multi"));
    QCOMPARE(relations->options.value(QStringLiteral("features")).toString(), QStringLiteral("cloisterville"));
    QVERIFY(ui::findDemo(QStringLiteral("sample:cora")).has_value());
    QVERIFY(!ui::findDemo(QStringLiteral("sample:nothing")));
  }

  void gibbsToyWritesAScreenshot() {
    test::Scratch scratch;
    const QString png = QString::fromStdString(scratch.path("gibbs.png").string());
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto spec = ui::findDemo(QStringLiteral("gibbs-toy"));
    QVERIFY(spec);
    auto* driver = new ui::DemoDriver(&window, *spec, png);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), window.size() * window.devicePixelRatio());
    // What it shows: the sample in the tree (16 documents of 16 words), its browser, and LDA
    // with 2 topics after 64 sweeps on every document (nothing held out), on its topics page.
    auto* corpora = window.projectTree()->groupItem(core::DataKind::Corpus);
    QCOMPARE(corpora->childCount(), 1);
    QCOMPARE(corpora->child(0)->data(0, ui::ProjectTree::SummaryRole).toString(),
             QStringLiteral("16 documents · 256 tokens · 5 words"));
    QCOMPARE(window.tabs()->count(), 2);
    auto* browser = qobject_cast<ui::CorpusBrowser*>(window.tabs()->widget(0));
    QVERIFY(browser);
    QCOMPARE(browser->visibleDocumentCount(), 16);
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->run().model, std::string("lda-gibbs"));
    QCOMPARE(view->run().options["k"].get<int>(), 2);
    QCOMPARE(view->run().iterations.value_or(0), std::int64_t{64});
    QCOMPARE(view->run().heldout, 0.0);
    QVERIFY(view->page<ui::TopicTableView>());
    // It opens on the textbook's picture (000 Fig. 27.8): every token at the random start and
    // after the 64 sweeps. A word of one sense (money, loan, river, stream) has its tokens split
    // between the topics at the start and nearly all in one topic after; "bank" stays split.
    auto* gibbs = view->page<ui::GibbsStateView>();
    QVERIFY(gibbs);
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(gibbs));
    const auto& state = *gibbs->data();
    QCOMPARE(state.wordIds.size(), std::size_t{16});
    for (std::size_t d = 0; d < state.wordIds.size(); ++d) {
      QCOMPARE(state.before[d].size(), state.wordIds[d].size());
      QCOMPARE(state.after[d].size(), state.wordIds[d].size());
    }
    auto purity = [&](const QString& word, bool after) {
      const auto id = state.words.indexOf(word);
      int tokens = 0, first = 0;
      for (std::size_t d = 0; d < state.wordIds.size(); ++d)
        for (std::size_t i = 0; i < state.wordIds[d].size(); ++i)
          if (state.wordIds[d][i] == id) {
            ++tokens;
            first += (after ? state.after[d][i] : state.before[d][i]) == 0;
          }
      return tokens > 0 ? std::max(first, tokens - first) / double(tokens) : 0.0;
    };
    double meanBefore = 0.0, meanAfter = 0.0;
    for (const char* word : {"money", "loan", "river", "stream"}) {
      const double before = purity(QString::fromLatin1(word), false), after = purity(QString::fromLatin1(word), true);
      qInfo("%s: %.2f of its tokens in one topic at the start, %.2f after 64 sweeps", word, before, after);
      QVERIFY2(after > before, word);
      meanBefore += before / 4;
      meanAfter += after / 4;
    }
    QVERIFY2(meanBefore < 0.7, qPrintable(QString::number(meanBefore)));
    QVERIFY2(meanAfter > 0.85, qPrintable(QString::number(meanAfter)));
    QCOMPARE(view->page<ui::TopicTableView>()->data()->topicCount(), 2);
    // "bank" is shared by both senses; "money" and "river" are not: the two topics split them.
    const auto* data = view->page<ui::TopicTableView>()->data();
    auto word = [&](const char* w) {
      return static_cast<int>(std::find(data->words.begin(), data->words.end(), std::string(w)) - data->words.begin());
    };
    const int money = word("money"), river = word("river");
    const int moneyTopic = data->topicWord(0, money) > data->topicWord(1, money) ? 0 : 1;
    QVERIFY(data->topicWord(1 - moneyTopic, river) > data->topicWord(moneyTopic, river));
    QVERIFY(std::all_of(data->assigned.begin(), data->assigned.end(), [](auto a) { return a != 0; }));
    QVERIFY(window.bannerText().contains(spec->title.toHtmlEscaped()));
    // A demo's temporary project is not a recent project.
    QVERIFY(!window.recentProjects().contains(QString::fromStdString(window.projectPath().string())));
  }

  // A demo over several K (folding-in's mechanism, on the toy corpus to keep it short): one fit
  // per K, and the last run's tab opens on Choosing K with both protocols per K.
  void severalKEndOnChoosingK() {
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    ui::DemoSpec spec{QStringLiteral("toy-k"),
                      QStringLiteral("toy"),
                      QStringLiteral("toy"),
                      QStringLiteral("gibbs-toy"),
                      QStringLiteral("plsa"),
                      QString(),
                      QVariantMap{{QStringLiteral("iterations"), 20}},
                      0.25,
                      {1, 2, 3},
                      {}};
    auto* driver = new ui::DemoDriver(&window, spec);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->run().options["k"].get<int>(), 3);
    QVERIFY(view->page<ui::KChoiceView>());
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(view->page<ui::KChoiceView>()));
    const auto& points = view->page<ui::KChoiceView>()->data().points;
    QCOMPARE(points.size(), std::size_t{3});
    for (std::size_t i = 0; i < 3; ++i) {
      QCOMPARE(points[i].k, std::int64_t(i) + 1);
      QVERIFY(points[i].fullFoldingIn.has_value());
    }
    QVERIFY(view->page<ui::KChoiceView>()->captionText().contains(QLatin1String("full folding-in")));
  }

  // A demo over several models (rsm-vs-lda's mechanism, with short fits): the models are fitted in
  // turn on one split and seed, and the demo ends on their precision-recall tab.
  void severalModelsEndOnPrecisionRecall() {
    const auto catalogued = ui::findDemo(QStringLiteral("rsm-vs-lda"));
    QVERIFY(catalogued);
    QCOMPARE(catalogued->model, QStringLiteral("rsm"));
    QCOMPARE(catalogued->thenFit.size(), 1);
    QCOMPARE(catalogued->thenFit.front().model, QStringLiteral("lda-gibbs"));

    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    ui::DemoSpec spec{QStringLiteral("toy-models"),
                      QStringLiteral("toy"),
                      QStringLiteral("toy"),
                      QStringLiteral("sotu"),
                      QStringLiteral("rsm"),
                      QString(),
                      QVariantMap{{QStringLiteral("k"), 4}, {QStringLiteral("iterations"), 2}},
                      0.1,
                      {},
                      {ui::DemoFit{QStringLiteral("lda-gibbs"), QVariantMap{{QStringLiteral("k"), 4},
                                                                            {QStringLiteral("iterations"), 5},
                                                                            {QStringLiteral("restarts"), 1}}}}};
    auto* driver = new ui::DemoDriver(&window, spec);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto* view = qobject_cast<ui::PrecisionRecallView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->runIds().size(), 2);
    const auto& runs = view->data().runs;
    QCOMPARE(runs.size(), std::size_t{2});
    QCOMPARE(runs[0].run.model, std::string("rsm"));
    QCOMPARE(runs[1].run.model, std::string("lda-gibbs"));
    QCOMPARE(runs[1].run.options["k"].get<int>(), 4);
    QCOMPARE(runs[0].run.seed, runs[1].run.seed);
    QCOMPARE(runs[0].run.heldout, 0.1);
    QCOMPARE(runs[1].run.heldout, 0.1);
  }

  // All of Sampson's relations: the eight relations imported as one graph, the multi-relational IRM
  // fitted on all of them, and the run opens on its Relations page.
  void sampsonRelationsEndOnTheRelationsPage() {
    ui::MainWindow window;
    auto spec = ui::findDemo(QStringLiteral("sampson-relations"));
    QVERIFY(spec);
    auto* driver = new ui::DemoDriver(&window, *spec);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->run().model, std::string("irm-multi"));
    QCOMPARE(view->run().status, core::RunStatus::Finished);
    QCOMPARE(view->run().finalMetrics["relations"].size(), std::size_t{8});
    QVERIFY(test::waitFor([&] { return view->page<ui::RelationsPage>() != nullptr; }));
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(view->page<ui::RelationsPage>()));
    QCOMPARE(view->page<ui::RelationsPage>()->view()->panels().size(), std::size_t{9});
  }

  // Citations in Cora: the sample comes with its citations, rtm is fitted with a tenth held out, its
  // final line carries the link scores beside both baselines, and the run opens on its Network page
  // with the predicted links drawn.
  void citationsInCoraEndOnTheNetworkPage() {
    ui::MainWindow window;
    auto spec = ui::findDemo(QStringLiteral("citations-cora"));
    QVERIFY(spec);
    auto* driver = new ui::DemoDriver(&window, *spec);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->run().model, std::string("rtm"));
    QCOMPARE(view->run().status, core::RunStatus::Finished);
    const auto& metrics = view->run().finalMetrics;
    for (const char* key : {"heldout_auc", "heldout_link_perplexity", "heldout_precision_at_10", "new_document_auc",
                            "baseline_auc_lda_cosine", "baseline_auc_mmsb"})
      QVERIFY2(metrics.contains(key), key);
    QVERIFY(metrics["heldout_auc"].get<double>() > 0.7);
    QVERIFY(test::waitFor([&] { return view->page<ui::DocumentNetworkView>() != nullptr; }));
    auto* network = view->page<ui::DocumentNetworkView>();
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(network));
    QCOMPARE(network->canvas()->drawing().positions.rows(), Eigen::Index(2410));
    QVERIFY(network->predictedShown() > 0);
  }

  void corpusUnigramEndsOnTheRunView() {
    ui::MainWindow window;
    auto spec = ui::findDemo(QStringLiteral("corpus-unigram"));
    QVERIFY(spec);
    auto* driver = new ui::DemoDriver(&window, *spec);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->run().status, core::RunStatus::Finished);
    QCOMPARE(view->run().heldout, 0.1);
    QCOMPARE(view->run().seed, std::uint64_t{1});
    // One topic (the unigram's distribution), its 30 most probable words, in decreasing order,
    // on a "Words" page without a documents page (the unigram has no proportions).
    QVERIFY(view->page<ui::TopicTableView>());
    QCOMPARE(view->page<ui::TopicTableView>()->data()->topicCount(), 1);
    QVERIFY(!view->page<ui::TopicTableView>()->isRanking() ||
            QTest::qWaitFor([&] { return !view->page<ui::TopicTableView>()->isRanking(); }, 20000));
    const auto& words = view->page<ui::TopicTableView>()->rankedWords(0);
    QCOMPARE(static_cast<int>(words.size()), 30);
    for (std::size_t i = 1; i < words.size(); ++i) QVERIFY(words[i - 1].probability >= words[i].probability);
    QCOMPARE(view->pages()->tabText(0), QStringLiteral("Words"));
    QCOMPARE(view->pages()->indexOf(view->page<ui::TopicDocumentView>()), -1);
    // The held-out number is shown with its protocol.
    QVERIFY(view->run().heldoutName.find("document completion") != std::string::npos);
    QVERIFY(view->findChild<QLabel*>() != nullptr);
  }
};

LATENT_TEST_CASE(TestDemo)
#include "tst_demo.moc"
