// SPDX-License-Identifier: GPL-3.0-or-later
// The "Factors" page of a pmf run (000 Fig. 27.28): the factor scatter with its two axis choices,
// users on or off and an item search, and beside it one user's top-N recommendations (unrated
// items with the highest predicted rating, from core's RatingPredictor) and the user's own
// ratings next to the model's predictions. Predictions are computed off the GUI thread.
#pragma once

#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace latent::ui {

struct FactorRunData;
class FactorScatterView;

class FactorPage final : public QWidget {
  Q_OBJECT

 public:
  explicit FactorPage(QWidget* parent = nullptr);

  // Shows a run's factors and the recommendations of its first user.
  void setData(std::shared_ptr<const FactorRunData> data);
  const FactorRunData* data() const noexcept { return m_data.get(); }

  // Highlights the items the text finds at once (the search box waits for typing to pause).
  void search(const QString& text);
  // Lists a user's recommendations (recommendationsShown() once they are); -1 clears.
  void selectUser(int user);
  int currentUser() const noexcept { return m_user; }
  void setRecommendationCount(int n);
  // The list shown: (item, predicted rating), best first.
  const std::vector<std::pair<std::int64_t, double>>& recommendations() const noexcept { return m_recommendations; }
  bool isComputing() const noexcept { return m_computing; }

  FactorScatterView* scatter() const noexcept { return m_scatter; }
  QComboBox* xBox() const noexcept { return m_xBox; }
  QComboBox* yBox() const noexcept { return m_yBox; }
  QCheckBox* usersBox() const noexcept { return m_usersBox; }
  QLineEdit* searchBox() const noexcept { return m_search; }
  QLabel* searchStatus() const noexcept { return m_searchStatus; }
  QLineEdit* userBox() const noexcept { return m_userBox; }
  QSpinBox* countBox() const noexcept { return m_countBox; }
  QTableWidget* recommendationTable() const noexcept { return m_recommended; }
  QTableWidget* ratedTable() const noexcept { return m_rated; }
  QLabel* userSummary() const noexcept { return m_userSummary; }

 Q_SIGNALS:
  void recommendationsShown();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyAxes();
  void applySearch();
  void compute();
  void userTyped();
  void updateCaption();

  std::shared_ptr<const FactorRunData> m_data;
  int m_user = -1;
  int m_generation = 0;
  bool m_computing = false;
  std::vector<std::pair<std::int64_t, double>> m_recommendations;
  QTimer m_searchDelay;

  FactorScatterView* m_scatter = nullptr;
  QComboBox* m_xBox = nullptr;
  QComboBox* m_yBox = nullptr;
  QCheckBox* m_usersBox = nullptr;
  QLineEdit* m_search = nullptr;
  QLabel* m_searchStatus = nullptr;
  QLineEdit* m_userBox = nullptr;
  QSpinBox* m_countBox = nullptr;
  QLabel* m_userSummary = nullptr;
  QTabWidget* m_lists = nullptr;
  QTableWidget* m_recommended = nullptr;
  QTableWidget* m_rated = nullptr;
  QLabel* m_caption = nullptr;
};

}  // namespace latent::ui
