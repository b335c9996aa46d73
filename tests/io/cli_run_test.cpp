// `contact-sim run`, `compare` and `bench` as a user runs them: exit codes, the JSON report's
// layout (architecture §5), the trajectory and bench CSVs, and the messages of bad flags. These
// check the plumbing, not the physics: they hold for any solver behind "nsn".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/json_document.h"
#include "engine/io/scene_file.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

using sim::test_support::CommandResult;
using sim::test_support::RunCommand;
using ::testing::HasSubstr;

const std::string kDefaultScene = std::string(SIM_SOURCE_DIR) + "/scenes/default.json";

// a second, tiny scene: one ball above a plane
constexpr const char* kBallScene = R"({
  "name": "ball",
  "solver": {"name": "nsn", "dt": 0.01},
  "materials": {"rubber": {"friction": 0.9, "density": 1200}},
  "objects": [
    {"name": "ground", "type": "plane"},
    {"name": "ball", "type": "sphere", "material": "rubber", "radius": 0.1, "position": [0, 0, 1]}
  ]
})";

std::string TestName() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }


// a file path unique to the current test
std::string TempPath(const std::string& suffix) {
  return ::testing::TempDir() + "/cli_run_test_" + TestName() + suffix;
}


CommandResult RunContactSim(const std::string& args) {
  return RunCommand(std::string(SIM_BINARY_DIR) + "/bin/contact-sim " + args, TempPath(".log"));
}


std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}


std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  return lines;
}


std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
  return fields;
}


// the parsed report, or a failed assertion
JsonValue ReadReport(const std::string& path) {
  Expected<JsonValue> json = ParseJson(ReadFile(path), path);
  EXPECT_TRUE(json.ok()) << json.diagnostics().Format();
  return json.ok() ? json.value() : JsonValue();
}


// every key in `keys` is a member of `object`
void ExpectKeys(const JsonValue& object, const std::vector<std::string>& keys,
                const std::string& where) {
  ASSERT_TRUE(object.is_object()) << where;
  for (const std::string& key : keys) EXPECT_NE(object.Find(key), nullptr) << where << "." << key;
}


// the run sections of architecture §5 in one run or compare config entry
void ExpectRunSections(const JsonValue& run, int steps, const Model& model) {
  ExpectKeys(run,
             {"solver", "backend", "dt", "steps", "settings", "counts", "timing", "quality",
              "status", "bodies", "particles", "convergence"},
             "report");
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_EQ(run.Find("steps")->number(), steps);
  ExpectKeys(*run.Find("settings"),
             {"name", "dt", "newton_iterations", "linear_iterations", "linear_solver", "ncp",
              "preconditioner", "damping", "line_search", "regularization", "geometric_stiffness",
              "contact_margin"},
             "settings");
  ExpectKeys(*run.Find("counts"), {"bodies", "joints", "particles", "tets", "contacts_max"},
             "counts");
  EXPECT_EQ(run.Find("counts")->Find("bodies")->number(), model.body_count());
  ExpectKeys(*run.Find("timing"),
             {"step_ms_median", "step_ms_p95", "collision_ms_median", "assembly_ms_median",
              "solve_ms_median"},
             "timing");
  ExpectKeys(*run.Find("quality"),
             {"max_penetration_m", "max_joint_error_m", "energy_drift_rel", "nonfinite_steps",
              "final_residual_max"},
             "quality");

  // every step is counted once as ok or under its bits
  const JsonValue& status = *run.Find("status");
  ExpectKeys(status,
             {"ok", "max_iterations", "line_search_failed", "non_finite", "capacity_exceeded",
              "unsupported_pair", "runaway", "unconverged"},
             "status");
  for (const auto& [name, count] : status.members()) {
    EXPECT_GE(count.number(), 0) << name;
    EXPECT_LE(count.number(), steps) << name;
  }

  // every named body with its final pose and twist
  const JsonValue& bodies = *run.Find("bodies");
  EXPECT_EQ(static_cast<int>(bodies.members().size()), model.body_count());
  for (const std::string& name : model.body_name) {
    const JsonValue* body = bodies.Find(name);
    ASSERT_NE(body, nullptr) << name;
    EXPECT_EQ(body->Find("position")->items().size(), 3u) << name;
    EXPECT_EQ(body->Find("orientation_wxyz")->items().size(), 4u) << name;
    EXPECT_EQ(body->Find("linear_velocity")->items().size(), 3u) << name;
    EXPECT_EQ(body->Find("angular_velocity")->items().size(), 3u) << name;
  }
  EXPECT_TRUE(run.Find("convergence")->is_array());
}


class CliRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Expected<Scene> scene = LoadScene(kDefaultScene);
    ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
    model_ = scene->model;
    ASSERT_GT(model_->body_count(), 0);
  }
  std::shared_ptr<const Model> model_;
};


TEST_F(CliRunTest, ReportHasEveryRequiredKeyAndTheRequestedStepsAndDt) {
  const std::string report = TempPath(".json");
  const CommandResult r =
      RunContactSim("run " + kDefaultScene + " --steps 12 --dt 0.005 --report " + report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("12 steps of 0.005 s"));
  EXPECT_THAT(r.output, HasSubstr("status: "));

  const JsonValue json = ReadReport(report);
  ExpectKeys(json, {"scene", "solver", "backend", "dt"}, "report");
  ASSERT_FALSE(HasFailure());
  EXPECT_EQ(json.Find("scene")->string(), kDefaultScene);
  EXPECT_EQ(json.Find("solver")->string(), "nsn");
  EXPECT_EQ(json.Find("backend")->string(), "cpu");
  EXPECT_EQ(json.Find("dt")->number(), 0.005);
  EXPECT_EQ(json.Find("settings")->Find("dt")->number(), 0.005);
  ExpectRunSections(json, 12, *model_);
  std::remove(report.c_str());
}


TEST_F(CliRunTest, DurationGivesOneSecondOfStepsByDefault) {
  const std::string report = TempPath(".json");
  const CommandResult r = RunContactSim("run " + kDefaultScene + " --dt 0.01 --report " + report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(ReadReport(report).Find("steps")->number(), 100);
  std::remove(report.c_str());
}


TEST_F(CliRunTest, SetIsReflectedInTheReportSettings) {
  const std::string report = TempPath(".json");
  const CommandResult r =
      RunContactSim("run " + kDefaultScene +
                    " --steps 3 --set solver.linear_solver=jacobi --set solver.ncp=min"
                    " --set solver.newton_iterations=9 --report " +
                    report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const JsonValue json = ReadReport(report);
  const JsonValue& settings = *json.Find("settings");
  EXPECT_EQ(settings.Find("linear_solver")->string(), "jacobi");
  EXPECT_EQ(settings.Find("ncp")->string(), "min");
  EXPECT_EQ(settings.Find("newton_iterations")->number(), 9);
  std::remove(report.c_str());
}


TEST_F(CliRunTest, BadSetValueExitsTwoNamingItAndTheChoices) {
  const CommandResult r =
      RunContactSim("run " + kDefaultScene + " --steps 3 --set solver.linear_solver=foo");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--set solver.linear_solver=foo: error: solver.linear_solver "
                                  "'foo' is not valid: expected one of: pcr, pcg, jacobi, gs, "
                                  "direct"));
}


TEST_F(CliRunTest, BadSetPathExitsTwoListingThePaths) {
  const CommandResult r = RunContactSim("run " + kDefaultScene + " --steps 3 --set solver.foo=1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--set solver.foo=1: error: unknown path 'solver.foo'"));
  EXPECT_THAT(r.output, HasSubstr("solver.linear_solver"));
  EXPECT_THAT(r.output, HasSubstr("materials.<name>.friction"));
}


TEST_F(CliRunTest, BadDtExitsTwo) {
  const CommandResult r = RunContactSim("run " + kDefaultScene + " --dt 0.5");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--dt 0.5: error: solver.dt '0.5' is not valid"));
}


TEST_F(CliRunTest, UnknownSolverExitsTwo) {
  const CommandResult r = RunContactSim("run " + kDefaultScene + " --solver frobnicator");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("solver 'frobnicator' is unknown (available: nsn"));
}


TEST_F(CliRunTest, MissingSceneExitsOneWithTheFileName) {
  const CommandResult r = RunContactSim("run /nonexistent/scene.json --steps 3");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("/nonexistent/scene.json: error:"));
}


TEST_F(CliRunTest, UnconvergedStepsAreSaidOnStderrAndInTheReport) {
  // PGS lets the 4096:1 heavy stack sink (tests/physics/solver_features_test.cpp): the run ends
  // (exit 0, the state is finite) but says how many steps were unconverged and why
  const std::string report = TempPath(".json");
  const CommandResult r = RunContactSim(
      "run " + std::string(SIM_SOURCE_DIR) +
      "/scenes/validation/heavy_stack.json --solver pgs --steps 120 --report " + report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("unconverged step(s), the last: step "));
  const JsonValue run = ReadReport(report);
  EXPECT_GT(run.Find("status")->Find("unconverged")->number(), 0);
  EXPECT_THAT(run.Find("quality")->Find("last_problem")->string(),
              HasSubstr("unconverged: the last sweep met a row velocity residual"));
  std::remove(report.c_str());
}


TEST_F(CliRunTest, CudaBackendFallsBackToCpu) {
  const std::string report = TempPath(".json");
  const CommandResult r =
      RunContactSim("run " + kDefaultScene + " --steps 2 --backend cuda --report " + report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("running on the cpu backend"));
  EXPECT_EQ(ReadReport(report).Find("backend")->string(), "cpu");
  std::remove(report.c_str());
}


TEST_F(CliRunTest, TrajectoryHasOneRowPerBodyPerStep) {
  const std::string csv = TempPath(".csv");
  const int steps = 5;
  const CommandResult r = RunContactSim("run " + kDefaultScene + " --steps " +
                                        std::to_string(steps) + " --trajectory " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = ReadLines(csv);
  ASSERT_EQ(static_cast<int>(lines.size()), 1 + steps * model_->body_count());
  EXPECT_EQ(lines[0], "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = SplitCsv(lines[i]);
    ASSERT_EQ(fields.size(), 15u) << lines[i];
    EXPECT_EQ(fields[1], model_->body_name[(i - 1) % model_->body_count()]) << lines[i];
  }
  std::remove(csv.c_str());
}


// the contact dump of the sliding-boxes scene: the channel pad's contacts have the scene's full
// Matchstick cone (its comment: μ_major 0.6 along, μ_minor 0.065 across the grain, d = 1), every
// frame is orthonormal (t ⟂ n, unit), and every force lies in the cone: λ_t²/μ_t² + λ_b²/μ_b² ≤
// λ_n². Tolerances: the solver meets complementarity to its residual tolerance, which leaves
// separated contacts (gap 5 µm) with |λ_n| up to about 1e-3 N against the 39 N weight of a box
// (0.2³ m³ · 500 kg/m³ · 9.81 m/s²), and sliding friction on the cone's limit to 0.2 % at the
// scene's 6 Newton iterations; 1e-3 N absolute and 1 % relative allowed
TEST_F(CliRunTest, ContactDumpHasEachContactsFrictionCone) {
  const std::string csv = TempPath(".csv");
  const std::string scene = std::string(SIM_SOURCE_DIR) + "/scenes/sliding_boxes.json";
  const CommandResult r = RunContactSim("run " + scene + " --steps 4 --contacts " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = ReadLines(csv);
  ASSERT_GT(lines.size(), 20u);
  EXPECT_EQ(lines[0],
            "step,time,a,b,x,y,z,nx,ny,nz,tx,ty,tz,gap,mu_t,mu_b,anisotropy,normal_force,"
            "friction_t,friction_b");
  int channel = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> f = SplitCsv(lines[i]);
    ASSERT_EQ(f.size(), 20u) << lines[i];
    const auto number = [&](int k) { return std::stod(f[k]); };
    const Vec3 n(number(7), number(8), number(9)), t(number(10), number(11), number(12));
    EXPECT_NEAR(n.norm(), 1, 1e-6) << lines[i];
    EXPECT_NEAR(t.norm(), 1, 1e-6) << lines[i];
    EXPECT_NEAR(n.dot(t), 0, 1e-6) << lines[i];
    const Real mu_t = number(14), mu_b = number(15), lambda_n = number(17);
    const Real cone = std::hypot(number(18) / mu_t, number(19) / mu_b);
    EXPECT_GE(lambda_n, -1e-3) << lines[i];
    EXPECT_LE(cone, std::max<Real>(lambda_n, 0) * (1 + 1e-2) + 1e-3) << lines[i];
    if (f[3].rfind("channel", 0) == 0 && f[2] == "world") {
      ++channel;
      EXPECT_NEAR(mu_t, 0.6, 1e-9) << lines[i];
      EXPECT_NEAR(mu_b, 0.065, 1e-9) << lines[i];
      EXPECT_NEAR(number(16), 1, 1e-9) << lines[i];
    }
  }
  EXPECT_GT(channel, 0) << "the channel boxes touch their pad";
  std::remove(csv.c_str());
}


TEST_F(CliRunTest, CompareWritesOneEntryPerConfigFromTheSameInitialState) {
  const std::string report = TempPath(".json");
  const CommandResult r = RunContactSim("compare " + kDefaultScene +
                                        " --solvers 'nsn,nsn:linear_solver=jacobi;ncp=min'"
                                        " --steps 8 --report " +
                                        report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("nsn:linear_solver=jacobi;ncp=min"));

  const JsonValue json = ReadReport(report);
  ExpectKeys(json, {"scene", "steps", "dt", "configs"}, "compare report");
  ASSERT_FALSE(HasFailure());
  EXPECT_EQ(json.Find("steps")->number(), 8);
  const std::vector<JsonValue>& configs = json.Find("configs")->items();
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].Find("label")->string(), "nsn");
  EXPECT_EQ(configs[1].Find("label")->string(), "nsn:linear_solver=jacobi;ncp=min");
  EXPECT_EQ(configs[1].Find("settings")->Find("linear_solver")->string(), "jacobi");
  EXPECT_EQ(configs[1].Find("settings")->Find("ncp")->string(), "min");
  for (const JsonValue& config : configs) ExpectRunSections(config, 8, *model_);
  EXPECT_EQ(configs[0].Find("state_hash")->Find("initial")->string(),
            configs[1].Find("state_hash")->Find("initial")->string());
  std::remove(report.c_str());
}


TEST_F(CliRunTest, CompareReportsDivergenceSeriesAndPlotsThemAsSvg) {
  // four solvers on the heavy stack: per config one divergence entry per step, the reference's
  // distance 0, PGS's collapsed stack more than 1 cm from NSN's after 1 s, and an SVG with one
  // polyline per config and chart in the config's lane colour
  const std::string report = TempPath(".json");
  const std::string plot = TempPath(".svg");
  const CommandResult r =
      RunContactSim("compare " + std::string(SIM_SOURCE_DIR) +
                    "/scenes/validation/heavy_stack.json --solvers nsn,pgs,primal,dual --report " +
                    report + " --plot " + plot);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const JsonValue json = ReadReport(report);
  EXPECT_EQ(json.Find("reference")->string(), "nsn");
  const std::vector<JsonValue>& configs = json.Find("configs")->items();
  ASSERT_EQ(configs.size(), 4u);
  for (const JsonValue& config : configs) {
    const JsonValue* divergence = config.Find("divergence");
    ASSERT_NE(divergence, nullptr);
    for (const char* key : {"time_s", "distance_m", "max_penetration_m", "max_joint_error_m",
                            "energy_J", "step_ms"}) {
      EXPECT_EQ(divergence->Find(key)->items().size(), 120u) << key;
    }
  }
  EXPECT_EQ(configs[0].Find("divergence")->Find("distance_m")->items().back().number(), 0);
  EXPECT_GT(configs[1].Find("divergence")->Find("distance_m")->items().back().number(), 1e-2);
  std::ifstream file(plot);
  const std::string svg((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  for (const char* color : {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"}) {
    std::size_t count = 0;
    for (std::size_t at = svg.find(std::string("stroke=\"") + color); at != std::string::npos;
         at = svg.find(std::string("stroke=\"") + color, at + 1)) {
      ++count;
    }
    EXPECT_GE(count, 5u) << color;  // one polyline per chart at least
  }
  EXPECT_NE(svg.find("nsn (reference)"), std::string::npos);
  // a reference that names no config is a usage error
  EXPECT_EQ(RunContactSim("compare " + kDefaultScene + " --solvers nsn,pgs --steps 2 --reference x")
                .exit_code,
            2);
  std::remove(report.c_str());
  std::remove(plot.c_str());
}


TEST_F(CliRunTest, CompareRunsTheConfigsThatSupportTheSceneAndNamesTheOthers) {
  // pbti has no particles: on the sliding particle nsn and pgs run, pbti's row says why not,
  // and the report lists it under "unsupported"; with no config left it is a usage error
  const std::string report = TempPath(".json");
  const std::string scene =
      std::string(SIM_SOURCE_DIR) + "/scenes/validation/sliding_particle.json";
  const CommandResult r =
      RunContactSim("compare " + scene + " --solvers nsn,pbti,pgs --steps 5 --report " + report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("pbti                             unsupported: solver 'pbti' does not "
                          "support particles"),
            std::string::npos)
      << r.output;
  const JsonValue json = ReadReport(report);
  ASSERT_EQ(json.Find("configs")->items().size(), 2u);
  const std::vector<JsonValue>& unsupported = json.Find("unsupported")->items();
  ASSERT_EQ(unsupported.size(), 1u);
  EXPECT_EQ(unsupported[0].Find("label")->string(), "pbti");
  EXPECT_NE(unsupported[0].Find("reason")->string().find("particles"), std::string::npos);
  EXPECT_EQ(RunContactSim("compare " + scene + " --solvers pbti --steps 2").exit_code, 2);
  std::remove(report.c_str());
}


TEST_F(CliRunTest, CompareOfOneConfigTwiceIsBitIdentical) {
  const std::string report = TempPath(".json");
  const CommandResult r =
      RunContactSim("compare " + kDefaultScene + " --solvers nsn,nsn --steps 6 --report " + report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const JsonValue json = ReadReport(report);
  const std::vector<JsonValue>& configs = json.Find("configs")->items();
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].Find("state_hash")->Find("final")->string(),
            configs[1].Find("state_hash")->Find("final")->string());
  std::remove(report.c_str());
}


TEST_F(CliRunTest, CompareBadConfigExitsTwo) {
  const CommandResult r =
      RunContactSim("compare " + kDefaultScene + " --solvers 'nsn,nsn:linear_solver=foo'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--solvers nsn:linear_solver=foo: error: solver.linear_solver "
                                  "'foo' is not valid: expected one of: pcr"));
}


TEST_F(CliRunTest, BenchWritesOneCsvRowPerSceneAndConfig) {
  const std::string ball = TempPath("_ball.json");
  std::ofstream(ball) << kBallScene;
  const std::string csv = TempPath(".csv");
  const CommandResult r = RunContactSim("bench " + kDefaultScene + " " + ball +
                                        " --solvers 'nsn,nsn:newton_iterations=2'"
                                        " --steps 4 --repeat 2 --warmup 3 --csv " +
                                        csv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = ReadLines(csv);
  ASSERT_EQ(lines.size(), 1u + 2 * 2);
  EXPECT_EQ(lines[0],
            "scene,solver,backend,threads,steps,repeat,newton_iterations,linear_iterations,"
            "contacts_median,ms_min,ms_median,ms_p95,collision_ms_median,assembly_ms_median,"
            "solve_ms_median,status");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {kDefaultScene, "nsn"},
      {kDefaultScene, "nsn:newton_iterations=2"},
      {ball, "nsn"},
      {ball, "nsn:newton_iterations=2"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::vector<std::string> fields = SplitCsv(lines[i + 1]);
    ASSERT_EQ(fields.size(), 16u) << lines[i + 1];
    EXPECT_EQ(fields[0], expected[i].first);
    EXPECT_EQ(fields[1], expected[i].second);
    EXPECT_EQ(fields[2], "cpu");
    EXPECT_EQ(fields[3], "1");  // threads
    EXPECT_EQ(fields[4], "4");  // steps
    EXPECT_EQ(fields[5], "2");  // repeat
    // the last step's Newton iterations: 2 as asked, or the default's 6, ended early from 2
    // once converged or extended to 8
    if (i % 2 == 1) {
      EXPECT_EQ(fields[6], "2");
    } else {
      EXPECT_GE(std::stoi(fields[6]), 2);
      EXPECT_LE(std::stoi(fields[6]), 8);
    }
    EXPECT_EQ(fields[15], "ok");
  }
  EXPECT_THAT(r.output, HasSubstr("ms_median"));
  std::remove(ball.c_str());
  std::remove(csv.c_str());
}


TEST_F(CliRunTest, BenchMissingSceneExitsOneButBenchesTheOthers) {
  const std::string csv = TempPath(".csv");
  const CommandResult r = RunContactSim("bench /nonexistent/scene.json " + kDefaultScene +
                                        " --steps 2 --repeat 1 --warmup 0 --csv " + csv);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("/nonexistent/scene.json: error:"));
  EXPECT_EQ(ReadLines(csv).size(), 2u);
  std::remove(csv.c_str());
}

// a run that finishes but is flagged unconverged is not benched as "ok": the Allegro hand's
// first steps, closing on the ball, end unconverged at the scene's budget
TEST_F(CliRunTest, BenchSaysHowManyStepsWereUnconverged) {
  const std::string csv = TempPath(".csv");
  const CommandResult r =
      RunContactSim("bench " + std::string(SIM_SOURCE_DIR) +
                    "/scenes/allegro_ball.json --steps 2 --repeat 1 --warmup 0 --csv " + csv);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = ReadLines(csv);
  ASSERT_EQ(lines.size(), 2u);
  const std::vector<std::string> fields = SplitCsv(lines[1]);
  ASSERT_EQ(fields.size(), 16u) << lines[1];
  EXPECT_THAT(fields[15], ::testing::MatchesRegex("unconverged [12]/2")) << lines[1];
  std::remove(csv.c_str());
}

// probes: one sample per step in the report, the last one printed
TEST_F(CliRunTest, ProbesAreRecordedEveryStep) {
  const std::string scene = TempPath(".scene.json");
  std::ofstream(scene) << R"({"solver": {"dt": 0.01}, "objects": [
    {"name": "ball", "type": "sphere", "radius": 0.1, "position": [0, 0, 5]}],
    "probes": [{"name": "height", "type": "body_position", "body": "ball"}]})";
  const std::string report = TempPath(".json");
  const CommandResult r = RunContactSim("run " + scene + " --steps 10 --report " + report);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("probe 'height' (body_position): final 0 0 4.946"));
  const JsonValue json = ReadReport(report);
  const JsonValue* probe = json.Find("probes")->Find("height");
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->Find("type")->string(), "body_position");
  EXPECT_EQ(probe->Find("target")->string(), "ball");
  ASSERT_EQ(probe->Find("time")->items().size(), 10u);
  ASSERT_EQ(probe->Find("values")->items().size(), 10u);
  EXPECT_NEAR(probe->Find("time")->items()[9].number(), 0.1, 1e-12);
  // the last sample is the final state; the ball has fallen (backward Euler free fall:
  // 5 − gΔt²(1 + ... + 10) = 4.94604 m, up to the Newton damping of the default settings)
  EXPECT_EQ(probe->Find("values")->items()[9].items()[2].number(),
            json.Find("bodies")->Find("ball")->Find("position")->items()[2].number());
  EXPECT_NEAR(probe->Find("values")->items()[9].items()[2].number(), 5 - 9.81e-4 * 55, 1e-4);
  EXPECT_LT(probe->Find("values")->items()[9].items()[2].number(),
            probe->Find("values")->items()[0].items()[2].number());
  std::remove(scene.c_str());
  std::remove(report.c_str());
}


// a lone robot file runs in its default scene
TEST_F(CliRunTest, RunTakesAUrdfFile) {
  const std::string urdf = test_support::SharedDataDir() +
                           "/robots/allegro_hand_description/allegro_hand_description_right.urdf";
  SIM_REQUIRE_SHARED_DATA(urdf);
  const CommandResult r = RunContactSim("run " + urdf + " --steps 5");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("5 steps of"));
}

}  // namespace
}  // namespace sim::io
