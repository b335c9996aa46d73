// `--set PATH=VALUE` overrides and `--solvers` configs: every supported path changes exactly its
// field, and every bad path or value is an error that names it and lists what is accepted.
#include "engine/io/overrides.h"
#include "engine/solvers/nsn/nsn_settings.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sim::io {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// a model with two materials, as a loaded scene has
Model TwoMaterialModel() {
  Model model;
  model.materials.push_back({.name = "wood", .friction = 0.5, .density = 600});
  model.materials.push_back({.name = "rubber", .friction = 1.0, .density = 1200});
  return model;
}


// applies `assignment`, expecting success
Model Applied(const std::string& assignment) {
  Model model = TwoMaterialModel();
  const Diagnostics diagnostics = ApplyOverride(assignment, &model);
  EXPECT_FALSE(diagnostics.has_errors()) << diagnostics.Format();
  return model;
}


// applies `assignment`, expecting exactly one error; returns its formatted line
std::string ErrorOf(const std::string& assignment) {
  Model model = TwoMaterialModel();
  const Diagnostics diagnostics = ApplyOverride(assignment, &model);
  EXPECT_EQ(diagnostics.error_count(), 1) << diagnostics.Format();
  if (diagnostics.items().empty()) return "";
  EXPECT_EQ(diagnostics.items()[0].line, 0);
  return diagnostics.items()[0].Format();
}


TEST(OverridesTest, EverySolverPathSetsItsField) {
  EXPECT_EQ(Applied("solver.dt=0.004").options.solver.dt, 0.004);
  EXPECT_EQ(
      ReadNsnSettings(Applied("solver.newton_iterations=12").options.solver).newton_iterations, 12);
  EXPECT_EQ(
      ReadNsnSettings(Applied("solver.linear_iterations=80").options.solver).linear_iterations, 80);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.linear_solver=pcr").options.solver).linear_solver,
            LinearSolverKind::kPcr);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.linear_solver=pcg").options.solver).linear_solver,
            LinearSolverKind::kPcg);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.linear_solver=jacobi").options.solver).linear_solver,
            LinearSolverKind::kJacobi);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.linear_solver=gs").options.solver).linear_solver,
            LinearSolverKind::kGaussSeidel);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.linear_solver=direct").options.solver).linear_solver,
            LinearSolverKind::kDirect);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.ncp=min").options.solver).ncp, NcpFunction::kMinMap);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.ncp=fb").options.solver).ncp,
            NcpFunction::kFischerBurmeister);
  EXPECT_EQ(
      ReadNsnSettings(Applied("solver.preconditioner=identity").options.solver).preconditioner,
      ComplementarityScaling::kIdentity);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.preconditioner=dt2").options.solver).preconditioner,
            ComplementarityScaling::kTimeStepSquared);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.preconditioner=effective_mass").options.solver)
                .preconditioner,
            ComplementarityScaling::kEffectiveMass);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.damping=1").options.solver).damping, 1.0);
  EXPECT_TRUE(ReadNsnSettings(Applied("solver.line_search=true").options.solver).line_search);
  EXPECT_TRUE(ReadNsnSettings(Applied("solver.line_search=1").options.solver).line_search);
  EXPECT_FALSE(ReadNsnSettings(Applied("solver.geometric_stiffness=false").options.solver)
                   .geometric_stiffness);
  EXPECT_FALSE(
      ReadNsnSettings(Applied("solver.geometric_stiffness=0").options.solver).geometric_stiffness);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.regularization=0").options.solver).regularization, 0.0);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.regularization=1e-8").options.solver).regularization,
            1e-8);
  EXPECT_EQ(Applied("solver.contact_margin=0.002").options.solver.contact_margin, 0.002);
  EXPECT_FALSE(ReadNsnSettings(Applied("solver.warm_start=false").options.solver).warm_start);
  EXPECT_EQ(
      ReadNsnSettings(Applied("solver.fem_compliance=diagonal").options.solver).fem_compliance,
      FemComplianceMode::kDiagonal);
  EXPECT_EQ(
      ReadNsnSettings(Applied("solver.fem_compliance=projected").options.solver).fem_compliance,
      FemComplianceMode::kProjected);
  EXPECT_FALSE(
      ReadNsnSettings(Applied("solver.fem_shear_rows=false").options.solver).fem_shear_rows);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.fem_preconditioner=woodbury").options.solver)
                .fem_preconditioner,
            FemPreconditioner::kWoodbury);
  EXPECT_EQ(ReadNsnSettings(Applied("solver.fem_preconditioner=jacobi").options.solver)
                .fem_preconditioner,
            FemPreconditioner::kJacobi);
  EXPECT_THAT(ErrorOf("solver.fem_preconditioner=ilu"),
              HasSubstr("expected one of: jacobi, woodbury"));
  EXPECT_THAT(ErrorOf("solver.fem_compliance=exact"),
              HasSubstr("solver.fem_compliance 'exact' is not valid: expected one of: projected, "
                        "diagonal"));
}


TEST(OverridesTest, OnlyTheNamedFieldChanges) {
  const Model model = Applied("solver.ncp=min");
  const NsnSettings defaults;
  EXPECT_EQ(model.options.solver.dt, SolverOptions().dt);
  EXPECT_EQ(ReadNsnSettings(model.options.solver).linear_solver, defaults.linear_solver);
  EXPECT_EQ(ReadNsnSettings(model.options.solver).newton_iterations, defaults.newton_iterations);
}


TEST(OverridesTest, GravityAndMaterialFriction) {
  EXPECT_EQ(Applied("gravity=0,-9.81,0").options.gravity, Vec3(0, -9.81, 0));
  EXPECT_EQ(Applied("gravity= 1, 2 ,3").options.gravity, Vec3(1, 2, 3));
  const Model model = Applied("materials.rubber.friction=0.3");
  EXPECT_EQ(model.materials[1].friction, 0.3);
  EXPECT_EQ(model.materials[0].friction, 0.5);
  EXPECT_EQ(Applied("materials.wood.friction=0").materials[0].friction, 0.0);
  EXPECT_EQ(Applied("materials.rubber.restitution=0.8").materials[1].restitution, 0.8);
  EXPECT_THAT(ErrorOf("materials.rubber.restitution=1.5"),
              HasSubstr("a coefficient of restitution in [0, 1]"));
}


TEST(OverridesTest, BadChoiceNamesTheValueAndListsTheChoices) {
  EXPECT_EQ(ErrorOf("solver.linear_solver=foo"),
            "--set solver.linear_solver=foo: error: solver.linear_solver 'foo' is not valid: "
            "expected one of: pcr, pcg, jacobi, gs, direct");
  EXPECT_THAT(ErrorOf("solver.ncp=lcp"), HasSubstr("'lcp' is not valid: expected one of: fb, min"));
  EXPECT_THAT(ErrorOf("solver.preconditioner=jacobi"),
              HasSubstr("expected one of: effective_mass, identity, dt2"));
  EXPECT_THAT(ErrorOf("solver.line_search=yes"),
              HasSubstr("'yes' is not valid: expected one of true, false, 1, 0"));
  EXPECT_THAT(ErrorOf("solver.geometric_stiffness=on"), HasSubstr("one of true, false, 1, 0"));
}


TEST(OverridesTest, OutOfRangeNumbersNameTheRange) {
  // the ranges are the scene reader's: one descriptor table (engine/solvers/solver_options.h)
  EXPECT_EQ(ErrorOf("solver.dt=0.5"),
            "--set solver.dt=0.5: error: solver.dt '0.5' is not valid: expected a value in "
            "[1e-06, 0.1] s");
  EXPECT_THAT(ErrorOf("solver.dt=0"), HasSubstr("[1e-06, 0.1]"));
  EXPECT_THAT(ErrorOf("solver.dt=1e-300"), HasSubstr("[1e-06, 0.1]"));
  EXPECT_THAT(ErrorOf("solver.dt=abc"), HasSubstr("'abc' is not valid"));
  EXPECT_THAT(ErrorOf("solver.newton_iterations=0"), HasSubstr("a whole number in [1, 1000]"));
  EXPECT_THAT(ErrorOf("solver.linear_iterations=2.5"), HasSubstr("a whole number in [1, 10000]"));
  EXPECT_THAT(ErrorOf("solver.linear_iterations=1000000"), HasSubstr("[1, 10000]"));
  EXPECT_THAT(ErrorOf("solver.damping=0"), HasSubstr("(0, 1]"));
  EXPECT_THAT(ErrorOf("solver.damping=1.5"), HasSubstr("(0, 1]"));
  EXPECT_THAT(ErrorOf("solver.regularization=-1"), HasSubstr("[0, 1] 1/kg"));
  EXPECT_THAT(ErrorOf("solver.contact_margin=-0.1"), HasSubstr("[0, 1] m"));
  EXPECT_THAT(ErrorOf("solver.contact_margin=1e308"), HasSubstr("[0, 1] m"));
  EXPECT_THAT(ErrorOf("solver.contact_margin=nan"), HasSubstr("'nan' is not valid"));
  EXPECT_THAT(ErrorOf("gravity=0,0"), HasSubstr("three comma-separated numbers"));
  EXPECT_THAT(ErrorOf("materials.wood.friction=-0.1"), HasSubstr("a friction coefficient >= 0"));
  EXPECT_THAT(ErrorOf("materials.wood.density=0"), HasSubstr("a density > 0"));
}


TEST(OverridesTest, BadValueLeavesTheModelUnchanged) {
  Model model = TwoMaterialModel();
  EXPECT_TRUE(ApplyOverride("solver.dt=7", &model).has_errors());
  EXPECT_TRUE(ApplyOverride("gravity=1,2,x", &model).has_errors());
  EXPECT_EQ(model.options.solver.dt, SolverOptions().dt);
  EXPECT_EQ(model.options.gravity, ModelOptions().gravity);
}


TEST(OverridesTest, UnknownPathListsTheSupportedPaths) {
  const std::string error = ErrorOf("solver.tolerance=1e-6");
  EXPECT_THAT(error, HasSubstr("--set solver.tolerance=1e-6: error: unknown path "
                               "'solver.tolerance' (supported: solver.name, solver.dt, "
                               "solver.contact_margin, solver.restitution_threshold, "
                               "solver.integrator, solver.newton_iterations, "));
  EXPECT_THAT(error, HasSubstr("solver.warm_start, solver.fem_compliance, "
                               "solver.fem_shear_rows, solver.fem_preconditioner, "));
  EXPECT_THAT(error, HasSubstr("gravity, materials.<name>.friction"));
  EXPECT_THAT(ErrorOf("camera.distance=3"), HasSubstr("unknown path 'camera.distance'"));
  EXPECT_THAT(ErrorOf("materials.wood.color=1"), HasSubstr("unknown path"));
  EXPECT_THAT(ErrorOf("solver.dt"), HasSubstr("expected PATH=VALUE"));
}


TEST(OverridesTest, UnknownMaterialListsTheScenesMaterials) {
  EXPECT_EQ(ErrorOf("materials.steel.friction=0.2"),
            "--set materials.steel.friction=0.2: error: unknown material 'steel' (materials in "
            "this scene: wood, rubber)");
}


TEST(OverridesTest, DensityIsRejectedBecauseMassesAreBuilt) {
  EXPECT_THAT(ErrorOf("materials.wood.density=700"),
              HasSubstr("materials.wood.density cannot be overridden: body masses and inertias "
                        "were built from it"));
}


TEST(OverridesTest, SourceCanNameAnotherFlag) {
  Model model;
  const Diagnostics diagnostics = ApplyOverride("solver.dt", "1", "--dt 1", &model);
  ASSERT_EQ(diagnostics.error_count(), 1);
  EXPECT_THAT(diagnostics.Format(), HasSubstr("--dt 1: error: solver.dt '1' is not valid"));
}


TEST(SolverConfigsTest, NamesAndSettings) {
  Expected<std::vector<SolverConfig>> configs =
      ParseSolverConfigs("nsn, nsn:linear_solver=jacobi;ncp=min");
  ASSERT_TRUE(configs.ok()) << configs.diagnostics().Format();
  ASSERT_EQ(configs->size(), 2u);
  EXPECT_EQ(configs.value()[0].label, "nsn");
  EXPECT_EQ(configs.value()[0].solver, "nsn");
  EXPECT_TRUE(configs.value()[0].overrides.empty());
  EXPECT_EQ(configs.value()[1].label, "nsn:linear_solver=jacobi;ncp=min");
  EXPECT_THAT(configs.value()[1].overrides,
              ElementsAre("solver.linear_solver=jacobi", "solver.ncp=min"));

  Model model;
  EXPECT_FALSE(ApplySolverConfig(configs.value()[1], &model).has_errors());
  EXPECT_EQ(ReadNsnSettings(model.options.solver).linear_solver, LinearSolverKind::kJacobi);
  EXPECT_EQ(ReadNsnSettings(model.options.solver).ncp, NcpFunction::kMinMap);
  EXPECT_EQ(model.options.solver.name, "nsn");
}


TEST(SolverConfigsTest, EmptyListIsTheScenesSolver) {
  Expected<std::vector<SolverConfig>> configs = ParseSolverConfigs("");
  ASSERT_TRUE(configs.ok());
  ASSERT_EQ(configs->size(), 1u);
  EXPECT_TRUE(configs.value()[0].solver.empty());
}


TEST(SolverConfigsTest, MalformedEntriesAreErrors) {
  EXPECT_THAT(ParseSolverConfigs("nsn,,nsn").diagnostics().Format(),
              HasSubstr("empty entry in the solver list"));
  EXPECT_THAT(ParseSolverConfigs("nsn:jacobi").diagnostics().Format(),
              HasSubstr("--solvers nsn:jacobi: error: setting 'jacobi' is not KEY=VALUE"));

  // a bad setting is reported against the config when applied
  Expected<std::vector<SolverConfig>> configs = ParseSolverConfigs("nsn:linear_solver=foo");
  ASSERT_TRUE(configs.ok());
  Model model;
  EXPECT_THAT(ApplySolverConfig(configs.value()[0], &model).Format(),
              HasSubstr("--solvers nsn:linear_solver=foo: error: solver.linear_solver 'foo' is "
                        "not valid: expected one of: pcr, pcg, jacobi, gs, direct"));
}

}  // namespace
}  // namespace sim::io
