// SPDX-License-Identifier: GPL-3.0-or-later
// Process 0's dataset sent to the other processes of a distributed fit.
#include "core/jobs/distributed_dataset.hpp"

#include <cstdint>
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

void shareStrings(Communicator& group, std::vector<std::string>& strings) {
  Bytes message;
  if (group.rank() == kRoot) {
    appendValue(message, static_cast<std::int64_t>(strings.size()));
    for (const auto& s : strings) {
      appendValue(message, static_cast<std::int64_t>(s.size()));
      appendValues(message, std::span<const char>(s));
    }
  }
  group.broadcast(message, kRoot);
  if (group.rank() == kRoot) return;
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

void shareCorpus(Communicator& group, Corpus& corpus) {
  shareStrings(group, corpus.words);
  shareStrings(group, corpus.documentIds);
  shareStrings(group, corpus.titles);
  shareValues(group, corpus.offsets);
  shareValues(group, corpus.tokens);
  shareValues(group, corpus.links);
  if (corpus.offsets.empty() || corpus.documentIds.size() + 1 != corpus.offsets.size() ||
      corpus.titles.size() != corpus.documentIds.size() ||
      static_cast<std::size_t>(corpus.offsets.back()) != corpus.tokens.size())
    throw CommunicatorError("process 0's corpus arrived inconsistent");
}

void shareRatings(Communicator& group, Ratings& ratings) {
  shareStrings(group, ratings.userIds);
  shareStrings(group, ratings.itemIds);
  shareStrings(group, ratings.itemNames);
  shareValues(group, ratings.ratings);
  shareValue(group, ratings.hasTime);
}

}  // namespace latent::core
