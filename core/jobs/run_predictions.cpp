// SPDX-License-Identifier: GPL-3.0-or-later
// Predictions from stored block-model, factor-model and categorical-RBM matrices: the glue between
// the store, the CSV files and the predictors of models/network, models/ratings and
// models/harmonium.
#include "core/jobs/run_predictions.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <unordered_map>

#include "core/eval/rating_split.hpp"
#include "core/io/csv_writer.hpp"
#include "core/models/harmonium/ratings_rbm.hpp"
#include "core/models/model.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/ratings/factor_model_results.hpp"
#include "core/results/result_family.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_results.hpp"
#include "core/store/run_store.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core {
namespace {

// The family of the run's model; for a model the catalogue no longer has, that of its data.
ResultFamily predictionFamily(const RunRecord& run, DataKind kind) {
  for (const auto* info : modelCatalogue())
    if (info->name == run.model) return info->family;
  return kind == DataKind::Graph ? ResultFamily::Blocks : ResultFamily::Factors;
}

// The matrices a block model, a factor model or a categorical RBM predicts with: the final
// result, else the latest snapshot (a run stopped or killed before its end predicts with what it
// had reached).
StoredResult predictionMatrices(Project& project, const RunRecord& run, DataKind kind) {
  const auto& family = resultFamily(predictionFamily(run, kind));
  const auto& required =
      kind == DataKind::Ratings && !family.ratingsRequired.empty() ? family.ratingsRequired : family.required;
  auto result = loadResult(project, run.id, required, family.optional);
  if (!result) throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no result to predict with");
  return std::move(*result);
}

// A ratings run's predictor: a factor model's (pmf), or a categorical RBM's (rbm-ratings), which
// starts from each user's training ratings, those of the run's own split (its seed and held-out
// fraction), so that a held-out rating is predicted as the fit scored it.
class RunRatingPredictor {
 public:
  RunRatingPredictor(Project& project, const RunRecord& run) {
    auto stored = predictionMatrices(project, run, DataKind::Ratings);
    m_iteration = stored.iteration;
    m_ratings = loadRatings(project, run.datasetId);
    if (predictionFamily(run, DataKind::Ratings) == ResultFamily::HiddenUnits) {
      const auto split = splitRatings(m_ratings, run.heldout, run.seed);
      m_rbm.emplace(stored.matrices, split.train, static_cast<std::int32_t>(m_ratings.userCount()),
                    static_cast<std::int32_t>(m_ratings.itemCount()));
    } else {
      m_factors.emplace(stored.matrices);
    }
  }

  const Ratings& ratings() const noexcept { return m_ratings; }
  std::int64_t iteration() const noexcept { return m_iteration; }
  std::int64_t itemCount() const { return m_rbm ? m_rbm->itemCount() : m_factors->itemCount(); }
  double predict(std::int64_t user, std::int64_t item) const {
    return m_rbm ? m_rbm->predict(user, item) : m_factors->predict(user, item);
  }
  std::vector<std::pair<std::int64_t, double>> recommend(std::int64_t user, std::span<const std::int32_t> rated,
                                                         std::size_t n) const {
    return m_rbm ? m_rbm->recommend(user, rated, n) : m_factors->recommend(user, rated, n);
  }
  // A new user's predictions for every item: fitted factors (the fit's regularisation, stored with
  // the run, so the new user is treated like the others), or the RBM's hidden mean-field.
  std::vector<double> foldIn(std::span<const std::pair<std::int32_t, double>> given) const {
    std::vector<double> out(static_cast<std::size_t>(itemCount()));
    if (m_rbm) {
      const auto hidden = m_rbm->foldInUser(given);
      for (std::int64_t i = 0; i < itemCount(); ++i) out[static_cast<std::size_t>(i)] = m_rbm->predictFolded(hidden, i);
    } else {
      const auto folded = m_factors->foldInUser(given);
      for (std::int64_t i = 0; i < itemCount(); ++i)
        out[static_cast<std::size_t>(i)] = m_factors->predictFolded(folded, i);
    }
    return out;
  }

 private:
  std::int64_t m_iteration = -1;
  Ratings m_ratings;
  std::optional<RatingPredictor> m_factors;
  std::optional<harmonium::RatingsRbmPredictor> m_rbm;
};

std::unordered_map<std::string, std::int64_t> indexOf(const std::vector<std::string>& ids) {
  std::unordered_map<std::string, std::int64_t> out;
  for (std::size_t i = 0; i < ids.size(); ++i) out.emplace(ids[i], static_cast<std::int64_t>(i));
  return out;
}

// Reads a two-column CSV of ids, calling `row(first, second)` with their indices.
template <typename Row>
void readPairs(const std::filesystem::path& path, const char* firstName, const char* secondName,
               const std::unordered_map<std::string, std::int64_t>& firstIds,
               const std::unordered_map<std::string, std::int64_t>& secondIds, const char* firstWhat,
               const char* secondWhat, Row&& row) {
  CsvReader csv(path);
  std::vector<std::string> fields;
  if (!csv.next(fields)) csv.fail("the file is empty; expected a header " + std::string(firstName) + "," + secondName);
  const auto header = fields;
  const int a = findColumn(header, firstName), b = findColumn(header, secondName);
  if (a < 0 || b < 0)
    csv.fail("expected columns " + std::string(firstName) + " and " + secondName + " but found " + joinColumns(header));
  while (csv.next(fields)) {
    if (fields.size() <= static_cast<std::size_t>(std::max(a, b))) csv.fail("this row has too few columns");
    const auto& x = fields[static_cast<std::size_t>(a)];
    const auto& y = fields[static_cast<std::size_t>(b)];
    const auto i = firstIds.find(x);
    if (i == firstIds.end()) csv.fail(std::string(firstWhat) + " '" + x + "' is not in the dataset");
    const auto j = secondIds.find(y);
    if (j == secondIds.end()) csv.fail(std::string(secondWhat) + " '" + y + "' is not in the dataset");
    row(x, y, i->second, j->second);
  }
}

}  // namespace

std::int64_t predictPairs(Project& project, std::int64_t runId, const std::filesystem::path& pairs, std::ostream& out) {
  const auto run = loadRun(project, runId);
  const auto kind = project.dataset(run.datasetId).kind;
  if (kind != DataKind::Ratings && kind != DataKind::Graph)
    throw UsageError("run " + std::to_string(runId) + " (" + run.model +
                     ") is a topic model: predict works on graph and ratings runs");
  CsvWriter csv(out);
  if (kind == DataKind::Ratings) {
    const RunRatingPredictor predictor(project, run);
    const auto& ratings = predictor.ratings();
    const auto users = indexOf(ratings.userIds), items = indexOf(ratings.itemIds);
    csv.field("user").field("item").field("prediction").endRow();
    readPairs(pairs, "user", "item", users, items, "user", "item",
              [&](const std::string& u, const std::string& i, std::int64_t user, std::int64_t item) {
                csv.field(u).field(i).field(predictor.predict(user, item)).endRow();
              });
    return predictor.iteration();
  }
  const auto stored = predictionMatrices(project, run, kind);
  const auto& matrices = stored.matrices;
  {
    const LinkPredictor predictor(matrices);
    const auto graph = loadGraph(project, run.datasetId);
    const auto nodes = indexOf(graph.nodeIds);
    csv.field("source").field("target").field("prediction").endRow();
    readPairs(pairs, "source", "target", nodes, nodes, "node", "node",
              [&](const std::string& s, const std::string& t, std::int64_t i, std::int64_t j) {
                csv.field(s).field(t).field(predictor.probability(i, j)).endRow();
              });
  }
  return stored.iteration;
}

std::vector<Recommendation> recommendForUser(Project& project, std::int64_t runId, const std::string& userId,
                                             std::size_t n) {
  const auto run = loadRun(project, runId);
  const RunRatingPredictor predictor(project, run);
  const auto& ratings = predictor.ratings();
  const auto users = indexOf(ratings.userIds);
  const auto user = users.find(userId);
  if (user == users.end())
    throw UsageError("user '" + userId + "' is not in the dataset of run " + std::to_string(runId));
  std::vector<std::int32_t> rated;
  for (const auto& r : ratings.ratings)
    if (r.user == user->second) rated.push_back(r.item);
  std::vector<Recommendation> out;
  for (const auto& [item, prediction] : predictor.recommend(user->second, rated, n))
    out.push_back({ratings.itemIds[static_cast<std::size_t>(item)], ratings.itemNames[static_cast<std::size_t>(item)],
                   prediction});
  return out;
}

std::vector<Recommendation> recommendForNewUser(Project& project, std::int64_t runId,
                                                const std::filesystem::path& ratingsFile, std::size_t n) {
  const auto run = loadRun(project, runId);
  const RunRatingPredictor predictor(project, run);
  const auto& ratings = predictor.ratings();
  const auto items = indexOf(ratings.itemIds);
  std::vector<std::pair<std::int32_t, double>> given;
  CsvReader csv(ratingsFile);
  std::vector<std::string> fields;
  if (!csv.next(fields)) csv.fail("the file is empty; expected a header item,rating");
  const auto header = fields;
  const int a = findColumn(header, "item"), b = findColumn(header, "rating");
  if (a < 0 || b < 0) csv.fail("expected columns item and rating but found " + joinColumns(header));
  while (csv.next(fields)) {
    if (fields.size() <= static_cast<std::size_t>(std::max(a, b))) csv.fail("this row has too few columns");
    const auto item = items.find(fields[static_cast<std::size_t>(a)]);
    if (item == items.end()) csv.fail("item '" + fields[static_cast<std::size_t>(a)] + "' is not in the dataset");
    const auto value = parseReal(fields[static_cast<std::size_t>(b)]);
    if (!value) csv.fail("rating '" + fields[static_cast<std::size_t>(b)] + "' is not a number");
    given.emplace_back(static_cast<std::int32_t>(item->second), *value);
  }
  if (given.empty()) throw InputError(csv.displayName(), 0, "the file holds no ratings to fold in");
  const auto predictions = predictor.foldIn(given);
  std::vector<char> rated(static_cast<std::size_t>(predictor.itemCount()), 0);
  for (const auto& [item, value] : given) rated[static_cast<std::size_t>(item)] = 1;
  std::vector<Recommendation> out;
  for (std::int64_t i = 0; i < predictor.itemCount(); ++i)
    if (!rated[static_cast<std::size_t>(i)])
      out.push_back({ratings.itemIds[static_cast<std::size_t>(i)], ratings.itemNames[static_cast<std::size_t>(i)],
                     predictions[static_cast<std::size_t>(i)]});
  const auto keep = std::min(n, out.size());
  std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(keep), out.end(),
                    [](const auto& x, const auto& y) { return x.prediction > y.prediction; });
  out.resize(keep);
  return out;
}

}  // namespace latent::core
