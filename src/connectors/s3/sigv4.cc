#include "connectors/s3/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>

#include "connectors/http/http_client.h"

namespace sluice {

std::string HexEncode(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return HexEncode(std::string_view(reinterpret_cast<const char*>(digest), sizeof(digest)));
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &len);
  return std::string(reinterpret_cast<const char*>(out), len);
}

std::string AwsUriEncode(std::string_view s, bool keep_slash) { return PercentEncode(s, keep_slash); }

namespace {

std::string Trim(std::string_view v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  // Sequential spaces inside collapse to one.
  std::string out;
  for (char c : v) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string SigV4CanonicalRequest(const SigV4Request& request, std::string* signed_headers) {
  std::vector<std::pair<std::string, std::string>> query;
  for (const auto& [k, v] : request.query) query.emplace_back(AwsUriEncode(k, false), AwsUriEncode(v, false));
  std::sort(query.begin(), query.end());
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& [k, v] : request.headers) headers.emplace_back(Lower(k), Trim(v));
  std::sort(headers.begin(), headers.end());
  std::string out = request.method + "\n" + (request.canonical_uri.empty() ? "/" : request.canonical_uri) + "\n";
  for (size_t i = 0; i < query.size(); ++i) out += (i ? "&" : "") + query[i].first + "=" + query[i].second;
  out += "\n";
  signed_headers->clear();
  for (size_t i = 0; i < headers.size(); ++i) {
    out += headers[i].first + ":" + headers[i].second + "\n";
    *signed_headers += (i ? ";" : "") + headers[i].first;
  }
  out += "\n" + *signed_headers + "\n" + request.payload_sha256_hex;
  return out;
}

std::string SigV4StringToSign(const std::string& canonical_request, const std::string& amz_date,
                              const std::string& region, const std::string& service) {
  const std::string scope = amz_date.substr(0, 8) + "/" + region + "/" + service + "/aws4_request";
  return "AWS4-HMAC-SHA256\n" + amz_date + "\n" + scope + "\n" + Sha256Hex(canonical_request);
}

std::string SigV4SigningKey(const std::string& secret, const std::string& date, const std::string& region,
                            const std::string& service) {
  std::string k = HmacSha256("AWS4" + secret, date);
  k = HmacSha256(k, region);
  k = HmacSha256(k, service);
  return HmacSha256(k, "aws4_request");
}

std::string SigV4Authorization(const SigV4Request& request, const AwsCredentials& credentials,
                               const std::string& amz_date, const std::string& region, const std::string& service) {
  std::string signed_headers;
  const std::string canonical = SigV4CanonicalRequest(request, &signed_headers);
  const std::string to_sign = SigV4StringToSign(canonical, amz_date, region, service);
  const std::string date = amz_date.substr(0, 8);
  const std::string signature =
      HexEncode(HmacSha256(SigV4SigningKey(credentials.secret_access_key, date, region, service), to_sign));
  return "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + date + "/" + region + "/" + service +
         "/aws4_request,SignedHeaders=" + signed_headers + ",Signature=" + signature;
}

}  // namespace sluice
