// SPDX-License-Identifier: GPL-3.0-or-later
// Small datasets written straight through core (no importer involved), so the GUI tests know
// every count by hand, and a helper to wait for a TabPage to load.
#pragma once

#include <QSignalSpy>

#include "ui/main_window.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/widgets/project_tree.hpp"

#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/data/corpus_builder.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/database.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/project.hpp"
#include "core/store/ratings_store.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/widgets/tab_page.hpp"

namespace latent::test {

struct TextDocument {
  TextDocument(std::string id_, std::string title_, std::string text_, std::string time_ = {}, std::string label_ = {})
      : id(std::move(id_)),
        title(std::move(title_)),
        text(std::move(text_)),
        time(std::move(time_)),
        label(std::move(label_)) {}
  std::string id, title, text, time, label;
};

// A corpus of text documents; stop words: English when `english`, none otherwise.
inline std::int64_t addTextCorpus(core::Project& project, const std::string& name,
                                  const std::vector<TextDocument>& docs, bool english = false) {
  core::Transaction tx(project.db());
  const auto id = project.createDataset(name, core::DataKind::Corpus, "test", "lines", nlohmann::json::object());
  core::CorpusWriter writer(project, id);
  core::CorpusBuildOptions options;
  if (english) options.stopWords = core::StopWords::english();
  core::CorpusBuilder builder(std::move(options), writer);
  for (std::size_t d = 0; d < docs.size(); ++d) {
    core::DocumentRecord r;
    r.index = static_cast<std::int64_t>(d);
    r.id = docs[d].id;
    r.title = docs[d].title;
    r.time = docs[d].time;
    r.label = docs[d].label;
    r.text = docs[d].text;
    r.hasText = true;
    builder.addText(r);
  }
  const auto s = builder.finish();
  project.setDatasetSummary(
      id, {{"documents", s.documents}, {"tokens", s.tokens}, {"vocabulary", s.vocabulary}, {"has_text", true}});
  tx.commit();
  return id;
}

// A bag-of-words corpus: each document is (word index in `words`, count) pairs.
inline std::int64_t addBagCorpus(core::Project& project, const std::string& name, const std::vector<std::string>& words,
                                 const std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>>& docs) {
  core::Transaction tx(project.db());
  const auto id = project.createDataset(name, core::DataKind::Corpus, "test", "uci", nlohmann::json::object());
  core::CorpusWriter writer(project, id);
  core::CorpusBuilder builder({}, writer);
  builder.setSourceVocabulary(words);
  std::vector<std::string> ids;
  for (std::size_t d = 0; d < docs.size(); ++d) ids.push_back("doc" + std::to_string(d + 1));
  for (std::size_t d = 0; d < docs.size(); ++d) {
    core::DocumentRecord r;
    r.index = static_cast<std::int64_t>(d);
    r.id = ids[d];
    r.title = ids[d];  // importers title bag-of-words documents by their id
    builder.addBag(r, docs[d]);
  }
  const auto s = builder.finish();
  project.setDatasetSummary(
      id, {{"documents", s.documents}, {"tokens", s.tokens}, {"vocabulary", s.vocabulary}, {"has_text", false}});
  tx.commit();
  return id;
}

inline std::int64_t addGraph(core::Project& project, const std::string& name, const core::Graph& graph) {
  core::Transaction tx(project.db());
  const auto id = project.createDataset(name, core::DataKind::Graph, "test", "edges", nlohmann::json::object());
  core::writeGraph(project, id, graph);
  project.setDatasetSummary(id, {{"nodes", graph.nodeCount()},
                                 {"edges", graph.edgeCount()},
                                 {"directed", graph.directed},
                                 {"attributes", graph.attributeNames}});
  tx.commit();
  return id;
}

inline std::int64_t addRatings(core::Project& project, const std::string& name, const core::Ratings& ratings) {
  core::Transaction tx(project.db());
  const auto id = project.createDataset(name, core::DataKind::Ratings, "test", "csv", nlohmann::json::object());
  core::writeRatings(project, id, ratings);
  project.setDatasetSummary(
      id, {{"users", ratings.userCount()}, {"items", ratings.itemCount()}, {"ratings", ratings.ratings.size()}});
  tx.commit();
  return id;
}

// A ratings table from (user id, item id, value) triples, ids in order of first appearance.
inline core::Ratings makeRatings(const std::vector<std::tuple<std::string, std::string, double>>& rows) {
  core::Ratings r;
  auto index = [](std::vector<std::string>& ids, const std::string& id) {
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] == id) return static_cast<std::int32_t>(i);
    ids.push_back(id);
    return static_cast<std::int32_t>(ids.size() - 1);
  };
  for (const auto& [user, item, value] : rows) {
    const auto u = index(r.userIds, user);
    const auto i = index(r.itemIds, item);
    r.ratings.push_back({u, i, value, 0});
  }
  r.itemNames = r.itemIds;
  return r;
}

// Each test program keeps its settings (recent projects, window state) in a folder of its own,
// so suites running in parallel never see each other's, nor the user's.
inline void isolateSettings() {
  QStandardPaths::setTestModeEnabled(true);
  static QTemporaryDir dir;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

// Processes events until `done()` holds or `ms` have passed; returns done().
inline bool waitFor(const std::function<bool()>& done, int ms = 20000) {
  return QTest::qWaitFor([&] { return done(); }, ms);
}

// Waits until a page shows its data (or its error); fails the test after `ms`.
inline bool waitLoaded(ui::TabPage* page, int ms = 20000) {
  if (!page) return false;
  if (page->isLoaded()) return true;
  QSignalSpy spy(page, &ui::TabPage::loaded);
  return spy.wait(ms) || page->isLoaded();
}

// Opens (or creates) a project in the window and waits until the window, the tree and the run
// panel have read it: the project opens off the GUI thread.
inline bool openProject(ui::MainWindow& window, const QString& file, bool create = false) {
  QSignalSpy opened(&window, &ui::MainWindow::projectOpened);
  QSignalSpy tree(window.projectTree(), &ui::ProjectTree::refreshed);
  QSignalSpy panel(window.runPanel(), &ui::RunPanel::datasetsRefreshed);
  if (!(create ? window.createProject(file) : window.openProject(file))) return false;
  return waitFor([&] { return opened.count() > 0 && tree.count() > 0 && panel.count() > 0; });
}

// The dataset's tab, once the window has read which kind of page it needs.
inline ui::TabPage* openDataset(ui::MainWindow& window, qint64 datasetId) {
  ui::TabPage* page = nullptr;
  bool done = false;
  window.openDataset(datasetId, [&](ui::TabPage* p) {
    page = p;
    done = true;
  });
  waitFor([&] { return done; });
  return page;
}

// The titles of a run view's pages, in tab order.
inline QStringList runViewTabs(const ui::RunView& view) {
  QStringList out;
  for (int i = 0; i < view.pages()->count(); ++i) out << view.pages()->tabText(i);
  return out;
}

}  // namespace latent::test
