#include <gtest/gtest.h>

#include "formats/parquet/compression.h"

namespace sluice::parquet {
namespace {

TEST(ParquetCompressionTest, RoundTripsEveryCodec) {
  std::string data;
  for (int i = 0; i < 50000; ++i) data += "row " + std::to_string(i % 97) + ";";
  for (CompressionCodec c : {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::GZIP,
                             CompressionCodec::ZSTD}) {
    auto codec = PageCodec::Make(c);
    ASSERT_TRUE(codec.ok());
    for (const std::string& in : {data, std::string()}) {
      std::string comp, back;
      ASSERT_TRUE((*codec)->Compress(in, &comp).ok());
      if (c != CompressionCodec::UNCOMPRESSED && !in.empty()) {
        EXPECT_LT(comp.size(), in.size() / 4);
      }
      ASSERT_TRUE((*codec)->Decompress(comp, in.size(), &back).ok()) << CodecName(c);
      EXPECT_EQ(back, in);
      // A wrong expected size fails clearly.
      Status st = (*codec)->Decompress(comp, in.size() + 1, &back);
      EXPECT_FALSE(st.ok()) << CodecName(c);
      EXPECT_NE(st.message().find(std::string(CodecName(c))), std::string::npos) << st.message();
      if (!in.empty()) {
        st = (*codec)->Decompress(comp, in.size() - 1, &back);
        EXPECT_FALSE(st.ok()) << CodecName(c);
      }
    }
  }
}

TEST(ParquetCompressionTest, CorruptDataAndUnknownCodecs) {
  for (CompressionCodec c : {CompressionCodec::SNAPPY, CompressionCodec::GZIP, CompressionCodec::ZSTD}) {
    auto codec = PageCodec::Make(c);
    ASSERT_TRUE(codec.ok());
    std::string out;
    EXPECT_FALSE((*codec)->Decompress("definitely not compressed data", 100, &out).ok()) << CodecName(c);
  }
  auto lzo = PageCodec::Make(CompressionCodec::LZO);
  ASSERT_FALSE(lzo.ok());
  EXPECT_NE(lzo.status().message().find("LZO"), std::string::npos);
  EXPECT_EQ(*ParseCodecName("ZSTD"), CompressionCodec::ZSTD);
  EXPECT_EQ(*ParseCodecName("uncompressed"), CompressionCodec::UNCOMPRESSED);
  EXPECT_FALSE(ParseCodecName("lz5").ok());
}

}  // namespace
}  // namespace sluice::parquet
