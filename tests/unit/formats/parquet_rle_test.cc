#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "formats/parquet/rle_bitpacked.h"

namespace sluice::parquet {
namespace {

std::vector<uint32_t> Decode(const std::string& enc, int bw, size_t n, Status* st) {
  std::vector<uint32_t> out(n);
  RleBitPackedDecoder d(reinterpret_cast<const uint8_t*>(enc.data()), enc.size(), bw);
  *st = d.Get(out.data(), n);
  return out;
}

TEST(ParquetRleTest, RoundTripsAllBitWidths) {
  std::mt19937 rng(42);
  for (int bw = 0; bw <= 32; ++bw) {
    uint64_t limit = bw == 32 ? 0xFFFFFFFFull : ((1ull << bw) - 1);
    for (int shape = 0; shape < 4; ++shape) {
      std::vector<uint32_t> v;
      size_t n = 1 + rng() % 700;
      for (size_t i = 0; i < n; ++i) {
        uint32_t x;
        switch (shape) {
          case 0: x = static_cast<uint32_t>(rng() & limit); break;   // literals
          case 1: x = static_cast<uint32_t>(limit); break;           // one run
          case 2: x = static_cast<uint32_t>(((i / 13) * 7) & limit); break;  // runs of 13
          default: x = static_cast<uint32_t>((rng() % 4 == 0 ? rng() : i / 9) & limit); break;  // mixed
        }
        v.push_back(x);
      }
      std::string enc;
      EncodeRleBitPacked(v.data(), v.size(), bw, &enc);
      Status st;
      auto got = Decode(enc, bw, v.size(), &st);
      ASSERT_TRUE(st.ok()) << st.ToString() << " bw=" << bw << " shape=" << shape;
      ASSERT_EQ(got, v) << "bw=" << bw << " shape=" << shape;
    }
  }
}

TEST(ParquetRleTest, ChoosesRunsAndLiterals) {
  // 3 literals then 20 repeats: the literals are topped up to a group of 8 from the run, and the
  // remaining 15 repeats are one RLE run.
  std::vector<uint32_t> v = {1, 2, 3};
  v.insert(v.end(), 20, 5);
  std::string enc;
  EncodeRleBitPacked(v.data(), v.size(), 3, &enc);
  // bit-packed header (1 group): 0x03, 3 bytes of data; RLE header 15<<1 = 0x1E, value byte.
  ASSERT_EQ(enc.size(), 1u + 3u + 1u + 1u);
  EXPECT_EQ(static_cast<uint8_t>(enc[0]), 0x03);
  EXPECT_EQ(static_cast<uint8_t>(enc[4]), 0x1E);
  EXPECT_EQ(static_cast<uint8_t>(enc[5]), 5);
}

TEST(ParquetRleTest, DecodesSplitReadsAndLevelsV1) {
  std::vector<int16_t> levels;
  for (int i = 0; i < 1000; ++i) levels.push_back(static_cast<int16_t>((i % 17 < 9) ? 2 : i % 3));
  std::string enc;
  EncodeLevelsV1(levels.data(), levels.size(), 2, &enc);
  uint32_t len;
  std::memcpy(&len, enc.data(), 4);
  ASSERT_EQ(len + 4, enc.size());
  RleBitPackedDecoder d(reinterpret_cast<const uint8_t*>(enc.data()) + 4, len, 2);
  std::vector<int16_t> got(levels.size());
  // Read in odd-sized pieces to cross run and group boundaries.
  size_t done = 0;
  for (size_t step = 1; done < got.size(); step = step * 3 % 37 + 1) {
    size_t m = std::min(step, got.size() - done);
    ASSERT_TRUE(d.Get(got.data() + done, m).ok());
    done += m;
  }
  EXPECT_EQ(got, levels);
  int16_t extra[9];
  EXPECT_FALSE(d.Get(extra, 9).ok());  // past the padded end
}

TEST(ParquetRleTest, MalformedInputFails) {
  Status st;
  // Empty data.
  Decode("", 3, 1, &st);
  EXPECT_FALSE(st.ok());
  // An RLE run whose value is cut off.
  Decode(std::string("\x10", 1), 16, 1, &st);
  EXPECT_FALSE(st.ok());
  // A zero-length RLE run.
  Decode(std::string("\x00\x01", 2), 1, 1, &st);
  EXPECT_FALSE(st.ok());
  // Fuzz: never crashes.
  std::mt19937 rng(1);
  for (int i = 0; i < 3000; ++i) {
    std::string junk(rng() % 40, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    Decode(junk, rng() % 34, rng() % 100, &st);
  }
  // A value wider than the output type.
  std::vector<uint32_t> big = {70000};
  std::string enc;
  EncodeRleBitPacked(big.data(), 1, 17, &enc);
  RleBitPackedDecoder d(reinterpret_cast<const uint8_t*>(enc.data()), enc.size(), 17);
  int16_t out;
  EXPECT_FALSE(d.Get(&out, 1).ok());
}

TEST(ParquetRleTest, BitPackHelpers) {
  std::vector<uint32_t> v = {1, 0, 1, 1, 0, 0, 0, 1, 1};
  std::string packed;
  BitPack(v.data(), v.size(), 1, &packed);
  ASSERT_EQ(packed.size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(packed[0]), 0x8D);
  EXPECT_EQ(static_cast<uint8_t>(packed[1]), 0x01);
  std::vector<uint32_t> out(v.size());
  UnpackBits(reinterpret_cast<const uint8_t*>(packed.data()), v.size(), 1, out.data());
  EXPECT_EQ(out, v);
  EXPECT_EQ(BitWidthOf(0), 0);
  EXPECT_EQ(BitWidthOf(1), 1);
  EXPECT_EQ(BitWidthOf(255), 8);
  EXPECT_EQ(BitWidthOf(256), 9);
}

}  // namespace
}  // namespace sluice::parquet
