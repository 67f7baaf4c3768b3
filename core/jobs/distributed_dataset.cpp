// SPDX-License-Identifier: GPL-3.0-or-later
// Process 0's dataset sent to the other processes of a distributed fit.
#include "core/jobs/distributed_dataset.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/util/errors.hpp"

namespace latent::core {
namespace {

constexpr int kRoot = 0;

enum class Start : std::int64_t { Ready, UserError, Cancelled, Failure };

void sendStart(Communicator& group, Start start, DataKind kind, std::string_view message) {
  Bytes bytes;
  appendValue(bytes, static_cast<std::int64_t>(start));
  appendValue(bytes, static_cast<std::int64_t>(kind));
  appendValues(bytes, std::span<const char>(message));
  group.broadcast(bytes, kRoot);
}

template <typename T>
void shareValue(Communicator& group, T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  group.broadcastInPlace(std::as_writable_bytes(std::span<T>(&value, 1)), kRoot);
}

// A count first, then the values straight into each process's vector.
template <typename T>
void shareValues(Communicator& group, std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  auto count = static_cast<std::int64_t>(values.size());
  shareValue(group, count);
  if (count < 0) throw CommunicatorError("a dataset message holds a negative count");
  if (group.rank() != kRoot) values.resize(static_cast<std::size_t>(count));
  group.broadcastInPlace(std::as_writable_bytes(std::span<T>(values)), kRoot);
}

// Process 0's side of shareStrings: its strings only read.
void sendStrings(Communicator& group, const std::vector<std::string>& strings) {
  Bytes message;
  appendValue(message, static_cast<std::int64_t>(strings.size()));
  for (const auto& s : strings) {
    appendValue(message, static_cast<std::int64_t>(s.size()));
    appendValues(message, std::span<const char>(s));
  }
  group.broadcast(message, kRoot);
}

void receiveStrings(Communicator& group, std::vector<std::string>& strings) {
  Bytes message;
  group.broadcast(message, kRoot);
  ByteReader in(message);
  const auto count = in.read<std::int64_t>();
  // Each string takes at least its 8-byte length: a larger count is a damaged message.
  if (count < 0 || static_cast<std::uint64_t>(count) > message.size() / sizeof(std::int64_t))
    throw CommunicatorError("a dataset message holds a wrong count of strings");
  strings.assign(static_cast<std::size_t>(count), {});
  for (auto& s : strings) {
    const auto length = in.read<std::int64_t>();
    if (length < 0 || static_cast<std::uint64_t>(length) > message.size())
      throw CommunicatorError("a dataset message holds a wrong string length");
    s.resize(static_cast<std::size_t>(length));
    in.read(std::span<char>(s));
  }
  if (!in.done()) throw CommunicatorError("a dataset message holds more than its strings");
}

void shareStrings(Communicator& group, std::vector<std::string>& strings) {
  if (group.rank() == kRoot)
    sendStrings(group, strings);
  else
    receiveStrings(group, strings);
}

// What every process learns of a corpus shared in shares, besides the vocabulary.
void sharePlan(Communicator& group, CorpusShare& share, std::int64_t& fullDocumentCount) {
  shareValues(group, share.plan.partitionEnds);
  shareValues(group, share.plan.wordGroups);
  shareValue(group, share.tokens);
  shareValues(group, share.wordFrequencies);
  shareValue(group, share.longestDocument);
  shareValue(group, share.squaredLengths);
  shareValue(group, fullDocumentCount);
  shareValues(group, share.heldoutEnds);
}

// Process 0's side: the lengths, then the tokens, of `corpus`'s documents [first, end) to process `to`.
void sendDocuments(Communicator& group, const Corpus& corpus, std::int64_t first, std::int64_t end, int to) {
  std::vector<std::int64_t> lengths;
  lengths.reserve(static_cast<std::size_t>(end - first));
  for (auto d = first; d < end; ++d)
    lengths.push_back(corpus.offsets[static_cast<std::size_t>(d) + 1] - corpus.offsets[static_cast<std::size_t>(d)]);
  group.send(std::as_bytes(std::span<const std::int64_t>(lengths)), to);
  const auto begin = corpus.offsets[static_cast<std::size_t>(first)];
  const auto tokens = std::span<const std::int32_t>(corpus.tokens)
                          .subspan(static_cast<std::size_t>(begin),
                                   static_cast<std::size_t>(corpus.offsets[static_cast<std::size_t>(end)] - begin));
  group.send(std::as_bytes(tokens), to);
}

// The receiving side: `corpus` becomes `documents` documents, those in [first, end) with the
// tokens received (at most `maxTokens`, each a word below `V`) and every other one empty, so that
// document indices are the whole corpus's.
void receiveDocuments(Communicator& group, Corpus& corpus, std::size_t documents, std::int64_t first, std::int64_t end,
                      std::int64_t maxTokens, std::int32_t V) {
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(end - first));
  group.receive(std::as_writable_bytes(std::span<std::int64_t>(lengths)), kRoot);
  corpus.offsets.assign(documents + 1, 0);
  std::int64_t tokens = 0;
  for (std::size_t d = 0; d < documents; ++d) {
    if (d >= static_cast<std::size_t>(first) && d < static_cast<std::size_t>(end)) {
      const auto length = lengths[d - static_cast<std::size_t>(first)];
      if (length < 0) throw CommunicatorError("process 0 sent a document of negative length");
      tokens += length;
    }
    corpus.offsets[d + 1] = tokens;
  }
  if (tokens > maxTokens) throw CommunicatorError("process 0 sent more tokens than its corpus holds");
  corpus.tokens.resize(static_cast<std::size_t>(tokens));
  group.receive(std::as_writable_bytes(std::span<std::int32_t>(corpus.tokens)), kRoot);
  for (const auto w : corpus.tokens)
    if (w < 0 || w >= V) throw CommunicatorError("process 0 sent a token of no word");
}

}  // namespace

void announceStart(Communicator& group, const ProcessZeroStart& start) {
  sendStart(group, Start::Ready, start.kind, start.request);
}

void announceFailure(Communicator& group, const std::exception& failure) {
  Start start = Start::Failure;
  if (isUserError(failure))
    start = Start::UserError;
  else if (dynamic_cast<const Cancelled*>(&failure) != nullptr)
    start = Start::Cancelled;
  sendStart(group, start, DataKind::Corpus, failure.what());
  group.markEndedTogether();
}

ProcessZeroStart awaitStart(Communicator& group) {
  Bytes bytes;
  group.broadcast(bytes, kRoot);
  ByteReader in(bytes);
  const auto start = static_cast<Start>(in.read<std::int64_t>());
  const auto kind = in.read<std::int64_t>();
  std::string message(bytes.size() - 2 * sizeof(std::int64_t), '\0');
  in.read(std::span<char>(message));
  if (start != Start::Ready) group.markEndedTogether();
  switch (start) {
    case Start::Ready:
      if (kind < 0 || kind > static_cast<std::int64_t>(DataKind::Table))
        throw CommunicatorError("process 0 announced an unknown kind of dataset");
      return {static_cast<DataKind>(kind), std::move(message)};
    case Start::UserError:
      throw UsageError(message);
    case Start::Cancelled:
      throw Cancelled();
    case Start::Failure:
      break;
  }
  throw std::runtime_error(message);
}

void agreeToStart(Communicator& group, const std::string& refusal) {
  const auto all = group.allGather(std::as_bytes(std::span<const char>(refusal)));
  for (std::size_t q = 0; q < all.size(); ++q) {
    if (all[q].empty()) continue;
    group.markEndedTogether();
    const auto* text = reinterpret_cast<const char*>(all[q].data());
    throw UsageError("process " + std::to_string(q) + " of the distributed fit: " + std::string(text, all[q].size()));
  }
}

void sendCorpusShares(Communicator& group, const Corpus& training, const HeldoutDocuments* heldout, CorpusShare& share,
                      std::int64_t fullDocumentCount) {
  sendStrings(group, training.words);
  sharePlan(group, share, fullDocumentCount);
  for (int q = 1; q < group.size(); ++q) {
    const auto [first, end] = documentsOfProcess(share.plan, q, group.size());
    sendDocuments(group, training, first, end, q);
  }
  if (share.heldoutEnds.empty()) return;
  auto documents = heldout->documents;
  shareValues(group, documents);
  for (int q = 1; q < group.size(); ++q) {
    const auto [first, end] = heldoutOfProcess(share, q);
    sendDocuments(group, heldout->observed, first, end, q);
    sendDocuments(group, heldout->scored, first, end, q);
  }
}

void receiveCorpusShare(Communicator& group, Corpus& corpus, HeldoutDocuments& heldout, CorpusShare& share,
                        std::int64_t& fullDocumentCount) {
  receiveStrings(group, corpus.words);
  sharePlan(group, share, fullDocumentCount);
  const auto& ends = share.plan.partitionEnds;
  if (ends.empty() || !std::is_sorted(ends.begin(), ends.end()) || ends.front() < 0 ||
      share.wordFrequencies.size() != corpus.words.size() ||
      (!share.plan.wordGroups.empty() && share.plan.wordGroups.size() != corpus.words.size()))
    throw CommunicatorError("process 0's plan of the corpus arrived inconsistent");
  const auto [first, end] = documentsOfProcess(share.plan, group.rank(), group.size());
  const auto V = static_cast<std::int32_t>(corpus.words.size());
  receiveDocuments(group, corpus, static_cast<std::size_t>(ends.back()), first, end, share.tokens, V);
  if (share.heldoutEnds.empty()) return;
  shareValues(group, heldout.documents);
  const auto& heldoutEnds = share.heldoutEnds;
  if (heldoutEnds.size() != static_cast<std::size_t>(group.size()) ||
      !std::is_sorted(heldoutEnds.begin(), heldoutEnds.end()) || heldoutEnds.front() < 0 ||
      heldoutEnds.back() != static_cast<std::int64_t>(heldout.documents.size()))
    throw CommunicatorError("process 0's plan of the held-out documents arrived inconsistent");
  const auto [heldoutFirst, heldoutEnd] = heldoutOfProcess(share, group.rank());
  const auto noBound = std::numeric_limits<std::int64_t>::max();
  receiveDocuments(group, heldout.observed, heldout.documents.size(), heldoutFirst, heldoutEnd, noBound, V);
  receiveDocuments(group, heldout.scored, heldout.documents.size(), heldoutFirst, heldoutEnd, noBound, V);
}

void shareRatings(Communicator& group, Ratings& ratings) {
  shareStrings(group, ratings.userIds);
  shareStrings(group, ratings.itemIds);
  shareStrings(group, ratings.itemNames);
  shareValues(group, ratings.ratings);
  shareValue(group, ratings.hasTime);
}

}  // namespace latent::core
