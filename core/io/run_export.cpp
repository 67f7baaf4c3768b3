// SPDX-License-Identifier: GPL-3.0-or-later
// The exporters. Ids are those of the imported files: words by their text, documents by the id
// they had in the source. Topic numbers are 0-based, as in MALLET, gensim and scikit-learn.
#include "core/io/run_export.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include "core/data/time_slices.hpp"
#include "core/eval/link_prediction.hpp"
#include "core/io/csv_writer.hpp"
#include "core/io/ldavis_json.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/block_results.hpp"
#include "core/results/embedding_results.hpp"
#include "core/results/factor_results.hpp"
#include "core/results/hidden_results.hpp"
#include "core/results/link_results.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_results.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core {

namespace detail {

std::optional<ChosenMatrix> chooseMatrix(Project& project, const RunRecord& run, const std::string& name,
                                         std::optional<std::int64_t> iteration) {
  auto result = loadResult(project, run.id, {name}, {}, iteration);
  if (!result) return std::nullopt;
  return ChosenMatrix{std::move(result->matrices.front().values), result->iteration};
}

ChosenTopicWord chooseTopicWord(Project& project, const RunRecord& run, std::optional<std::int64_t> iteration) {
  auto stored = loadStoredResult(project, run.id, topic::kTopicWord, iteration);
  if (!stored) throw UsageError("run " + std::to_string(run.id) + " has no topic-word matrix");
  ChosenTopicWord chosen{TopicWordTable(std::move(stored->values)), stored->iteration,
                         loadVocabulary(project, run.datasetId)};
  if (static_cast<std::size_t>(chosen.matrix.cols()) != chosen.vocabulary.size())
    throw UsageError("run " + std::to_string(run.id) + " has no topic-word matrix");
  return chosen;
}

ChosenDocTopic chooseDocTopic(Project& project, const RunRecord& run, std::optional<std::int64_t> iteration) {
  auto stored = loadStoredResult(project, run.id, topic::kDocTopic, iteration);
  auto documents = listDocuments(project, run.datasetId);
  if (!stored || static_cast<std::size_t>(storedRows(stored->values)) != documents.size())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no document-topic proportions");
  return {DenseTable(std::move(stored->values)), stored->iteration, std::move(documents)};
}

}  // namespace detail

namespace {

using detail::chooseMatrix;

std::int64_t exportTopicWord(Project& project, const RunRecord& run, std::ostream& out,
                             std::optional<std::int64_t> iteration) {
  const auto chosen = detail::chooseTopicWord(project, run, iteration);
  const auto& vocabulary = chosen.vocabulary;
  CsvWriter csv(out);
  csv.field("topic").field("word").field("probability").endRow();
  std::vector<double> row(static_cast<std::size_t>(chosen.matrix.cols()));
  for (Eigen::Index k = 0; k < chosen.matrix.rows(); ++k) {
    chosen.matrix.row(k, row);
    for (std::size_t v = 0; v < row.size(); ++v)
      csv.field(static_cast<std::int64_t>(k)).field(vocabulary[v].word).field(row[v]).endRow();
  }
  return chosen.iteration;
}

// doc_topic holds one row per corpus document, in corpus order.
std::int64_t exportDocTopic(Project& project, const RunRecord& run, std::ostream& out,
                            std::optional<std::int64_t> iteration) {
  const auto chosen = detail::chooseDocTopic(project, run, iteration);
  const auto& documents = chosen.documents;
  CsvWriter csv(out);
  csv.field("document").field("topic").field("proportion").endRow();
  chosen.matrix.visit([&](const auto& matrix) {
    for (Eigen::Index d = 0; d < matrix.rows(); ++d)
      for (Eigen::Index k = 0; k < matrix.cols(); ++k)
        csv.field(documents[static_cast<std::size_t>(d)].id)
            .field(static_cast<std::int64_t>(k))
            .field(static_cast<double>(matrix(d, k)))
            .endRow();
  });
  return chosen.iteration;
}

// link-lda: each topic's distribution over the documents its links point to (held-out documents,
// which no link may target, are left out).
std::int64_t exportTopicDocuments(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, topic::kTopicDocument, iteration);
  const auto documents = listDocuments(project, run.datasetId);
  if (!chosen || static_cast<std::size_t>(chosen->values.cols()) != documents.size())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no topic-document matrix");
  const auto& values = chosen->values;
  CsvWriter csv(out);
  csv.field("topic").field("document").field("probability").endRow();
  for (Eigen::Index k = 0; k < values.rows(); ++k)
    for (Eigen::Index d = 0; d < values.cols(); ++d)
      if (values(k, d) > 0.0)
        csv.field(static_cast<std::int64_t>(k))
            .field(documents[static_cast<std::size_t>(d)].id)
            .field(values(k, d))
            .endRow();
  return chosen->iteration;
}

// ctm: the topics' correlations and covariance, every ordered pair.
std::int64_t exportTopicCorrelations(Project& project, const RunRecord& run, std::ostream& out,
                                     std::optional<std::int64_t>) {
  const auto correlation = loadMatrix(project, run.id, topic::kTopicCorrelation);
  const auto covariance = loadMatrix(project, run.id, topic::kTopicCovariance);
  if (!correlation || !covariance || correlation->rows() != covariance->rows())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no topic correlations");
  CsvWriter csv(out);
  csv.field("topic").field("other_topic").field("correlation").field("covariance").endRow();
  for (Eigen::Index a = 0; a < correlation->rows(); ++a)
    for (Eigen::Index b = 0; b < correlation->cols(); ++b)
      csv.field(static_cast<std::int64_t>(a))
          .field(static_cast<std::int64_t>(b))
          .field((*correlation)(a, b))
          .field((*covariance)(a, b))
          .endRow();
  return -1;
}

// dmr: each feature's weight per topic, with the feature's range on the training documents (its
// smallest and largest value in its own units, and the centre and scale of its coding).
std::int64_t exportFeatureWeights(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t>) {
  const auto weights = loadMatrix(project, run.id, topic::kFeatureWeights);
  const auto ranges = loadMatrix(project, run.id, topic::kFeatureRanges);
  const auto names = run.finalMetrics.find(topic::kFeatureNamesMetric);
  if (!weights || !ranges || ranges->rows() != weights->cols() || ranges->cols() != 4 ||
      names == run.finalMetrics.end() || !names->is_array() ||
      static_cast<Eigen::Index>(names->size()) != weights->cols())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no feature weights");
  CsvWriter csv(out);
  csv.field("feature").field("topic").field("weight").field("min").field("max").field("centre").field("scale").endRow();
  for (Eigen::Index f = 0; f < weights->cols(); ++f)
    for (Eigen::Index k = 0; k < weights->rows(); ++k)
      csv.field((*names)[static_cast<std::size_t>(f)].get<std::string>())
          .field(static_cast<std::int64_t>(k))
          .field((*weights)(k, f))
          .field((*ranges)(f, 0))
          .field((*ranges)(f, 1))
          .field((*ranges)(f, 2))
          .field((*ranges)(f, 3))
          .endRow();
  return -1;
}

// dtm: the slices of a run (start, width) and their labels; throws when the run has none.
TimeSlices storedSlices(Project& project, const RunRecord& run) {
  const auto slices = loadMatrix(project, run.id, topic::kTimeSlices);
  if (!slices || slices->rows() == 0 || slices->cols() < 2)
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no time slices");
  TimeSlices out;
  out.width = (*slices)(0, 1);
  for (Eigen::Index t = 0; t < slices->rows(); ++t) out.starts.push_back((*slices)(t, 0));
  return out;
}

// dtm: every topic's words in every slice.
std::int64_t exportTopicsBySlice(Project& project, const RunRecord& run, std::ostream& out,
                                 std::optional<std::int64_t>) {
  const auto slices = storedSlices(project, run);
  const auto matrix = loadMatrix(project, run.id, topic::kTopicWordBySlice);
  const auto vocabulary = loadVocabulary(project, run.datasetId);
  const auto T = static_cast<Eigen::Index>(slices.size());
  if (!matrix || matrix->rows() % T != 0 || static_cast<std::size_t>(matrix->cols()) != vocabulary.size())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no topics by time slice");
  const auto K = matrix->rows() / T;
  CsvWriter csv(out);
  csv.field("slice").field("start").field("topic").field("word").field("probability").endRow();
  for (Eigen::Index t = 0; t < T; ++t)
    for (Eigen::Index k = 0; k < K; ++k)
      for (Eigen::Index v = 0; v < matrix->cols(); ++v)
        csv.field(slices.label(static_cast<std::size_t>(t)))
            .field(slices.starts[static_cast<std::size_t>(t)])
            .field(static_cast<std::int64_t>(k))
            .field(vocabulary[static_cast<std::size_t>(v)].word)
            .field((*matrix)(t * K + k, v))
            .endRow();
  return -1;
}

// dtm: each topic's share of each slice's words.
std::int64_t exportTopicSharesBySlice(Project& project, const RunRecord& run, std::ostream& out,
                                      std::optional<std::int64_t>) {
  const auto slices = storedSlices(project, run);
  const auto shares = loadMatrix(project, run.id, topic::kTopicShareBySlice);
  if (!shares || shares->rows() != static_cast<Eigen::Index>(slices.size()))
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no topic shares by time slice");
  CsvWriter csv(out);
  csv.field("slice").field("start").field("topic").field("share").endRow();
  for (Eigen::Index t = 0; t < shares->rows(); ++t)
    for (Eigen::Index k = 0; k < shares->cols(); ++k)
      csv.field(slices.label(static_cast<std::size_t>(t)))
          .field(slices.starts[static_cast<std::size_t>(t)])
          .field(static_cast<std::int64_t>(k))
          .field((*shares)(t, k))
          .endRow();
  return -1;
}

// rtm: the link weights eta, one per topic, then the intercept nu (topic "intercept").
std::int64_t exportLinkWeights(Project& project, const RunRecord& run, std::ostream& out, std::optional<std::int64_t>) {
  const auto weights = loadMatrix(project, run.id, topic::kLinkWeights);
  if (!weights || weights->rows() != 1 || weights->cols() < 2)
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no link weights");
  const auto link = run.finalMetrics.find("link_function");
  const std::string function = link != run.finalMetrics.end() && link->is_string() ? link->get<std::string>() : "";
  CsvWriter csv(out);
  csv.field("topic").field("weight").field("link_function").endRow();
  for (Eigen::Index k = 0; k + 1 < weights->cols(); ++k)
    csv.field(static_cast<std::int64_t>(k)).field((*weights)(0, k)).field(function).endRow();
  csv.field("intercept").field((*weights)(0, weights->cols() - 1)).field(function).endRow();
  return -1;
}

std::int64_t exportAssignments(Project& project, const RunRecord& run, std::ostream& out, std::optional<std::int64_t>) {
  if (!hasTokenTopics(project, run.id))
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no per-token assignments");
  const auto vocabulary = loadVocabulary(project, run.datasetId);
  const auto documents = listDocuments(project, run.datasetId);
  CsvWriter csv(out);
  csv.field("document").field("position").field("word").field("topic").field("begin").field("end").endRow();
  for (const auto& header : documents) {
    const auto topics = loadTokenTopics(project, run.id, header.index);
    if (topics.empty()) continue;
    const auto doc = loadDocument(project, run.datasetId, header.index);
    for (std::size_t i = 0; i < topics.size() && i < doc.wordIds.size(); ++i) {
      csv.field(header.id)
          .field(static_cast<std::int64_t>(i))
          .field(vocabulary[static_cast<std::size_t>(doc.wordIds[i])].word);
      csv.field(static_cast<std::int64_t>(topics[i]));
      if (i < doc.begins.size()) {
        csv.field(static_cast<std::int64_t>(doc.begins[i])).field(static_cast<std::int64_t>(doc.ends[i]));
      } else {
        csv.field("").field("");
      }
      csv.endRow();
    }
  }
  return -1;
}

std::int64_t exportMetrics(Project& project, const RunRecord& run, std::ostream& out, std::optional<std::int64_t>) {
  const auto rows = loadMetrics(project, run.id);
  // Model-specific extras become columns of their own, in order of first appearance.
  std::vector<std::string> extras;
  for (const auto& row : rows)
    for (const auto& [key, value] : row.extras.items())
      if (std::find(extras.begin(), extras.end(), key) == extras.end()) extras.push_back(key);
  CsvWriter csv(out);
  csv.field("iteration").field("seconds").field("train_objective").field("heldout_metric");
  for (const auto& e : extras) csv.field(e);
  csv.endRow();
  for (const auto& row : rows) {
    csv.field(row.iteration).field(row.seconds);
    csv.field(row.trainObjective.value_or(std::numeric_limits<double>::quiet_NaN()));
    csv.field(row.heldout.value_or(std::numeric_limits<double>::quiet_NaN()));
    for (const auto& e : extras) {
      if (row.extras.contains(e) && row.extras[e].is_number())
        csv.field(row.extras[e].get<double>());
      else
        csv.field("");
    }
    csv.endRow();
  }
  return -1;
}

struct Exporter {
  ExportKind kind;
  // Returns the snapshot iteration written, -1 for the final result.
  std::function<std::int64_t(Project&, const RunRecord&, std::ostream&, std::optional<std::int64_t>)> write;
  std::function<bool(Project&, const RunRecord&)> available;
  bool hasSnapshots = false;  // whether --iteration applies
};

const std::vector<Exporter>& exporters() {
  static const std::vector<Exporter> list = {
      {{"topic-word", "topic,word,probability", "every word's probability under every topic"},
       exportTopicWord,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kTopicWord); },
       true},
      {{"doc-topic", "document,topic,proportion", "each document's topic proportions"},
       exportDocTopic,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kDocTopic); },
       true},
      {{"assignments", "document,position,word,topic,begin,end",
        "the topic of every kept token (begin/end: byte span in the text)"},
       exportAssignments,
       [](Project& p, const RunRecord& r) { return hasTokenTopics(p, r.id); }},
      {{"topic-correlations", "topic,other_topic,correlation,covariance",
        "a correlated topic model's topics: the covariance of their centred log-ratios and the correlations from "
        "it, every ordered pair"},
       exportTopicCorrelations,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kTopicCorrelation); }},
      {{"feature-weights", "feature,topic,weight,min,max,centre,scale",
        "a DMR run's weight of every feature for every topic (alpha_dk = exp(sum_f weight x_df), x_df = (value - "
        "centre) / scale; min and max: the feature's range on the training documents)"},
       exportFeatureWeights,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kFeatureWeights); }},
      {{"link-weights", "topic,weight,link_function",
        "a relational topic model's link weights: eta of each topic and the intercept nu (topic 'intercept'); a "
        "link's probability is the link function of sum_k eta_k zbar_dk zbar_d'k + nu"},
       exportLinkWeights,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kLinkWeights); }},
      {{"topics-by-slice", "slice,start,topic,word,probability",
        "a dynamic topic model's topics in each time slice (every word)"},
       exportTopicsBySlice,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kTopicWordBySlice); }},
      {{"topic-shares-by-slice", "slice,start,topic,share", "a dynamic topic model's topic shares in each time slice"},
       exportTopicSharesBySlice,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kTopicShareBySlice); }},
      {{"predicted-links", "document,title,other_document,other_title,probability",
        "a model of linked documents: each training document's most likely new links (pairs not linked in training), "
        "with the model's probability"},
       detail::exportPredictedLinks,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kPredictedLinks); }},
      {{"topic-documents", "topic,document,probability",
        "a link-lda run's link topics: each topic's distribution over the documents its links point to"},
       exportTopicDocuments,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kTopicDocument); },
       true},
      {{"blocks", "node,name,block", "each node's block (the most probable one)"},
       detail::exportBlocks,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kBlocks); },
       true},
      {{"memberships", "node,name,block,weight", "each node's weight in every block (rows sum to one)"},
       detail::exportMemberships,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kMemberships); },
       true},
      {{"block-matrix", "from_block,to_block,probability",
        "the probability of a link from a node of one block to one of another"},
       detail::exportBlockMatrix,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kBlockMatrix); },
       true},
      {{"gexf", "GEXF 1.2 XML: nodes (id, label, dataset attributes, block, block_0..block_{K-1}, position), edges",
        "the graph with each node's block and its weight in every block as node attributes, for Gephi (the "
        "edges of the first relation, with weights and direction; nodes placed as in the app's drawing)"},
       detail::exportGexf,
       detail::holdsGraphBlocks,
       true},
      {{"graphml",
        "GraphML XML: nodes (id, name, dataset attributes, block, block_0..block_{K-1}, x, y), edges (weight)",
        "the same as gexf in GraphML, for Cytoscape, yEd, igraph and networkx"},
       detail::exportGraphMl,
       detail::holdsGraphBlocks,
       true},
      {{"relation-block-matrices", "relation,from_block,to_block,probability",
        "a multi-relational irm's block matrix of every relation it fitted (blocks shared by all relations)"},
       detail::exportRelationBlockMatrices,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kRelationBlockMatrices); },
       true},
      {{"feature-blocks", "feature,cluster", "a multi-relational irm's cluster of each node feature"},
       detail::exportFeatureBlocks,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kFeatureBlocks); }},
      {{"feature-block-matrix", "block,feature_cluster,probability",
        "a multi-relational irm's probability that a node of a block has a feature of a cluster"},
       detail::exportFeatureBlockMatrix,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kFeatureBlockMatrix); }},
      {{"factors", "side,id,name,factor,value",
        "user and item factors and biases (factor 'bias'), and the global mean (side 'global')"},
       detail::exportFactors,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, kItemFactors); },
       true},
      {{"hidden-weights", "unit,word,weight",
        "a harmonium's weights, every word under every hidden unit, with the hidden biases (empty word) and the "
        "words' biases (unit 'bias'); a table's runs name features (unit,feature,weight), a graph's nodes "
        "(unit,node,weight)"},
       detail::exportHiddenWeights,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, hidden::kWeights); },
       true},
      {{"word-embeddings", "word,component,value",
        "each word's coordinates on the components (singular vector times singular value: lsa)"},
       detail::exportWordEmbeddings,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, embedding::kWordVectors); }},
      {{"doc-embeddings", "document,component,value",
        "each document's coordinates on the components (its weighted counts projected: lsa)"},
       detail::exportDocEmbeddings,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, embedding::kDocVectors); }},
      {{"singular-values", "component,singular_value,share",
        "the singular values, largest first, with the share of the weighted training matrix's squared norm each "
        "captures (a scree plot's numbers)"},
       detail::exportSingularValues,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, embedding::kSingularValues); }},
      {{"hidden-activations", "document,unit,activation",
        "each document's probability that each hidden unit is on (a ratings run: user,unit,activation, each user's "
        "from its training ratings; a table's: row,unit,activation; a graph's: node,unit,activation)"},
       detail::exportHiddenActivations,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, hidden::kHiddenActivations); },
       true},
      {{"class-word", "class,word,probability",
        "every word's probability under every syntactic class (lda-hmm; class 0 is the semantic class, its row the "
        "topics mixed)"},
       detail::exportClassWord,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kClassWord); },
       true},
      {{"class-transitions", "from_class,to_class,probability",
        "the probability of each syntactic class after each (lda-hmm)"},
       detail::exportClassTransitions,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kClassTransitions); },
       true},
      {{"token-classes", "document,position,word,topic,class,content_probability,begin,end",
        "every kept token's syntactic class and its probability of being a content word (lda-hmm; topic -1 "
        "outside the semantic class 0)"},
       detail::exportTokenClasses,
       [](Project& p, const RunRecord& r) { return hasTokenValues(p, r.id, topic::kTokenClass); }},
      {{"mallet-topic-keys", "topic<TAB>alpha<TAB>20 top words (no header)",
        "MALLET's --output-topic-keys file: each topic's prior and its 20 most probable words"},
       detail::exportMalletTopicKeys,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kTopicWord); },
       true},
      {{"mallet-doc-topics", "index<TAB>document<TAB>proportion of topic 0<TAB>... (no header)",
        "MALLET's --output-doc-topics file: every document's topic proportions"},
       detail::exportMalletDocTopics,
       [](Project& p, const RunRecord& r) { return hasResultMatrix(p, r.id, topic::kDocTopic); },
       true},
      {{"mallet-state", "gzip of #doc source pos typeindex type topic",
        "MALLET's gzipped --output-state file: every training token's topic"},
       detail::exportMalletState,
       [](Project& p, const RunRecord& r) { return hasTokenTopics(p, r.id); }},
      {{"ldavis", "LDAvis prepared-data JSON: mdsDat, tinfo, token.table, R, lambda.step, plot.opts, topic.order",
        "the intertopic map and its words as LDAvis's JavaScript and pyLDAvis read them (topics placed by principal "
        "coordinates of their Jensen-Shannon divergences, sized by their share of tokens; R = 30, lambda step 0.01)"},
       detail::exportLdavis,
       [](Project& p, const RunRecord& r) {
         return hasResultMatrix(p, r.id, topic::kTopicWord) && hasResultMatrix(p, r.id, topic::kDocTopic);
       },
       true},
      {{"metrics", "iteration,seconds,train_objective,heldout_metric,...", "the per-iteration series"},
       exportMetrics,
       [](Project&, const RunRecord&) { return true; }},
  };
  return list;
}

}  // namespace

const std::vector<ExportKind>& exportKinds() {
  static const std::vector<ExportKind> kinds = [] {
    std::vector<ExportKind> out;
    for (const auto& e : exporters()) out.push_back(e.kind);
    return out;
  }();
  return kinds;
}

std::vector<std::string> availableExports(Project& project, std::int64_t runId) {
  const auto run = loadRun(project, runId);
  std::vector<std::string> out;
  for (const auto& e : exporters())
    if (e.available(project, run)) out.push_back(e.kind.name);
  return out;
}

std::int64_t exportRun(Project& project, std::int64_t runId, const std::string& what, std::ostream& out,
                       std::optional<std::int64_t> iteration) {
  const auto run = loadRun(project, runId);
  for (const auto& e : exporters()) {
    if (e.kind.name != what) continue;
    if (!e.available(project, run)) {
      std::string have;
      for (const auto& name : availableExports(project, runId)) have += (have.empty() ? "" : ", ") + name;
      throw UsageError("run " + std::to_string(runId) + " (" + run.model + ") has no " + what +
                       " to export (it has: " + have + ")");
    }
    if (iteration && !e.hasSnapshots) throw UsageError("--iteration applies to the exports of matrices, not " + what);
    return e.write(project, run, out, iteration);
  }
  std::string names;
  for (const auto& e : exporters()) names += (names.empty() ? "" : ", ") + e.kind.name;
  throw UsageError("unknown export '" + what + "' (available: " + names + ")");
}

}  // namespace latent::core
