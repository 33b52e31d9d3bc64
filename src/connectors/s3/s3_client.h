// S3Client: the S3 REST API calls Sluice's object-storage FileIO needs (HEAD, ranged GET, PUT,
// DELETE, ListObjectsV2, multipart upload), signed with AWS Signature V4 (sigv4.h), over the shared
// libcurl transport (connectors/http/http_client.h).
//
// Configuration uses Iceberg's S3FileIO property names (S3Options::FromProperties):
//   's3.endpoint'             e.g. http://127.0.0.1:9000 (default https://s3.<region>.amazonaws.com)
//   's3.path-style-access'    'true': http://endpoint/bucket/key (default: bucket.endpoint/key)
//   's3.access-key-id', 's3.secret-access-key', 's3.session-token'
//                             (default: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN)
//   'client.region'           the signing region (default: AWS_REGION, else us-east-1)
//   's3.multipart.size'       part size of multipart uploads in bytes (default 32 MiB, least 5 MiB)
//   's3.multipart.num-threads' parts of one file uploaded at the same time (default 4, 1 to 64); each
//                             holds its part's bytes in memory until sent
//
// Retries: 429, 500, 502, 503, 504 answers, an S3 "SlowDown" / "InternalError" code and network errors
// are retried with exponential backoff (max_attempts, doubling from initial_backoff_ms). Errors name
// the object as s3://bucket/key with S3's error code and message: 404 is kNotFound, 403 says access
// was denied (a wrong key, a missing permission).
// Secrets never appear in errors.
//
// Threading: thread-safe (each request is independent; the credentials provider must be too).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "connectors/http/http_client.h"
#include "connectors/s3/sigv4.h"

namespace sluice {

// "s3://bucket/key" or "s3a://bucket/key".
struct S3Location {
  std::string bucket;
  std::string key;  // without a leading '/'; may be empty (the bucket)
  static Result<S3Location> Parse(const std::string& location);
  std::string ToString() const { return "s3://" + bucket + "/" + key; }
};

bool IsS3Location(const std::string& location);

struct S3Options {
  std::string endpoint;  // scheme://host[:port], no trailing '/'
  bool path_style = false;
  std::string region = "us-east-1";
  AwsCredentials credentials;
  // When set, asked for the credentials of every request (vended credentials that expire); else
  // `credentials` is used.
  std::function<Result<AwsCredentials>()> credentials_provider;
  uint64_t multipart_size = 32ull << 20;
  int multipart_threads = 4;
  int max_attempts = 6;
  int64_t initial_backoff_ms = 100;
  std::function<void(int64_t)> sleep_ms;  // default: sleeps the thread

  // From S3FileIO properties (falling back on the AWS_* environment); `place` prefixes errors.
  static Result<S3Options> FromProperties(const std::map<std::string, std::string>& properties,
                                          const std::string& place);
};

struct S3Object {
  std::string key;
  uint64_t size = 0;
  int64_t modified_ms = 0;
};

struct S3Listing {
  std::vector<S3Object> objects;
  std::vector<std::string> common_prefixes;
};

class S3Client {
 public:
  S3Client(S3Options options, std::shared_ptr<HttpTransport> transport);

  const S3Options& options() const { return options_; }

  // The object's size; kNotFound when it does not exist.
  Result<uint64_t> Head(const S3Location& loc);
  // Bytes [offset, offset + length) with a ranged GET.
  Status GetRange(const S3Location& loc, uint64_t offset, uint64_t length, std::string* out);
  // With if_none_match, the PUT is conditional ("If-None-Match: *") and fails with "already exists"
  // when the object exists.
  Status Put(const S3Location& loc, std::string_view body, bool if_none_match);
  // A missing object is not an error.
  Status Delete(const S3Location& loc);
  // Every object under `prefix` (all pages); with a delimiter, the common prefixes too.
  Result<S3Listing> List(const std::string& bucket, const std::string& prefix, const std::string& delimiter);

  Result<std::string> CreateMultipartUpload(const S3Location& loc);
  // The part's ETag.
  Result<std::string> UploadPart(const S3Location& loc, const std::string& upload_id, int part_number,
                                 std::string_view data);
  Status CompleteMultipartUpload(const S3Location& loc, const std::string& upload_id,
                                 const std::vector<std::string>& etags);
  Status AbortMultipartUpload(const S3Location& loc, const std::string& upload_id);

 private:
  struct Call {
    Call(std::string m, std::string b, std::string k, std::vector<std::pair<std::string, std::string>> q = {},
         std::vector<std::pair<std::string, std::string>> h = {}, std::string_view data = {}, bool raw_body = false)
        : method(std::move(m)), bucket(std::move(b)), key(std::move(k)), query(std::move(q)), headers(std::move(h)),
          body(data), raw(raw_body) {}
    std::string method;
    std::string bucket;
    std::string key;
    std::vector<std::pair<std::string, std::string>> query;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string_view body;
    bool raw = false;
  };
  // Signs and sends, retrying throttling, 5xx and network errors; any other answer is returned.
  Result<HttpResponse> Send(const Call& call);
  Result<HttpResponse> SendOnce(const Call& call);
  // The error for a non-2xx answer about `what` (an s3:// location).
  Status ErrorFor(const std::string& verb, const std::string& what, const HttpResponse& response) const;

  S3Options options_;
  std::shared_ptr<HttpTransport> transport_;
  std::string scheme_;  // "http" or "https"
  std::string host_;    // host[:port] of the endpoint
};

// The text of the first <tag>...</tag> in `xml` at or after `from` (entities decoded), or nullopt.
std::optional<std::string> XmlElement(std::string_view xml, std::string_view tag, size_t* from = nullptr);

}  // namespace sluice
