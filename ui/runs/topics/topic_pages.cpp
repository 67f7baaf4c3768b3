// SPDX-License-Identifier: GPL-3.0-or-later
// TopicPages: when a run's topic pages apply, their loading, and where they go.
#include "ui/runs/topics/topic_pages.hpp"

#include <QTabWidget>

#include "core/models/topic/topic_model_support.hpp"
#include "ui/runs/topics/document_links_data.hpp"
#include "ui/runs/topics/document_network_view.hpp"
#include "ui/runs/topics/intertopic_map_view.hpp"
#include "ui/runs/topics/topic_correlation_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_field_view.hpp"
#include "ui/runs/topics/topic_metadata_view.hpp"
#include "ui/runs/topics/topic_response_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/runs/topics/topic_time_view.hpp"

namespace latent::ui {

namespace {

// Each read of a snapshot opens the project and lists the documents: at most once a second.
constexpr int kLiveTopicsRefreshMs = 1000;

}  // namespace

TopicPages::TopicPages(RunPagesContext context, QObject* parent)
    : RunPages(std::move(context), parent), m_follower(kLiveTopicsRefreshMs) {}

TopicTableView* TopicPages::table() {
  if (!m_table) {
    m_table = new TopicTableView(context().pages, context().undoStack);
    m_table->hide();
  }
  return m_table;
}

void TopicPages::followLive() {
  if (!controller() || m_follower.isFollowing()) return;
  m_follower.follow(
      controller(),
      [file = context().projectFile, id = context().runId, this] {
        return [file, id, previous = m_live] { return loadLiveTopicRun(file, id, previous); };
      },
      [this](TopicRunLoad loaded) {
        if (!loaded.data || loaded.data == m_live) return;  // no snapshot yet, or none newer
        m_live = loaded.data;
        table()->showLiveSnapshot(context().projectFile, loaded.data);
        showPage(m_table, loaded.data->topicCount() > 1 ? tr("Topics") : tr("Words"), 0);
      });
}

void TopicPages::update(const core::RunRecord& run, const RunHoldings& holdings) {
  if (holdings.kind != core::DataKind::Corpus) {
    cancel();
    return;
  }
  // During the run the matrices are snapshots and the assignments are not written yet: only the
  // Topics page, following the snapshots.
  if (run.status == core::RunStatus::Running) {
    cancel();
    followLive();
    return;
  }
  m_follower.stop();
  m_live.reset();
  if (!holdings.holds(core::topic::kTopicWord)) {
    cancel();
    return;
  }
  load([file = context().projectFile, id = context().runId] { return loadTopicRun(file, id); },
       [this](TopicRunLoad loaded) {
         if (!loaded.error.isEmpty()) {
           Q_EMIT failed(tr("The topics could not be read: %1").arg(loaded.error));
           return;
         }
         if (!loaded.data) return;
         if (!loaded.data->overTimeError.isEmpty())
           Q_EMIT failed(tr("The topics over time could not be read: %1").arg(loaded.data->overTimeError));
         const bool first = !m_documents;
         if (first) {
           table();
           m_documents = new TopicDocumentView(context().pages);
           m_documents->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_documents, &TopicDocumentView::setLabels);
         }
         const bool correlated = loaded.data->topicCorrelation.size() > 0;
         if (correlated && !m_correlations) {
           m_correlations = new TopicCorrelationView(context().pages);
           m_correlations->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_correlations, &TopicCorrelationView::setLabels);
           connect(m_correlations, &TopicCorrelationView::topicActivated, this, [this](int topic) {
             m_table->selectTopic(topic);
             context().pages->setCurrentWidget(m_table);
           });
         }
         const bool overTime = loaded.data->overTime != nullptr;
         if (overTime && !m_overTime) {
           m_overTime = new TopicTimeView(context().pages);
           m_overTime->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_overTime, &TopicTimeView::setLabels);
           connect(m_overTime, &TopicTimeView::documentActivated, this, [this](qint64 index) {
             m_documents->showDocument(index);
             context().pages->setCurrentWidget(m_documents);
           });
         }
         const bool response = loaded.data->responseCoefficients.size() > 0;
         if (response && !m_response) {
           m_response = new TopicResponseView(context().pages);
           m_response->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_response, &TopicResponseView::setLabels);
         }
         const bool metadata = loaded.data->hasFeatureWeights();
         if (metadata && !m_metadata) {
           m_metadata = new TopicMetadataView(context().pages);
           m_metadata->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_metadata, &TopicMetadataView::setLabels);
         }
         const bool linked = loaded.data->links != nullptr;
         if (linked && !m_network) {
           m_network = new DocumentNetworkView(context().pages);
           m_network->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_network, &DocumentNetworkView::setLabels);
           connect(m_network, &DocumentNetworkView::documentActivated, this, [this](qint64 index) {
             m_documents->showDocument(index);
             context().pages->setCurrentWidget(m_documents);
           });
         }
         const bool byField = loaded.data->fields != nullptr && loaded.data->topicCount() > 1;
         if (byField && !m_byField) {
           m_byField = new TopicFieldView(context().pages);
           m_byField->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_byField, &TopicFieldView::setLabels);
           connect(m_byField, &TopicFieldView::topicActivated, this, [this](int topic) {
             m_table->selectTopic(topic);
             context().pages->setCurrentWidget(m_table);
           });
         }
         const bool mapped = loaded.data->topicCount() > 1 &&
                             loaded.data->shares.size() == static_cast<std::size_t>(loaded.data->topicCount());
         if (mapped && !m_map) {
           m_map = new IntertopicMapView(context().pages);
           m_map->hide();
           connect(m_table, &TopicTableView::labelsChanged, m_map, &IntertopicMapView::setLabels);
           connect(m_map, &IntertopicMapView::topicActivated, this, [this](int topic) {
             m_table->selectTopic(topic);
             context().pages->setCurrentWidget(m_table);
           });
         }
         const bool several = loaded.data->topicCount() > 1;
         const bool documents = loaded.data->hasDocTopic() || loaded.data->hasAssignments();
         m_table->setData(context().projectFile, loaded.data);
         m_documents->setData(context().projectFile, documents ? loaded.data : nullptr);
         showPage(m_table, several ? tr("Topics") : tr("Words"), 0);
         if (documents)
           showPage(m_documents, tr("Documents"), 1);
         else
           hidePage(m_documents);
         if (correlated) {
           m_correlations->setData(loaded.data);
           m_correlations->setLabels(m_table->labels());
           showPage(m_correlations, tr("Correlations"), documents ? 2 : 1);
         } else if (m_correlations) {
           hidePage(m_correlations);
         }
         if (overTime) {
           m_overTime->setData(loaded.data);
           m_overTime->setLabels(m_table->labels());
           m_overTime->setDocumentsOpenable(documents);
           showPage(m_overTime, tr("Topics over time"), 1 + (documents ? 1 : 0) + (correlated ? 1 : 0));
         } else if (m_overTime) {
           hidePage(m_overTime);
         }
         if (response) {
           m_response->setData(loaded.data);
           m_response->setLabels(m_table->labels());
           showPage(m_response, tr("Response"), 1 + (documents ? 1 : 0) + (correlated ? 1 : 0) + (overTime ? 1 : 0));
         } else if (m_response) {
           hidePage(m_response);
         }
         if (metadata) {
           m_metadata->setData(loaded.data);
           m_metadata->setLabels(m_table->labels());
           showPage(m_metadata, tr("Metadata"),
                    1 + (documents ? 1 : 0) + (correlated ? 1 : 0) + (overTime ? 1 : 0) + (response ? 1 : 0));
         } else if (m_metadata) {
           hidePage(m_metadata);
         }
         if (linked) {
           m_network->setData(loaded.data);
           m_network->setLabels(m_table->labels());
           showPage(m_network, tr("Network"),
                    1 + (documents ? 1 : 0) + (correlated ? 1 : 0) + (overTime ? 1 : 0) + (response ? 1 : 0) +
                        (metadata ? 1 : 0));
         } else if (m_network) {
           hidePage(m_network);
         }
         if (byField) {
           m_byField->setData(loaded.data);
           m_byField->setLabels(m_table->labels());
           // After the pages every run of its kind has, before Training.
           showPage(m_byField, tr("By field"),
                    1 + (documents ? 1 : 0) + (correlated ? 1 : 0) + (overTime ? 1 : 0) + (response ? 1 : 0) +
                        (metadata ? 1 : 0) + (linked ? 1 : 0));
         } else if (m_byField) {
           hidePage(m_byField);
         }
         if (mapped) {
           m_map->setData(loaded.data);
           m_map->setLabels(m_table->labels());
           // The last of the topic pages, before Training.
           showPage(m_map, tr("Topic map"),
                    1 + (documents ? 1 : 0) + (correlated ? 1 : 0) + (overTime ? 1 : 0) + (response ? 1 : 0) +
                        (metadata ? 1 : 0) + (linked ? 1 : 0) + (byField ? 1 : 0));
         } else if (m_map) {
           hidePage(m_map);
         }
         // A finished run is read for its results: the topics come first, or for a model of linked
         // documents the network with its predicted links.
         if (first)
           context().pages->setCurrentWidget(linked && loaded.data->links->hasPredictions()
                                                 ? static_cast<QWidget*>(m_network)
                                                 : static_cast<QWidget*>(m_table));
       });
}

}  // namespace latent::ui
