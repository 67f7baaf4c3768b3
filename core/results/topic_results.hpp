// SPDX-License-Identifier: GPL-3.0-or-later
// What topic models store (the topics family): the names of their result matrices, read by the
// topic views, the exports and the document reader.
#pragma once

namespace latent::core::topic {

// Matrix names in FitResult::matrices and snapshots (D documents, V words, K topics):
inline constexpr const char* kTopicWord = "topic_word";  // K x V, rows sum to one
inline constexpr const char* kDocTopic = "doc_topic";    // D x K in corpus order, rows sum to one
inline constexpr const char* kAlpha = "alpha";           // 1 x K, the document-topic prior used
// lda-gibbs: the chain's random start, one row per training token in corpus order (column 0: the
// topic), kept for small corpora (000 Fig. 27.8 draws it).
inline constexpr const char* kInitialTokenTopics = "initial_token_topics";
// mixture: the mixing weights pi (1 x K), the MAP estimate (EM) or the posterior mean (VB).
inline constexpr const char* kMixingWeights = "mixing_weights";

// ctm: the logistic normal's mean (1 x K) and covariance (K x K) of the centred log-ratios
// z - mean_k z_k (softmax ignores z's sum, so only these are identified), and the topics'
// correlations (that covariance scaled to unit diagonal).
inline constexpr const char* kTopicMean = "topic_mean";
inline constexpr const char* kTopicCovariance = "topic_covariance";
inline constexpr const char* kTopicCorrelation = "topic_correlation";

// dtm: time slices (data/time_slices.hpp), T x 3: each slice's start (a year), its width in years
// and its number of documents (training and held out); each topic's words slice by slice,
// (T K) x V with row t K + k for topic k in slice t; each topic's share of each slice's words
// (T x K, rows summing to one). topic_word holds each topic over all slices (weighted by their words).
inline constexpr const char* kTimeSlices = "time_slices";
inline constexpr const char* kTopicWordBySlice = "topic_word_by_slice";
inline constexpr const char* kTopicShareBySlice = "topic_share_by_slice";

// lda-hmm (000 §27.4.3): C syntactic classes, class 0 the semantic one that emits from the topics.
inline constexpr const char* kClassWord = "class_word";  // C x V, rows sum to one; row 0 the topics' mixture
inline constexpr const char* kClassTransitions = "class_transitions";  // C x C, row c: p(next class | c)
inline constexpr const char* kClassStart = "class_start";              // 1 x C, the class of a document's first token

// labeled-lda: each document's labels as its words alone suggest (D x L, corpus order, rows summing
// to one): its share of each label topic when folded in with every label allowed. Topic l < L is
// label l; the run's topic names (topic_labels) give the labels' names.
inline constexpr const char* kLabelScores = "label_scores";

// Per-token values beside the topics (FitResult::tokenValues, stored per document in the table
// token_values as float32, one value per kept token in document order; store/run_store.hpp):
// lda-hmm's class of each token (the last sample; 0 is the semantic class) and each token's
// posterior probability of being a content word, p(class 0 | the rest), averaged over the sweeps
// of the last fifth of the chain. lda-hmm's token topics are -1 for tokens not in class 0.
inline constexpr const char* kTokenClass = "token_class";
inline constexpr const char* kTokenContentProbability = "token_content_probability";

// slda (000 §27.4.4.1): the response's coefficient per topic, K x 1 for a number (in the response's
// own units: the response of a document all about that topic) or K x C for C classes (softmax
// weights); every document's response predicted from its text alone (D x 1, or D x C class
// probabilities, in corpus order, training and held-out documents alike); and which documents were
// held out (D x 1, 1 = held out). The final metrics name the field (response_name), its type
// (response_type: "gaussian" or "categorical") and, for classes, their names (response_classes).
inline constexpr const char* kResponseCoefficients = "response_coefficients";
inline constexpr const char* kResponsePredicted = "response_predicted";
inline constexpr const char* kResponseHeldout = "response_heldout";
// dmr (Mimno & McCallum 2008): the regression weights lambda, K x F, alpha_dk = exp(lambda_k . x_d),
// column f the feature named by the run's final metric "feature_names" (column 0 the intercept,
// "default"); and per feature (F x 4) the smallest and largest value on the training documents in
// the field's own units and the centre and scale of its coding, x = (value - centre) / scale
// (indicators: 0, 1, 0, 1).
inline constexpr const char* kFeatureWeights = "feature_weights";
inline constexpr const char* kFeatureRanges = "feature_ranges";
inline constexpr const char* kFeatureNamesMetric = "feature_names";
// rtm (Chang & Blei 2010): the link weights, 1 x (K + 1): eta_1 .. eta_K, then the intercept nu;
// the link function is the run's final metric "link_function" (sigmoid or exponential).
inline constexpr const char* kLinkWeights = "link_weights";

// The held-out metric of the family: perplexity by document completion (000 eq. 27.29).
inline constexpr const char* kHeldoutPerplexity = "heldout_perplexity";

}  // namespace latent::core::topic
