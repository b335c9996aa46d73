// ScenePanel: tree of world shapes and bodies of the loaded Model.
#include "ui/panels/scene_panel.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QColor>
#include <QHeaderView>
#include <QLabel>
#include <QPixmap>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/model/model.h"
#include "engine/visual/visual_frame.h"

namespace sim::ui {

namespace {

enum Column { kName = 0, kType, kSize, kMass, kColumnCount };

QString Meters(double value) { return QString::number(value, 'f', 2); }


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

  tree_ = new QTreeWidget(content);
  // narrow defaults so the columns fit a narrow dock before they are sized to their contents
  tree_->header()->setDefaultSectionSize(60);
  tree_->setColumnCount(kColumnCount);
  tree_->setHeaderLabels({tr("Name"), tr("Type"), tr("Size"), tr("Mass")});
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setStretchLastSection(true);
  layout->addWidget(tree_, 1);
  setWidget(content);
  SetScene(nullptr, VisualFrame{});
}


void ScenePanel::SetScene(std::shared_ptr<const Model> model, const VisualFrame& frame) {
  model_ = std::move(model);
  tree_->clear();
  if (model_ == nullptr) {
    title_->setText(tr("<i>No scene loaded</i>"));
    return;
  }
  const Model& m = *model_;
  title_->setText(
      QStringLiteral("<b>%1</b><br><small>%2</small><br><small>%3 bodies, %4 shapes</small>")
          .arg(QString::fromStdString(m.name).toHtmlEscaped(),
               QString::fromStdString(m.description).toHtmlEscaped())
          .arg(m.body_count())
          .arg(m.shape_count()));

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

  // static world shapes are top-level rows
  for (int s : world_shapes) {
    auto* item = new QTreeWidgetItem(tree_);
    fill_shape(item, s, shape_name(s));
    item->setText(kMass, tr("static"));
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
      for (int s : body_shapes[b]) fill_shape(new QTreeWidgetItem(item), s, shape_name(s));
    }
    item->setText(kMass, is_static ? tr("static") : QStringLiteral("%1 kg").arg(mass, 0, 'g', 3));
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

}  // namespace sim::ui
