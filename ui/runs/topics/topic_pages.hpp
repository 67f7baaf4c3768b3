// SPDX-License-Identifier: GPL-3.0-or-later
// The pages of a topic model's results: the topic-word table ("Topics", or "Words" for a single
// distribution) and the annotated document reader, for a corpus run that holds a topic-word matrix.
#pragma once

#include <QPointer>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

class TopicDocumentView;
class TopicTableView;

class TopicPages final : public RunPages {
  Q_OBJECT

 public:
  TopicPages(RunPagesContext context, QObject* parent = nullptr);
  void update(const core::RunRecord& run, const RunHoldings& holdings) override;

 private:
  QPointer<TopicTableView> m_table;
  QPointer<TopicDocumentView> m_documents;
};

}  // namespace latent::ui
