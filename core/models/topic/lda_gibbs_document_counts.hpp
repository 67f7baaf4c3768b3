// SPDX-License-Identifier: GPL-3.0-or-later
// The topic counts n_dk of one partition's documents, kept between the rounds of a sparse chain
// of several partitions (lda_gibbs_sparse_kernel.hpp). A round visits every document that has a
// token of its word group, so a sweep visits a document P times, and counting its topics from its
// tokens' topics at every visit made each partition's sweep cost P times its tokens on top of the
// sampling: work that does not shrink as partitions are added. Kept here, a visit costs the
// document's topics, not its length.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/data/corpus.hpp"
#include "core/models/topic/lda_gibbs_packed_lists.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/util/sparse_counts.hpp"

namespace latent::core::topic {

// Each document's counts are (count << bits | topic) entries, like the sparse kernel's word lists,
// in the order of the document's list of topics (so that a visit walks them as the last one left
// them), in min(length, K) places, ended by a zero entry when not full. Packed must hold every
// count beside the topic bits.
template <typename Packed>
class PackedDocumentCounts {
 public:
  PackedDocumentCounts() = default;

  // The counts of documents `range` from their tokens' topics `z` (corpus token order); `scratch`
  // (K outcomes, all zero) is left all zero.
  PackedDocumentCounts(const Corpus& corpus, DocumentRange range, std::span<const std::int32_t> z, int topics, int bits,
                       SparseCounts& scratch)
      : m_bits(bits), m_mask((Packed{1} << bits) - 1), m_first(range.begin), m_start(range.end - range.begin + 1, 0) {
    const auto& offsets = corpus.offsets;
    for (std::size_t d = range.begin; d < range.end; ++d)
      m_start[d - m_first + 1] = m_start[d - m_first] + std::min<std::int64_t>(offsets[d + 1] - offsets[d], topics);
    m_entries.assign(static_cast<std::size_t>(m_start.back()), Packed{0});
    for (std::size_t d = range.begin; d < range.end; ++d) {
      for (auto i = static_cast<std::size_t>(offsets[d]); i < static_cast<std::size_t>(offsets[d + 1]); ++i)
        scratch.add(static_cast<std::size_t>(z[i]), 1);
      keep(d, scratch);
      scratch.clear();
    }
  }

  bool empty() const noexcept { return m_start.empty(); }

  // Adds document d's kept counts to `counts`, its topics in the kept order.
  void load(std::size_t d, SparseCounts& counts) const {
    const std::size_t j = d - m_first;
    const Packed* entry = m_entries.data() + m_start[j];
    const Packed* const end = m_entries.data() + m_start[j + 1];
    for (; entry != end && *entry != 0; ++entry)
      counts.add(static_cast<std::size_t>(*entry & m_mask), static_cast<std::int32_t>(*entry >> m_bits));
  }

  // Keeps `counts` as document d's.
  void keep(std::size_t d, const SparseCounts& counts) {
    const std::size_t j = d - m_first;
    packCounts(counts, m_entries.data() + m_start[j], m_entries.data() + m_start[j + 1], m_bits);
  }

  std::size_t memoryBytes() const noexcept {
    return m_entries.size() * sizeof(Packed) + m_start.size() * sizeof(std::int64_t);
  }

 private:
  int m_bits = 0;
  Packed m_mask = 0;
  std::size_t m_first = 0;            // the range's first document
  std::vector<std::int64_t> m_start;  // per document of the range, and one past the last
  std::vector<Packed> m_entries;
};

}  // namespace latent::core::topic
