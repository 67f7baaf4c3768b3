// SPDX-License-Identifier: GPL-3.0-or-later
// loadTopicTime: the slices, the per-slice matrices, their rankings and the documents of each slice.
#include "ui/runs/topics/topic_time_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "core/results/topic_results.hpp"
#include "core/store/run_results.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

// "a ranks before b": more probable, or as probable with the smaller word id.
bool rankedBefore(const RankedWord& a, const RankedWord& b) {
  return a.probability > b.probability || (a.probability == b.probability && a.word < b.word);
}

std::string matrixShape(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

}  // namespace

bool TopicTimeData::hasDocuments(int slice) const {
  return slice >= 0 && static_cast<std::size_t>(slice) < slices.documents.size() &&
         slices.documents[static_cast<std::size_t>(slice)] > 0;
}

int TopicTimeData::sliceNear(double year) const {
  if (slices.starts.empty()) return -1;
  const double offset = std::round((year - slices.starts.front()) / slices.width);
  return static_cast<int>(std::clamp(offset, 0.0, static_cast<double>(slices.size() - 1)));
}

std::vector<std::vector<RankedWord>> topWordsByRow(const Eigen::MatrixXd& matrix, int count) {
  const auto rows = static_cast<std::size_t>(matrix.rows());
  const auto keep = static_cast<std::size_t>(std::clamp<Eigen::Index>(count, 0, matrix.cols()));
  std::vector<std::vector<RankedWord>> heaps(rows);
  for (auto& h : heaps) h.reserve(keep);
  if (keep == 0) return heaps;
  // Each heap keeps its row's best words so far with the worst of them in front.
  for (Eigen::Index w = 0; w < matrix.cols(); ++w) {
    const double* column = matrix.col(w).data();
    for (std::size_t r = 0; r < rows; ++r) {
      const double p = std::isnan(column[r]) ? -std::numeric_limits<double>::infinity() : column[r];
      const RankedWord candidate{static_cast<std::int32_t>(w), p, 0.0, 0.0};
      auto& heap = heaps[r];
      if (heap.size() < keep) {
        heap.push_back(candidate);
        std::push_heap(heap.begin(), heap.end(), rankedBefore);
      } else if (rankedBefore(candidate, heap.front())) {
        std::pop_heap(heap.begin(), heap.end(), rankedBefore);
        heap.back() = candidate;
        std::push_heap(heap.begin(), heap.end(), rankedBefore);
      }
    }
  }
  for (auto& heap : heaps) std::sort_heap(heap.begin(), heap.end(), rankedBefore);  // best first
  return heaps;
}

std::shared_ptr<const TopicTimeData> loadTopicTime(core::Project& project, std::int64_t runId,
                                                   const TopicRunData& topics) {
  auto stored = core::loadResult(
      project, runId, {core::topic::kTimeSlices, core::topic::kTopicWordBySlice, core::topic::kTopicShareBySlice});
  if (!stored) return nullptr;
  auto out = std::make_shared<TopicTimeData>();
  out->iteration = stored->iteration;
  const Eigen::MatrixXd& slices = stored->matrices[0].values;
  const Eigen::MatrixXd& bySlice = stored->matrices[1].values;
  out->shareBySlice = std::move(stored->matrices[2].values);

  const auto T = slices.rows();
  const auto K = static_cast<Eigen::Index>(topics.topicCount());
  const auto V = static_cast<Eigen::Index>(topics.words.size());
  if (T < 1 || slices.cols() != 3)
    throw std::runtime_error(std::string(core::topic::kTimeSlices) + " is " + matrixShape(slices) +
                             ", not one row of start, width and documents per slice");
  if (!(slices(0, 1) > 0.0) || !std::isfinite(slices(0, 1)) || !slices.col(0).allFinite())
    throw std::runtime_error(std::string(core::topic::kTimeSlices) +
                             " has a slice width that is not a positive number");
  if (bySlice.rows() != T * K || bySlice.cols() != V)
    throw std::runtime_error(std::string(core::topic::kTopicWordBySlice) + " is " + matrixShape(bySlice) +
                             ", not (slices x topics) x words = " + std::to_string(T * K) + " x " + std::to_string(V));
  if (out->shareBySlice.rows() != T || out->shareBySlice.cols() != K)
    throw std::runtime_error(std::string(core::topic::kTopicShareBySlice) + " is " + matrixShape(out->shareBySlice) +
                             ", not slices x topics = " + std::to_string(T) + " x " + std::to_string(K));

  out->slices.width = slices(0, 1);
  for (Eigen::Index t = 0; t < T; ++t) {
    out->slices.starts.push_back(slices(t, 0));
    out->slices.documents.push_back(std::max<std::int64_t>(0, std::llround(slices(t, 2))));
    out->sliceLabels << qs(out->slices.label(static_cast<std::size_t>(t)));
  }

  out->ranked = topWordsByRow(bySlice, kRankedWordsPerSlice);
  out->wordBySlice = bySlice.cast<float>();
  stored.reset();  // the doubles are not kept

  // The words that move most: among those that make some slice's top list, the widest range of
  // probability over the slices that have documents (all of them if none has).
  std::vector<int> observed;
  for (int t = 0; t < static_cast<int>(T); ++t)
    if (out->hasDocuments(t)) observed.push_back(t);
  if (observed.empty())
    for (int t = 0; t < static_cast<int>(T); ++t) observed.push_back(t);
  out->changing.resize(static_cast<std::size_t>(K));
  for (int k = 0; k < static_cast<int>(K); ++k) {
    std::set<std::int32_t> pool;
    for (const int t : observed) {
      const auto& top = out->topWords(t, k);
      for (std::size_t i = 0; i < top.size() && i < static_cast<std::size_t>(kChangingWordsPool); ++i)
        pool.insert(top[i].word);
    }
    std::vector<std::pair<double, std::int32_t>> scored;
    for (const auto w : pool) {
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (const int t : observed) {
        const double p = out->probability(t, k, w);
        lo = std::min(lo, p);
        hi = std::max(hi, p);
      }
      scored.emplace_back(hi - lo, w);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [range, w] : scored) out->changing[static_cast<std::size_t>(k)].push_back(w);
  }

  out->sliceDocuments.resize(static_cast<std::size_t>(T));
  for (std::size_t d = 0; d < topics.documents.size(); ++d) {
    const auto t = core::sliceOfTime(out->slices, topics.documents[d].time);
    if (t < 0)
      ++out->undated;
    else
      out->sliceDocuments[static_cast<std::size_t>(t)].push_back(d);
  }
  out->vocabulary.reserve(static_cast<qsizetype>(topics.words.size()));
  for (const auto& w : topics.words) out->vocabulary << qs(w);
  return out;
}

}  // namespace latent::ui
