// release_copy.h: growing arrays whose old pages are dropped as they are copied keep every value,
// below and above the 4 MiB threshold, at any alignment.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/release_copy.h"

namespace sluice {
namespace {

struct Entry {
  uint32_t a = 7;
  uint32_t b = 0;
  int64_t c = -1;
};

TEST(ReleaseCopyTest, GrowingKeepsEveryElement) {
  for (size_t n : {size_t{0}, size_t{3}, size_t{1000}, size_t{700000}}) {  // 700,000 x 16 bytes: 11 MiB
    std::vector<Entry> v;
    v.reserve(n);
    for (size_t i = 0; i < n; ++i) v.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(i * 3), -static_cast<int64_t>(i)});
    GrowReleasingSource(&v, n + 1);
    ASSERT_EQ(v.size(), n);
    EXPECT_GE(v.capacity(), n + 1);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(v[i].a, i);
      ASSERT_EQ(v[i].b, i * 3);
      ASSERT_EQ(v[i].c, -static_cast<int64_t>(i));
    }
    v.push_back(Entry{});
    EXPECT_EQ(v.back().a, 7u);
  }
}

TEST(ReleaseCopyTest, CopiesUnalignedLargeBuffers) {
  const size_t bytes = (size_t{9} << 20) + 12345;
  std::vector<uint8_t> from(bytes + 3);
  for (size_t i = 0; i < from.size(); ++i) from[i] = static_cast<uint8_t>(i * 31 + 7);
  std::vector<uint8_t> want(from.begin() + 3, from.end());
  std::vector<uint8_t> to(bytes);
  CopyReleasingSource(to.data(), from.data() + 3, bytes);
  EXPECT_EQ(to, want);
  // The source's first partial page (before its first whole page) is left as it was.
  EXPECT_EQ(from[0], 7);
}

}  // namespace
}  // namespace sluice
