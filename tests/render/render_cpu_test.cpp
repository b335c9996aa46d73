// The renderer's CPU side, without a device: view-mode names, the strain colour maps and their
// fitted ranges, the markers (arrow geometry, what each view and toggle adds, the force scale),
// texture mip chains, image file dispatch and the shadow light's stable fit.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "render/gpu_assets.h"
#include "render/image_file.h"
#include "render/meshes.h"
#include "render/png_io.h"
#include "render/render_options.h"
#include "render/scene_markers.h"
#include "render/shadow_map.h"
#include "render/strain_colors.h"

namespace sim::render {
namespace {

Eigen::Vector3f Vec(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }


TEST(RenderOptionsTest, ViewModesRoundTripTheirNames) {
  for (int mode = 0; mode < kViewModeCount; ++mode) {
    EXPECT_EQ(ParseViewMode(ViewModeName(static_cast<ViewMode>(mode))),
              static_cast<ViewMode>(mode));
  }
  EXPECT_EQ(ParseViewMode("structure"), ViewMode::kStructure);
  EXPECT_FALSE(ParseViewMode("lic").has_value());
}


VisualFrame FrameWithStrain(std::vector<float> volumetric, std::vector<float> von_mises) {
  VisualFrame frame;
  VisualSoftBody body;
  body.volumetric_strain = std::move(volumetric);
  body.von_mises = std::move(von_mises);
  frame.soft_bodies.push_back(body);
  return frame;
}


TEST(StrainColorsTest, DivergingMapIsBlueForCompressionRedForExpansionLightAtZero) {
  const VisualFrame frame = FrameWithStrain({-0.1f, 0.0f, 0.05f}, {0, 0, 0});
  const StrainLegend legend = ComputeStrainLegend(frame, RenderOptions());
  // symmetric about zero, fitted to the largest magnitude (3 values: the 98 % quantile is it)
  EXPECT_FLOAT_EQ(legend.min, -0.1f);
  EXPECT_FLOAT_EQ(legend.max, 0.1f);
  EXPECT_FLOAT_EQ(legend.data_min, -0.1f);
  EXPECT_FLOAT_EQ(legend.data_max, 0.05f);
  const auto blue = StrainColor(-0.1f, legend);
  const auto red = StrainColor(0.1f, legend);
  const auto middle = StrainColor(0.0f, legend);
  EXPECT_GT(blue[2], blue[0] + 0.3f);
  EXPECT_GT(red[0], red[2] + 0.3f);
  // near-neutral and light at zero
  EXPECT_LT(std::abs(middle[0] - middle[2]), 0.05f);
  EXPECT_GT(middle[1], 0.6f);
  // values beyond the range saturate at the ends
  EXPECT_EQ(StrainColor(-5.0f, legend), blue);
  EXPECT_EQ(StrainColor(std::nanf(""), legend), blue);
}


TEST(StrainColorsTest, FittedRangeIgnoresAFewOutliersAndHasAFloor) {
  // 100 nodes at 2 % compression and one collapsed tet's node at −100 %
  std::vector<float> values(100, -0.02f);
  values.push_back(-1.0f);
  const StrainLegend legend =
      ComputeStrainLegend(FrameWithStrain(values, std::vector<float>(101, 0)), RenderOptions());
  EXPECT_FLOAT_EQ(legend.max, 0.02f);
  EXPECT_FLOAT_EQ(legend.data_min, -1.0f);
  // a body at rest: the floor, so round-off stays white
  const StrainLegend rest =
      ComputeStrainLegend(FrameWithStrain({0, 1e-7f}, {0, 0}), RenderOptions());
  EXPECT_FLOAT_EQ(rest.max, kMinVolumetricRange);
  // a fixed range wins
  RenderOptions fixed;
  fixed.strain_range = 0.5f;
  EXPECT_FLOAT_EQ(ComputeStrainLegend(FrameWithStrain(values, values), fixed).min, -0.5f);
}


TEST(StrainColorsTest, VonMisesMapRunsFromZeroAndIsLabelledInPascals) {
  RenderOptions options;
  options.strain_field = StrainField::kVonMises;
  const StrainLegend legend =
      ComputeStrainLegend(FrameWithStrain({0, 0, 0}, {0, 1500, 3000}), options);
  EXPECT_FLOAT_EQ(legend.min, 0.0f);
  EXPECT_FLOAT_EQ(legend.max, 3000.0f);
  // light at zero, darker with stress
  const auto low = StrainColor(0, legend);
  const auto high = StrainColor(3000, legend);
  EXPECT_GT(low[0] + low[1] + low[2], 2.0f);
  EXPECT_LT(high[0] + high[1] + high[2], 0.6f);
  EXPECT_EQ(FormatStrainValue(3000, legend), "3 kPa");
  EXPECT_EQ(FormatStrainValue(2.5e6f, legend), "2.5 MPa");
  EXPECT_EQ(FormatStrainValue(-0.032f, ComputeStrainLegend(VisualFrame{}, RenderOptions())),
            "-3.20 %");
}


TEST(SceneMarkersTest, ArrowRunsFromItsStartAlongItsDirection) {
  const std::array<float, 3> from = {1, 2, 3};
  const Eigen::Vector3f direction = Eigen::Vector3f(1, 1, 0).normalized();
  const Marker arrow = MakeArrowMarker(from, {direction.x(), direction.y(), direction.z()}, 0.5f,
                                       0.01f, kNormalForceColor);
  EXPECT_EQ(arrow.mesh, MarkerMesh::kArrow);
  // the marker's z axis (third column) is the direction; the tip at shaft + head length
  const Eigen::Vector3f z_axis(arrow.X_WM[2], arrow.X_WM[6], arrow.X_WM[10]);
  EXPECT_TRUE(z_axis.isApprox(direction, 1e-5f));
  EXPECT_FLOAT_EQ(arrow.scale[0], 0.01f);
  EXPECT_NEAR(arrow.scale[3] + kArrowHeadLength * arrow.scale[0], 0.5f, 1e-6f);
  EXPECT_EQ(Eigen::Vector3f(arrow.X_WM[3], arrow.X_WM[7], arrow.X_WM[11]), Vec(from));
  // a short arrow thins so its head fits
  const Marker stub = MakeArrowMarker(from, {0, 0, -1}, 0.02f, 0.01f, kNormalForceColor);
  EXPECT_LE(stub.scale[3] + kArrowHeadLength * stub.scale[0], 0.02f + 1e-7f);
  EXPECT_GT(stub.scale[3], 0.0f);
}


VisualFrame FrameWithContacts() {
  VisualFrame frame;
  VisualContact resting;
  resting.normal_force = 20;
  resting.friction_force = {0, 3, 0};
  frame.contacts.push_back(resting);
  VisualContact frictionless = resting;
  frictionless.normal_force = 5;
  frictionless.friction_force = {0, 0, 0};
  frame.contacts.push_back(frictionless);
  VisualContact separated;  // no force: a grey point only
  frame.contacts.push_back(separated);
  return frame;
}


TEST(SceneMarkersTest, ContactsViewDrawsPointsAndArrowsScaledByForce) {
  const VisualFrame frame = FrameWithContacts();
  RenderOptions options;
  std::vector<Marker> markers;
  BuildMarkers(frame, options, 2.0f, &markers);
  EXPECT_TRUE(markers.empty()) << "the shaded view shows no contacts";
  options.view = ViewMode::kContacts;
  BuildMarkers(frame, options, 2.0f, &markers);
  // point + normal + friction, point + normal, grey point
  ASSERT_EQ(markers.size(), 6u);
  EXPECT_EQ(markers[0].mesh, MarkerMesh::kSphere);
  EXPECT_EQ(markers[1].mesh, MarkerMesh::kArrow);
  EXPECT_EQ(markers[5].color[0], kInactiveContactColor[0]);
  // the largest force (20 N) is drawn arrow_length · view height long; 5 N a quarter of that
  const ForceScale scale = ComputeForceScale(frame, options, 2.0f);
  EXPECT_FLOAT_EQ(scale.max_force, 20);
  const auto length = [](const Marker& arrow) {
    return arrow.scale[3] + kArrowHeadLength * arrow.scale[0];
  };
  EXPECT_NEAR(length(markers[1]), options.arrow_length * 2.0f, 1e-6f);
  EXPECT_NEAR(length(markers[4]), 0.25f * options.arrow_length * 2.0f, 1e-6f);
  EXPECT_NEAR(length(markers[2]), 3.0f / 20 * options.arrow_length * 2.0f, 1e-6f);
}


// a grasp beside a welded base: 5 N on the fingers, 4.8 kN under the base. With the grasped body
// selected its own contacts set the scale (5 N drawn arrow_length · view height long) and the
// base's arrow is clipped at kMaxArrowFactor of that; out of view, the base does not count
TEST(SceneMarkersTest, ContactArrowsScaleToTheSelectedBodyOrTheContactsInView) {
  VisualFrame frame;
  VisualContact finger;
  finger.point = {0, 0, 1};
  finger.normal_force = 5;
  finger.body_a = 3;
  VisualContact base;
  base.point = {0, 0, -40};
  base.normal_force = 4800;
  base.body_a = 1;
  frame.contacts = {finger, base};
  RenderOptions options;
  options.view = ViewMode::kContacts;
  const float view_height = 2.0f;
  // nothing selected, no view: the largest of all (today's behaviour)
  EXPECT_FLOAT_EQ(ComputeForceScale(frame, options, view_height).max_force, 4800);
  EXPECT_EQ(ComputeForceScale(frame, options, view_height).reference, ForceScaleReference::kAll);
  // selected: the grasped body's contacts
  frame.selected_body = 3;
  const ForceScale selected = ComputeForceScale(frame, options, view_height);
  EXPECT_FLOAT_EQ(selected.max_force, 5);
  EXPECT_EQ(selected.reference, ForceScaleReference::kSelectedBody);
  EXPECT_EQ(selected.clipped, 1);
  EXPECT_FLOAT_EQ(ArrowLength(selected, 5), options.arrow_length * view_height);
  EXPECT_FLOAT_EQ(ArrowLength(selected, 4800),
                  kMaxArrowFactor * options.arrow_length * view_height);
  // a view of the fingers from 2 m, the base 41 m below them: only the fingers fit it
  frame.selected_body = kWorldBody;
  OrbitCamera camera;
  camera.target = Eigen::Vector3f(0, 0, 1);
  camera.distance = 2;
  camera.yaw_deg = 0;
  const Eigen::Matrix4f view_projection = camera.ProjectionMatrix(1.6f) * camera.ViewMatrix();
  const ForceScale in_view = ComputeForceScale(frame, options, view_height, &view_projection);
  EXPECT_FLOAT_EQ(in_view.max_force, 5);
  EXPECT_EQ(in_view.reference, ForceScaleReference::kInView);
  // log scale: length ∝ log(1 + f / f₀), f₀ = kLogForceFloor · 5 N; the scale's force is drawn
  // arrow_length long, a tenth of it log(11) / log(101) of that
  options.contact_force_log = true;
  const ForceScale log = ComputeForceScale(frame, options, view_height, &view_projection);
  EXPECT_FLOAT_EQ(ArrowLength(log, 5), options.arrow_length * view_height);
  EXPECT_NEAR(ArrowLength(log, 0.5f),
              options.arrow_length * view_height * std::log(11.0f) / std::log(101.0f), 1e-6f);
  EXPECT_LT(ArrowLength(log, 4800), kMaxArrowFactor * options.arrow_length * view_height + 1e-6f);
}


// "split" off: one arrow of the total force λ_n n + λ_f per contact, coloured stick or slip
TEST(SceneMarkersTest, ContactArrowsCanShowTheTotalForceInOneArrow) {
  VisualFrame frame;
  VisualContact contact;
  contact.normal = {0, 0, 1};
  contact.normal_force = 4;
  contact.friction_force = {3, 0, 0};
  frame.contacts = {contact};
  RenderOptions options;
  options.view = ViewMode::kContacts;
  options.contact_force_split = false;
  std::vector<Marker> markers;
  BuildMarkers(frame, options, 2.0f, &markers);
  ASSERT_EQ(markers.size(), 2u);  // the point and one arrow
  const Marker& arrow = markers[1];
  EXPECT_EQ(arrow.mesh, MarkerMesh::kArrow);
  // along (3, 0, 4) / 5 (the rotation's third column); the scale fits the larger of λ_n and
  // |λ_f| (4 N), so the 5 N total is 5/4 of the arrow length
  EXPECT_NEAR(arrow.X_WM[2], 0.6f, 1e-5f);
  EXPECT_NEAR(arrow.X_WM[10], 0.8f, 1e-5f);
  EXPECT_NEAR(arrow.scale[3] + kArrowHeadLength * arrow.scale[0],
              1.25f * options.arrow_length * 2.0f, 1e-5f);
}


// an anisotropic contact's friction ellipse: kEllipseSegments bars whose ends lie on
// (x·t)²/(μ_t λ_n s)² + (x·b)²/(μ_b λ_n s)² = 1 around the point, in its tangent plane (s: the
// arrows' metres per newton), so the sliding friction arrow (on the cone's limit) ends on it
TEST(SceneMarkersTest, ContactsViewDrawsEachContactsFrictionEllipse) {
  VisualFrame frame;
  VisualContact contact;
  contact.point = {1, 2, 0};
  contact.normal = {0, 0, 1};
  contact.tangent = {std::cos(0.5f), std::sin(0.5f), 0};
  contact.friction_t = 0.8f;
  contact.friction_b = 0.2f;
  contact.normal_force = 10;
  contact.friction_force = {0, 0, 0};
  frame.contacts.push_back(contact);
  RenderOptions options;
  options.view = ViewMode::kContacts;
  std::vector<Marker> markers;
  BuildMarkers(frame, options, 2.0f, &markers);
  // point, normal arrow, then the ellipse
  ASSERT_EQ(markers.size(), 2u + kEllipseSegments);
  // a round cone gets no ellipse (its circle adds nothing to the arrows)
  VisualFrame round = frame;
  round.contacts[0].friction_b = 0.8f;
  std::vector<Marker> round_markers;
  BuildMarkers(round, options, 2.0f, &round_markers);
  EXPECT_EQ(round_markers.size(), 2u);
  const float s = ComputeForceScale(frame, options, 2.0f).meters_per_newton;
  const Eigen::Vector3f t = Vec(contact.tangent), n(0, 0, 1), b = n.cross(t);
  const float a_t = 0.8f * 10 * s, a_b = 0.2f * 10 * s;
  for (std::size_t k = 2; k < markers.size(); ++k) {
    const Marker& bar = markers[k];
    EXPECT_EQ(bar.mesh, MarkerMesh::kBox);
    const Eigen::Vector3f centre(bar.X_WM[3], bar.X_WM[7], bar.X_WM[11]);
    const Eigen::Vector3f along(bar.X_WM[0], bar.X_WM[4], bar.X_WM[8]);
    const float half = bar.scale[0] - bar.scale[1] / 2;  // less the overlap at each joint
    for (float sign : {-1.0f, 1.0f}) {
      const Eigen::Vector3f x = centre + sign * half * along - Vec(contact.point);
      EXPECT_NEAR(x.dot(n), 0, 1e-6f);
      const float level = std::pow(x.dot(t) / a_t, 2.0f) + std::pow(x.dot(b) / a_b, 2.0f);
      EXPECT_NEAR(level, 1, 1e-4f) << k;
    }
  }
}


// the structure view draws each glyph as one flat bar along its axis, lying on its surface,
// hidden like the scene (not ghosted), coloured by strength; other views draw none
TEST(SceneMarkersTest, StructureViewDrawsOneDashPerGlyph) {
  VisualFrame frame;
  VisualStructureGlyph glyph;
  glyph.center = {0, 0, 1};
  glyph.axis = {0, 1, 0};
  glyph.normal = {1, 0, 0};
  glyph.half_length = 0.1f;
  glyph.strength = 1;
  frame.structure_glyphs.push_back(glyph);
  glyph.strength = 0;
  frame.structure_glyphs.push_back(glyph);
  RenderOptions options;
  std::vector<Marker> markers;
  BuildMarkers(frame, options, 1.0f, &markers);
  EXPECT_TRUE(markers.empty());
  options.view = ViewMode::kStructure;
  BuildMarkers(frame, options, 1.0f, &markers);
  ASSERT_EQ(markers.size(), 2u);
  for (const Marker& dash : markers) {
    EXPECT_EQ(dash.mesh, MarkerMesh::kBox);
    EXPECT_FALSE(dash.ghost);
    EXPECT_TRUE(Eigen::Vector3f(dash.X_WM[0], dash.X_WM[4], dash.X_WM[8])
                    .isApprox(Eigen::Vector3f(0, 1, 0), 1e-6f));
    EXPECT_TRUE(Eigen::Vector3f(dash.X_WM[2], dash.X_WM[6], dash.X_WM[10])
                    .isApprox(Eigen::Vector3f(1, 0, 0), 1e-6f));
    EXPECT_GT(dash.X_WM[3], 0) << "lifted off the surface along its normal";
  }
  // full grain: full length and orange; none: a short grey tick
  EXPECT_FLOAT_EQ(markers[0].scale[0], 0.1f);
  EXPECT_LT(markers[1].scale[0], 0.5f * 0.1f);
  EXPECT_EQ(markers[0].color[0], GrainColor(1)[0]);
  EXPECT_EQ(markers[1].color[1], kNoGrainColor[1]);
  EXPECT_EQ(GrainColor(0.5f), kHalfGrainColor);
}


TEST(SceneMarkersTest, TogglesAddJointFramesCentresOfMassAndTheDragSpring) {
  VisualFrame frame;
  frame.bodies.resize(3);
  frame.bodies[1].is_static = true;
  frame.joints.resize(2);
  frame.joints[0].type = JointType::kRevolute;
  frame.joints[1].type = JointType::kFixed;
  RenderOptions options;
  options.show_constraints = false;
  std::vector<Marker> markers;
  options.show_com = true;
  BuildMarkers(frame, options, 1.0f, &markers);
  EXPECT_EQ(markers.size(), 2u) << "static bodies have no marker";
  markers.clear();
  options.show_com = false;
  options.show_joint_frames = true;
  BuildMarkers(frame, options, 1.0f, &markers);
  EXPECT_EQ(markers.size(), 3u + 1u + 3u) << "x, y, z axes, plus the revolute joint's axis";
  markers.clear();
  options.show_joint_frames = false;
  frame.drag.active = true;
  frame.drag.anchor = {0, 0, 0};
  frame.drag.target = {0, 0, 1};
  BuildMarkers(frame, options, 1.0f, &markers);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[1].mesh, MarkerMesh::kArrow);
  EXPECT_NEAR(markers[1].scale[3] + kArrowHeadLength * markers[1].scale[0], 1.0f, 1e-6f);
}


TEST(SceneMarkersTest, AnchorsMountsAttachmentStrutsAndFixedNodes) {
  VisualFrame frame;
  frame.bodies.resize(2);
  frame.bodies[1].X_WB = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1};  // centre of mass at (0, 0, 1)
  // a revolute joint to the world at (0, 0, 2) and one between the bodies
  frame.joints.resize(2);
  frame.joints[0].type = JointType::kRevolute;
  frame.joints[0].X_WJ = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2};
  frame.joints[1].type = JointType::kFixed;
  frame.joints[1].parent = 0;
  frame.joints[1].child = 1;
  // a node held by body 1 at (0, 0, 2), one held by the world, a fixed node
  frame.attachments.resize(2);
  frame.attachments[0].anchor = {0, 0, 2};
  frame.attachments[0].body = 1;
  frame.attachments[0].body_com = {0, 0, 1};
  frame.attachments[1].anchor = {3, 0, 0};
  frame.fixed_particles.push_back({5, 0, 0});
  RenderOptions options;
  std::vector<Marker> markers;
  BuildMarkers(frame, options, 1.0f, &markers);
  // 2 anchors + 1 mount; 2 attachment ends + 1 strut + 1 mount; 1 fixed node
  ASSERT_EQ(markers.size(), 8u);
  EXPECT_EQ(markers[0].mesh, MarkerMesh::kSphere);
  EXPECT_EQ(markers[0].color[1], kJointAnchorColor[1]);
  // the mount rests on the world anchor's sphere, above it
  EXPECT_EQ(markers[1].mesh, MarkerMesh::kBox);
  EXPECT_GT(markers[1].X_WM[11], 2.0f + kJointAnchorRadiusPerView);
  EXPECT_EQ(markers[1].color[0], kMountColor[0]);
  // the strut spans the body's centre of mass to the held point: 1 m long, centred at z = 1.5
  const Marker& strut = markers[4];
  EXPECT_EQ(strut.mesh, MarkerMesh::kBox);
  EXPECT_NEAR(strut.X_WM[11], 1.5f, 1e-6f);
  EXPECT_NEAR(strut.scale[0], 0.5f, 1e-6f);
  EXPECT_EQ(strut.color[2], kAttachmentColor[2]);
  EXPECT_EQ(markers.back().color[0], kFixedNodeColor[0]);
  EXPECT_NEAR(markers.back().X_WM[3], 5.0f, 1e-6f);
  markers.clear();
  options.show_constraints = false;
  BuildMarkers(frame, options, 1.0f, &markers);
  EXPECT_TRUE(markers.empty());
}


TEST(GpuAssetsTest, MipChainHalvesDownToOneTexelAndKeepsAUniformColour) {
  Image image;
  image.width = 2048;
  image.height = 1000;
  image.rgba.resize(2048 * 1000 * 4);
  for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
    image.rgba[i] = 200, image.rgba[i + 1] = 100, image.rgba[i + 2] = 30, image.rgba[i + 3] = 255;
  }
  const std::vector<Image> levels = MakeMipChain(image, 1024);
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels[0].width, 1024);
  EXPECT_EQ(levels[0].height, 500);
  EXPECT_EQ(levels.back().width, 1);
  EXPECT_EQ(levels.back().height, 1);
  EXPECT_EQ(levels.size(), 11u);  // 1024 ... 1
  for (const Image& level : levels) {
    EXPECT_EQ(level.rgba.size(), static_cast<std::size_t>(level.width) * level.height * 4);
    // a uniform colour stays itself through the linear-light average (±1 rounding)
    EXPECT_NEAR(level.rgba[0], 200, 1);
    EXPECT_NEAR(level.rgba[1], 100, 1);
    EXPECT_NEAR(level.rgba[2], 30, 1);
  }
}


TEST(ImageFileTest, ReadsByContentAndNamesWhatIsWrong) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sim_image_file";
  std::filesystem::create_directories(dir);
  // a PNG under a .jpg name is still read as PNG
  Image image;
  image.width = image.height = 2;
  image.rgba.assign(16, 128);
  std::string error;
  const std::string png = (dir / "really_a_png.jpg").string();
  ASSERT_TRUE(WritePng(png, image, &error)) << error;
  Image read;
  EXPECT_TRUE(ReadImageFile(png, &read, &error)) << error;
  EXPECT_EQ(read.width, 2);
  // text, a truncated JPEG, a missing file
  const std::string text = (dir / "text.png").string();
  std::ofstream(text) << "not an image at all";
  EXPECT_FALSE(ReadImageFile(text, &read, &error));
  EXPECT_NE(error.find("unsupported image format"), std::string::npos) << error;
  const std::string truncated = (dir / "truncated.jpg").string();
  std::ofstream(truncated, std::ios::binary) << "\xFF\xD8\xFF\xE0 garbage";
  EXPECT_FALSE(ReadImageFile(truncated, &read, &error));
  EXPECT_NE(error.find("JPEG"), std::string::npos) << error;
  EXPECT_FALSE(ReadImageFile((dir / "missing.png").string(), &read, &error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}

TEST(StableLightFitTest, KeepsItsBoxWhileCastersMoveInsideAndRefitsWhenOneLeaves) {
  const Eigen::Vector3f to_light = Eigen::Vector3f(-0.45f, 0.45f, 0.85f).normalized();
  // a table-sized caster and a small one moving over it
  std::vector<CasterBounds> casters = {{Eigen::Vector3f(0, 0, 0.4f), 0.8f},
                                       {Eigen::Vector3f(0.1f, 0, 0.9f), 0.05f}};
  StableLightFit fit;
  ASSERT_TRUE(fit.Update(to_light, casters)) << "the first call fits";
  const LightBox first = fit.box();
  const LightBox tight = CasterLightBox(to_light, casters);
  EXPECT_TRUE((first.low.array() < tight.low.array()).all()) << "slack on every side";
  EXPECT_TRUE((first.high.array() > tight.high.array()).all());

  // moving a few centimetres inside the slack: the same box, so a drawn map stays valid
  casters[1].centre += Eigen::Vector3f(0.03f, -0.02f, 0.01f);
  EXPECT_FALSE(fit.Update(to_light, casters));
  EXPECT_EQ(fit.box().low, first.low);
  EXPECT_EQ(fit.box().high, first.high);
  float texel_first = 0, texel_now = 0;
  EXPECT_EQ(LightViewProjection(to_light, first, 1024, &texel_first),
            LightViewProjection(to_light, fit.box(), 1024, &texel_now));

  // leaving it (1 m sideways): refitted around the casters where they are now
  casters[1].centre += Eigen::Vector3f(1.0f, 0, 0);
  EXPECT_TRUE(fit.Update(to_light, casters));
  const LightBox moved = CasterLightBox(to_light, casters);
  EXPECT_TRUE((fit.box().low.array() <= moved.low.array()).all());
  EXPECT_TRUE((fit.box().high.array() >= moved.high.array()).all());

  // back, and the big caster gone: the casters take up far less of the box, which shrinks
  casters.erase(casters.begin());
  EXPECT_TRUE(fit.Update(to_light, casters));
  LightViewProjection(to_light, fit.box(), 1024, &texel_now);
  EXPECT_LT(texel_now, 0.5f * texel_first);

  // a turned light refits too
  EXPECT_FALSE(fit.Update(to_light, casters));
  EXPECT_TRUE(fit.Update(Eigen::Vector3f::UnitZ(), casters));
}

}  // namespace
}  // namespace sim::render
