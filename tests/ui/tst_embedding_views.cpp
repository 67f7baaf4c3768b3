// SPDX-License-Identifier: GPL-3.0-or-later
// The pages of an lsa run on a corpus of two themes (pets, the sea): Components shows the stored
// singular values, their shares and each component's words at either end; Map places documents or
// words on two components and lists a found word's nearest neighbours by cosine, which are worked
// out here from the stored vectors; and the pages do not appear for a topic model's run.
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "core/results/embedding_results.hpp"
#include "core/store/corpus_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/embeddings/embedding_components_page.hpp"
#include "ui/runs/embeddings/embedding_map_page.hpp"
#include "ui/runs/embeddings/embedding_map_view.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/format.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

std::vector<test::TextDocument> embeddingThemeDocuments() {
  const std::vector<std::string> pets = {"cat dog puppy kitten leash", "dog puppy leash bone cat",
                                         "kitten cat purr dog", "puppy bone dog leash kitten"};
  const std::vector<std::string> sea = {"fish whale boat wave sail", "boat sail wave fish tide", "whale fish tide wave",
                                        "sail boat tide whale fish"};
  std::vector<test::TextDocument> docs;
  for (int round = 0; round < 3; ++round)
    for (std::size_t i = 0; i < pets.size(); ++i) {
      const auto n = std::to_string(docs.size() + 1);
      docs.emplace_back("p" + n, "Pets " + n, pets[(i + static_cast<std::size_t>(round)) % pets.size()]);
      docs.emplace_back("s" + n, "Sea " + n, sea[(i + static_cast<std::size_t>(round)) % sea.size()]);
    }
  return docs;
}

}  // namespace

class TestEmbeddingViews : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_lsaRun = 0, m_nmfRun = 0, m_epcaRun = 0;
  Eigen::VectorXd m_epcaSingularValues;
  Eigen::VectorXd m_singularValues;
  Eigen::MatrixXd m_wordVectors;
  std::vector<std::string> m_words;

  std::unique_ptr<ui::RunView> openView(qint64 run) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1200, 800);
    view->show();
    [&] {
      QVERIFY(QTest::qWaitForWindowExposed(view.get()));
      QVERIFY(test::waitFor([&] { return view->isSettled(); }));
    }();
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("lsa.latent");
    {
      core::Project project(m_file);
      const auto id = test::addTextCorpus(project, "themes", embeddingThemeDocuments());
      for (const auto& entry : core::loadVocabulary(project, id)) m_words.push_back(entry.word);
    }
    core::RunRequest request;
    request.model = "lsa";
    request.dataset = "themes";
    request.options = {{"k", 3}};
    request.seed = 1;
    const auto lsa = core::runFit(m_file, request, nullptr, {});
    QVERIFY(lsa.run.status == core::RunStatus::Finished);
    m_lsaRun = lsa.run.id;
    m_singularValues = core::findMatrix(lsa.result.matrices, core::embedding::kSingularValues)->col(0);
    m_wordVectors = *core::findMatrix(lsa.result.matrices, core::embedding::kWordVectors);
    request.model = "nmf";
    request.options = {{"k", 2}, {"iterations", 20}};
    m_nmfRun = core::runFit(m_file, request, nullptr, {}).run.id;
    request.model = "epca";
    request.options = {{"k", 2}, {"iterations", 30}};
    const auto epca = core::runFit(m_file, request, nullptr, {});
    m_epcaRun = epca.run.id;
    m_epcaSingularValues = core::findMatrix(epca.result.matrices, core::embedding::kSingularValues)->col(0);
  }

  void componentsPageShowsTheDecomposition() {
    auto view = openView(m_lsaRun);
    QCOMPARE(test::runViewTabs(*view).mid(0, 2), (QStringList{QStringLiteral("Components"), QStringLiteral("Map")}));
    auto* page = view->page<ui::EmbeddingComponentsPage>();
    QVERIFY(page);
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(page));
    auto* model = page->model();
    QCOMPARE(model->rowCount(), 3);
    for (int k = 0; k < 3; ++k) {
      QCOMPARE(model->index(k, ui::EmbeddingComponentsPage::SingularValueColumn).data(Qt::UserRole).toDouble(),
               m_singularValues[k]);
      QCOMPARE(model->index(k, ui::EmbeddingComponentsPage::SingularValueColumn).data().toString(),
               ui::formatReal(m_singularValues[k]));
    }
    // The shares add up to what the run reports it captured.
    core::Project project(m_file, core::Project::Access::ReadOnly);
    const auto run = core::loadRun(project, m_lsaRun);
    const double captured = run.finalMetrics["train_captured_share"].get<double>();
    QVERIFY(std::abs(model->index(2, ui::EmbeddingComponentsPage::CumulativeColumn).data(Qt::UserRole).toDouble() -
                     captured) < 1e-12);
    // Each component's words at either end: the largest and the smallest coordinates, worked out
    // here from the stored vectors (only words on that side of zero).
    for (int k = 0; k < 3; ++k)
      for (const bool positive : {true, false}) {
        std::vector<std::pair<double, Eigen::Index>> ranked;  // ties in vocabulary order
        for (Eigen::Index v = 0; v < m_wordVectors.rows(); ++v)
          if ((positive ? 1.0 : -1.0) * m_wordVectors(v, k) > 0)
            ranked.emplace_back((positive ? -1.0 : 1.0) * m_wordVectors(v, k), v);
        std::sort(ranked.begin(), ranked.end());
        QStringList expected;
        for (std::size_t i = 0; i < ranked.size() && i < static_cast<std::size_t>(ui::kComponentWords); ++i)
          expected << QString::fromStdString(m_words[static_cast<std::size_t>(ranked[i].second)]);
        const auto column =
            positive ? ui::EmbeddingComponentsPage::PositiveColumn : ui::EmbeddingComponentsPage::NegativeColumn;
        QCOMPARE(model->index(k, column).data().toString(), expected.join(QStringLiteral(", ")));
      }
    QVERIFY(page->chartView()->chart()->series().size() >= 2);
    QVERIFY(page->headerText().contains(QStringLiteral("3 components")));
  }

  void mapListsNeighboursByCosine() {
    auto view = openView(m_lsaRun);
    auto* page = view->page<ui::EmbeddingMapPage>();
    QVERIFY(page);
    QVERIFY(!page->showsWords());  // documents first
    QCOMPARE(page->view()->pointCount(), 24);
    QVERIFY(page->selectByName(QStringLiteral("cat")));
    QVERIFY(page->showsWords());
    QCOMPARE(page->view()->pointCount(), static_cast<int>(m_words.size()));
    // The neighbours, worked out from the stored vectors: cosine of W diag(s) rows.
    const Eigen::MatrixXd coordinates = m_wordVectors * m_singularValues.asDiagonal();
    const auto cat = static_cast<Eigen::Index>(std::find(m_words.begin(), m_words.end(), "cat") - m_words.begin());
    std::vector<std::pair<double, std::string>> expected;
    for (Eigen::Index v = 0; v < coordinates.rows(); ++v)
      if (v != cat)
        expected.emplace_back(
            coordinates.row(v).dot(coordinates.row(cat)) / (coordinates.row(v).norm() * coordinates.row(cat).norm()),
            m_words[static_cast<std::size_t>(v)]);
    std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    const auto& neighbours = page->neighbours();
    QCOMPARE(neighbours.size(), std::min<std::size_t>(ui::kMapNeighbours, expected.size()));
    for (std::size_t i = 0; i < 3; ++i) {
      QCOMPARE(m_words[static_cast<std::size_t>(neighbours[i].row)], expected[i].second);
      QVERIFY(std::abs(neighbours[i].similarity - expected[i].first) < 1e-12);
    }
    // The nearest words to "cat" are about pets.
    const QString first = page->neighbourTable()->item(0, 0)->text();
    QVERIFY2(QStringList({"dog", "puppy", "kitten", "leash", "bone", "purr"}).contains(first), qPrintable(first));
    QCOMPARE(page->view()->selected(), static_cast<int>(cat));
    QCOMPARE(page->view()->ringed().size(), neighbours.size());
    // A document found by title switches back to documents; a name there is not is not found.
    QVERIFY(page->selectByName(QStringLiteral("Sea 1")));
    QVERIFY(!page->showsWords());
    QVERIFY(!page->selectByName(QStringLiteral("no such thing")));
    page->setComponents(0, 2);
    QCOMPARE(page->view()->pointCount(), 24);
    // Pictures for people (LATENT_UI_SHOTS=DIR), as the other view suites write them.
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty()) {
      QVERIFY(page->selectByName(QStringLiteral("whale")));
      view->pages()->setCurrentWidget(page);
      QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("lsa-map.png"))));
      view->pages()->setCurrentWidget(view->page<ui::EmbeddingComponentsPage>());
      QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("lsa-components.png"))));
    }
  }

  // An ePCA run shows the same pages, its components the SVD of its low-rank part.
  void epcaRunShowsItsComponents() {
    auto view = openView(m_epcaRun);
    auto* page = view->page<ui::EmbeddingComponentsPage>();
    QVERIFY(page);
    QCOMPARE(page->model()->rowCount(), 2);
    for (int k = 0; k < 2; ++k)
      QCOMPARE(page->model()->index(k, ui::EmbeddingComponentsPage::SingularValueColumn).data(Qt::UserRole).toDouble(),
               m_epcaSingularValues[k]);
    QVERIFY(page->headerText().contains(QStringLiteral("low-rank part")));
    QVERIFY(view->page<ui::EmbeddingMapPage>());
  }

  void topicRunHasNoEmbeddingPages() {
    auto view = openView(m_nmfRun);
    QVERIFY(!view->page<ui::EmbeddingComponentsPage>());
    QVERIFY(!test::runViewTabs(*view).contains(QStringLiteral("Map")));
  }
};

LATENT_TEST_CASE(TestEmbeddingViews)
#include "tst_embedding_views.moc"
