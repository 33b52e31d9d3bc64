// A minimal HTTP client for connectors that talk to services (the Iceberg REST catalog): one request,
// one response, over Debian's libcurl. HttpTransport is the seam: tests substitute an in-process fake.
//
// Send returns a response for every HTTP status (the caller maps them); it fails only when no
// response arrived (connection refused, DNS, TLS, timeout), with kIOError naming the URL without its
// query string. Header values (which may carry secrets) never appear in errors.
//
// Threading: a transport is thread-safe (each Send uses its own curl handle).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace sluice {

struct HttpRequest {
  std::string method = "GET";  // GET, HEAD, POST, PUT, DELETE
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // sent for POST and PUT
  // Leaves the body as the server sent it (no Accept-Encoding): ranged object reads.
  bool raw = false;
};

struct HttpResponse {
  HttpResponse() = default;
  HttpResponse(int status_code, std::string body_text) : status(status_code), body(std::move(body_text)) {}
  int status = 0;
  std::string body;
  // Response headers, names lower-cased, in arrival order (of the last response when redirected).
  std::vector<std::pair<std::string, std::string>> headers;
  // The first header named `name` (lower-case), or empty.
  std::string Header(std::string_view name) const;
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  [[nodiscard]] virtual Result<HttpResponse> Send(const HttpRequest& request) = 0;
};

struct HttpClientOptions {
  int64_t connect_timeout_ms = 10'000;
  int64_t request_timeout_ms = 120'000;
};

std::shared_ptr<HttpTransport> NewCurlHttpTransport(HttpClientOptions options = {});

// Percent-encoding of a URL path segment or query value: RFC 3986 unreserved characters are kept,
// every other byte becomes %XX (upper-case hex); '/' is kept too when `keep_slash` (a path of segments,
// such as an S3 object key).
std::string PercentEncode(std::string_view s, bool keep_slash = false);
// The URL without its query string (for messages).
std::string UrlWithoutQuery(std::string_view url);
// "Not Found" for 404 and the other common statuses; empty when unknown.
std::string HttpReasonPhrase(int status);

}  // namespace sluice
