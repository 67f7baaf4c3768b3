// SPDX-License-Identifier: GPL-3.0-or-later
// What the "Topics over time" page of a dynamic topic model's run reads (000 §27.4.2, Fig. 27.12):
// the time slices, each topic's words and share slice by slice, the words ranked in every slice,
// the words that move most in each topic, and which documents fall in each slice. Loaded with the
// rest of a run's topics, off the GUI thread; the ranking helpers are plain C++ over Eigen.
#pragma once

#include <QStringList>

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/data/time_slices.hpp"
#include "ui/runs/topics/topic_relevance.hpp"

namespace latent::core {
class Project;
}

namespace latent::ui {

struct TopicRunData;

// The most words ranked per slice and topic at load (the page lists up to this many).
inline constexpr int kRankedWordsPerSlice = 50;
// The words of each slice's top list that are candidates for "the words that move most".
inline constexpr int kChangingWordsPool = 10;

struct TopicTimeData {
  // starts, width; documents: the stored number of documents per slice (training and held out).
  core::TimeSlices slices;
  std::int64_t iteration = -1;  // -1: the final result; else the snapshot read
  // (T K) x V: row t K + k is topic k's words in slice t. Kept in single precision (the page shows
  // three or four digits), as it is the largest thing a run's pages hold: T K V numbers.
  Eigen::MatrixXf wordBySlice;
  Eigen::MatrixXd shareBySlice;  // T x K: each topic's share of slice t's words
  // Per row t K + k of wordBySlice: its kRankedWordsPerSlice most probable words, best first (ties
  // to the smaller word id); lift and relevance are not filled.
  std::vector<std::vector<RankedWord>> ranked;
  // Per topic: the words in any slice's top kChangingWordsPool, ordered by how far their
  // probability in the topic moves across the slices with documents (max - min), largest first.
  std::vector<std::vector<std::int32_t>> changing;
  // Per slice: the positions in TopicRunData::documents of the documents whose time falls in it.
  std::vector<std::vector<std::size_t>> sliceDocuments;
  std::int64_t undated = 0;  // documents whose time is unreadable or outside every slice
  QStringList sliceLabels;   // "1790-1799"
  QStringList vocabulary;    // the words by id, for completion

  int sliceCount() const noexcept { return static_cast<int>(slices.size()); }
  int topicCount() const noexcept { return static_cast<int>(shareBySlice.cols()); }
  bool hasDocuments(int slice) const;
  double probability(int slice, int topic, std::int32_t word) const {
    return static_cast<double>(wordBySlice(static_cast<Eigen::Index>(slice) * topicCount() + topic, word));
  }
  const std::vector<RankedWord>& topWords(int slice, int topic) const {
    return ranked[static_cast<std::size_t>(slice) * static_cast<std::size_t>(topicCount()) +
                  static_cast<std::size_t>(topic)];
  }
  // The slice whose start is nearest `year` (the slices are evenly spaced), clamped to the slices.
  int sliceNear(double year) const;
};

// The `count` most probable words of every row of `matrix`, best first, ties to the smaller word id.
// One pass over the columns (contiguous in Eigen's layout) with a small heap per row.
std::vector<std::vector<RankedWord>> topWordsByRow(const Eigen::MatrixXd& matrix, int count);

// A dynamic topic model's results for the run, when it stored them (null otherwise). `topics` is the
// rest of the run's topics, already read (the documents, the vocabulary, K). Throws a
// std::runtime_error naming the matrix when they do not fit together.
std::shared_ptr<const TopicTimeData> loadTopicTime(core::Project& project, std::int64_t runId,
                                                   const TopicRunData& topics);

}  // namespace latent::ui
