// AWS Signature Version 4 (the signing every S3 request carries), computed with OpenSSL's SHA-256
// and HMAC. The steps follow AWS's published description: a canonical request (method, URI-encoded
// path, sorted query, sorted lower-cased signed headers, payload hash), a string to sign over its
// hash with the credential scope <date>/<region>/<service>/aws4_request, a signing key derived by
// HMAC chain from "AWS4" + secret, and the hex HMAC of the string to sign.
//
// Checked against AWS's published examples (tests/unit/connectors/sigv4_test.cc).
//
// Threading: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // STS / vended credentials; empty when none
};

struct SigV4Request {
  std::string method;         // GET, PUT, ...
  std::string canonical_uri;  // the path, already URI-encoded per segment ("/bucket/key")
  // Query parameters, unencoded (key, value); encoded and sorted here.
  std::vector<std::pair<std::string, std::string>> query;
  // Headers to sign (names in any case, values trimmed here); must include host and x-amz-date.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string payload_sha256_hex;  // hex SHA-256 of the body (or "UNSIGNED-PAYLOAD")
};

std::string Sha256Hex(std::string_view data);
std::string HmacSha256(std::string_view key, std::string_view data);  // raw 32 bytes
std::string HexEncode(std::string_view bytes);

// RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX (upper
// case); '/' kept when `keep_slash` (an object key in a path). The same as PercentEncode (http_client.h).
std::string AwsUriEncode(std::string_view s, bool keep_slash);

std::string SigV4CanonicalRequest(const SigV4Request& request, std::string* signed_headers);
// `amz_date` is "YYYYMMDDTHHMMSSZ".
std::string SigV4StringToSign(const std::string& canonical_request, const std::string& amz_date,
                              const std::string& region, const std::string& service);
std::string SigV4SigningKey(const std::string& secret, const std::string& date, const std::string& region,
                            const std::string& service);
// The Authorization header's value.
std::string SigV4Authorization(const SigV4Request& request, const AwsCredentials& credentials,
                               const std::string& amz_date, const std::string& region, const std::string& service);

}  // namespace sluice
