// The validation scenes against every solver, as the outcome table of docs/solvers.md records
// them: the test reads that table and runs each row, so the documented outcome (holds / fails /
// unsupported) cannot drift from the code. Each scene runs 1 s at its own Δt and the solver's
// defaults (NSN with the scene's settings) and holds when it stays finite and meets the
// criterion of its row (the scene's header states the reference):
//   incline         slides the backward-Euler distance a Δt² N(N+1)/2, a = g(sin θ − μ cos θ),
//                   within 5 %
//   pendulum_chain  joint error below 1 cm
//   heavy_stack     penetration below 5 mm and the top block within 1 cm of its start
//   arch            no block moves more than 5 mm
//   sphere_pile     penetration below 5 mm
// The figure each run measures is printed; the table quotes it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "engine/io/scene_file.h"
#include "engine/model/model.h"
#include "engine/solvers/solver_registry.h"
#include "engine/step/pipeline.h"

namespace sim {
namespace {

struct Outcome {
  std::string word;  // holds, fails or unsupported
  std::string figure;
};

std::string Format(const char* format, Real value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

Outcome RunScene(const std::string& scene_name, const std::string& solver) {
  Expected<io::Scene> scene =
      io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/validation/" + scene_name + ".json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return {"fails", "scene did not load"};
  Model model = *scene->model;
  model.options.solver.name = solver;
  auto created = Simulation::Create(std::make_shared<const Model>(std::move(model)),
                                    scene->initial_state, solver);
  if (!created.ok()) return {"unsupported", created.diagnostics().Format()};
  Simulation& sim = *created.value();
  const State start = sim.state();
  const Real dt = sim.model().options.solver.dt;
  const int steps = static_cast<int>(std::lround(1.0 / dt));
  Real penetration = 0, joint_error = 0;
  for (int s = 0; s < steps; ++s) {
    const StepReport& report = sim.Step();
    if (report.status & (kStepNonFinite | kStepRunaway)) return {"fails", report.message};
    penetration = std::max(penetration, report.max_penetration);
    joint_error = std::max(joint_error, report.max_joint_error);
  }
  const State& end = sim.state();
  if (scene_name == "incline") {
    // the box's travel against the backward-Euler distance (μ from the scene, θ = 30°)
    const Real theta = 30 * std::numbers::pi / 180;
    const Real mu = 0.3;  // the scene's material "contact" (its header)
    const Real a = 9.81 * (std::sin(theta) - mu * std::cos(theta));
    const Real expected = a * dt * dt * steps * (steps + 1) / 2;
    const int box = sim.model().body_count() - 1;
    const Real moved = (end.body_X_WB[box].p - start.body_X_WB[box].p).norm();
    const Real error = std::abs(moved - expected) / expected;
    return {error <= 0.05 ? "holds" : "fails", Format("%.2g %% off", 100 * error)};
  }
  if (scene_name == "pendulum_chain") {
    return {joint_error < 1e-2 ? "holds" : "fails", Format("joint error %.2g m", joint_error)};
  }
  if (scene_name == "heavy_stack") {
    const int top = sim.model().body_count() - 1;
    const Real drop = start.body_X_WB[top].p.z() - end.body_X_WB[top].p.z();
    const bool holds = penetration < 5e-3 && std::abs(drop) < 1e-2;
    return {holds ? "holds" : "fails",
            Format("penetration %.2g m", penetration) + Format(", top drop %.2g m", drop)};
  }
  if (scene_name == "arch") {
    Real moved = 0;
    for (int b = 0; b < sim.model().body_count(); ++b) {
      moved = std::max(moved, (end.body_X_WB[b].p - start.body_X_WB[b].p).norm());
    }
    return {moved < 5e-3 ? "holds" : "fails", Format("largest move %.2g m", moved)};
  }
  return {penetration < 5e-3 ? "holds" : "fails", Format("penetration %.2g m", penetration)};
}

struct TableRow {
  std::string scene;
  std::map<std::string, std::string> cells;  // solver → cell text
};

// the rows of the "## Validation outcomes" table of docs/solvers.md
std::vector<TableRow> ReadOutcomeTable() {
  std::ifstream file(std::string(SIM_SOURCE_DIR) + "/docs/solvers.md");
  EXPECT_TRUE(file) << "docs/solvers.md is missing";
  std::vector<TableRow> rows;
  std::vector<std::string> header;
  bool in_section = false;
  std::string line;
  const auto split = [](const std::string& text) {
    std::vector<std::string> cells;
    std::stringstream stream(text);
    std::string cell;
    std::getline(stream, cell, '|');  // before the first bar
    while (std::getline(stream, cell, '|')) {
      const auto first = cell.find_first_not_of(' ');
      const auto last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    if (!cells.empty() && cells.back().empty()) cells.pop_back();
    return cells;
  };
  while (std::getline(file, line)) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Validation outcomes";
    if (!in_section || line.rfind("|", 0) != 0) continue;
    const std::vector<std::string> cells = split(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    if (cells.empty() || cells[0].rfind("---", 0) == 0) continue;
    TableRow row;
    row.scene = cells[0];
    // columns: scene, criterion, then one per solver
    for (std::size_t c = 2; c < cells.size() && c < header.size(); ++c) {
      row.cells[header[c]] = cells[c];
    }
    rows.push_back(row);
  }
  return rows;
}


TEST(ValidationOutcomes, EveryRowOfTheDocumentedTableHolds) {
  const std::vector<TableRow> rows = ReadOutcomeTable();
  ASSERT_EQ(rows.size(), 5u) << "docs/solvers.md: the outcome table lost rows";
  int checked = 0;
  for (const TableRow& row : rows) {
    for (const auto& [solver, cell] : row.cells) {
      SCOPED_TRACE(row.scene + " × " + solver);
      const Outcome outcome = RunScene(row.scene, solver);
      std::printf("%-15s %-7s %-11s %s\n", row.scene.c_str(), solver.c_str(), outcome.word.c_str(),
                  outcome.figure.c_str());
      EXPECT_EQ(cell.substr(0, cell.find(' ')), outcome.word)
          << "docs/solvers.md says \"" << cell << "\", measured " << outcome.figure;
      ++checked;
    }
  }
  // every registered solver has a column
  EXPECT_EQ(checked, 5 * static_cast<int>(SolverRegistry().size()));
}

}  // namespace
}  // namespace sim
