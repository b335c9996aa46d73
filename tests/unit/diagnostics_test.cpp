// Diagnostic formatting is the user-facing contract of every loader: `file:line: error: message`.
#include "engine/core/diagnostics.h"

#include <gtest/gtest.h>

namespace sim {
namespace {

TEST(DiagnosticsTest, FormatsFileLineSeverityAndPath) {
  const Diagnostic d{
      Severity::kError, "scenes/a.json", 12, 5, "/objects/2/size", "box 'crate' has a bad size"};
  EXPECT_EQ(d.Format(), "scenes/a.json:12: error: box 'crate' has a bad size (at /objects/2/size)");
}


TEST(DiagnosticsTest, OmitsUnknownLineAndEmptyPath) {
  const Diagnostic d{Severity::kWarning, "robot.urdf", 0, 0, "", "something odd"};
  EXPECT_EQ(d.Format(), "robot.urdf: warning: something odd");
}


TEST(DiagnosticsTest, CountsOnlyErrors) {
  Diagnostics diagnostics;
  diagnostics.Warning("f", 1, "", "w");
  EXPECT_FALSE(diagnostics.has_errors());
  diagnostics.Error("f", 2, "", "e");
  diagnostics.Error("f", 3, "", "e");
  EXPECT_EQ(diagnostics.error_count(), 2);
  EXPECT_EQ(diagnostics.Format(), "f:1: warning: w\nf:2: error: e\nf:3: error: e\n");
}


TEST(ExpectedTest, HoldsValueOrDiagnostics) {
  Expected<int> good(7);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good.value(), 7);
  Diagnostics errors;
  errors.Error("f", 1, "", "bad");
  Expected<int> bad(errors);
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.diagnostics().has_errors());
}

}  // namespace
}  // namespace sim
