// SPDX-License-Identifier: GPL-3.0-or-later
// What the processes of a distributed chain gather besides the word groups.
#include "core/models/topic/lda_gibbs_distribution.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace latent::core::topic {
namespace {

void appendNonzero(Bytes& out, const std::vector<std::int64_t>& histogram) {
  std::int64_t nonzero = 0;
  for (const auto n : histogram) nonzero += n != 0 ? 1 : 0;
  appendValue(out, nonzero);
  for (std::size_t c = 0; c < histogram.size(); ++c) {
    if (histogram[c] == 0) continue;
    appendValue(out, static_cast<std::int64_t>(c));
    appendValue(out, histogram[c]);
  }
}

void addNonzero(ByteReader& in, std::vector<std::int64_t>& sum) {
  const auto nonzero = in.read<std::int64_t>();
  for (std::int64_t j = 0; j < nonzero; ++j) {
    const auto c = in.read<std::int64_t>();
    const auto n = in.read<std::int64_t>();
    if (c < 0 || n <= 0) throw CommunicatorError("a histogram message holds a negative count");
    if (sum.size() <= static_cast<std::size_t>(c)) sum.resize(static_cast<std::size_t>(c) + 1, 0);
    sum[static_cast<std::size_t>(c)] += n;
  }
}

DocumentRange ownDocuments(const Communicator& group, const LdaGibbsState& state) {
  return documentsOf(state, static_cast<std::size_t>(group.rank()), static_cast<std::size_t>(group.size()));
}

}  // namespace

DocumentRange documentsOf(const LdaGibbsState& state, std::size_t q, std::size_t processes) {
  const auto& parts = state.partitions();
  const auto perProcess = parts.size() / processes;
  return {parts[q * perProcess].begin, parts[(q + 1) * perProcess - 1].end};
}

void appendHistograms(Bytes& out, const DocumentTopicHistograms& histograms) {
  for (const auto& topic : histograms.topic) appendNonzero(out, topic);
  appendNonzero(out, histograms.length);
}

void addHistograms(ByteReader& in, DocumentTopicHistograms& sum) {
  for (auto& topic : sum.topic) addNonzero(in, topic);
  addNonzero(in, sum.length);
  if (!in.done()) throw CommunicatorError("a histogram message holds more topics than the chain");
}

DocumentTopicHistograms gatheredHistograms(Communicator& group, const LdaGibbsState& state) {
  const auto own = ownDocuments(group, state);
  Bytes message;
  appendHistograms(message, state.documentTopicHistograms(own.begin, own.end));
  DocumentTopicHistograms sum;
  sum.topic.assign(static_cast<std::size_t>(state.topics()), {});
  for (const auto& part : group.allGather(message)) {
    ByteReader reader(part);
    addHistograms(reader, sum);
  }
  return sum;
}

double gatheredLogPrior(Communicator& group, const LdaGibbsState& state) {
  const auto own = ownDocuments(group, state);
  std::vector<double> terms(own.end - own.begin);
  state.logPriorPerDocument(own.begin, terms);
  const auto all = group.allGather(std::as_bytes(std::span<const double>(terms)));
  double total = 0.0;
  std::size_t documents = 0;
  for (const auto& part : all) {
    if (part.size() % sizeof(double) != 0) throw CommunicatorError("a log prior message ended early");
    ByteReader reader(part);
    for (std::size_t j = 0; j < part.size() / sizeof(double); ++j) total += reader.read<double>();
    documents += part.size() / sizeof(double);
  }
  if (documents != state.corpus().documentCount())
    throw CommunicatorError("the processes' documents do not make up the corpus");
  return total;
}

void gatherAssignmentsOnProcessZero(Communicator& group, LdaGibbsState& state) {
  const auto& offsets = state.corpus().offsets;
  const auto z = state.assignments();
  const auto processes = static_cast<std::size_t>(group.size());
  const auto tokensOf = [&](std::size_t q) {
    const auto documents = documentsOf(state, q, processes);
    const auto first = static_cast<std::size_t>(offsets[documents.begin]);
    const auto last = static_cast<std::size_t>(offsets[documents.end]);
    return z.subspan(first, last - first);
  };
  if (group.rank() != 0) {
    group.send(std::as_bytes(tokensOf(static_cast<std::size_t>(group.rank()))), 0);
    return;
  }
  if (!state.holdsEveryToken()) throw std::logic_error("process 0 of a distributed chain holds every token");
  for (std::size_t q = 1; q < processes; ++q) group.receive(std::as_writable_bytes(tokensOf(q)), static_cast<int>(q));
}

}  // namespace latent::core::topic
