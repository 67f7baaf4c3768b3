// SPDX-License-Identifier: GPL-3.0-or-later
// The run panel (right dock): choose a dataset and a model, set its options and the run
// settings, start and stop runs, and follow every run's progress.
#pragma once

#include <QHash>
#include <QList>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <filesystem>

#include "core/store/run_store.hpp"

class QComboBox;
class QScrollArea;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace latent::ui {

class JobController;
class OptionForm;
class ProjectSession;
class RunManager;
class RunProgressRow;
struct Preferences;

class RunPanel final : public QWidget {
  Q_OBJECT

 public:
  RunPanel(RunManager* runs, QWidget* parent = nullptr);

  // None disables the panel.
  void setProject(ProjectSession* session);
  // Re-reads the datasets (after imports, renames, deletes) through the session, keeping the
  // chosen one; datasetsRefreshed() follows.
  void refreshDatasets();
  bool selectDataset(qint64 datasetId);
  bool selectModel(const QString& name);
  // The run the user is looking at (tree selection or current tab): Stop and "Run again with
  // changes" act on it. 0 = none.
  void setSelectedRun(qint64 runId);
  // Fills dataset, model, options, seed, threads, held-out fraction and evaluation interval
  // from a run, for running it again with changes.
  void fillFromRun(const core::RunRecord& run);
  // Sets the seed and threads fields to the defaults of the user's preferences (they also start
  // from them).
  void applyPreferences(const Preferences& preferences);

  // Checks the form (errors shown inline under the buttons) and starts the run; what only the
  // project can tell (the dataset gone, an option out of range) comes back from the run's
  // worker as a run that could not start, shown inline too.
  JobController* start();
  // Stops the selected run when it is running, else the most recently started running one.
  void stopCurrent();
  // Scrolls the panel back to its top, where the dataset, the model and its options are.
  void scrollToForm();

  QComboBox* datasetCombo() const noexcept { return m_dataset; }
  QComboBox* modelCombo() const noexcept { return m_model; }
  OptionForm* optionForm() const noexcept { return m_options; }
  QSpinBox* seedBox() const noexcept { return m_seed; }
  QSpinBox* threadsBox() const noexcept { return m_threads; }
  QDoubleSpinBox* heldoutBox() const noexcept { return m_heldout; }
  QSpinBox* evalEveryBox() const noexcept { return m_evalEvery; }
  QPushButton* startButton() const noexcept { return m_start; }
  QPushButton* stopButton() const noexcept { return m_stop; }
  QString errorText() const;
  QList<RunProgressRow*> rows() const { return m_rows; }

 Q_SIGNALS:
  void openRunRequested(qint64 runId);
  void datasetsRefreshed();

 private:
  void fillDatasets(const std::vector<core::DatasetInfo>& datasets);
  void onDatasetChanged();
  void onModelChanged();
  void addRow(JobController* controller);
  void fillEarlierRuns(std::vector<core::RunRecord> runs);
  void tick();
  void updateButtons();
  void showError(const QString& message);

  RunManager* m_runs;
  QPointer<ProjectSession> m_session;
  std::filesystem::path m_projectFile;
  int m_generation = 0;
  qint64 m_selectedRun = 0;

  QComboBox* m_dataset = nullptr;
  QComboBox* m_model = nullptr;
  QLabel* m_description = nullptr;
  QWidget* m_optionsBox = nullptr;
  OptionForm* m_options = nullptr;
  QSpinBox* m_seed = nullptr;
  QSpinBox* m_threads = nullptr;
  QDoubleSpinBox* m_heldout = nullptr;
  QSpinBox* m_evalEvery = nullptr;
  QLabel* m_error = nullptr;
  QPushButton* m_start = nullptr;
  QPushButton* m_stop = nullptr;
  QPushButton* m_again = nullptr;
  QLabel* m_noRuns = nullptr;
  QVBoxLayout* m_rowLayout = nullptr;
  QScrollArea* m_scroll = nullptr;
  QHash<int, QString> m_lastModel;  // the model last chosen for each kind of data
  QWidget* m_earlier = nullptr;
  QVBoxLayout* m_earlierLayout = nullptr;
  QList<RunProgressRow*> m_rows;
  QTimer m_frame;  // redraws the rows at most 30 times a second while runs go
};

}  // namespace latent::ui
