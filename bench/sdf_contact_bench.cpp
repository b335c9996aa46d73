// Table 4 of Macklin's thesis ch. 6 (digest shared/docs/seeds/pd-sdf-robotics.md §2.12) on the
// CPU: per-step collision time of a mesh against an SDF for point sampling ("Simple"), PGD and
// Frank–Wolfe face optimization and golden-section search over edges ("GS"), 32 iterations for
// every method (tolerance 0, so no early termination), bounding-sphere culling on, margin 1 cm.
//
// Scenes (analytic fields, and the same field sampled on the engine's SdfGrid at the thesis's
// resolutions: 256³ for the dragon and rope rows, 128³ for the deformable teapot's size class;
// the thesis ran on an RTX 2080 Ti, one GPU thread per element):
//   cloth20k  101×101-vertex cloth (10,201 points, 20,000 triangles) draped 2 mm above a spiky
//             body (sphere + 6 sharp cones) on a ground plane: the "Dragon" row's size class
//   spool     100×100-vertex cloth (10,000 points, 19,602 triangles) draped over an analytic
//             spool (two flanges and a core, Fig. 46): the "Analytic" row
//   rope      128 ropes × 32 segments (4,224 points, 4,096 segments) lying across a box edge:
//             the "Rope" row; PGD/FW run on degenerate triangles (a, b, b) per segment
//
// Then the engine's collision stage itself (DetectContacts, both directions, representative
// triangles, contact reduction) for the target: a rigid 20,480-triangle mesh resting on
// a mesh whose SDF is a 256³ grid ("mesh20k_on_grid256").
//
// Single thread, shared machine: the table reports CPU time (not wall time), numbers are
// indicative. Run:
//   build/bin/sdf_contact_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "engine/collision/collision.h"
#include "engine/collision/sdf_contact.h"
#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/mesh_primitives.h"
#include "engine/geometry/sdf_grid.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;
constexpr Real kMargin = 0.01;  // contact margin δ [m]: thickness + per-step motion (digest §13)

// the analytic field sampled on the engine's SdfGrid (n nodes per axis over [lo, hi])
std::shared_ptr<const SdfGrid> Sampled(const AnalyticSdf& field, const Vec3& lo, const Vec3& hi,
                                       int n) {
  return SdfGrid::FromFunction(lo, hi, SdfGrid::Index3(n, n, n),
                               [&](const Vec3& x) { return field.Distance(x); });
}

Quat RotateZTo(const Vec3& d) { return Quat::FromTwoVectors(Vec3::UnitZ(), d); }

// sphere with six sharp cones and a ground plane: features that vertex sampling misses
AnalyticSdf MakeSpikyBody() {
  AnalyticSdf f;
  int body = f.AddSphere(0.35);
  const Vec3 dirs[] = {Vec3(0, 0, 1),   Vec3(1, 0, 0.3),  Vec3(-1, 0, 0.3),
                       Vec3(0, 1, 0.3), Vec3(0, -1, 0.3), Vec3(0.6, 0.6, 0.8)};
  for (const Vec3& d0 : dirs) {
    const Vec3 d = d0.normalized();
    // apex 0.65 m from the centre, pointing along d (cone axis is its local −z)
    const int cone = f.AddCone(kPi / 12, 0.4, {0.65 * d, RotateZTo(d)});
    body = f.Union(body, cone);
  }
  const int ground = f.AddHalfSpace({Vec3(0, 0, -0.4), Quat::Identity()});
  f.Union(body, ground);
  return f;
}

// spool of Fig. 46: two flanges and a core along x, on a ground plane
AnalyticSdf MakeSpool() {
  AnalyticSdf f;
  const Quat along_x = RotateZTo(Vec3::UnitX());
  const int core = f.AddCylinder(0.2, 0.45, {Vec3::Zero(), along_x});
  const int left = f.AddCylinder(0.45, 0.04, {Vec3(-0.45, 0, 0), along_x});
  const int right = f.AddCylinder(0.45, 0.04, {Vec3(0.45, 0, 0), along_x});
  const int spool = f.Union(f.Union(core, left), right);
  const int ground = f.AddHalfSpace({Vec3(0, 0, -0.45), Quat::Identity()});
  f.Union(spool, ground);
  return f;
}

// box whose top edge (along y) is sharp, ropes cross it along x
AnalyticSdf MakeEdgeBox() {
  AnalyticSdf f;
  f.AddBox(Vec3(0.5, 1.2, 0.5), {Vec3::Zero(), Quat(Eigen::AngleAxisd(kPi / 4, Vec3::UnitY()))});
  return f;
}

// n×n-vertex cloth over [-1, 1]², offset by a fraction of a cell so no vertex sits exactly on a
// spike's apex, each vertex sphere-traced down to `thickness` above the field
template <class Field>
TriangleMesh DrapeCloth(const Field& field, int n, Real thickness) {
  TriangleMesh mesh;
  const Real h = 2.0 / (n - 1);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      Vec3 x(-1 + (i + 0.37) * h, -1 + (j + 0.29) * h, 1.2);
      for (int s = 0; s < 400; ++s) {
        const Real phi = field.Sample(x).distance;
        if (phi <= thickness + 1e-6) break;
        x.z() -= phi - thickness;
      }
      mesh.vertices.push_back(x);
    }
  }
  for (int j = 0; j + 1 < n; ++j) {
    for (int i = 0; i + 1 < n; ++i) {
      const int a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      mesh.triangles.push_back({a, b, d});
      mesh.triangles.push_back({a, d, c});
    }
  }
  return mesh;
}

// 128 ropes × 32 segments across the box edge; degenerate triangles (a, b, b) per segment
TriangleMesh MakeRopes(std::vector<std::array<int, 2>>* edges) {
  TriangleMesh mesh;
  const Real top = 0.5 * std::sqrt(2.0);  // height of the box's top edge
  for (int r = 0; r < 128; ++r) {
    const Real y = -1.0 + 2.0 * (r + 0.5) / 128;
    const int first = mesh.vertex_count();
    for (int k = 0; k <= 32; ++k) {
      // straight rope 1 mm below the edge height: only mid-segment points touch the edge
      mesh.vertices.emplace_back(-0.8 + 1.6 * (k + 0.41) / 32.5, y, top - 0.001);
    }
    for (int k = 0; k < 32; ++k) {
      edges->push_back({first + k, first + k + 1});
      mesh.triangles.push_back({first + k, first + k + 1, first + k + 1});
    }
  }
  return mesh;
}

struct Scene {
  std::string name;
  TriangleMesh mesh;
  std::vector<std::array<int, 2>> edges;
};

enum class Method { kSimple, kPgd, kFw, kGs };
constexpr const char* kMethodNames[] = {"Simple", "PGD", "FW", "GS"};

struct Row {
  std::string scene, field;
  int points = 0, elements = 0;
  double us[4] = {-1, -1, -1, -1};
  int contacts[4] = {0, 0, 0, 0};
  double min_phi[4] = {0, 0, 0, 0};
};
std::map<std::string, Row> g_rows;
std::vector<std::string> g_order;

template <class Field>
void RunCollision(benchmark::State& state, const Scene* scene, const Field* field, Method method,
                  Row* row) {
  SdfCollideSettings settings;
  settings.margin = kMargin;
  settings.optimizer.tolerance = 0;  // fixed 32 iterations, as Table 4
  settings.face_method = method == Method::kSimple ? FaceMethod::kVertices
                         : method == Method::kFw   ? FaceMethod::kFrankWolfe
                                                   : FaceMethod::kPgd;
  // GS: edges only (an empty triangle list leaves only the edge pass)
  static const TriangleMesh kNoTriangles;
  TriangleMesh edges_only;
  if (method == Method::kGs) {
    edges_only.vertices = scene->mesh.vertices;
    settings.edges_gss = true;
  }
  const TriangleMesh& mesh = method == Method::kGs ? edges_only : scene->mesh;
  std::vector<SdfMeshContact> contacts;
  contacts.reserve(scene->mesh.triangles.size() + scene->edges.size() +
                   scene->mesh.vertices.size());
  SdfCollideStats stats;
  for (auto _ : state) {
    contacts.clear();
    stats = CollideMeshSdf(mesh, Pose{}, *field, Pose{}, settings, scene->edges, &contacts);
    benchmark::DoNotOptimize(contacts.data());
  }
  // validation: every result is finite
  Real min_phi = std::numeric_limits<Real>::infinity();
  for (const SdfMeshContact& c : contacts) {
    if (!std::isfinite(c.distance) || !c.normal_W.allFinite()) state.SkipWithError("non-finite");
    min_phi = std::min(min_phi, c.distance);
  }
  state.counters["contacts"] = stats.contacts;
  state.counters["culled"] = stats.culled;
  state.counters["min_phi_mm"] = min_phi * 1e3;
  const int m = static_cast<int>(method);
  row->contacts[m] = stats.contacts;
  row->min_phi[m] = min_phi;
}

// collects the mean time per run into the table rows
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::string name = run.benchmark_name();
      const size_t slash = name.rfind('/');
      const std::string key = name.substr(0, slash), method = name.substr(slash + 1);
      for (int m = 0; m < 4; ++m) {
        if (method == kMethodNames[m]) g_rows[key].us[m] = run.GetAdjustedCPUTime();
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

template <class Field>
void Register(const std::string& scene_name, const std::string& field_name,
              std::shared_ptr<Scene> scene, std::shared_ptr<Field> field) {
  const std::string key = scene_name + "/" + field_name;
  Row& row = g_rows[key];
  row.scene = scene_name;
  row.field = field_name;
  row.points = scene->mesh.vertex_count();
  row.elements = scene->mesh.triangle_count();
  g_order.push_back(key);
  for (int m = 0; m < 4; ++m) {
    benchmark::RegisterBenchmark((key + "/" + kMethodNames[m]).c_str(),
                                 [scene, field, m, &row](benchmark::State& state) {
                                   RunCollision(state, scene.get(), field.get(),
                                                static_cast<Method>(m), &row);
                                 })
        ->Unit(benchmark::kMicrosecond);
  }
}

// the collision stage on a rigid mesh pair: a 20,480-triangle icosphere (r = 0.2 m, 64³ grid)
// resting 1 mm deep on the tube of a 20,000-triangle torus whose SDF is a 256³ grid
void RegisterMeshOnGrid() {
  auto model = std::make_shared<Model>();
  auto state = std::make_shared<State>();
  model->materials.push_back(Material{.name = "default"});
  Diagnostics diagnostics;
  CollisionMeshOptions torus_options;
  torus_options.sdf_resolution = 256;
  ShapeGeometry torus;
  torus.type = ShapeType::kMesh;
  torus.mesh = BuildCollisionMesh(Torus(0.5, 0.2, 200, 50), torus_options, "bench", &diagnostics);
  ShapeGeometry ball;
  ball.type = ShapeType::kMesh;
  ball.mesh = BuildCollisionMesh(Icosphere(5, 0.2), {}, "bench", &diagnostics);
  if (!torus.mesh || !ball.mesh) {
    std::fprintf(stderr, "%s", diagnostics.Format().c_str());
    return;
  }
  model->shape_name = {"torus", "ball"};
  model->shape_geometry = {torus, ball};
  model->shape_body = {kWorldBody, 0};
  model->shape_X_BS = {Pose{}, Pose{}};
  model->shape_material = {0, 0};
  model->shape_color = {{0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}};
  model->body_name = {"ball"};
  model->body_mass = {1};
  model->body_inertia = {Mat3::Identity()};
  model->body_static = {0};
  state->body_X_WB = {Pose{Vec3(0.5, 0, 0.399), Quat::Identity()}};
  state->body_v_W = {Vec3::Zero()};
  state->body_w_W = {Vec3::Zero()};
  benchmark::RegisterBenchmark("mesh20k_on_grid256/DetectContacts", [model, state](
                                                                        benchmark::State& bench) {
    CollisionWorkspace workspace;
    Contacts contacts;
    CollisionStats stats;
    for (auto _ : bench) {
      DetectContacts(*model, *state, kMargin, 1.0 / 120, &workspace, &contacts, &stats);
      benchmark::DoNotOptimize(contacts.items.data());
    }
    bench.counters["contacts"] = contacts.count();
    Real deepest = 0;
    for (const Contact& c : contacts.items) deepest = std::min(deepest, c.gap0);
    bench.counters["deepest_mm"] = deepest * 1e3;
  })->Unit(benchmark::kMicrosecond);
}

}  // namespace
}  // namespace sim

int main(int argc, char** argv) {
  using namespace sim;
  benchmark::Initialize(&argc, argv);
  // fields
  auto spiky = std::make_shared<AnalyticSdf>(MakeSpikyBody());
  auto spool = std::make_shared<AnalyticSdf>(MakeSpool());
  auto edge_box = std::make_shared<AnalyticSdf>(MakeEdgeBox());
  for (const auto* f : {spiky.get(), spool.get(), edge_box.get()}) {
    if (!f->Validate().empty()) return 1;
  }
  const Vec3 lo(-1.3, -1.3, -0.6), hi(1.3, 1.3, 1.3);
  auto spiky_grid = Sampled(*spiky, lo, hi, 257);
  auto spool_grid = Sampled(*spool, lo, hi, 129);
  auto edge_grid = Sampled(*edge_box, lo, hi, 257);
  // scenes (meshes draped on the analytic field, shared by the grid variants)
  auto cloth = std::make_shared<Scene>(Scene{"cloth20k", DrapeCloth(*spiky, 101, 0.002), {}});
  cloth->edges = CollectUniqueEdges(cloth->mesh);
  auto spool_cloth = std::make_shared<Scene>(Scene{"spool", DrapeCloth(*spool, 100, 0.002), {}});
  spool_cloth->edges = CollectUniqueEdges(spool_cloth->mesh);
  auto ropes = std::make_shared<Scene>();
  ropes->name = "rope";
  ropes->mesh = MakeRopes(&ropes->edges);

  Register("cloth20k", "analytic", cloth, spiky);
  Register("cloth20k", "grid256", cloth, spiky_grid);
  Register("spool", "analytic", spool_cloth, spool);
  Register("spool", "grid128", spool_cloth, spool_grid);
  Register("rope", "analytic", ropes, edge_box);
  Register("rope", "grid256", ropes, edge_grid);
  RegisterMeshOnGrid();

  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  // Table 4 layout: µs per collision step, 32 iterations, culling on (1 CPU thread)
  std::printf("\nTable 4 (CPU, 1 thread, 32 iterations, culling, δ = %.0f mm): µs per step\n",
              kMargin * 1e3);
  std::printf("%-10s %-9s %7s %9s | %9s %9s %9s %9s | min φ [mm] Simple/PGD/FW/GS\n", "scene",
              "field", "points", "elements", "Simple", "PGD", "FW", "GS");
  for (const std::string& key : g_order) {
    const Row& r = g_rows[key];
    std::printf("%-10s %-9s %7d %9d |", r.scene.c_str(), r.field.c_str(), r.points, r.elements);
    for (int m = 0; m < 4; ++m) std::printf(" %9.1f", r.us[m]);
    std::printf(" | %.2f / %.2f / %.2f / %.2f\n", r.min_phi[0] * 1e3, r.min_phi[1] * 1e3,
                r.min_phi[2] * 1e3, r.min_phi[3] * 1e3);
  }
  return 0;
}
