// The view modes, meshes and markers of the scene renderer, checked in offscreen pictures at
// pixels where the camera projects known points: the strain view colours a compressed block blue
// and a stretched one red where the shaded view shows their material; the contacts view draws
// points and force arrows at the contacts; textured meshes show their texture the right way up
// (PNG and JPEG); mesh instances appear at their poses; selection, collision geometry, joint
// frames, centres of mass and the drag spring show when asked. Skips without a Vulkan driver.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

// jpeglib.h needs FILE and size_t declared before it
#include <jpeglib.h>

#include "engine/geometry/visual_mesh.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/meshes.h"
#include "render/offscreen_renderer.h"
#include "render/png_io.h"
#include "render/scene_markers.h"
#include "render/strain_colors.h"
#include "tests/render/image_checks.h"
#include "tests/render/render_test_util.h"
#include "tests/support/model_builder.h"
#include "tests/support/run_command.h"
#include "tests/support/tet_block.h"

namespace sim::render {
namespace {

using image_checks::ColorDistance;
using image_checks::IsReddish;
using image_checks::PixelAt;
using image_checks::Rgb;
using render_test::MakeRenderer;
using render_test::MakeShape;
using render_test::Rows;

constexpr int kWidth = 320;
constexpr int kHeight = 240;
// a colour clearly differs from another by this much (max channel, 0..255); lighting and MSAA
// change a flat surface's pixel by far less
constexpr int kClearlyDifferent = 40;
// one channel dominates another by this much: a colour-map end or marker colour after lighting
constexpr int kDominates = 30;

bool IsBluish(const Rgb& c) { return c[2] > c[0] + kDominates && c[2] > c[1] + 10; }
bool IsGreenish(const Rgb& c) { return c[1] > c[0] + kDominates && c[1] > c[2] + kDominates; }

// some pixel within `radius` pixels of `p` passes `test` (small markers, anti-aliased edges)
template <typename Test>
bool AnyPixelNear(const Image& image, const Eigen::Vector2f& p, int radius, Test test) {
  for (int dy = -radius; dy <= radius; ++dy) {
    for (int dx = -radius; dx <= radius; ++dx) {
      if (test(PixelAt(image, static_cast<int>(p.x()) + dx, static_cast<int>(p.y()) + dy))) {
        return true;
      }
    }
  }
  return false;
}


std::string Describe(const Rgb& c) {
  return std::to_string(c[0]) + " " + std::to_string(c[1]) + " " + std::to_string(c[2]);
}


VisualShape Ground() {
  return MakeShape(ShapeType::kPlane, {kPlaneDrawHalfSize, kPlaneGridCell, 0},
                   Eigen::Vector3f::Zero(), {0.42f, 0.45f, 0.48f, 1});
}


OrbitCamera CloseCamera() {
  OrbitCamera camera;
  camera.target = Eigen::Vector3f(0, 0, 0.15f);
  camera.distance = 2.2f;
  camera.yaw_deg = 20;
  camera.pitch_deg = 25;
  return camera;
}


Eigen::Vector2f Project(const OrbitCamera& camera, const Eigen::Vector3f& p_W) {
  return render_test::Project(camera, p_W, kWidth, kHeight);
}


class ViewModesRender : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string skip;
    renderer_ = MakeRenderer(kWidth, kHeight, 4, false, &skip);
    if (!renderer_) SIM_SKIP_OR_FAIL_IN_CI(skip);
  }
  // renders; with SIM_RENDER_TEST_OUT set, also writes <dir>/<test>_<n>.png to look at
  Image Render(const VisualFrame& frame, const OrbitCamera& camera,
               const RenderOptions& options = RenderOptions()) {
    Image image = renderer_->Render(frame, camera, options);
    if (const char* dir = std::getenv("SIM_RENDER_TEST_OUT")) {
      const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
      std::string name = std::string(info->name()) + "_" + std::to_string(count_++) + ".png";
      for (char& c : name) c = c == '/' ? '_' : c;
      std::string error;
      WritePng((std::filesystem::path(dir) / name).string(), image, &error);
    }
    return image;
  }
  int count_ = 0;
  std::unique_ptr<OffscreenRenderer> renderer_;
};


// two 0.4 m tet blocks (grey material): at x < 0 squashed to 75 % of its height, at x > 0
// stretched to 125 %; J − 1 = ∓0.25 at every node
VisualFrame SquashedAndStretchedBlocks() {
  Model model = test_support::MakeEmptyModel();
  model.materials[0].color = {0.6f, 0.6f, 0.6f};
  State state;
  const Vec3 size(0.4, 0.4, 0.3);
  test_support::AddTetBlock(&model, &state, "squashed", Vec3(-0.6, -0.2, 0), size, {2, 2, 2});
  const int first_stretched = model.particle_count();
  test_support::AddTetBlock(&model, &state, "stretched", Vec3(0.2, -0.2, 0), size, {2, 2, 2});
  for (int i = 0; i < model.particle_count(); ++i) {
    state.particle_x_W[i].z() *= i < first_stretched ? 0.75 : 1.25;
  }
  VisualFrame frame = MakeVisualFrame(model, state);
  frame.shapes.insert(frame.shapes.begin(), Ground());
  return frame;
}


TEST_F(ViewModesRender, StrainViewColoursCompressionBlueAndExpansionRed) {
  const VisualFrame frame = SquashedAndStretchedBlocks();
  const OrbitCamera camera = CloseCamera();
  RenderOptions strain;
  strain.view = ViewMode::kStrain;
  strain.show_legend = false;
  const Image shaded = Render(frame, camera);
  const Image coloured = Render(frame, camera, strain);
  // the centres of the blocks' top faces
  const Eigen::Vector2f squashed = Project(camera, Eigen::Vector3f(-0.4f, 0, 0.225f));
  const Eigen::Vector2f stretched = Project(camera, Eigen::Vector3f(0.4f, 0, 0.375f));
  const Rgb squashed_grey = PixelAt(shaded, squashed);
  const Rgb stretched_grey = PixelAt(shaded, stretched);
  // the material is grey in the shaded view
  EXPECT_LT(ColorDistance(squashed_grey, {squashed_grey[0], squashed_grey[0], squashed_grey[0]}),
            12)
      << Describe(squashed_grey);
  const Rgb squashed_strain = PixelAt(coloured, squashed);
  const Rgb stretched_strain = PixelAt(coloured, stretched);
  EXPECT_GT(ColorDistance(squashed_strain, squashed_grey), kClearlyDifferent);
  EXPECT_GT(ColorDistance(stretched_strain, stretched_grey), kClearlyDifferent);
  // the ends of the diverging map: blue compression, red expansion
  EXPECT_TRUE(IsBluish(squashed_strain)) << Describe(squashed_strain);
  EXPECT_TRUE(IsReddish(stretched_strain)) << Describe(stretched_strain);
  const StrainLegend legend = ComputeStrainLegend(frame, strain);
  EXPECT_NEAR(legend.min, -0.25f, 1e-4f);
  EXPECT_NEAR(legend.max, 0.25f, 1e-4f);
  // the ground away from the blocks is the same picture in both views
  const Eigen::Vector2f ground = Project(camera, Eigen::Vector3f(0.9f, -0.9f, 0));
  EXPECT_LT(ColorDistance(PixelAt(shaded, ground), PixelAt(coloured, ground)), 4);
}


TEST_F(ViewModesRender, StrainLegendDrawsTheColourBar) {
  const VisualFrame frame = SquashedAndStretchedBlocks();
  const OrbitCamera camera = CloseCamera();
  RenderOptions options;
  options.view = ViewMode::kStrain;
  options.show_legend = false;
  const Image without = Render(frame, camera, options);
  options.show_legend = true;
  const Image with = Render(frame, camera, options);
  // the bar sits in the bottom-right quarter: its red top and blue bottom are in that region
  int red = 0, blue = 0;
  for (int y = kHeight / 4; y < kHeight; ++y) {
    for (int x = kWidth / 2; x < kWidth; ++x) {
      const Rgb a = PixelAt(with, x, y);
      if (ColorDistance(a, PixelAt(without, x, y)) < kClearlyDifferent) continue;
      red += IsReddish(a);
      blue += IsBluish(a);
    }
  }
  EXPECT_GT(red, 20);
  EXPECT_GT(blue, 20);
}


TEST_F(ViewModesRender, ContactsViewDrawsPointsAndForceArrowsAtTheContacts) {
  // a grey box on the ground, resting on its four bottom corners; the corner in front slides
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  frame.shapes.push_back(MakeShape(ShapeType::kBox, {0.25f, 0.25f, 0.15f},
                                   Eigen::Vector3f(0, 0, 0.15f), {0.6f, 0.6f, 0.6f, 1}));
  frame.shapes.back().body = 0;
  const std::array<Eigen::Vector3f, 4> corners = {
      Eigen::Vector3f(-0.25f, -0.25f, 0), Eigen::Vector3f(0.25f, -0.25f, 0),
      Eigen::Vector3f(0.25f, 0.25f, 0), Eigen::Vector3f(-0.25f, 0.25f, 0)};
  for (int i = 0; i < 4; ++i) {
    VisualContact contact;
    contact.point = {corners[i].x(), corners[i].y(), corners[i].z()};
    contact.normal = {0, 0, 1};
    contact.normal_force = 10;
    contact.sliding = i == 0;
    contact.friction_force = {i == 0 ? 4.0f : 1.0f, 0, 0};
    contact.body_a = 0;
    frame.contacts.push_back(contact);
  }
  OrbitCamera camera = CloseCamera();
  camera.yaw_deg = -60;  // corner 0 (−x, −y) faces the camera
  RenderOptions contacts;
  contacts.view = ViewMode::kContacts;
  contacts.show_legend = false;
  const Image shaded = Render(frame, camera);
  const Image view = Render(frame, camera, contacts);

  // the sliding corner: its point marker in the slip colour (within 2 px: markers are a few
  // pixels wide at this size), which the shaded view does not have
  const float view_height = ViewHeightAtTarget(camera);
  const Eigen::Vector2f sliding = Project(camera, corners[0]);
  EXPECT_TRUE(AnyPixelNear(view, sliding, 2, IsReddish));
  EXPECT_FALSE(AnyPixelNear(shaded, sliding, 2, IsReddish));
  // its normal force arrow: the largest force of the frame, arrow_length of the view height
  const ForceScale scale = ComputeForceScale(frame, contacts, view_height);
  EXPECT_FLOAT_EQ(scale.max_force, 10);
  const float length = 10 * scale.meters_per_newton;
  EXPECT_NEAR(length, contacts.arrow_length * view_height, 1e-5f);
  for (const float along : {0.3f, 0.6f}) {
    const Eigen::Vector2f shaft =
        Project(camera, corners[0] + Eigen::Vector3f(0, 0, along * length));
    EXPECT_TRUE(AnyPixelNear(view, shaft, 1, IsBluish)) << along;
    EXPECT_FALSE(AnyPixelNear(shaded, shaft, 1, IsBluish)) << along;
  }
  // the sticking corners, one of them behind the see-through box: green points
  for (int i = 1; i < 4; ++i) {
    EXPECT_TRUE(AnyPixelNear(view, Project(camera, corners[i]), 2, IsGreenish)) << "corner " << i;
  }
  // the friction arrow of the sliding corner runs along +x, in the slip colour
  const Eigen::Vector2f friction =
      Project(camera, corners[0] + Eigen::Vector3f(0.3f * length, 0, 0));
  EXPECT_TRUE(AnyPixelNear(view, friction, 1, IsReddish));
}


// a unit quad in the x-z plane facing −y, with uvs (0, 0) at its bottom-left corner
std::shared_ptr<VisualMesh> TexturedQuad(const std::string& texture) {
  auto mesh = std::make_shared<VisualMesh>();
  mesh->name = "quad";
  mesh->positions = {{-0.5f, 0, -0.5f}, {0.5f, 0, -0.5f}, {0.5f, 0, 0.5f}, {-0.5f, 0, 0.5f}};
  mesh->normals.assign(4, {0, -1, 0});
  mesh->uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  mesh->indices = {0, 1, 2, 0, 2, 3};
  mesh->parts.resize(1);
  mesh->parts[0].index_count = 6;
  mesh->parts[0].color = {1, 1, 1, 1};
  mesh->parts[0].texture = texture;
  return mesh;
}


// 2×2 texels, rows top to bottom: red, green / blue, yellow
Image QuadrantImage() {
  Image image;
  image.width = image.height = 64;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const bool right = x >= 32, bottom = y >= 32;
      const std::array<std::uint8_t, 4> c =
          !bottom ? (right ? std::array<std::uint8_t, 4>{0, 220, 0, 255}
                           : std::array<std::uint8_t, 4>{220, 0, 0, 255})
                  : (right ? std::array<std::uint8_t, 4>{230, 230, 0, 255}
                           : std::array<std::uint8_t, 4>{0, 0, 220, 255});
      image.rgba.insert(image.rgba.end(), c.begin(), c.end());
    }
  }
  return image;
}


// baseline JPEG of `image` (quality 95), written with libjpeg
void WriteJpeg(const std::string& path, const Image& image) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  jpeg_compress_struct info{};
  jpeg_error_mgr error{};
  info.err = jpeg_std_error(&error);
  jpeg_create_compress(&info);
  jpeg_stdio_dest(&info, file);
  info.image_width = image.width;
  info.image_height = image.height;
  info.input_components = 3;
  info.in_color_space = JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, 95, TRUE);
  jpeg_start_compress(&info, TRUE);
  std::vector<std::uint8_t> row(image.width * 3);
  while (info.next_scanline < info.image_height) {
    for (int x = 0; x < image.width; ++x) {
      for (int c = 0; c < 3; ++c)
        row[3 * x + c] = image.rgba[(info.next_scanline * image.width + x) * 4 + c];
    }
    JSAMPROW pointer = row.data();
    jpeg_write_scanlines(&info, &pointer, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  std::fclose(file);
}


class TexturedMeshRender : public ViewModesRender, public ::testing::WithParamInterface<bool> {};


TEST_P(TexturedMeshRender, ShowsItsTextureTheRightWayUp) {
  // the texture file, PNG or JPEG
  const bool jpeg = GetParam();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sim_render_texture";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (jpeg ? "quadrants.jpg" : "quadrants.png")).string();
  if (jpeg) {
    WriteJpeg(path, QuadrantImage());
  } else {
    std::string error;
    ASSERT_TRUE(WritePng(path, QuadrantImage(), &error)) << error;
  }
  // the quad stands at the origin facing a camera on −y
  VisualFrame frame;
  frame.meshes.push_back(TexturedQuad(path));
  VisualMeshInstance instance;
  instance.mesh = 0;
  instance.color = {0, 0, 0, 0};  // the part's own colour and texture
  instance.X_WS = Rows(Eigen::Vector3f(0, 0, 0.5f));
  frame.mesh_instances.push_back(instance);
  OrbitCamera camera;
  camera.target = Eigen::Vector3f(0, 0, 0.5f);
  camera.distance = 1.6f;
  camera.yaw_deg = -90;  // eye on −y
  camera.pitch_deg = 0;
  const Image image = Render(frame, camera);
  const auto at = [&](float x, float z) {
    return PixelAt(image, Project(camera, Eigen::Vector3f(x, 0, 0.5f + z)));
  };
  const Rgb top_left = at(-0.25f, 0.25f), top_right = at(0.25f, 0.25f);
  const Rgb bottom_left = at(-0.25f, -0.25f), bottom_right = at(0.25f, -0.25f);
  EXPECT_TRUE(IsReddish(top_left)) << Describe(top_left);
  EXPECT_TRUE(IsGreenish(top_right)) << Describe(top_right);
  EXPECT_TRUE(IsBluish(bottom_left)) << Describe(bottom_left);
  EXPECT_TRUE(bottom_right[0] > bottom_right[2] + kDominates &&
              bottom_right[1] > bottom_right[2] + kDominates)
      << "yellow: " << Describe(bottom_right);
}

INSTANTIATE_TEST_SUITE_P(PngAndJpeg, TexturedMeshRender, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Jpeg" : "Png"; });


// a closed 0.5 m cube [−0.25, 0.25]³ as a VisualMesh (flat faces)
std::shared_ptr<VisualMesh> CubeMesh() {
  const MeshData box = MakeBoxMesh();
  auto mesh = std::make_shared<VisualMesh>();
  mesh->name = "cube";
  for (const MeshVertex& v : box.vertices) {
    mesh->positions.push_back(
        {0.25f * v.position[0], 0.25f * v.position[1], 0.25f * v.position[2]});
    mesh->normals.push_back(v.normal);
  }
  mesh->indices = box.indices;
  mesh->parts.resize(1);
  mesh->parts[0].index_count = static_cast<std::uint32_t>(box.indices.size());
  return mesh;
}


TEST_F(ViewModesRender, MeshInstancesAppearWhereTheirPosesSay) {
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  frame.meshes.push_back(CubeMesh());
  // one mesh, two instances: red turned 30° about z at (0.6, 0, 0.25), green at (−0.6, 0.3, 0.25)
  const Eigen::Vector3f red_at(0.6f, 0, 0.25f), green_at(-0.6f, 0.3f, 0.25f);
  VisualMeshInstance red;
  red.mesh = 0;
  red.color = {0.8f, 0.05f, 0.05f, 1};
  red.X_WS = Rows(red_at, Eigen::AngleAxisf(0.5f, Eigen::Vector3f::UnitZ()).toRotationMatrix());
  VisualMeshInstance green = red;
  green.color = {0.05f, 0.7f, 0.05f, 1};
  green.X_WS = Rows(green_at);
  frame.mesh_instances = {red, green};
  const OrbitCamera camera = CloseCamera();
  const Image image = Render(frame, camera);
  EXPECT_TRUE(IsReddish(PixelAt(image, Project(camera, red_at))));
  EXPECT_TRUE(IsGreenish(PixelAt(image, Project(camera, green_at))));
  // nothing above them
  const Eigen::Vector3f above(0, 0, 0.45f);
  EXPECT_FALSE(IsReddish(PixelAt(image, Project(camera, red_at + above))));
  EXPECT_FALSE(IsGreenish(PixelAt(image, Project(camera, green_at + above))));
}


TEST_F(ViewModesRender, SelectedBodyIsHighlighted) {
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  frame.shapes.push_back(MakeShape(ShapeType::kBox, {0.2f, 0.2f, 0.2f}, Eigen::Vector3f(0, 0, 0.2f),
                                   {0.3f, 0.3f, 0.3f, 1}));
  frame.shapes.back().body = 4;
  const OrbitCamera camera = CloseCamera();
  const Image plain = Render(frame, camera);
  frame.selected_body = 4;
  const Image selected = Render(frame, camera);
  const Eigen::Vector2f face = Project(camera, Eigen::Vector3f(0, -0.2f, 0.2f));
  const Rgb before = PixelAt(plain, face), after = PixelAt(selected, face);
  // tinted towards the warm highlight
  EXPECT_GT(after[0] - after[2], before[0] - before[2] + 20) << Describe(after);
}


TEST_F(ViewModesRender, CollisionGeometryShowsOnlyWhenAsked) {
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  frame.shapes.push_back(MakeShape(ShapeType::kSphere, {0.25f, 0, 0}, Eigen::Vector3f(0, 0, 0.3f),
                                   {0.2f, 0.2f, 0.8f, 1}));
  frame.shapes.back().collision_only = true;
  const OrbitCamera camera = CloseCamera();
  RenderOptions options;
  const Image hidden = Render(frame, camera, options);
  options.show_collision = true;
  const Image shown = Render(frame, camera, options);
  const Eigen::Vector2f centre = Project(camera, Eigen::Vector3f(0, 0, 0.3f));
  // hidden: the ground behind; shown: the see-through collision colour (orange) over it
  EXPECT_GT(ColorDistance(PixelAt(hidden, centre), PixelAt(shown, centre)), kClearlyDifferent);
  const Rgb orange = PixelAt(shown, centre);
  EXPECT_GT(orange[0], orange[2] + kDominates) << Describe(orange);
}


TEST_F(ViewModesRender, TheGroundGoesOnUnderACameraFarFromItsOrigin) {
  // a camera following a body 300 m out, six times the drawn square's half size: the square
  // moves under the target, so the ground is there (not sky) and its grid lines stay put
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  const OrbitCamera near = CloseCamera();
  OrbitCamera far = near;
  far.target += Eigen::Vector3f(300, 0, 0);
  const Image at_origin = Render(frame, near);
  const Image far_out = Render(frame, far);
  const Eigen::Vector2f centre = Project(far, far.target - Eigen::Vector3f(0, 0, 0.15f));
  const Rgb sky = PixelAt(far_out, static_cast<int>(centre.x()), 2);
  EXPECT_GT(ColorDistance(PixelAt(far_out, centre), sky), kClearlyDifferent);
  // the grid repeats every 10 cells (5 m): away from the world axes the two views match
  const Eigen::Vector2f off_axes = Project(near, Eigen::Vector3f(0.7f, 0.7f, 0));
  EXPECT_LT(ColorDistance(PixelAt(at_origin, off_axes),
                          PixelAt(far_out, Project(far, Eigen::Vector3f(300.7f, 0.7f, 0)))),
            12);
}


TEST_F(ViewModesRender, JointFramesCentresOfMassAndDragSpringAreDrawn) {
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  VisualBody body;
  body.X_WB = Rows(Eigen::Vector3f(-0.4f, 0, 0.3f));
  body.mass = 1;
  frame.bodies.push_back(body);
  VisualJoint joint;
  joint.type = JointType::kRevolute;
  joint.X_WJ = Rows(Eigen::Vector3f(0.4f, 0, 0.3f));
  joint.axis_W = {0, 1, 0};
  frame.joints.push_back(joint);
  const OrbitCamera camera = CloseCamera();
  RenderOptions options;
  const Image none = Render(frame, camera, options);
  options.show_com = true;
  options.show_joint_frames = true;
  const Image markers = Render(frame, camera, options);
  // the COM marker (yellow) and the joint frame's x axis (red) half way along
  const Rgb com = PixelAt(markers, Project(camera, Eigen::Vector3f(-0.4f, 0, 0.3f)));
  EXPECT_TRUE(com[0] > com[2] + kDominates && com[1] > com[2] + kDominates) << Describe(com);
  const float axis = kJointAxisLengthPerView * ViewHeightAtTarget(camera);
  const Rgb x_axis =
      PixelAt(markers, Project(camera, Eigen::Vector3f(0.4f + 0.4f * axis, 0, 0.3f)));
  EXPECT_TRUE(IsReddish(x_axis)) << Describe(x_axis);
  EXPECT_FALSE(
      IsReddish(PixelAt(none, Project(camera, Eigen::Vector3f(0.4f + 0.4f * axis, 0, 0.3f)))));
  // the drag spring: a magenta arrow from the anchor to the target
  frame.drag.active = true;
  frame.drag.anchor = {-0.3f, -0.3f, 0.2f};
  frame.drag.target = {0.3f, -0.3f, 0.5f};
  const Image drag = Render(frame, camera);
  const Rgb middle = PixelAt(drag, Project(camera, Eigen::Vector3f(0, -0.3f, 0.35f)));
  EXPECT_TRUE(middle[0] > middle[1] + kDominates && middle[2] > middle[1] + kDominates)
      << "magenta: " << Describe(middle);
}


TEST_F(ViewModesRender, SoftBodiesAreDrawnWithTheirMaterialAndCastShadows) {
  Model model = test_support::MakeEmptyModel();
  model.materials[0].color = {0.8f, 0.1f, 0.1f};
  State state;
  test_support::AddTetBlock(&model, &state, "block", Vec3(-0.2, -0.2, 0.3), Vec3(0.4, 0.4, 0.2),
                            {2, 2, 1});
  VisualFrame frame = MakeVisualFrame(model, state);
  frame.shapes.insert(frame.shapes.begin(), Ground());
  const OrbitCamera camera = CloseCamera();
  RenderOptions options;
  const Image lit = Render(frame, camera, options);
  EXPECT_TRUE(IsReddish(PixelAt(lit, Project(camera, Eigen::Vector3f(0, 0, 0.5f)))));
  // the block floats 0.3 m up: without shadows the ground below it gets brighter
  options.shadows = false;
  const Image unshadowed = Render(frame, camera, options);
  int darker = 0;
  for (std::size_t i = 0; i < lit.rgba.size(); i += 4) {
    darker += lit.rgba[i + 1] + 20 < unshadowed.rgba[i + 1];
  }
  EXPECT_GT(darker, 200) << "pixels in the block's shadow";
}

// counts the pixels where `a` and `b` differ clearly in some channel
int ClearlyDifferentPixels(const Image& a, const Image& b) {
  int count = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
    for (int c = 0; c < 3; ++c) {
      if (std::abs(a.rgba[i + c] - b.rgba[i + c]) > kClearlyDifferent) {
        ++count;
        break;
      }
    }
  }
  return count;
}


TEST_F(ViewModesRender, ShadowsFollowMovingCastersAndStayWhenNothingMoves) {
  // a table-like slab and a box that moves over it, as an arm does over fetch_tomato's table
  VisualFrame frame;
  frame.shapes.push_back(Ground());
  frame.shapes.push_back(MakeShape(ShapeType::kBox, {0.5f, 0.4f, 0.02f},
                                   Eigen::Vector3f(0, 0, 0.3f), {0.55f, 0.42f, 0.3f, 1}));
  frame.shapes.push_back(MakeShape(ShapeType::kBox, {0.06f, 0.06f, 0.06f},
                                   Eigen::Vector3f(-0.2f, 0, 0.6f), {0.2f, 0.3f, 0.8f, 1}));
  const OrbitCamera camera = CloseCamera();
  const Image first = Render(frame, camera);
  // nothing moved: the map drawn for the first frame is used again, to the same picture
  const Image again = Render(frame, camera);
  EXPECT_EQ(again.rgba, first.rgba);

  // the box moves 0.3 m: its shadow on the slab moves with it (the light's fit stays)
  frame.shapes[2].X_WS[3] = 0.1f;
  const Image moved = Render(frame, camera);
  EXPECT_GT(ClearlyDifferentPixels(first, moved), 100) << "the shadow moved";
  // ...to where a renderer that never saw the first frame draws it
  std::string skip;
  std::unique_ptr<OffscreenRenderer> fresh = MakeRenderer(kWidth, kHeight, 4, false, &skip);
  ASSERT_TRUE(fresh) << skip;
  const Image reference = fresh->Render(frame, camera);
  EXPECT_LT(ClearlyDifferentPixels(moved, reference), 20)
      << "the stable fit's slightly larger texels change the shadow's edge only";
}

}  // namespace
}  // namespace sim::render
