// InspectorPanel: the selected body's and the picked contact's numbers.
#include "ui/panels/inspector_panel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>
#include <QHeaderView>
#include <QTreeWidget>

#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

constexpr double kDegreesPerRadian = 180.0 / 3.14159265358979323846;

QString Number(double value, const char* unit) {
  QString text = QString::number(value, 'g', 6);
  if (unit[0] != '\0') text += QStringLiteral(" ") + QString::fromUtf8(unit);
  return text;
}

QString Vector(double x, double y, double z, const char* unit) {
  QString text =
      QStringLiteral("%1 %2 %3")
          .arg(QString::number(x, 'g', 6), QString::number(y, 'g', 6), QString::number(z, 'g', 6));
  if (unit[0] != '\0') text += QStringLiteral(" ") + QString::fromUtf8(unit);
  return text;
}

QString Vector(const std::array<float, 3>& v, const char* unit) {
  return Vector(v[0], v[1], v[2], unit);
}

double Norm(const std::array<float, 3>& v) {
  return std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
}

// the rows under `section`, replaced by `rows` (figure, value)
void SetRows(QTreeWidgetItem* section, const std::vector<std::pair<QString, QString>>& rows) {
  while (section->childCount() > static_cast<int>(rows.size())) delete section->takeChild(0);
  while (section->childCount() < static_cast<int>(rows.size())) {
    section->addChild(new QTreeWidgetItem(section));
  }
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    section->child(i)->setText(0, rows[i].first);
    section->child(i)->setText(1, rows[i].second);
  }
}

bool SamePair(const VisualContact& a, const VisualContact& b) {
  return a.lane == b.lane && a.body_a == b.body_a && a.body_b == b.body_b &&
         a.shape_a == b.shape_a && a.shape_b == b.shape_b && a.particle_a == b.particle_a &&
         a.particle_b == b.particle_b && a.soft_body_a == b.soft_body_a &&
         a.soft_body_b == b.soft_body_b;
}

// "NAME" or "NAME / SHAPE" for a side with a named shape of its own
QString SideName(const Model& model, std::int32_t body, std::int32_t shape, std::int32_t particle,
                 std::int32_t soft_body) {
  QString name = QString::fromStdString(ContactSideName(model, body, particle, soft_body));
  if (shape >= 0 && shape < model.shape_count() && !model.shape_name[shape].empty() &&
      model.shape_name[shape] != model.body_name.at(std::max(body, 0))) {
    name += QStringLiteral(" / ") + QString::fromStdString(model.shape_name[shape]);
  }
  return name;
}

// the cone use |A^½ λ_f| / λ_n: 1 on the friction limit (sliding), < 1 sticking
double ConeUse(const VisualContact& contact) {
  const Eigen::Vector3f n(contact.normal[0], contact.normal[1], contact.normal[2]);
  Eigen::Vector3f t(contact.tangent[0], contact.tangent[1], contact.tangent[2]);
  const Eigen::Vector3f f(contact.friction_force[0], contact.friction_force[1],
                          contact.friction_force[2]);
  const Eigen::Vector3f b = n.cross(t);
  const auto ratio = [](double lambda, double mu) { return mu > 0 ? lambda / mu : 0.0; };
  const double cone =
      std::hypot(ratio(f.dot(t), contact.friction_t), ratio(f.dot(b), contact.friction_b));
  return contact.normal_force > 0 ? cone / contact.normal_force
                                  : std::numeric_limits<double>::quiet_NaN();
}

std::vector<std::pair<QString, QString>> BodyRows(const SimSnapshot& snapshot, int body) {
  const Model& model = *snapshot.model;
  const VisualBody& visual = snapshot.frame.bodies[body];
  const auto& X = visual.X_WB;
  std::vector<std::pair<QString, QString>> rows;
  rows.push_back({QObject::tr("name"), QString::fromStdString(model.body_name[body])});
  rows.push_back({QObject::tr("mass"),
                  visual.is_static ? QObject::tr("static") : Number(model.body_mass[body], "kg")});
  const Eigen::SelfAdjointEigenSolver<Mat3> principal(model.body_inertia[body]);
  const Vec3 moments = principal.eigenvalues();
  rows.push_back({QObject::tr("inertia (principal, about COM)"),
                  Vector(moments.x(), moments.y(), moments.z(), "kg·m²")});
  rows.push_back({QObject::tr("position (COM)"), Vector(X[3], X[7], X[11], "m")});
  // roll, pitch, yaw of R = Rz(yaw)·Ry(pitch)·Rx(roll)
  const double roll = std::atan2(X[9], X[10]);
  const double pitch = std::asin(std::clamp<double>(-X[8], -1, 1));
  const double yaw = std::atan2(X[4], X[0]);
  rows.push_back(
      {QObject::tr("roll pitch yaw"),
       Vector(roll * kDegreesPerRadian, pitch * kDegreesPerRadian, yaw * kDegreesPerRadian, "°")});
  rows.push_back({QObject::tr("velocity"), Vector(visual.v_W, "m/s")});
  rows.push_back({QObject::tr("speed"), Number(Norm(visual.v_W), "m/s")});
  rows.push_back({QObject::tr("angular velocity"), Vector(visual.w_W, "rad/s")});
  // its contacts (lane 0) and their net force on it
  int count = 0;
  int sliding = 0;
  Eigen::Vector3d net = Eigen::Vector3d::Zero();
  for (const VisualContact& contact : snapshot.frame.contacts) {
    if (contact.lane != 0 || (contact.body_a != body && contact.body_b != body)) continue;
    ++count;
    sliding += contact.sliding ? 1 : 0;
    const Eigen::Vector3d force =
        contact.normal_force *
            Eigen::Vector3d(contact.normal[0], contact.normal[1], contact.normal[2]) +
        Eigen::Vector3d(contact.friction_force[0], contact.friction_force[1],
                        contact.friction_force[2]);
    net += contact.body_a == body ? force : -force;
  }
  rows.push_back({QObject::tr("contacts"), QObject::tr("%1 (%2 sliding)").arg(count).arg(sliding)});
  rows.push_back({QObject::tr("net contact force"), Vector(net.x(), net.y(), net.z(), "N")});
  return rows;
}

std::vector<std::pair<QString, QString>> ContactRows(const Model& model,
                                                     const VisualContact& contact,
                                                     std::uint64_t step, double time, bool ended) {
  std::vector<std::pair<QString, QString>> rows;
  if (ended) rows.push_back({QObject::tr("status"), QObject::tr("ended (last seen below)")});
  rows.push_back({QObject::tr("step"), QString::number(step)});
  rows.push_back({QObject::tr("time"), Number(time, "s")});
  if (contact.lane != 0) rows.push_back({QObject::tr("lane"), QString::number(contact.lane)});
  rows.push_back({QObject::tr("A"), SideName(model, contact.body_a, contact.shape_a,
                                             contact.particle_a, contact.soft_body_a)});
  rows.push_back({QObject::tr("B"), SideName(model, contact.body_b, contact.shape_b,
                                             contact.particle_b, contact.soft_body_b)});
  rows.push_back({QObject::tr("point"), Vector(contact.point, "m")});
  rows.push_back({QObject::tr("normal (B to A)"), Vector(contact.normal, "")});
  rows.push_back({QObject::tr("gap"), Number(contact.gap, "m")});
  rows.push_back({QObject::tr("normal force"), Number(contact.normal_force, "N")});
  // friction along the cone's axes t and b = n × t, as `run --contacts` writes them
  const Eigen::Vector3f n(contact.normal[0], contact.normal[1], contact.normal[2]);
  const Eigen::Vector3f t(contact.tangent[0], contact.tangent[1], contact.tangent[2]);
  const Eigen::Vector3f f(contact.friction_force[0], contact.friction_force[1],
                          contact.friction_force[2]);
  rows.push_back({QObject::tr("friction t, b"),
                  QStringLiteral("%1 %2 N").arg(QString::number(f.dot(t), 'g', 6),
                                                QString::number(f.dot(n.cross(t)), 'g', 6))});
  rows.push_back({QObject::tr("friction force"), Number(f.norm(), "N")});
  rows.push_back({QObject::tr("tangent t"), Vector(contact.tangent, "")});
  rows.push_back({QObject::tr("mu t, b"),
                  QStringLiteral("%1 %2").arg(QString::number(contact.friction_t, 'g', 6),
                                              QString::number(contact.friction_b, 'g', 6))});
  rows.push_back({QObject::tr("anisotropy"), Number(contact.anisotropy, "")});
  rows.push_back({QObject::tr("cone use |f| / (mu λn)"), Number(ConeUse(contact), "")});
  rows.push_back(
      {QObject::tr("state"), contact.sliding ? QObject::tr("slip") : QObject::tr("stick")});
  return rows;
}

}  // namespace


InspectorPanel::InspectorPanel(QWidget* parent) : QDockWidget(tr("Inspector"), parent) {
  setObjectName(QStringLiteral("InspectorPanel"));
  table_ = new QTreeWidget(this);
  table_->setColumnCount(2);
  table_->setHeaderLabels({tr("Figure"), tr("Value")});
  table_->setUniformRowHeights(true);
  table_->setAlternatingRowColors(true);
  table_->header()->setStretchLastSection(true);
  body_item_ = new QTreeWidgetItem(table_, {tr("Body"), tr("none selected (click a body)")});
  contact_item_ = new QTreeWidgetItem(
      table_, {tr("Contact"), tr("none (click a contact point in the contacts view)")});
  body_item_->setExpanded(true);
  contact_item_->setExpanded(true);
  table_->resizeColumnToContents(0);
  setWidget(table_);
  since_refresh_.start();
}


void InspectorPanel::ShowSnapshot(const SimSnapshot& snapshot) {
  // a new selection, or a paused simulation (whose snapshots are few), shows at once
  if (!isVisible()) return;
  if (snapshot.running && snapshot.selected_body == shown_body_ &&
      since_refresh_.elapsed() < kRefreshMs) {
    return;
  }
  Refresh(snapshot);
}


void InspectorPanel::SelectContact(const SimSnapshot& snapshot, const VisualContact& contact) {
  has_contact_ = true;
  contact_ended_ = false;
  followed_ = contact;
  Refresh(snapshot);
}


void InspectorPanel::ClearContact() {
  has_contact_ = false;
  SetRows(contact_item_, {});
  contact_item_->setText(1, tr("none (click a contact point in the contacts view)"));
}


std::optional<Vec3> InspectorPanel::inspected_point() const {
  if (!has_contact_ || contact_ended_) return std::nullopt;
  return Vec3(followed_.point[0], followed_.point[1], followed_.point[2]);
}


const VisualContact* InspectorPanel::FindFollowed(const VisualFrame& frame) const {
  const VisualContact* nearest = nullptr;
  float nearest_distance = kFollowDistance;
  for (const VisualContact& contact : frame.contacts) {
    if (!SamePair(contact, followed_)) continue;
    const float distance =
        std::hypot(contact.point[0] - followed_.point[0], contact.point[1] - followed_.point[1],
                   contact.point[2] - followed_.point[2]);
    if (distance <= nearest_distance) {
      nearest_distance = distance;
      nearest = &contact;
    }
  }
  return nearest;
}


void InspectorPanel::Refresh(const SimSnapshot& snapshot) {
  since_refresh_.restart();
  const Model* model = snapshot.model.get();
  const int body = snapshot.selected_body;
  shown_body_ = body;
  if (model != nullptr && body >= 0 && body < static_cast<int>(snapshot.frame.bodies.size())) {
    body_item_->setText(1, QString::fromStdString(model->body_name[body]));
    SetRows(body_item_, BodyRows(snapshot, body));
  } else {
    body_item_->setText(1, tr("none selected (click a body)"));
    SetRows(body_item_, {});
  }
  table_->resizeColumnToContents(0);
  if (!has_contact_ || model == nullptr) return;
  if (!contact_ended_) {
    if (const VisualContact* found = FindFollowed(snapshot.frame)) {
      followed_ = *found;
      followed_step_ = snapshot.frame.step;
      followed_time_ = snapshot.frame.time;
    } else {
      contact_ended_ = true;
    }
  }
  const QString a = SideName(*model, followed_.body_a, followed_.shape_a, followed_.particle_a,
                             followed_.soft_body_a);
  const QString b = SideName(*model, followed_.body_b, followed_.shape_b, followed_.particle_b,
                             followed_.soft_body_b);
  contact_item_->setText(
      1, contact_ended_ ? tr("%1 – %2 (ended)").arg(a, b) : tr("%1 – %2").arg(a, b));
  SetRows(contact_item_,
          ContactRows(*model, followed_, followed_step_, followed_time_, contact_ended_));
  table_->resizeColumnToContents(0);
}


QStringList InspectorPanel::Rows() const {
  QStringList rows;
  for (QTreeWidgetItem* section : {body_item_, contact_item_}) {
    const QString name = section->text(0).toLower();
    rows << QStringLiteral("%1: %2").arg(name, section->text(1));
    for (int i = 0; i < section->childCount(); ++i) {
      rows << QStringLiteral("%1: %2 = %3")
                  .arg(name, section->child(i)->text(0), section->child(i)->text(1));
    }
  }
  return rows;
}

}  // namespace sim::ui
