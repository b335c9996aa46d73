// Located JSON: every value knows its line and JSON pointer; syntax errors are located.
#include "engine/io/json_document.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace sim::io {
namespace {

TEST(JsonDocumentTest, ValuesKnowTheirLineAndPointer) {
  const std::string text = R"({
  "a": 1,
  // comments are allowed
  "list": [
    true,
    {"b/c": "x"}
  ]
})";
  Expected<JsonValue> json = ParseJson(text, "t.json");
  ASSERT_TRUE(json.ok()) << json.diagnostics().Format();
  const JsonValue& root = json.value();
  ASSERT_NE(root.Find("a"), nullptr);
  EXPECT_EQ(root.Find("a")->line(), 2);
  EXPECT_EQ(root.Find("a")->number(), 1.0);
  const JsonValue& list = *root.Find("list");
  EXPECT_EQ(list.items()[0].line(), 5);
  const JsonValue& inner = list.items()[1].members()[0].second;
  EXPECT_EQ(inner.line(), 6);
  EXPECT_EQ(inner.pointer(), "/list/1/b~1c");
  EXPECT_EQ(inner.string(), "x");
}


// byte ranges cover each value's own text exactly, past white space, comments, ':' and ','
// (what a scene rewrite replaces), also after a byte-order mark; pointers find values
TEST(JsonDocumentTest, ValuesKnowTheirByteRange) {
  const std::string text =
      "\xEF\xBB\xBF{\"a\" : /* c */ -1.5e3 ,\n \"s\":\"x\\\"y\",\"o\": {\"k\": [ 1, {}, null ]} // "
      "end\n}";
  Expected<JsonValue> json = ParseJson(text, "t.json");
  ASSERT_TRUE(json.ok()) << json.diagnostics().Format();
  const JsonValue& root = json.value();
  const auto text_of = [&](const JsonValue& v) {
    return text.substr(v.begin_offset(), v.end_offset() - v.begin_offset());
  };
  EXPECT_EQ(text_of(root), text.substr(3));
  EXPECT_EQ(text_of(*root.Find("a")), "-1.5e3");
  EXPECT_EQ(text_of(*root.Find("s")), "\"x\\\"y\"");
  EXPECT_EQ(text_of(*root.Find("o")), "{\"k\": [ 1, {}, null ]}");
  const JsonValue* list = root.AtPointer("/o/k");
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(text_of(*list), "[ 1, {}, null ]");
  EXPECT_EQ(text_of(list->items()[1]), "{}");
  EXPECT_EQ(text_of(*root.AtPointer("/o/k/2")), "null");
  EXPECT_EQ(root.AtPointer(""), &root);
  EXPECT_EQ(root.AtPointer("/o/k/3"), nullptr);
  EXPECT_EQ(root.AtPointer("/missing"), nullptr);
  EXPECT_EQ(root.AtPointer("/a/0"), nullptr);
}


TEST(JsonDocumentTest, SyntaxErrorIsLocated) {
  Expected<JsonValue> json = ParseJson("{\n  \"a\": 1,\n  \"b\": ]\n}", "bad.json");
  ASSERT_FALSE(json.ok());
  ASSERT_EQ(json.diagnostics().items().size(), 1u);
  EXPECT_EQ(json.diagnostics().items()[0].line, 3);
  EXPECT_EQ(json.diagnostics().items()[0].Format(),
            "bad.json:3: error: invalid JSON: Invalid value.");
}


TEST(JsonDocumentTest, TrailingTextAndDuplicateKeysAreErrors) {
  EXPECT_FALSE(ParseJson("{} {}", "t.json").ok());
  Expected<JsonValue> dup = ParseJson("{\"a\": 1,\n \"a\": 2}", "t.json");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.diagnostics().items()[0].Format(), "t.json:2: error: duplicate key 'a' (at /a)");
}


TEST(JsonDocumentTest, NumberOutOfRangeIsAnError) {
  Expected<JsonValue> json = ParseJson("{\"a\": 1e999}", "t.json");
  ASSERT_FALSE(json.ok());
  EXPECT_NE(json.diagnostics().Format().find("t.json:1: error: invalid JSON"), std::string::npos);
}


// RapidJSON 1.1.0 read a zero with a large negative exponent as a huge number ("0e-300" as
// 9.98e291, found by fuzz_scene_json through UBSan's clz(0) report); numbers are now read by
// std::from_chars: exact, below the smallest double zero, above the largest an error
TEST(JsonDocumentTest, NumbersAreReadExactlyWhateverTheirExponent) {
  Expected<JsonValue> json = ParseJson(
      "[0e-300, -0e-315, 0.0e-400, 1e-400, -0, 0.1, 4.9e-324, 1.7976931348623157e308, "
      "123456789012345678901234567890, 1E+2]",
      "t.json");
  ASSERT_TRUE(json.ok()) << json.diagnostics().Format();
  const std::vector<double> expected = {
      0, -0.0, 0, 0, 0, 0.1, 4.9e-324, 1.7976931348623157e308, 1.2345678901234568e+29, 100};
  ASSERT_EQ(json->items().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(json->items()[i].number(), expected[i]) << i;
    EXPECT_EQ(std::signbit(json->items()[i].number()), std::signbit(expected[i])) << i;
  }
  Expected<JsonValue> huge = ParseJson("{\n\"a\": 1.8e308}", "t.json");
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.diagnostics().Format(),
            "t.json:2: error: invalid JSON: Number too big to be stored in double.\n");
}

}  // namespace
}  // namespace sim::io
