// ScenePanel: tree of world shapes and bodies of the loaded Model, joints with drive sliders.
#include "ui/panels/scene_panel.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include <QColor>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QPixmap>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/model/model.h"
#include "engine/visual/visual_frame.h"
#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

enum Column { kName = 0, kType, kSize, kMass, kColumnCount };
// the joint's type is in its name's tooltip: a column for it left the names too little room
enum JointColumn { kJointName = 0, kJointValue, kJointTake, kJointTarget, kJointColumnCount };

// item data role holding a row's body (kWorldBody for world shapes)
constexpr int kBodyRole = Qt::UserRole;
// slider range of a joint without limits: a full turn, or ±0.5 m
constexpr double kUnlimitedAngle = std::numbers::pi;
constexpr double kUnlimitedSlide = 0.5;

constexpr double kRadToDeg = 180.0 / std::numbers::pi;
// width of the drive target sliders [px]: fixed, so long joint names cannot push them out
constexpr int kSliderWidth = 110;

QString JointValueText(double value, bool angular) {
  return angular ? QStringLiteral("%1°").arg(value * kRadToDeg, 0, 'f', 1)
                 : QStringLiteral("%1 m").arg(value, 0, 'f', 3);
}

// three significant digits: a 45 mm radius reads 0.045, not 0.04 (two decimals did)
QString Meters(double value) { return QString::number(value, 'g', 3); }


// human-readable dimensions: full sizes (not the half sizes the model stores)
QString ShapeSizeText(const ShapeGeometry& geometry) {
  switch (geometry.type) {
    case ShapeType::kBox:
      return QStringLiteral("%1 × %2 × %3 m")
          .arg(Meters(2 * geometry.half_extents.x()), Meters(2 * geometry.half_extents.y()),
               Meters(2 * geometry.half_extents.z()));
    case ShapeType::kSphere:
      return QStringLiteral("r %1 m").arg(Meters(geometry.radius));
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      return QStringLiteral("r %1, length %2 m")
          .arg(Meters(geometry.radius), Meters(2 * geometry.half_length));
    case ShapeType::kPlane:
      return QStringLiteral("infinite");
    case ShapeType::kConvexHull:
      return QStringLiteral("convex hull");
    case ShapeType::kMesh:
      return QStringLiteral("triangle mesh");
    case ShapeType::kSdf:
      return QStringLiteral("distance field");
    case ShapeType::kNone:
      break;
  }
  return QString();
}


// a small square of the shape's colour (model colours are linear; the screen wants sRGB)
QIcon ColorSwatch(const std::array<float, 3>& linear_rgb) {
  auto encode = [](float c) {
    const float clamped = std::clamp(c, 0.0f, 1.0f);
    const float srgb =
        clamped <= 0.0031308f ? 12.92f * clamped : 1.055f * std::pow(clamped, 1.0f / 2.4f) - 0.055f;
    return static_cast<int>(std::lround(255.0f * srgb));
  };
  QPixmap pixmap(12, 12);
  pixmap.fill(QColor(encode(linear_rgb[0]), encode(linear_rgb[1]), encode(linear_rgb[2])));
  return QIcon(pixmap);
}


// slider position of target θ* [rad or m] on a slider spanning [lower, upper]
int SliderPosition(double target, double lower, double upper) {
  const double t = std::clamp(target, lower, upper);
  return static_cast<int>(std::lround((t - lower) / (upper - lower) * ScenePanel::kSliderSteps));
}


QString PositionText(const VisualShape& shape) {
  return QStringLiteral("(%1, %2, %3)")
      .arg(Meters(shape.X_WS[3]), Meters(shape.X_WS[7]), Meters(shape.X_WS[11]));
}

}  // namespace


ScenePanel::ScenePanel(QWidget* parent) : QDockWidget(tr("Scene"), parent) {
  setObjectName(QStringLiteral("ScenePanel"));
  auto* content = new QWidget(this);
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(6, 6, 6, 6);

  // scene title and description above the tree
  title_ = new QLabel(content);
  title_->setWordWrap(true);
  title_->setTextFormat(Qt::RichText);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(title_);

  // shapes and bodies above, joints below
  auto* splitter = new QSplitter(Qt::Vertical, content);
  tree_ = new QTreeWidget(splitter);
  // narrow defaults so the columns fit a narrow dock before they are sized to their contents
  tree_->header()->setDefaultSectionSize(60);
  tree_->setColumnCount(kColumnCount);
  tree_->setHeaderLabels({tr("Name"), tr("Type"), tr("Size"), tr("Mass")});
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setStretchLastSection(true);
  splitter->addWidget(tree_);

  joints_ = new QTreeWidget(splitter);
  joints_->setColumnCount(kJointColumnCount);
  joints_->setHeaderLabels({tr("Joint"), tr("Value"), tr("Take"), tr("Drive target")});
  joints_->headerItem()->setToolTip(
      kJointTake, tr("Take the joint's target over from the scene's script (unchecked: the "
                     "script drives it)"));
  joints_->setRootIsDecorated(false);
  joints_->setUniformRowHeights(true);
  // the name column takes what is left and elides long names at their start, keeping the
  // distinguishing end ("…shoulder_pan_joint"; the full name in the tooltip); the value column
  // fits its widest reading; the slider column keeps its width
  joints_->setTextElideMode(Qt::ElideLeft);
  QHeaderView* joint_header = joints_->header();
  joint_header->setStretchLastSection(false);
  joint_header->setMinimumSectionSize(24);
  joint_header->setSectionResizeMode(kJointName, QHeaderView::Stretch);
  joint_header->setSectionResizeMode(kJointValue, QHeaderView::Fixed);
  joint_header->setSectionResizeMode(kJointTake, QHeaderView::ResizeToContents);
  joint_header->setSectionResizeMode(kJointTarget, QHeaderView::Fixed);
  const QFontMetrics metrics(joints_->font());
  joint_header->resizeSection(kJointValue,
                              std::max(metrics.horizontalAdvance(QStringLiteral("-0.000 m")),
                                       metrics.horizontalAdvance(QStringLiteral("-180.0°"))) +
                                  16);
  joint_header->resizeSection(kJointTarget, kSliderWidth);
  splitter->addWidget(joints_);
  layout->addWidget(splitter, 1);
  setWidget(content);

  // a body row clicked selects the body; the viewport follows
  connect(tree_, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem* item, QTreeWidgetItem*) {
            if (item == nullptr) return;
            const int body = item->data(kName, kBodyRole).toInt();
            shown_selection_ = body;
            emit BodySelected(body);
          });
  // the take-control boxes
  connect(joints_, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
    if (column != kJointTake) return;
    for (const JointRow& row : joint_rows_) {
      if (row.item == item) {
        emit JointTakenChanged(row.joint, item->checkState(kJointTake) == Qt::Checked);
      }
    }
  });
  since_refresh_.start();
  SetScene(nullptr, VisualFrame{});
}


void ScenePanel::SetScene(std::shared_ptr<const Model> model, const VisualFrame& frame) {
  model_ = std::move(model);
  {
    const QSignalBlocker blocker(tree_);
    tree_->clear();
  }
  shown_selection_ = -2;
  BuildJoints();
  if (model_ == nullptr) {
    title_->setText(tr("<i>No scene loaded</i>"));
    return;
  }
  const Model& m = *model_;
  title_->setText(
      QStringLiteral("<b>%1</b><br><small>%2</small><br><small>%3 bodies, %4 shapes, %5 joints, "
                     "%6 particles, %7 soft bodies</small>")
          .arg(QString::fromStdString(m.name).toHtmlEscaped(),
               QString::fromStdString(m.description).toHtmlEscaped())
          .arg(m.body_count())
          .arg(m.shape_count())
          .arg(m.joint_count())
          .arg(m.particle_count())
          .arg(m.soft_bodies.size()));

  // shapes of each owner (kWorldBody first)
  std::vector<std::vector<int>> body_shapes(m.body_count());
  std::vector<int> world_shapes;
  for (int s = 0; s < m.shape_count(); ++s) {
    const int body = m.shape_body[s];
    (body >= 0 && body < m.body_count() ? body_shapes[body] : world_shapes).push_back(s);
  }

  // one row per shape: name, type, size, colour swatch; the world position in the tooltip
  auto fill_shape = [&](QTreeWidgetItem* item, int s, const QString& name) {
    item->setText(kName, name);
    item->setText(kType, QString::fromUtf8(ShapeTypeName(m.shape_geometry[s].type)));
    item->setText(kSize, ShapeSizeText(m.shape_geometry[s]));
    if (s < static_cast<int>(m.shape_color.size())) {
      item->setIcon(kName, ColorSwatch(m.shape_color[s]));
    }
    QString tip = QStringLiteral("shape %1").arg(s);
    if (s < static_cast<int>(frame.shapes.size()) &&
        m.shape_geometry[s].type != ShapeType::kPlane) {
      tip += QStringLiteral("\nposition %1 m").arg(PositionText(frame.shapes[s]));
    }
    for (int c = 0; c < kColumnCount; ++c) item->setToolTip(c, tip);
  };
  auto shape_name = [&](int s) {
    return s < static_cast<int>(m.shape_name.size()) && !m.shape_name[s].empty()
               ? QString::fromStdString(m.shape_name[s])
               : QStringLiteral("shape %1").arg(s);
  };

  // rows are added without telling the selection handlers
  const QSignalBlocker blocker(tree_);
  // static world shapes are top-level rows
  for (int s : world_shapes) {
    auto* item = new QTreeWidgetItem(tree_);
    fill_shape(item, s, shape_name(s));
    item->setText(kMass, tr("static"));
    item->setData(kName, kBodyRole, kWorldBody);
  }
  // a body with one shape is one row; a body with several is a parent row with its shapes below
  for (int b = 0; b < m.body_count(); ++b) {
    const bool is_static = b < static_cast<int>(m.body_static.size()) && m.body_static[b] != 0;
    const double mass = b < static_cast<int>(m.body_mass.size()) ? m.body_mass[b] : 0.0;
    const QString body_name = QString::fromStdString(m.body_name[b]);
    auto* item = new QTreeWidgetItem(tree_);
    if (body_shapes[b].size() == 1) {
      const int s = body_shapes[b].front();
      const QString name =
          shape_name(s) == body_name ? body_name : body_name + " / " + shape_name(s);
      fill_shape(item, s, name);
    } else {
      item->setText(kName, body_name);
      item->setText(kType, tr("body"));
      item->setText(kSize, QStringLiteral("%1 shapes").arg(body_shapes[b].size()));
      for (int s : body_shapes[b]) {
        auto* child = new QTreeWidgetItem(item);
        fill_shape(child, s, shape_name(s));
        child->setData(kName, kBodyRole, b);
      }
    }
    item->setData(kName, kBodyRole, b);
    item->setText(kMass, is_static ? tr("static") : QStringLiteral("%1 kg").arg(mass, 0, 'g', 3));
  }
  // soft bodies (their nodes are particles) and the free particles
  std::vector<unsigned char> in_soft_body(m.particle_count(), 0);
  for (const SoftBody& soft : m.soft_bodies) {
    double mass = 0;
    for (int i = 0; i < soft.particle_count; ++i) {
      in_soft_body[soft.first_particle + i] = 1;
      mass += m.particle_mass[soft.first_particle + i];
    }
    auto* item = new QTreeWidgetItem(tree_);
    item->setText(kName, QString::fromStdString(soft.name));
    item->setText(kType, tr("soft body"));
    item->setText(kSize, tr("%1 nodes, %2 tets").arg(soft.particle_count).arg(soft.tets.size()));
    item->setText(kMass, QStringLiteral("%1 kg").arg(mass, 0, 'g', 3));
    item->setToolTip(kName, tr("Young's modulus %1 Pa, Poisson ratio %2")
                                .arg(soft.youngs_modulus, 0, 'g', 3)
                                .arg(soft.poisson_ratio));
    item->setData(kName, kBodyRole, kWorldBody);
  }
  for (int p = 0; p < m.particle_count(); ++p) {
    if (in_soft_body[p]) continue;
    auto* item = new QTreeWidgetItem(tree_);
    item->setText(kName, QString::fromStdString(m.particle_name[p]));
    item->setText(kType, tr("particle"));
    item->setText(kSize, QStringLiteral("r %1 m").arg(Meters(m.particle_radius[p])));
    item->setText(kMass, QStringLiteral("%1 kg").arg(m.particle_mass[p], 0, 'g', 3));
    item->setData(kName, kBodyRole, kWorldBody);
  }
  // flat lists need no expander column
  bool nested = false;
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    nested = nested || tree_->topLevelItem(i)->childCount() > 0;
  }
  tree_->setRootIsDecorated(nested);
  tree_->expandAll();
  for (int c = 0; c < kColumnCount; ++c) tree_->resizeColumnToContents(c);
}


void ScenePanel::BuildJoints() {
  const QSignalBlocker blocker(joints_);
  joints_->clear();
  joint_rows_.clear();
  if (model_ == nullptr) return;
  const Model& m = *model_;
  std::vector<unsigned char> scripted(m.joint_count(), 0);
  for (const JointScriptTrack& track : m.joint_script) {
    if (track.joint >= 0 && track.joint < m.joint_count()) scripted[track.joint] = 1;
  }
  for (int j = 0; j < m.joint_count(); ++j) {
    const JointType type = m.joint_type[j];
    auto* item = new QTreeWidgetItem(joints_);
    item->setText(kJointName, QString::fromStdString(m.joint_name[j]));
    // a weld with compliant rotation rows bends: its Value is the bend angle
    const bool bends = type == JointType::kFixed && m.JointAngularCompliance(j) > 0;
    const QString type_name = bends ? tr("fixed, bends") : QString::fromUtf8(JointTypeName(type));
    item->setToolTip(kJointName, QStringLiteral("%1 (%2)").arg(
                                     QString::fromStdString(m.joint_name[j]), type_name));
    if (bends || type == JointType::kBall || type == JointType::kPlanar) {
      item->setToolTip(kJointValue, tr("Angle between the joint's frames in parent and child"));
    }
    JointRow row;
    row.joint = j;
    row.item = item;
    row.angular = type != JointType::kPrismatic;
    const bool scalar = type == JointType::kRevolute || type == JointType::kContinuous ||
                        type == JointType::kPrismatic;
    if (scalar && m.joint_drive[j].enabled()) {
      // the slider spans the limits, or a turn (±0.5 m) without them
      const bool limited = m.joint_limited[j] != 0 && m.joint_upper[j] > m.joint_lower[j];
      const double range = row.angular ? kUnlimitedAngle : kUnlimitedSlide;
      row.lower = limited ? m.joint_lower[j] : -range;
      row.upper = limited ? m.joint_upper[j] : range;
      auto* slider = new QSlider(Qt::Horizontal, joints_);
      slider->setRange(0, kSliderSteps);
      slider->setToolTip(tr("Drive target of %1 (stiffness %2)")
                             .arg(QString::fromStdString(m.joint_name[j]))
                             .arg(m.joint_drive[j].stiffness));
      slider->setValue(SliderPosition(m.joint_drive[j].target_position, row.lower, row.upper));
      const double lower = row.lower, upper = row.upper;
      row.scripted = scripted[j] != 0;
      if (row.scripted) {
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(kJointTake, Qt::Unchecked);
      }
      connect(slider, &QSlider::valueChanged, this, [this, item, j, lower, upper](int value) {
        // moving a scripted joint's slider takes its target over from the script
        if (item->data(kJointTake, Qt::CheckStateRole).isValid() &&
            item->checkState(kJointTake) != Qt::Checked) {
          item->setCheckState(kJointTake, Qt::Checked);
        }
        emit JointTargetChanged(j, lower + (upper - lower) * value / kSliderSteps);
      });
      joints_->setItemWidget(item, kJointTarget, slider);
      row.slider = slider;
    } else {
      item->setText(kJointTarget, scalar ? tr("no drive") : QString());
    }
    joint_rows_.push_back(row);
  }
  joints_->setVisible(m.joint_count() > 0);
}


void ScenePanel::SelectBodyRow(int body) {
  const QSignalBlocker blocker(tree_);
  tree_->clearSelection();
  tree_->setCurrentItem(nullptr);
  if (body == kWorldBody) return;
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = tree_->topLevelItem(i);
    if (item->data(kName, kBodyRole).toInt() == body) {
      tree_->setCurrentItem(item);
      tree_->scrollToItem(item);
      return;
    }
  }
}


void ScenePanel::ShowSnapshot(const SimSnapshot& snapshot) {
  if (snapshot.scene_generation != shown_generation_) {
    shown_generation_ = snapshot.scene_generation;
    SetScene(snapshot.model, snapshot.frame);
  }
  if (snapshot.selected_body != shown_selection_) {
    shown_selection_ = snapshot.selected_body;
    SelectBodyRow(snapshot.selected_body);
  }
  if (!isVisible() || snapshot.lanes.empty() || since_refresh_.elapsed() < kRefreshMs) return;
  since_refresh_.restart();
  // live joint values of lane 0; the sliders follow targets set elsewhere unless being dragged
  const LaneSnapshot& lane = snapshot.lanes[0];
  for (const JointRow& row : joint_rows_) {
    if (row.joint >= static_cast<int>(lane.joint_positions.size())) break;
    row.item->setText(kJointValue, JointValueText(lane.joint_positions[row.joint], row.angular));
    if (row.slider == nullptr) continue;
    auto at = [&](const std::vector<Real>& values) {
      return row.joint < static_cast<int>(values.size()) && std::isfinite(values[row.joint])
                 ? values[row.joint]
                 : model_->joint_drive[row.joint].target_position;
    };
    const double target = at(lane.joint_targets);
    const double drive = at(lane.drive_targets);
    const QString tip =
        tr("target %1, the drive sees %2")
            .arg(JointValueText(target, row.angular), JointValueText(drive, row.angular));
    row.item->setToolTip(kJointTarget, tip);
    row.slider->setToolTip(tip);
    if (row.scripted) {
      const bool taken =
          row.joint < static_cast<int>(lane.joint_taken.size()) && lane.joint_taken[row.joint] != 0;
      const QSignalBlocker blocker(joints_);
      row.item->setCheckState(kJointTake, taken ? Qt::Checked : Qt::Unchecked);
    }
    // the slider follows the live target (a script's, teleop's) unless it is being dragged
    if (row.slider->isSliderDown()) continue;
    const QSignalBlocker blocker(row.slider);
    row.slider->setValue(SliderPosition(target, row.lower, row.upper));
  }
}


bool ScenePanel::DragJointSlider(const QString& name, double target) {
  if (model_ == nullptr) return false;
  for (const JointRow& row : joint_rows_) {
    if (row.slider == nullptr || QString::fromStdString(model_->joint_name[row.joint]) != name) {
      continue;
    }
    row.slider->setSliderDown(true);
    row.slider->setValue(SliderPosition(target, row.lower, row.upper));
    row.slider->setSliderDown(false);
    return true;
  }
  return false;
}

}  // namespace sim::ui
