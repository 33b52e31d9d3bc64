// AWS Signature V4 against the examples AWS publishes (the S3 "Signature Calculations for the
// Authorization Header" examples, the SigV4 test suite's get-vanilla case, and the signing-key
// derivation example), plus the S3 XML and location helpers.
#include "connectors/s3/sigv4.h"

#include <gtest/gtest.h>

#include "connectors/s3/s3_client.h"

namespace sluice {
namespace {

constexpr const char* kEmptySha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const AwsCredentials kS3Example{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};

TEST(SigV4, SigningKeyDerivation) {
  EXPECT_EQ(HexEncode(SigV4SigningKey("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215", "us-east-1", "iam")),
            "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
}

TEST(SigV4, GetVanilla) {
  SigV4Request r{"GET", "/", {}, {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}}, kEmptySha};
  AwsCredentials c{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};
  EXPECT_EQ(SigV4Authorization(r, c, "20150830T123600Z", "us-east-1", "service"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
            "SignedHeaders=host;x-amz-date,"
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4, S3GetObjectWithRange) {
  SigV4Request r{"GET",
                 "/test.txt",
                 {},
                 {{"Host", "examplebucket.s3.amazonaws.com"},
                  {"Range", "bytes=0-9"},
                  {"x-amz-content-sha256", kEmptySha},
                  {"x-amz-date", "20130524T000000Z"}},
                 kEmptySha};
  std::string signed_headers;
  std::string canonical = SigV4CanonicalRequest(r, &signed_headers);
  EXPECT_EQ(signed_headers, "host;range;x-amz-content-sha256;x-amz-date");
  EXPECT_EQ(Sha256Hex(canonical), "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(SigV4Authorization(r, kS3Example, "20130524T000000Z", "us-east-1", "s3"),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, S3PutObject) {
  const std::string payload = Sha256Hex("Welcome to Amazon S3.");
  EXPECT_EQ(payload, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  SigV4Request r{"PUT",
                 "/" + AwsUriEncode("test$file.text", true),
                 {},
                 {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                  {"Host", "examplebucket.s3.amazonaws.com"},
                  {"x-amz-content-sha256", payload},
                  {"x-amz-date", "20130524T000000Z"},
                  {"x-amz-storage-class", "REDUCED_REDUNDANCY"}},
                 payload};
  EXPECT_EQ(r.canonical_uri, "/test%24file.text");
  EXPECT_NE(SigV4Authorization(r, kS3Example, "20130524T000000Z", "us-east-1", "s3")
                .find("Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"),
            std::string::npos);
}

TEST(SigV4, S3ListObjectsQueryIsSorted) {
  SigV4Request r{"GET",
                 "/",
                 {{"prefix", "J"}, {"max-keys", "2"}},
                 {{"Host", "examplebucket.s3.amazonaws.com"},
                  {"x-amz-content-sha256", kEmptySha},
                  {"x-amz-date", "20130524T000000Z"}},
                 kEmptySha};
  EXPECT_NE(SigV4Authorization(r, kS3Example, "20130524T000000Z", "us-east-1", "s3")
                .find("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
            std::string::npos);
}

TEST(SigV4, UriEncoding) {
  EXPECT_EQ(AwsUriEncode("a b/c=d~e", true), "a%20b/c%3Dd~e");
  EXPECT_EQ(AwsUriEncode("a/b", false), "a%2Fb");
}

TEST(S3Location, Parse) {
  auto a = S3Location::Parse("s3a://bucket/wh/db/t/data/x.parquet");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->bucket, "bucket");
  EXPECT_EQ(a->key, "wh/db/t/data/x.parquet");
  EXPECT_EQ(a->ToString(), "s3://bucket/wh/db/t/data/x.parquet");
  EXPECT_FALSE(S3Location::Parse("s3:///x").ok());
  EXPECT_FALSE(S3Location::Parse("/local/x").ok());
}

TEST(S3Xml, ElementsAndEntities) {
  std::string xml = "<R><Contents><Key>a&amp;b</Key></Contents><Contents><Key>c</Key></Contents></R>";
  size_t pos = 0;
  auto first = XmlElement(xml, "Contents", &pos);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(XmlElement(*first, "Key"), "a&b");
  auto second = XmlElement(xml, "Contents", &pos);
  ASSERT_TRUE(second.has_value());
  EXPECT_FALSE(XmlElement(xml, "Contents", &pos).has_value());
}

TEST(S3Options, FromProperties) {
  auto o = S3Options::FromProperties({{"s3.endpoint", "http://127.0.0.1:9000/"},
                                      {"s3.path-style-access", "true"},
                                      {"client.region", "eu-west-1"},
                                      {"s3.access-key-id", "k"},
                                      {"s3.secret-access-key", "s"}},
                                     "Catalog 'c'");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->endpoint, "http://127.0.0.1:9000");
  EXPECT_TRUE(o->path_style);
  EXPECT_EQ(o->region, "eu-west-1");
  auto bad = S3Options::FromProperties({{"s3.multipart.size", "100"}}, "Catalog 'c'");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'s3.multipart.size'"), std::string::npos);
}

}  // namespace
}  // namespace sluice
