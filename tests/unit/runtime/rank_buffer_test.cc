// RankBuffer (the Top-N partition buffer) against std::map: random inserts, finds and erasures over
// enough keys to split and merge chunks, checking order, contents and iterator walks both ways.
#include "runtime/operators/rank_buffer.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <random>
#include <string>

namespace sluice {
namespace {

std::string Key(uint32_t k) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[3 - i] = static_cast<char>((k >> (8 * i)) & 0xff);
  return s;
}

void ExpectSame(const RankBuffer& b, const std::map<std::string, RankTieIds>& m) {
  ASSERT_EQ(b.size(), m.size());
  ASSERT_EQ(b.empty(), m.empty());
  auto mi = m.begin();
  for (const auto& [key, ids] : b) {
    ASSERT_EQ(key, mi->first);
    ASSERT_EQ(ids, mi->second);
    ++mi;
  }
  // Backwards from end().
  auto bi = b.end();
  for (auto ri = m.rbegin(); ri != m.rend(); ++ri) {
    --bi;
    ASSERT_EQ(bi->first, ri->first);
  }
  ASSERT_TRUE(bi == b.begin());
  if (!m.empty()) {
    EXPECT_EQ(b.back().first, m.rbegin()->first);
  }
}

TEST(RankBufferTest, MatchesOrderedMapUnderRandomChanges) {
  for (uint32_t range : {8u, 300u, 5000u}) {
    std::mt19937 rng(range);
    RankBuffer b;
    std::map<std::string, RankTieIds> m;
    for (uint32_t step = 0; step < 20000; ++step) {
      const std::string key = Key(rng() % range);
      const uint32_t op = rng() % 10;
      if (op < 6) {  // insert a row
        auto [it, fresh] = b.try_emplace(std::string(key));
        auto [mit, mfresh] = m.try_emplace(key);
        ASSERT_EQ(fresh, mfresh);
        ASSERT_EQ(it->first, key);
        it->second.push_back(step);
        mit->second.push_back(step);
      } else if (op < 9) {  // erase the key and check the iterator returned
        auto it = b.find(key);
        auto mit = m.find(key);
        ASSERT_EQ(it == b.end(), mit == m.end());
        if (mit == m.end()) continue;
        auto next = b.erase(it);
        auto mnext = m.erase(mit);
        ASSERT_EQ(next == b.end(), mnext == m.end());
        if (mnext != m.end()) {
          ASSERT_EQ(next->first, mnext->first);
        }
      } else {  // erase everything from the key's lower bound on, walking with erase's result
        auto mit = m.lower_bound(key);
        auto it = b.begin();
        while (it != b.end() && it->first < key) ++it;
        while (it != b.end()) it = b.erase(it);
        m.erase(mit, m.end());
      }
      if (step % 997 == 0) ExpectSame(b, m);
    }
    ExpectSame(b, m);
    b.clear();
    EXPECT_TRUE(b.empty());
  }
}

TEST(RankBufferTest, PushBackBuildsTheSameOrder) {
  RankBuffer b;
  std::map<std::string, RankTieIds> m;
  for (uint32_t k = 0; k < 1000; ++k) {
    b.push_back(Key(k * 3), RankTieIds{k});
    m.emplace(Key(k * 3), RankTieIds{k});
  }
  ExpectSame(b, m);
  // Inserts between restored keys split the chunks.
  for (uint32_t k = 0; k < 1000; ++k) {
    b.try_emplace(Key(k * 3 + 1)).first->second.push_back(k);
    m.try_emplace(Key(k * 3 + 1)).first->second.push_back(k);
  }
  ExpectSame(b, m);
  EXPECT_GT(b.MemoryUsage(), 2000 * sizeof(RankBuffer::Entry) - 1);
}

// Keys longer than RankKey's 15 inline bytes (kept on the heap) next to short ones, and tie lists longer
// than RankTieIds' two inline ids: same order and contents as std::map, through moves and erasures.
TEST(RankBufferTest, LongKeysAndManyTies) {
  std::mt19937 rng(7);
  RankBuffer b;
  std::map<std::string, RankTieIds> m;
  for (uint32_t step = 0; step < 20000; ++step) {
    const uint32_t k = rng() % 400;
    // 4-byte keys, and 15-, 16- and 40-byte keys with the same 4-byte prefix order.
    std::string key = Key(k);
    if (k % 4 != 0) key += std::string(k % 4 == 1 ? 11 : k % 4 == 2 ? 12 : 36, static_cast<char>('a' + k % 7));
    if (rng() % 4 != 0) {
      b.try_emplace(std::string(key)).first->second.push_back(step);
      m.try_emplace(key).first->second.push_back(step);
    } else {
      auto it = b.find(key);
      auto mit = m.find(key);
      ASSERT_EQ(it == b.end(), mit == m.end());
      if (mit == m.end()) continue;
      ASSERT_EQ(it->second, mit->second);
      // Drop the oldest tie, or the key with its last one.
      if (mit->second.size() > 1) {
        it->second.erase(it->second.begin());
        mit->second.erase(mit->second.begin());
      } else {
        b.erase(it);
        m.erase(mit);
      }
    }
    if (step % 991 == 0) ExpectSame(b, m);
  }
  ExpectSame(b, m);
  size_t spilled = 0;
  for (const auto& [key, ids] : b) spilled += ids.HeapBytes() > 0 ? 1 : 0;
  EXPECT_GT(spilled, 0u);
  // Copies keep the bytes and the ids.
  const RankKey long_key(std::string(40, 'x'));
  RankKey copy = long_key;
  EXPECT_EQ(copy, std::string(40, 'x'));
  EXPECT_TRUE(RankKey(std::string("a")) < copy);
  RankTieIds ids{1, 2, 3, 4};
  RankTieIds ids_copy = ids;
  ids.pop_back();
  EXPECT_EQ(ids_copy.size(), 4u);
  EXPECT_EQ(ids_copy.back(), 4u);
  EXPECT_NE(ids, ids_copy);
}

}  // namespace
}  // namespace sluice
