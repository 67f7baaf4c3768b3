// SPDX-License-Identifier: GPL-3.0-or-later
// What the topic views of a run read from the project, loaded once off the GUI thread and shared
// (read-only) by the topic-word table and the annotated document reader.
#pragma once

#include <QString>
#include <QStringList>

#include <Eigen/Core>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/data/corpus.hpp"
#include "core/data/dense_table.hpp"
#include "core/data/topic_word_table.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "ui/runs/topics/topic_relevance.hpp"

namespace latent::ui {

struct TopicTimeData;
struct DocumentLinksData;

struct TopicRunData {
  core::RunRecord run;
  // K x V, rows sum to one; in the form it was stored in, so that large topics stay sparse.
  core::TopicWordTable topicWord;
  std::int64_t topicWordIteration = -1;  // -1: the final result; else the snapshot shown
  // D x K in corpus order, held as stored (floats for a large one); 0 x 0 when the run has none.
  core::DenseTable docTopic;
  std::vector<Eigen::Index> mainTopics;  // each document's largest proportion's topic; empty without docTopic
  std::vector<std::string> words;        // index = word id
  std::vector<std::int64_t> wordCounts;  // occurrences in the whole corpus
  std::vector<double> corpusFrequency;   // p(w), for relevance
  std::vector<double> shares;            // each topic's share of the corpus' tokens; empty if unknown
  QString sharesSource;                  // how the shares were computed, for a tooltip
  std::vector<core::DocumentHeader> documents;
  std::vector<std::uint8_t> assigned;             // per document: 1 when it has per-token topics
  std::vector<std::vector<RankedWord>> topWords;  // the 10 most probable words of each topic
  std::map<std::int64_t, std::string> labels;
  bool hasText = false;  // the corpus keeps the original text (not a bag-of-words import)
  // The run stored mixing weights: a mixture of clusters, whose per-token topics are each
  // document's one cluster.
  bool clusters = false;
  // A model of syntax (lda-hmm): the run holds each token's class and probability of being a content word.
  bool syntacticClasses = false;
  // A model of how topics go together (ctm): their correlations (K x K; 0 x 0 otherwise) and the
  // map the correlation graph draws them on (core/eval/correlation_map.hpp).
  Eigen::MatrixXd topicCorrelation;
  Eigen::MatrixX2d correlationMap;
  // A model of a response (slda): each topic's coefficient (K x 1 for a number, in its units; K x C
  // for C classes; 0 x 0 otherwise), the field's name, the classes' names (empty for a number) and
  // the response's mean over the training documents (a number's bars start there).
  Eigen::MatrixXd responseCoefficients;
  // Each document's response predicted from its text alone (D x 1, or D x C class probabilities, in
  // corpus order; 0 x 0 when the run has none): the document reader shows it beside the true value.
  Eigen::MatrixXd responsePredicted;
  QString responseName;
  QStringList responseClasses;
  double responseMean = 0.0;
  // A model of labels (labeled-lda): each document's label scores from its words alone (D x L,
  // corpus order, label l the topic l; 0 x 0 otherwise): the reader names the predicted labels.
  Eigen::MatrixXd labelScores;
  // A dynamic topic model (dtm): the topics slice by slice (topic_time_data.hpp); null otherwise.
  // When its matrices are there but do not fit together, null with the reason in overTimeError.
  std::shared_ptr<const TopicTimeData> overTime;
  QString overTimeError;
  // A model of topics conditioned on metadata (dmr): each feature's weight per topic (K x F), the
  // features' names (F, the intercept first) and ranges (F x 4; core/results/topic_results.hpp);
  // empty otherwise.
  Eigen::MatrixXd featureWeights;
  Eigen::MatrixXd featureRanges;
  std::vector<std::string> featureNames;
  // A linked corpus (document_links_data.hpp): its links, the run's predicted links and the
  // documents' places in the network drawing; null for a corpus without links.
  std::shared_ptr<const DocumentLinksData> links;
  // The documents' times, labels and metadata (a corpus without words, in corpus order), for
  // breaking the topics down by them; null when the run has no document proportions or the corpus
  // no such fields.
  std::shared_ptr<const core::Corpus> fields;

  int topicCount() const noexcept { return static_cast<int>(topicWord.rows()); }
  int vocabularySize() const noexcept { return static_cast<int>(topicWord.cols()); }
  bool hasDocTopic() const noexcept {
    return docTopic.rows() > 0 && docTopic.rows() == static_cast<Eigen::Index>(documents.size());
  }
  bool hasAssignments() const noexcept;
  bool hasFeatureWeights() const noexcept { return featureWeights.size() > 0; }
  QString wordText(std::int32_t word) const;
};

struct TopicRunLoad {
  std::shared_ptr<const TopicRunData> data;  // null on error or when the run has no topic-word result
  QString error;
};

// How the topic views name a topic: its number and the user's label (the Topics page's `labels`),
// else its number and its `words` most probable words. Empty for a topic the run does not have.
QString topicDisplayName(const TopicRunData* data, const QStringList& labels, int topic, int words);

// Reads a run's topic results through its own read-only connection: call it off the GUI thread.
TopicRunLoad loadTopicRun(const std::filesystem::path& projectFile, std::int64_t runId);

// While a run goes: its topics from the latest topic-word snapshot, or `previous` itself when no
// newer snapshot has been written since (a cheap look at the snapshots' iterations). Off the GUI thread.
TopicRunLoad loadLiveTopicRun(const std::filesystem::path& projectFile, std::int64_t runId,
                              std::shared_ptr<const TopicRunData> previous);

// The sentence that says what a word's colour means for this run: the document's cluster (a run
// that stored mixing weights), a sampler's last draw (a model whose options choose a sampler), or
// the most likely topic.
QString assignmentMeaning(const TopicRunData& data);

}  // namespace latent::ui
