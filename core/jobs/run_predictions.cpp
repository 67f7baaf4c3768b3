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
      // The RBM has no biases per user; its fallback for an unseen item is the user's mean
      // training rating, or the global one.
      m_userMeans.assign(m_ratings.userCount(), {0.0, 0.0});
      for (const auto& r : split.train) {
        m_userMeans[static_cast<std::size_t>(r.user)].first += r.value;
        m_userMeans[static_cast<std::size_t>(r.user)].second += 1.0;
        m_globalMean += r.value;
      }
      m_globalMean /= std::max<double>(1.0, static_cast<double>(split.train.size()));
      m_newUser = m_rbm->foldInUser({});
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
  // For ids the run never saw (nullopt): the model's fallback (RatingPredictor::predictUnseen).
  double predictUnseen(std::optional<std::int64_t> user, std::optional<std::int64_t> item) const {
    if (!m_rbm) return m_factors->predictUnseen(user, item);
    if (item) return m_rbm->predictFolded(m_newUser, *item);
    if (user) {
      const auto& [sum, count] = m_userMeans[static_cast<std::size_t>(*user)];
      if (count > 0) return sum / count;
    }
    return m_globalMean;
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
  std::vector<std::pair<double, double>> m_userMeans;  // RBM only: (sum, count) of training ratings
  double m_globalMean = 0.0;
  Eigen::VectorXd m_newUser;  // RBM only: the hidden mean-field of a user with no ratings yet
};

std::unordered_map<std::string, std::int64_t> indexOf(const std::vector<std::string>& ids) {
  std::unordered_map<std::string, std::int64_t> out;
  for (std::size_t i = 0; i < ids.size(); ++i) out.emplace(ids[i], static_cast<std::int64_t>(i));
  return out;
}

// Reads a two-column CSV of ids, calling `row(first, second, i, j)` with their indices, nullopt
// for an id the dataset does not have (a user or item with no training ratings, a new node).
// Returns how many rows named such an id.
template <typename Row>
std::int64_t readPairs(const std::filesystem::path& path, const char* firstName, const char* secondName,
                       const std::unordered_map<std::string, std::int64_t>& firstIds,
                       const std::unordered_map<std::string, std::int64_t>& secondIds, Row&& row) {
  CsvReader csv(path);
  std::vector<std::string> fields;
  if (!csv.next(fields)) csv.fail("the file is empty; expected a header " + std::string(firstName) + "," + secondName);
  const auto header = fields;
  const int a = findColumn(header, firstName), b = findColumn(header, secondName);
  if (a < 0 || b < 0)
    csv.fail("expected columns " + std::string(firstName) + " and " + secondName + " but found " + joinColumns(header));
  const auto lookUp = [](const auto& ids, const std::string& id) -> std::optional<std::int64_t> {
    const auto found = ids.find(id);
    return found == ids.end() ? std::nullopt : std::optional<std::int64_t>(found->second);
  };
  std::int64_t unseen = 0;
  while (csv.next(fields)) {
    if (fields.size() <= static_cast<std::size_t>(std::max(a, b))) csv.fail("this row has too few columns");
    const auto& x = fields[static_cast<std::size_t>(a)];
    const auto& y = fields[static_cast<std::size_t>(b)];
    if (x.empty() || y.empty()) csv.fail("this row has an empty " + std::string(x.empty() ? firstName : secondName));
    const auto i = lookUp(firstIds, x), j = lookUp(secondIds, y);
    if (!i || !j) ++unseen;
    row(x, y, i, j);
  }
  return unseen;
}

// The `unseen` column: which of the pair's ids the run never saw.
std::string unseenSides(bool first, bool second, const char* firstName, const char* secondName) {
  if (first && second) return std::string(firstName) + "+" + secondName;
  return first ? firstName : second ? secondName : "";
}

}  // namespace

PredictionReport predictPairs(Project& project, std::int64_t runId, const std::filesystem::path& pairs,
                              std::ostream& out) {
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
    const auto unseen = readPairs(pairs, "user", "item", users, items, [](auto&&...) {});
    csv.field("user").field("item").field("prediction");
    if (unseen > 0) csv.field("unseen");
    csv.endRow();
    readPairs(pairs, "user", "item", users, items,
              [&](const std::string& u, const std::string& i, std::optional<std::int64_t> user,
                  std::optional<std::int64_t> item) {
                csv.field(u).field(i);
                csv.field(user && item ? predictor.predict(*user, *item) : predictor.predictUnseen(user, item));
                if (unseen > 0) csv.field(unseenSides(!user, !item, "user", "item"));
                csv.endRow();
              });
    return {predictor.iteration(), unseen};
  }
  const auto stored = predictionMatrices(project, run, kind);
  const auto& matrices = stored.matrices;
  {
    const LinkPredictor predictor(matrices);
    const auto graph = loadGraph(project, run.datasetId);
    const auto nodes = indexOf(graph.nodeIds);
    const auto unseen = readPairs(pairs, "source", "target", nodes, nodes, [](auto&&...) {});
    csv.field("source").field("target").field("prediction");
    if (unseen > 0) csv.field("unseen");
    csv.endRow();
    readPairs(
        pairs, "source", "target", nodes, nodes,
        [&](const std::string& s, const std::string& t, std::optional<std::int64_t> i, std::optional<std::int64_t> j) {
          csv.field(s).field(t).field(predictor.probabilityUnseen(i, j));
          if (unseen > 0) csv.field(unseenSides(!i, !j, "source", "target"));
          csv.endRow();
        });
    return {stored.iteration, unseen};
  }
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
