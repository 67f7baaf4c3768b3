// SPDX-License-Identifier: GPL-3.0-or-later
// A topic model as the "prepared data" JSON of LDAvis (Sievert & Shirley 2014): what pyLDAvis's
// prepare() returns and LDAvis's createJSON() writes, which LDAvis's JavaScript (and
// pyLDAvis.display / prepared_data_to_html) draws. Fields, column by column:
//   mdsDat      {x, y, topics, cluster, Freq}: one entry per topic, largest first; topics 1..K in
//               that order, Freq its share of tokens in percent, cluster 1.
//   tinfo       {Term, Freq, Total, Category, logprob, loglift}: the R most salient words
//               ("Default", Freq and Total their rounded-down frequency, logprob = loglift = R..1),
//               then for each topic ("Topic1".."TopicK") every word among its R most relevant at
//               some lambda: Freq its expected tokens in the topic, Total in the corpus, logprob
//               log phi_kw and loglift log(phi_kw / p(w)) to four decimals.
//   token.table {Topic, Freq, Term}: for each word of tinfo, the topics with at least half a token
//               of it, Freq the rounded tokens over the word's total; sorted by Term then Topic.
//   R, lambda.step, plot.opts {xlab, ylab}, topic.order (each shown topic's 1-based model topic).
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/store/project.hpp"
#include "core/store/run_store.hpp"

namespace latent::core {

struct LdavisSettings {
  int terms = 30;            // R, LDAvis's default (cut to the vocabulary when smaller)
  double lambdaStep = 0.01;  // LDAvis's default
};

// Writes the JSON of topics `topicWord` (K x V, rows summing to one) with `topicTokens` (K expected
// tokens per topic) over `words` (V).
void writeLdavisJson(std::ostream& out, const Eigen::MatrixXd& topicWord, std::span<const double> topicTokens,
                     const std::vector<std::string>& words, const LdavisSettings& settings = {});

namespace detail {
// `export --what ldavis`: the run's topic-word matrix and document proportions weighted by the
// documents' kept-token counts.
std::int64_t exportLdavis(Project& project, const RunRecord& run, std::ostream& out,
                          std::optional<std::int64_t> iteration);
}  // namespace detail

}  // namespace latent::core
