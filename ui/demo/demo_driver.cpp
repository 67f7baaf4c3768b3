// SPDX-License-Identifier: GPL-3.0-or-later
// DemoDriver: the demo's steps, each started when the previous background job reports back.
#include "ui/demo/demo_driver.hpp"

#include <QDir>
#include <QPixmap>
#include <QTimer>

#include "ui/browsers/graph_browser.hpp"
#include "ui/jobs/import_task.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/embeddings/embedding_map_page.hpp"
#include "ui/runs/gibbs/gibbs_state_view.hpp"
#include "ui/runs/hidden/hidden_chain_page.hpp"
#include "ui/runs/k_choice/k_choice_view.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/retrieval/precision_recall_view.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_correlation_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_metadata_view.hpp"
#include "ui/runs/topics/topic_time_view.hpp"
#include "ui/util/qt_convert.hpp"

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace latent::ui {
namespace {

// A demo's model options as the option form takes them.
nlohmann::json jsonOptions(const QVariantMap& values) {
  nlohmann::json options = nlohmann::json::object();
  for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
    const QVariant& v = it.value();
    if (v.typeId() == QMetaType::Double)
      options[utf8(it.key())] = v.toDouble();
    else if (v.typeId() == QMetaType::Bool)
      options[utf8(it.key())] = v.toBool();
    else if (v.typeId() == QMetaType::QString)
      options[utf8(it.key())] = utf8(v.toString());
    else
      options[utf8(it.key())] = v.toLongLong();
  }
  return options;
}

}  // namespace

DemoDriver::DemoDriver(MainWindow* window, DemoSpec spec, QString screenshotPath)
    : QObject(window), m_window(window), m_spec(std::move(spec)), m_screenshot(std::move(screenshotPath)) {}

void DemoDriver::start() {
  if (!m_dir.isValid()) {
    finish(false, tr("cannot create a temporary folder for the demo project"));
    return;
  }
  QString base = m_spec.name;
  base.replace(QLatin1Char(':'), QLatin1Char('-'));
  m_projectFile = QDir(m_dir.path()).filePath(base + QStringLiteral(".latent"));
  // The project opens off the GUI thread; the demo goes on when it has.
  connect(m_window, &MainWindow::projectOpened, this, &DemoDriver::projectReady, Qt::SingleShotConnection);
  connect(
      m_window, &MainWindow::projectOpenFailed, this, [this](const QString& message) { finish(false, message); },
      Qt::SingleShotConnection);
  QString error;
  if (!m_window->createProject(m_projectFile, &error, false)) finish(false, error);
}

void DemoDriver::projectReady() {
  if (!m_window || m_done) return;
  m_window->showBanner(
      QStringLiteral("<b>%1</b> — %2").arg(m_spec.title.toHtmlEscaped(), m_spec.explanation.toHtmlEscaped()));
  m_window->log(tr("Demo “%1”: %2").arg(m_spec.name, m_spec.explanation));
  ImportTask* task = m_window->importSample(m_spec.sample);
  if (!task) {
    finish(false, tr("the sample could not be imported"));
    return;
  }
  connect(task, &ImportTask::ended, this, [this, task] {
    if (!task->succeeded()) {
      finish(false, task->wasCancelled() ? tr("the import was cancelled") : task->errorMessage());
      return;
    }
    // Let the window take the import in (tree, run panel) before the next step.
    const qint64 id = task->dataset().id;
    QTimer::singleShot(0, this, [this, id] { imported(id); });
  });
}

void DemoDriver::imported(qint64 datasetId) {
  if (!m_window) return;
  m_window->openDataset(datasetId, [self = QPointer<DemoDriver>(this), datasetId](TabPage* page) {
    if (!self) return;
    // A dataset without a browser of its own (a numeric table) opens no page: a demo that fits a
    // model goes on to the fit all the same.
    if (!page && self->m_spec.model.isEmpty())
      self->finish(false, tr("the dataset could not be opened"));
    else
      self->datasetOpened(datasetId, page);
  });
}

void DemoDriver::datasetOpened(qint64 datasetId, TabPage* page) {
  if (!m_window || m_done) return;
  if (!m_spec.model.isEmpty()) {
    RunPanel* panel = m_window->runPanel();
    if (!panel->selectDataset(datasetId)) {
      // The run panel re-reads its datasets after the import: go on when it has.
      connect(
          panel, &RunPanel::datasetsRefreshed, this,
          [this, datasetId, page = QPointer<TabPage>(page), hadPage = page != nullptr] {
            if (page || !hadPage) datasetOpened(datasetId, page);
          },
          Qt::SingleShotConnection);
      return;
    }
    if (!panel->selectModel(m_spec.model)) {
      finish(false, tr("this build has no model %1").arg(m_spec.model));
      return;
    }
    m_options = jsonOptions(m_spec.options);
    panel->seedBox()->setValue(1);
    panel->heldoutBox()->setValue(m_spec.heldout);
    connect(m_window, &MainWindow::runEnded, this, &DemoDriver::runEnded);
    startFit();
    return;
  }
  if (page->isLoaded())
    pageShown(page);
  else
    connect(page, &TabPage::loaded, this, [this, page] { pageShown(page); });
}

// The next fit: the only one, or the next K of a demo that compares several.
void DemoDriver::startFit() {
  RunPanel* panel = m_window->runPanel();
  auto options = m_options;
  if (!m_spec.kValues.isEmpty()) {
    options["k"] = m_spec.kValues.at(m_nextK++);
    m_window->log(
        tr("Demo: fit %1 of %2, K = %3").arg(m_nextK).arg(m_spec.kValues.size()).arg(options["k"].get<int>()));
  }
  panel->optionForm()->setValues(options);
  if (!panel->start()) finish(false, panel->errorText());
}

void DemoDriver::pageShown(TabPage* page) {
  if (auto* graph = qobject_cast<GraphBrowser*>(page); graph && !m_spec.orderBy.isEmpty())
    graph->setOrderBy(m_spec.orderBy);
  finish(page->errorText().isEmpty(), page->errorText());
}

void DemoDriver::startNextModel() {
  RunPanel* panel = m_window->runPanel();
  const DemoFit& fit = m_spec.thenFit.at(m_nextFit++);
  if (!panel->selectModel(fit.model)) {
    finish(false, tr("this build has no model %1").arg(fit.model));
    return;
  }
  // A demo over several K fits every model at each of them.
  if (!m_spec.kValues.isEmpty()) {
    m_window->log(tr("Demo: model %1 of %2, %3").arg(m_nextFit + 1).arg(m_spec.thenFit.size() + 1).arg(fit.model));
    m_options = jsonOptions(fit.options);
    m_nextK = 0;
    startFit();
    return;
  }
  m_window->log(tr("Demo: fit %1 of %2, %3").arg(m_nextFit + 1).arg(m_spec.thenFit.size() + 1).arg(fit.model));
  panel->optionForm()->setValues(jsonOptions(fit.options));
  if (!panel->start()) finish(false, panel->errorText());
}

void DemoDriver::showRetrieval() {
  PrecisionRecallView* view = m_window->openPrecisionRecall(m_runIds);
  if (!view) {
    finish(false, tr("the precision-recall tab could not be opened"));
    return;
  }
  auto done = [this, view] { finish(view->errorText().isEmpty(), view->errorText()); };
  if (!view->isComputing() && !view->data().runs.empty())
    done();
  else
    connect(view, &PrecisionRecallView::computed, this, done, Qt::SingleShotConnection);
}

void DemoDriver::runEnded(qint64 runId) {
  if (!m_window || m_done) return;
  m_runIds << runId;
  if (m_nextK > 0 && m_nextK < m_spec.kValues.size()) {
    startFit();
    return;
  }
  if (m_nextFit < m_spec.thenFit.size()) {
    startNextModel();
    return;
  }
  // Several models on one K each end on their precision-recall; over several K, on Choosing K.
  if (!m_spec.thenFit.isEmpty() && m_spec.kValues.isEmpty()) {
    showRetrieval();
    return;
  }
  RunView* view = m_window->openRun(runId);
  if (!view) {
    finish(false, tr("the run view could not be opened"));
    return;
  }
  // The view reloads when the run ends and then reads the topics: the demo is done when it has
  // shown all of that (the screenshot is of the results, not of "Loading…").
  auto done = [this, view] {
    const bool ok = view->run().status == core::RunStatus::Finished;
    if (!m_spec.kValues.isEmpty() && view->page<KChoiceView>())
      view->pages()->setCurrentWidget(view->page<KChoiceView>());
    // The textbook's Gibbs example is shown as the textbook draws it (000 Fig. 27.8).
    if (view->page<GibbsStateView>() && view->pages()->indexOf(view->page<GibbsStateView>()) >= 0)
      view->pages()->setCurrentWidget(view->page<GibbsStateView>());
    // An embedding's words on their map.
    if (auto* map = view->page<EmbeddingMapPage>(); map && view->pages()->indexOf(map) >= 0) {
      map->showWords(true);
      view->pages()->setCurrentWidget(map);
    }
    // A dynamic topic model's topics across time, as 000 Fig. 27.12 draws them.
    if (auto* time = view->page<TopicTimeView>(); time && view->pages()->indexOf(time) >= 0)
      view->pages()->setCurrentWidget(time);
    // A model of syntax: its words by class and topic in the reader, as 000 Fig. 27.14 shows them.
    if (auto* reader = view->page<TopicDocumentView>();
        reader && view->run().model == "lda-hmm" && view->pages()->indexOf(reader) >= 0)
      view->pages()->setCurrentWidget(reader);
    // Which topics go together, as 000 Fig. 27.10 draws them.
    if (auto* graph = view->page<TopicCorrelationView>(); graph && view->pages()->indexOf(graph) >= 0)
      view->pages()->setCurrentWidget(graph);
    // Which topics the metadata raise or lower (DMR), the year first.
    if (auto* metadata = view->page<TopicMetadataView>(); metadata && view->pages()->indexOf(metadata) >= 0)
      view->pages()->setCurrentWidget(metadata);
    // The Bayesian harmonium's chain as 004 Fig. 3 draws it.
    if (view->page<HiddenChainPage>() && view->pages()->indexOf(view->page<HiddenChainPage>()) >= 0)
      view->pages()->setCurrentWidget(view->page<HiddenChainPage>());
    finish(ok, ok ? QString() : QString::fromStdString(view->run().message));
  };
  if (view->isSettled())
    done();
  else
    connect(view, &RunView::settled, this, done);
}

void DemoDriver::finish(bool ok, const QString& message) {
  if (m_done) return;
  m_done = true;
  if (!ok && m_window) m_window->log(tr("The demo stopped: %1").arg(message), LogView::Level::Error);
  if (m_screenshot.isEmpty() || !m_window) {
    Q_EMIT finished(ok, message);
    return;
  }
  // A moment for the last layouts and chart animations to settle before the picture.
  QTimer::singleShot(600, this, [this, ok, message] {
    const bool saved = m_window->grab().save(m_screenshot, "PNG");
    if (!saved) m_window->log(tr("Could not write the screenshot %1").arg(m_screenshot), LogView::Level::Error);
    Q_EMIT finished(ok && saved, saved ? message : tr("could not write %1").arg(m_screenshot));
  });
}

}  // namespace latent::ui
