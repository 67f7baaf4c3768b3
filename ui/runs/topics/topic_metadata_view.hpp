// SPDX-License-Identifier: GPL-3.0-or-later
// The Metadata page of a DMR run (Mimno & McCallum 2008): pick a feature (a metadata value, the
// time, a label) and see the topics it raises or lowers, as sorted bars of the change in each
// topic's prior weight alpha_dk = exp(lambda_k . x_d) from the feature's smallest to its largest
// value on the training documents (for a category or a label: from without it to with it), each
// topic with its top words; the value's range is shown above the bars.
#pragma once

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;

namespace latent::ui {

struct TopicRunData;
class TopicMetadataCanvas;

// One topic's bar for the chosen feature.
struct MetadataEffect {
  int topic = 0;
  double logChange = 0.0;  // change of log alpha over the feature's range: lambda_kf (x_max - x_min)
};

class TopicMetadataView final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicMetadataView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const TopicRunData> data);
  // The Topics page's labels (empty for a topic without one).
  void setLabels(const QStringList& labels);

  // Features offered (all but the intercept), in the run's order; `index` into this list.
  QStringList features() const;
  void setFeature(int index);
  int feature() const noexcept { return m_feature; }
  // The bars for the chosen feature, largest rise first.
  std::vector<MetadataEffect> effects() const;
  // What the range line says for the chosen feature.
  QString rangeText() const;
  // A row's text: the user's label, else the topic's five most probable words.
  QString topicText(int topic) const;
  QComboBox* featureBox() const noexcept { return m_box; }
  TopicMetadataCanvas* canvas() const noexcept { return m_canvas; }

 private:
  friend class TopicMetadataCanvas;
  void refresh();

  std::shared_ptr<const TopicRunData> m_data;
  QStringList m_labels;
  int m_feature = 0;
  QComboBox* m_box = nullptr;
  QLabel* m_range = nullptr;
  TopicMetadataCanvas* m_canvas = nullptr;
};

// The bars: one row per topic, a zero line in the middle, rises to the right.
class TopicMetadataCanvas final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicMetadataCanvas(TopicMetadataView* owner);
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  TopicMetadataView* m_owner;
};

}  // namespace latent::ui
