// SPDX-License-Identifier: GPL-3.0-or-later
// The textbook's picture of collapsed Gibbs sampling (000 Fig. 27.8): one row per document, one
// column per word, one dot per occurrence coloured by the topic it is assigned, for the chain's
// random start and for its last sample side by side. For small corpora (lda-gibbs keeps the start
// for at most 10,000 tokens) fitted on every document.
#pragma once

#include <QWidget>

#include <filesystem>
#include <memory>
#include <vector>

namespace latent::ui {

struct GibbsStateData {
  QStringList words;                                     // by word id
  QStringList documents;                                 // titles, by document
  std::vector<std::vector<std::int32_t>> wordIds;        // per document, token order
  std::vector<std::vector<std::int32_t>> before, after;  // topic per token, same order
  int topics = 0;
  std::int64_t sweeps = 0;
};

// Off the GUI thread. Null when the run kept no starting state (a large corpus, another model, or
// documents held out); throws what the store throws.
std::shared_ptr<const GibbsStateData> loadGibbsState(const std::filesystem::path& projectFile, std::int64_t runId);

class GibbsStateView final : public QWidget {
  Q_OBJECT

 public:
  explicit GibbsStateView(QWidget* parent = nullptr);
  void setData(std::shared_ptr<const GibbsStateData> data);
  const GibbsStateData* data() const noexcept { return m_data.get(); }

  QSize sizeHint() const override { return {900, 520}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::shared_ptr<const GibbsStateData> m_data;
  // Layout worked out once per data, not per paint: the word of each column, the column of each
  // word (-1: unused), and the most occurrences of one word in one document.
  std::vector<int> m_columns, m_columnOf;
  std::size_t m_maxPerCell = 1;
};

}  // namespace latent::ui
