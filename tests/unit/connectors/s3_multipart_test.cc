// S3FileIO's multipart writes against an in-process fake S3 (an HttpTransport): parts go out in
// parallel up to 's3.multipart.num-threads', CompleteMultipartUpload lists every part's ETag in part
// order, and a failed part aborts the upload without completing it.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "connectors/s3/s3_client.h"
#include "connectors/s3/s3_file_io.h"

namespace sluice {
namespace {

constexpr uint64_t kPart = 5ull << 20;

std::string QueryValue(const std::string& url, const std::string& name) {
  size_t at = url.find(name + "=");
  if (at == std::string::npos) return "";
  at += name.size() + 1;
  size_t end = url.find('&', at);
  return url.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// Answers multipart calls; part 1 waits (bounded) for part 2's request to arrive, to observe overlap.
class FakeS3 final : public HttpTransport {
 public:
  Result<HttpResponse> Send(const HttpRequest& r) override {
    std::unique_lock<std::mutex> lock(mu_);
    if (r.method == "POST" && r.url.find("uploads") != std::string::npos) {
      return HttpResponse(200, "<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>");
    }
    if (r.method == "PUT" && r.url.find("partNumber=") != std::string::npos) {
      const int part = std::stoi(QueryValue(r.url, "partNumber"));
      part_sizes.resize(std::max<size_t>(part_sizes.size(), static_cast<size_t>(part)));
      part_sizes[static_cast<size_t>(part) - 1] = r.body.size();
      if (part == 2) {
        part2_seen_ = true;
        cv_.notify_all();
      }
      if (part == 1) overlapped = cv_.wait_for(lock, std::chrono::seconds(30), [this] { return part2_seen_; });
      if (part == fail_part) return HttpResponse(403, "<Error><Code>AccessDenied</Code><Message>no</Message></Error>");
      HttpResponse ok(200, "");
      ok.headers.push_back({"etag", "\"e" + std::to_string(part) + "\""});
      return ok;
    }
    if (r.method == "POST" && r.url.find("uploadId=") != std::string::npos) {
      complete_body = r.body;
      return HttpResponse(200, "<CompleteMultipartUploadResult/>");
    }
    if (r.method == "DELETE") {
      ++aborts;
      return HttpResponse(204, "");
    }
    return HttpResponse(400, "<Error><Code>Unexpected</Code></Error>");
  }

  int fail_part = 0;
  bool overlapped = false;
  std::vector<size_t> part_sizes;
  std::string complete_body;
  int aborts = 0;

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool part2_seen_ = false;
};

std::unique_ptr<FileIO> MakeIO(const std::shared_ptr<FakeS3>& fake, const std::string& threads) {
  auto options = S3Options::FromProperties({{"s3.endpoint", "http://127.0.0.1:1"},
                                            {"s3.path-style-access", "true"},
                                            {"s3.access-key-id", "k"},
                                            {"s3.secret-access-key", "s"},
                                            {"s3.multipart.size", std::to_string(kPart)},
                                            {"s3.multipart.num-threads", threads}},
                                           "test");
  EXPECT_TRUE(options.ok()) << options.status().ToString();
  options->sleep_ms = [](int64_t) {};
  return NewS3FileIO(std::make_shared<S3Client>(*options, fake));
}

TEST(S3Multipart, PartsInParallelCompleteInOrder) {
  auto fake = std::make_shared<FakeS3>();
  auto io = MakeIO(fake, "3");
  auto file = io->Create("s3://b/t/data.parquet");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const std::string chunk(1 << 20, 'x');
  for (int i = 0; i < 17; ++i) ASSERT_TRUE((*file)->Append(chunk).ok());  // 3 full parts + 2 MiB
  ASSERT_TRUE((*file)->Close().ok());
  EXPECT_TRUE(fake->overlapped);
  EXPECT_EQ(fake->part_sizes, (std::vector<size_t>{kPart, kPart, kPart, 2u << 20}));
  EXPECT_EQ(fake->complete_body,
            "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\"e1\"</ETag></Part>"
            "<Part><PartNumber>2</PartNumber><ETag>\"e2\"</ETag></Part>"
            "<Part><PartNumber>3</PartNumber><ETag>\"e3\"</ETag></Part>"
            "<Part><PartNumber>4</PartNumber><ETag>\"e4\"</ETag></Part></CompleteMultipartUpload>");
  EXPECT_EQ(fake->aborts, 0);
}

TEST(S3Multipart, FailedPartAbortsWithoutCompleting) {
  auto fake = std::make_shared<FakeS3>();
  fake->fail_part = 2;
  auto io = MakeIO(fake, "2");
  auto file = io->Create("s3://b/t/data.parquet");
  ASSERT_TRUE(file.ok());
  const std::string chunk(kPart, 'y');
  Status st;
  for (int i = 0; i < 4 && st.ok(); ++i) st = (*file)->Append(chunk);
  if (st.ok()) st = (*file)->Close();
  (*file).reset();  // a writer that saw the error drops the file
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("s3://b/t/data.parquet"), std::string::npos) << st.ToString();
  EXPECT_TRUE(fake->complete_body.empty());
  EXPECT_EQ(fake->aborts, 1);
}

TEST(S3Multipart, NumThreadsOption) {
  auto bad = S3Options::FromProperties({{"s3.multipart.num-threads", "0"}}, "Catalog 'c'");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'s3.multipart.num-threads'"), std::string::npos);
  auto dflt = S3Options::FromProperties({}, "Catalog 'c'");
  ASSERT_TRUE(dflt.ok());
  EXPECT_EQ(dflt->multipart_threads, 4);
}

}  // namespace
}  // namespace sluice
