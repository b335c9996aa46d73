#include "engine/model/structure_field.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace sim {

namespace {

constexpr Real kPi = std::numbers::pi;

// filtered doubled-angle vectors shorter than one 8-bit step have no reliable axis
constexpr Real kMinAxisLength = 1.0 / 255;

Vec2 Axis(Real theta) { return {std::cos(theta), std::sin(theta)}; }

// e_u, e_v of a plane normal to `axis` (unit): the x axis projected, or y near x (see header)
void PlaneBasis(const Vec3& axis, Vec3* e_u, Vec3* e_v) {
  Vec3 u = Vec3::UnitX() - axis.x() * axis;
  if (u.squaredNorm() < 1e-12) u = Vec3::UnitY() - axis.y() * axis;
  *e_u = u.normalized();
  *e_v = axis.cross(*e_u);
}

// integer modulo into [0, n)
int Wrap(int i, int n) {
  const int m = i % n;
  return m < 0 ? m + n : m;
}

}  // namespace


const char* StructureFieldKindName(StructureFieldKind kind) {
  switch (kind) {
    case StructureFieldKind::kImage:
      return "image";
    case StructureFieldKind::kUniform:
      return "uniform";
    case StructureFieldKind::kRadial:
      return "radial";
    case StructureFieldKind::kChannel:
      return "channel";
    case StructureFieldKind::kSlalom:
      return "slalom";
    case StructureFieldKind::kVortex:
      return "vortex";
  }
  return "unknown";
}


const char* FieldProjectionName(FieldProjection projection) {
  switch (projection) {
    case FieldProjection::kUv:
      return "uv";
    case FieldProjection::kPlanar:
      return "planar";
    case FieldProjection::kCylindrical:
      return "cylindrical";
    case FieldProjection::kTriplanar:
      return "triplanar";
  }
  return "unknown";
}


FieldCoordinates ProjectSurfacePoint(const FieldProjectionSpec& spec, const Vec3& point,
                                     const Vec3& normal) {
  FieldCoordinates out;
  const Vec3 p = point - spec.origin;
  Vec3 axis = spec.axis;
  if (spec.kind == FieldProjection::kTriplanar || spec.kind == FieldProjection::kUv) {
    // the shape axis most aligned with the normal, signed so the plane faces outward
    const Vec3 magnitude = normal.cwiseAbs();
    int i = 2;
    if (magnitude.y() > magnitude(i)) i = 1;
    if (magnitude.x() > magnitude(i)) i = 0;
    axis = Vec3::Unit(i) * (normal(i) < 0 ? -1 : 1);
  }
  Vec3 e_u, e_v;
  PlaneBasis(axis, &e_u, &e_v);
  if (spec.kind == FieldProjection::kCylindrical) {
    // u = ρφ (arc length at the point's radius), v = height; tangents: circumferential, axis
    const Real x = p.dot(e_u), y = p.dot(e_v);
    const Real rho = std::hypot(x, y);
    const Real phi = std::atan2(y, x);
    out.uv = {rho * phi, p.dot(axis)};
    out.tangent_u = rho > 0 ? Vec3((-y * e_u + x * e_v) / rho) : e_v;
    out.tangent_v = axis;
    return out;
  }
  out.uv = {p.dot(e_u), p.dot(e_v)};
  out.tangent_u = e_u;
  out.tangent_v = e_v;
  return out;
}


StructureSample StructureField::SampleProcedural(const Vec2& uv) const {
  const ProceduralField& f = procedural;
  StructureSample s;
  s.strength = f.strength;
  const Vec2 r = uv - f.center;
  switch (kind) {
    case StructureFieldKind::kImage:
      s.strength = 0;  // an image without texels has nothing to say
      break;
    case StructureFieldKind::kUniform:
      s.direction = Axis(f.angle);
      break;
    case StructureFieldKind::kRadial:
    case StructureFieldKind::kVortex: {
      // away from the centre, or a quarter turn from that; no axis at the centre itself
      if (r.norm() <= f.core_radius) {
        s.strength = 0;
        break;
      }
      const Real radial = std::atan2(r.y(), r.x());
      s.direction = Axis(kind == StructureFieldKind::kRadial ? radial : radial + 0.5 * kPi);
      break;
    }
    case StructureFieldKind::kChannel: {
      // ⟂ the lanes on the line, turned toward them by `turn` at one width to either side
      const Vec2 left(-std::sin(f.angle), std::cos(f.angle));
      const Real side = std::clamp(r.dot(left) / f.width, Real(-1), Real(1));
      s.direction = Axis(f.angle + 0.5 * kPi - f.turn * side);
      break;
    }
    case StructureFieldKind::kSlalom: {
      // ⟂ the lane v' = A sin(2πu'/λ) + c through the point: lane slope angle atan(dv'/du')
      const Vec2 along(std::cos(f.angle), std::sin(f.angle));
      const Real k = 2 * kPi / f.wavelength;
      const Real slope = f.amplitude * k * std::cos(k * r.dot(along));
      s.direction = Axis(f.angle + std::atan(slope) + 0.5 * kPi);
      break;
    }
  }
  return s;
}


StructureSample StructureField::Sample(const Vec2& uv) const {
  if (texels_.empty()) return SampleProcedural(uv);
  // texel-centre coordinates: column x from the left, row y from the top (v points up)
  const Real x = uv.x() / tile_size.x() * width_ - 0.5;
  const Real y = (1 - uv.y() / tile_size.y()) * height_ - 0.5;
  const Real fx = std::floor(x), fy = std::floor(y);
  const Real ax = x - fx, ay = y - fy;
  const int x0 = Wrap(static_cast<int>(fx), width_), x1 = Wrap(x0 + 1, width_);
  const int y0 = Wrap(static_cast<int>(fy), height_), y1 = Wrap(y0 + 1, height_);
  const auto at = [&](int col, int row) -> const StructureTexel& {
    return texels_[static_cast<std::size_t>(row) * width_ + col];
  };
  // bilinear on the doubled angle and the strength
  Real c = 0, s = 0, w = 0;
  const auto add = [&](const StructureTexel& t, Real weight) {
    c += weight * t.cos2;
    s += weight * t.sin2;
    w += weight * t.strength;
  };
  add(at(x0, y0), (1 - ax) * (1 - ay));
  add(at(x1, y0), ax * (1 - ay));
  add(at(x0, y1), (1 - ax) * ay);
  add(at(x1, y1), ax * ay);
  StructureSample sample;
  if (std::hypot(c, s) < kMinAxisLength) return sample;  // crossed grain cancels: no axis
  sample.direction = Axis(0.5 * std::atan2(s, c));
  sample.strength = std::clamp(w, Real(0), Real(1));
  return sample;
}


StructureField& StructureField::operator=(const StructureField& other) {
  if (this == &other) return *this;
  kind = other.kind;
  procedural = other.procedural;
  projection = other.projection;
  tile_size = other.tile_size;
  image_path = other.image_path;
  scene_pointer = other.scene_pointer;
  width_ = other.width_;
  height_ = other.height_;
  texels_ = other.texels_;
  revision_.store(other.revision(), std::memory_order_release);
  return *this;
}


void StructureField::SetTexels(int width, int height, std::vector<StructureTexel> texels) {
  width_ = width;
  height_ = height;
  texels_ = std::move(texels);
  MarkChanged();
}


Vec2 StructureField::TexelCenter(int column, int row) const {
  return {(column + 0.5) / width_ * tile_size.x(), (height_ - row - 0.5) / height_ * tile_size.y()};
}


void StructureField::Bake(int width, int height, const Vec2& window_origin) {
  width_ = width;
  height_ = height;
  // the image of a coordinate in [origin, origin + tile): the tile repeats
  const auto in_window = [](Real x, Real origin, Real tile) {
    return origin + (x - origin - tile * std::floor((x - origin) / tile));
  };
  std::vector<StructureTexel> texels(static_cast<std::size_t>(width) * height);
  for (int row = 0; row < height; ++row) {
    for (int column = 0; column < width; ++column) {
      const Vec2 center = TexelCenter(column, row);
      const Vec2 uv(in_window(center.x(), window_origin.x(), tile_size.x()),
                    in_window(center.y(), window_origin.y(), tile_size.y()));
      const StructureSample s = SampleProcedural(uv);
      texels[static_cast<std::size_t>(row) * width + column] =
          TexelFromAxis(std::atan2(s.direction.y(), s.direction.x()), s.strength);
    }
  }
  SetTexels(width, height, std::move(texels));
}


StructureTexel TexelFromAxis(Real theta, Real strength) {
  return {static_cast<float>(std::cos(2 * theta)), static_cast<float>(std::sin(2 * theta)),
          static_cast<float>(strength)};
}


void EncodeStructureTexel(const StructureTexel& texel, std::uint8_t rgb[3]) {
  const auto signed_byte = [](float c) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(127.5f * (c + 1), 0.0f, 255.0f)));
  };
  rgb[0] = signed_byte(texel.cos2);
  rgb[1] = signed_byte(texel.sin2);
  rgb[2] = static_cast<std::uint8_t>(std::lround(std::clamp(255 * texel.strength, 0.0f, 255.0f)));
}


StructureTexel DecodeStructureTexel(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return {2.0f * r / 255 - 1, 2.0f * g / 255 - 1, b / 255.0f};
}

}  // namespace sim
