// SPDX-License-Identifier: GPL-3.0-or-later
// What the exporters of each model family share: picking the stored matrix to write.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/dense_table.hpp"
#include "core/data/topic_word_table.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"

namespace latent::core::detail {

// The matrix `name` an export writes: the final result, else the latest snapshot, or the snapshot
// of `iteration` when one is asked for (loadResult in store/run_results.hpp). A run killed before
// it finished has no final result; its latest snapshot stands in (the CLI says so).
struct ChosenMatrix {
  Eigen::MatrixXd values;
  std::int64_t iteration = -1;  // -1: the final result
};
std::optional<ChosenMatrix> chooseMatrix(Project& project, const RunRecord& run, const std::string& name,
                                         std::optional<std::int64_t> iteration);

// A topic model's topic-word matrix, held as stored (a large one sparse: a K = 5000 run's is
// megabytes, not the 2.9 GB of its doubles), with the words of its columns, and its document-topic
// matrix, held as stored too (a large one as floats: half its doubles), with the documents of its
// rows; UsageError when the run has none that fits its dataset.
struct ChosenTopicWord {
  TopicWordTable matrix;
  std::int64_t iteration = -1;  // -1: the final result
  std::vector<VocabularyEntry> vocabulary;
};
ChosenTopicWord chooseTopicWord(Project& project, const RunRecord& run, std::optional<std::int64_t> iteration);
struct ChosenDocTopic {
  DenseTable matrix;
  std::int64_t iteration = -1;  // -1: the final result
  std::vector<DocumentHeader> documents;
};
ChosenDocTopic chooseDocTopic(Project& project, const RunRecord& run, std::optional<std::int64_t> iteration);

// Topic models in MALLET's own files (mallet_export.cpp): --output-topic-keys ("topic\talpha\t20
// words"), --output-doc-topics ("index\tname\tproportions") and the gzipped --output-state.
std::int64_t exportMalletTopicKeys(Project& project, const RunRecord& run, std::ostream& out,
                                   std::optional<std::int64_t> iteration);
std::int64_t exportMalletDocTopics(Project& project, const RunRecord& run, std::ostream& out,
                                   std::optional<std::int64_t> iteration);
std::int64_t exportMalletState(Project& project, const RunRecord& run, std::ostream& out,
                               std::optional<std::int64_t> iteration);

// Models of linked documents (link_export.cpp): each training document's most likely new links,
// `document,title,other_document,other_title,probability` by the documents' ids.
std::int64_t exportPredictedLinks(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t> iteration);

// Block models and factor models (block_model_export.cpp). Each returns the snapshot iteration
// written, -1 for the final result.
std::int64_t exportBlocks(Project& project, const RunRecord& run, std::ostream& out,
                          std::optional<std::int64_t> iteration);
std::int64_t exportMemberships(Project& project, const RunRecord& run, std::ostream& out,
                               std::optional<std::int64_t> iteration);
std::int64_t exportBlockMatrix(Project& project, const RunRecord& run, std::ostream& out,
                               std::optional<std::int64_t> iteration);
std::int64_t exportFactors(Project& project, const RunRecord& run, std::ostream& out,
                           std::optional<std::int64_t> iteration);

// A graph's block model as a network file (graph_run_export.cpp): the graph with each node's block
// and memberships as attributes (graph_xml_export.hpp), for Gephi (GEXF) and Cytoscape (GraphML).
bool holdsGraphBlocks(Project& project, const RunRecord& run);
std::int64_t exportGexf(Project& project, const RunRecord& run, std::ostream& out,
                        std::optional<std::int64_t> iteration);
std::int64_t exportGraphMl(Project& project, const RunRecord& run, std::ostream& out,
                           std::optional<std::int64_t> iteration);

// The multi-relational irm (mirm_export.cpp): every relation's block matrix
// (`relation,from_block,to_block,probability`), each feature's cluster (`feature,cluster`) and the
// feature densities per node block (`block,feature_cluster,probability`).
std::int64_t exportRelationBlockMatrices(Project& project, const RunRecord& run, std::ostream& out,
                                         std::optional<std::int64_t> iteration);
std::int64_t exportFeatureBlocks(Project& project, const RunRecord& run, std::ostream& out,
                                 std::optional<std::int64_t> iteration);
std::int64_t exportFeatureBlockMatrix(Project& project, const RunRecord& run, std::ostream& out,
                                      std::optional<std::int64_t> iteration);

// Harmoniums (hidden_units_export.cpp): `unit,word,weight` with the biases as rows (the hidden
// unit's with an empty word, the word's with unit "bias"), and `document,unit,activation`.
std::int64_t exportHiddenWeights(Project& project, const RunRecord& run, std::ostream& out,
                                 std::optional<std::int64_t> iteration);
std::int64_t exportHiddenActivations(Project& project, const RunRecord& run, std::ostream& out,
                                     std::optional<std::int64_t> iteration);

// Embeddings (embedding_export.cpp): coordinates W diag(s) of the words (`word,component,value`)
// and U diag(s) of the documents (`document,component,value`), and the singular values with the
// share of the weighted matrix's squared norm each captures (`component,singular_value,share`).
std::int64_t exportWordEmbeddings(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t> iteration);
std::int64_t exportDocEmbeddings(Project& project, const RunRecord& run, std::ostream& out,
                                 std::optional<std::int64_t> iteration);
std::int64_t exportSingularValues(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t> iteration);

// lda-hmm's classes (class_export.cpp): `class,word,probability` (class 0, the semantic class, is the
// topics mixed by their shares of its tokens), `from_class,to_class,probability`, and every kept
// token's `document,position,word,topic,class,content_probability,begin,end` (topic -1 outside
// class 0; content_probability is p(class 0 | the rest) averaged over the last sweeps).
std::int64_t exportClassWord(Project& project, const RunRecord& run, std::ostream& out,
                             std::optional<std::int64_t> iteration);
std::int64_t exportClassTransitions(Project& project, const RunRecord& run, std::ostream& out,
                                    std::optional<std::int64_t> iteration);
std::int64_t exportTokenClasses(Project& project, const RunRecord& run, std::ostream& out,
                                std::optional<std::int64_t> iteration);

}  // namespace latent::core::detail
