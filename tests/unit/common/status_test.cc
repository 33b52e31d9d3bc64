#include "common/status.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

Result<int> Half(int x) {
  if (x % 2) return Status::InvalidArgument("odd: " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  ASSIGN_OR_RETURN(int h, Half(x));
  ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(StatusTest, PropagatesAndKeepsContext) {
  EXPECT_EQ(*Quarter(8), 2);
  Result<int> r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "odd: 3");
  EXPECT_EQ(r.status().WithContext("file a.json, line 3").ToString(), "Invalid argument: file a.json, line 3: odd: 3");
  EXPECT_TRUE(Status::OK().ok());
}

}  // namespace
}  // namespace sluice
