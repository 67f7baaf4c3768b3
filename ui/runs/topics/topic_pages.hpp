// SPDX-License-Identifier: GPL-3.0-or-later
// The pages of a topic model's results: the topic-word table ("Topics", or "Words" for a single
// distribution), the annotated document reader, and for a model of how topics go together (ctm) the
// correlation graph, for a dynamic topic model (dtm) the topics over time, for a model of a response
// (slda) each topic's effect on it, for topics conditioned on metadata (dmr) the metadata's
// effects, and for a corpus with links the document network, for a corpus run that holds a
// topic-word matrix; the intertopic map (LDAvis) for every run of several topics whose shares are known.
#pragma once

#include <QPointer>

#include <memory>

#include "ui/runs/live_snapshot_follower.hpp"
#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class DocumentNetworkView;
class IntertopicMapView;
class TopicCorrelationView;
class TopicDocumentView;
class TopicResponseView;
class TopicTableView;
class TopicTimeView;
class TopicMetadataView;
class TopicFieldView;
struct TopicRunData;

class TopicPages final : public RunPages {
  Q_OBJECT

 public:
  TopicPages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  // While the run goes: the Topics page from the latest snapshot (as MALLET prints its topics
  // every so many iterations), the words new to each topic marked.
  void followLive();
  TopicTableView* table();

  LiveSnapshotFollower m_follower;
  std::shared_ptr<const TopicRunData> m_live;  // the snapshot shown while the run goes
  QPointer<TopicTableView> m_table;
  QPointer<TopicDocumentView> m_documents;
  QPointer<TopicCorrelationView> m_correlations;  // runs that hold the topics' correlations (ctm)
  QPointer<TopicTimeView> m_overTime;             // runs that hold the topics slice by slice (dtm)
  QPointer<TopicResponseView> m_response;         // runs that hold a response's coefficients (slda)
  QPointer<TopicMetadataView> m_metadata;         // runs that hold metadata weights (dmr)
  QPointer<DocumentNetworkView> m_network;        // runs on a corpus with links
  QPointer<TopicFieldView> m_byField;             // runs with document proportions, on a corpus with fields
  QPointer<IntertopicMapView> m_map;              // runs with several topics and their shares of the corpus
};

}  // namespace latent::ui
