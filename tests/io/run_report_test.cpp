// The statistics and writers behind `run`, `compare` and `bench` reports: medians and percentiles,
// status counts, the state hash, CSV quoting and JSON with null for non-finite numbers.
#include "engine/io/run_report.h"

#include <cmath>
#include <limits>
#include <memory>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/json_document.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(RunReportStatsTest, MedianPercentileMinimum) {
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(Median({})));
  // nearest rank: p95 of 1..20 is the 19th smallest, p100 the largest, p0 the smallest
  std::vector<double> values;
  for (int i = 20; i >= 1; --i) values.push_back(i);
  EXPECT_EQ(Percentile(values, 95), 19);
  EXPECT_EQ(Percentile(values, 100), 20);
  EXPECT_EQ(Percentile(values, 0), 1);
  EXPECT_EQ(Percentile(values, 50), 10);
  EXPECT_EQ(Minimum(values), 1);
  EXPECT_EQ(Maximum(values), 20);
  EXPECT_EQ(Mean(values), 10.5);
  EXPECT_TRUE(std::isnan(Maximum({})));
  EXPECT_TRUE(std::isnan(Mean({})));
  EXPECT_TRUE(std::isnan(Percentile({}, 95)));
}


TEST(RunReportStatsTest, StatusCountsCountEveryBit) {
  StatusCounts counts;
  counts.Add(kStepOk);
  counts.Add(kStepMaxIterations | kStepLineSearchFailed);
  counts.Add(kStepNonFinite);
  counts.Add(kStepRunaway);
  counts.Add(kStepUnconverged | kStepMaxIterations);
  EXPECT_EQ(counts.ok, 1);
  EXPECT_EQ(counts.count(kStepRunaway), 1);
  EXPECT_EQ(counts.count(kStepMaxIterations), 2);
  EXPECT_EQ(counts.count(kStepLineSearchFailed), 1);
  EXPECT_EQ(counts.count(kStepNonFinite), 1);
  EXPECT_EQ(counts.count(kStepCapacityExceeded), 0);
  EXPECT_EQ(counts.count(kStepUnconverged), 1);
  // non-finite, runaway and unconverged are the results not to trust; the others are notes
  EXPECT_EQ(counts.problems, 3);
  EXPECT_EQ(counts.ToString(),
            "ok 1, max_iterations 2, line_search_failed 1, non_finite 1, runaway 1, "
            "unconverged 1");
  EXPECT_EQ(StatusCounts().ToString(), "no steps");
}


TEST(RunReportStatsTest, StepLogKeepsTheLastProblem) {
  StepLog log;
  StepReport report;
  report.status = kStepUnconverged | kStepMaxIterations;
  report.message = "normal error 2e-03 m > 1e-03 m";
  log.Add(report);
  report.status = kStepOk;
  report.message.clear();
  log.Add(report);
  EXPECT_EQ(log.last_problem, "step 1: unconverged: normal error 2e-03 m > 1e-03 m");
}


TEST(RunReportStatsTest, StepLogMaximaIgnoreNaN) {
  StepLog log;
  StepReport report;
  report.max_penetration = 0.002;
  report.final_residual = 1e-3;
  report.contact_count = 4;
  log.Add(report);
  report.max_penetration = kNaN;
  report.final_residual = 1e-5;
  report.contact_count = 2;
  report.status = kStepNonFinite;
  log.Add(report);
  EXPECT_EQ(log.steps, 2);
  EXPECT_EQ(log.max_penetration, 0.002);
  EXPECT_EQ(log.final_residual_max, 1e-3);
  EXPECT_EQ(log.final_residual_last, 1e-5);
  EXPECT_EQ(log.contacts_max, 4);
  EXPECT_EQ(log.status.count(kStepNonFinite), 1);
}


TEST(RunReportStatsTest, StateHashSeesEveryBit) {
  State a;
  a.body_X_WB.resize(1);
  a.body_v_W.assign(1, Vec3::Zero());
  a.body_w_W.assign(1, Vec3::Zero());
  State b = a;
  EXPECT_EQ(StateHash(a), StateHash(b));
  b.body_v_W[0].z() = std::nextafter(0.0, 1.0);
  EXPECT_NE(StateHash(a), StateHash(b));
}


TEST(RunReportStatsTest, CsvFieldQuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("box"), "box");
  EXPECT_EQ(CsvField("nsn:ncp=min;linear_solver=gs"), "nsn:ncp=min;linear_solver=gs");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
}


TEST(RunReportJsonTest, NonFiniteNumbersAreNull) {
  auto model = std::make_shared<Model>();
  model->body_name = {"box"};
  model->body_mass = {1};
  model->body_inertia = {Mat3::Identity()};
  model->body_static = {0};
  RunResult run;
  run.label = "nsn";
  run.model = model;
  run.initial_state.body_X_WB.resize(1);
  run.initial_state.body_v_W.assign(1, Vec3::Zero());
  run.initial_state.body_w_W.assign(1, Vec3::Zero());
  run.final_state = run.initial_state;
  run.final_state.body_v_W[0] = Vec3(kNaN, 1, std::numeric_limits<double>::infinity());
  StepReport report;
  report.iterations.push_back({.normal_error = kNaN, .inner_begin = 0, .inner_count = 2});
  report.inner_residuals = {0.5, 0.25};
  run.log.Add(report);

  const std::string text = RunReportJson("scene \"q\".json", run);
  EXPECT_THAT(text, HasSubstr("\"linear_velocity\": [null, 1.0, null]"));
  Expected<JsonValue> json = ParseJson(text, "report.json");
  ASSERT_TRUE(json.ok()) << json.diagnostics().Format() << text;
  EXPECT_EQ(json->Find("scene")->string(), "scene \"q\".json");
  const JsonValue& convergence = *json->Find("convergence");
  ASSERT_EQ(convergence.items().size(), 1u);
  EXPECT_TRUE(convergence.items()[0].Find("normal_error")->is_null());
  ASSERT_EQ(convergence.items()[0].Find("inner_residuals")->items().size(), 2u);
  EXPECT_EQ(convergence.items()[0].Find("inner_residuals")->items()[1].number(), 0.25);
}


TEST(RunReportJsonTest, IterationsGiveTheMedianMeanAndMaxPerStep) {
  auto model = std::make_shared<Model>();
  RunResult run;
  run.label = "nsn";
  run.model = model;
  // three steps of 6, 6 and 9 Newton iterations with 20 inner each: median 6, mean 7, max 9
  for (int outer : {6, 9, 6}) {
    StepReport report;
    report.outer_iterations = outer;
    report.inner_iterations = 20 * outer;
    run.log.Add(report);
  }
  Expected<JsonValue> json = ParseJson(RunReportJson("s.json", run), "report.json");
  ASSERT_TRUE(json.ok()) << json.diagnostics().Format();
  const JsonValue* iterations = json->Find("iterations");
  ASSERT_NE(iterations, nullptr);
  EXPECT_EQ(iterations->Find("outer_median")->number(), 6);
  EXPECT_EQ(iterations->Find("outer_mean")->number(), 7);
  EXPECT_EQ(iterations->Find("outer_max")->number(), 9);
  EXPECT_EQ(iterations->Find("inner_median")->number(), 120);
  EXPECT_EQ(iterations->Find("inner_mean")->number(), 140);
  EXPECT_EQ(iterations->Find("inner_max")->number(), 180);
}

}  // namespace
}  // namespace sim::io
