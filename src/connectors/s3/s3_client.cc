#include "connectors/s3/s3_client.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <thread>

namespace sluice {
namespace {

std::string AmzDate() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

std::string Property(const std::map<std::string, std::string>& p, const std::string& key, const std::string& fallback) {
  auto it = p.find(key);
  return it == p.end() || it->second.empty() ? fallback : it->second;
}

std::string DecodeEntities(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    size_t semi = s.find(';', i);
    if (semi == std::string_view::npos) {
      out += s.substr(i);
      break;
    }
    std::string_view ent = s.substr(i + 1, semi - i - 1);
    if (ent == "amp") out += '&';
    else if (ent == "lt") out += '<';
    else if (ent == "gt") out += '>';
    else if (ent == "quot") out += '"';
    else if (ent == "apos") out += '\'';
    else if (!ent.empty() && ent[0] == '#') out += static_cast<char>(std::strtol(std::string(ent.substr(ent[1] == 'x' ? 2 : 1)).c_str(), nullptr, ent[1] == 'x' ? 16 : 10));
    else out += std::string(s.substr(i, semi - i + 1));
    i = semi;
  }
  return out;
}

// "2026-12-07T01:23:45.000Z" as epoch milliseconds (0 when unreadable).
int64_t ParseIsoMillis(const std::string& s) {
  std::tm tm{};
  int millis = 0;
  if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec, &millis) < 6) {
    return 0;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + millis;
}

bool Retryable(const HttpResponse& r) {
  if (r.status == 429 || r.status == 500 || r.status == 502 || r.status == 503 || r.status == 504) return true;
  // S3 sometimes throttles with a 200-less body naming SlowDown.
  return r.status >= 400 && (r.body.find("<Code>SlowDown</Code>") != std::string::npos ||
                             r.body.find("<Code>InternalError</Code>") != std::string::npos);
}

}  // namespace

std::optional<std::string> XmlElement(std::string_view xml, std::string_view tag, size_t* from) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  size_t start = xml.find(open, from ? *from : 0);
  if (start == std::string_view::npos) return std::nullopt;
  start += open.size();
  size_t end = xml.find(close, start);
  if (end == std::string_view::npos) return std::nullopt;
  if (from) *from = end + close.size();
  return DecodeEntities(xml.substr(start, end - start));
}

bool IsS3Location(const std::string& location) {
  return location.rfind("s3://", 0) == 0 || location.rfind("s3a://", 0) == 0 || location.rfind("s3n://", 0) == 0;
}

Result<S3Location> S3Location::Parse(const std::string& location) {
  size_t scheme = location.find("://");
  if (!IsS3Location(location)) return Status::InvalidArgument("'" + location + "' is not an s3:// location");
  std::string rest = location.substr(scheme + 3);
  size_t slash = rest.find('/');
  S3Location out;
  out.bucket = rest.substr(0, slash);
  if (slash != std::string::npos) out.key = rest.substr(slash + 1);
  if (out.bucket.empty()) return Status::InvalidArgument("S3 location '" + location + "' names no bucket");
  return out;
}

Result<S3Options> S3Options::FromProperties(const std::map<std::string, std::string>& p, const std::string& place) {
  S3Options o;
  o.region = Property(p, "client.region", Env("AWS_REGION").empty() ? "us-east-1" : Env("AWS_REGION"));
  o.endpoint = Property(p, "s3.endpoint", "https://s3." + o.region + ".amazonaws.com");
  while (!o.endpoint.empty() && o.endpoint.back() == '/') o.endpoint.pop_back();
  if (o.endpoint.rfind("http://", 0) != 0 && o.endpoint.rfind("https://", 0) != 0) {
    return Status::InvalidArgument(place + ": 's3.endpoint' = '" + o.endpoint + "' must start with http:// or https://");
  }
  std::string path_style = Property(p, "s3.path-style-access", "false");
  if (path_style != "true" && path_style != "false") {
    return Status::InvalidArgument(place + ": 's3.path-style-access' must be 'true' or 'false', not '" + path_style + "'");
  }
  o.path_style = path_style == "true";
  o.credentials.access_key_id = Property(p, "s3.access-key-id", Env("AWS_ACCESS_KEY_ID"));
  o.credentials.secret_access_key = Property(p, "s3.secret-access-key", Env("AWS_SECRET_ACCESS_KEY"));
  o.credentials.session_token = Property(p, "s3.session-token", Env("AWS_SESSION_TOKEN"));
  std::string part = Property(p, "s3.multipart.size", "");
  if (!part.empty()) {
    char* end = nullptr;
    unsigned long long v = std::strtoull(part.c_str(), &end, 10);
    if (end == part.c_str() || *end != '\0' || v < (5ull << 20) || v > (5ull << 30)) {
      return Status::InvalidArgument(place + ": 's3.multipart.size' = '" + part +
                                     "' must be a byte count between 5 MiB (5242880) and 5 GiB");
    }
    o.multipart_size = v;
  }
  std::string threads = Property(p, "s3.multipart.num-threads", "");
  if (!threads.empty()) {
    char* end = nullptr;
    long v = std::strtol(threads.c_str(), &end, 10);
    if (end == threads.c_str() || *end != '\0' || v < 1 || v > 64) {
      return Status::InvalidArgument(place + ": 's3.multipart.num-threads' = '" + threads +
                                     "' must be a number of threads between 1 and 64");
    }
    o.multipart_threads = static_cast<int>(v);
  }
  return o;
}

S3Client::S3Client(S3Options options, std::shared_ptr<HttpTransport> transport)
    : options_(std::move(options)), transport_(std::move(transport)) {
  size_t colon = options_.endpoint.find("://");
  scheme_ = options_.endpoint.substr(0, colon);
  host_ = options_.endpoint.substr(colon + 3);
  size_t slash = host_.find('/');
  if (slash != std::string::npos) host_ = host_.substr(0, slash);
  if (!options_.sleep_ms) {
    options_.sleep_ms = [](int64_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); };
  }
}

Result<HttpResponse> S3Client::SendOnce(const Call& call) {
  AwsCredentials creds = options_.credentials;
  if (options_.credentials_provider) {
    ASSIGN_OR_RETURN(creds, options_.credentials_provider());
  }
  std::string host = options_.path_style || call.bucket.empty() ? host_ : call.bucket + "." + host_;
  std::string path = "/";
  if (options_.path_style && !call.bucket.empty()) path += call.bucket + (call.key.empty() ? "" : "/");
  path += AwsUriEncode(call.key, /*keep_slash=*/true);
  SigV4Request sig;
  sig.method = call.method;
  sig.canonical_uri = path;
  sig.query = call.query;
  const std::string date = AmzDate();
  sig.payload_sha256_hex = Sha256Hex(call.body);
  sig.headers = {{"host", host}, {"x-amz-date", date}, {"x-amz-content-sha256", sig.payload_sha256_hex}};
  if (!creds.session_token.empty()) sig.headers.emplace_back("x-amz-security-token", creds.session_token);
  for (const auto& h : call.headers) sig.headers.push_back(h);
  HttpRequest req;
  req.method = call.method;
  req.raw = true;
  req.url = scheme_ + "://" + host + path;
  for (size_t i = 0; i < call.query.size(); ++i) {
    req.url += (i ? "&" : "?") + AwsUriEncode(call.query[i].first, false) +
               (call.query[i].second.empty() && call.query[i].first == "uploads" ? "" : "=" + AwsUriEncode(call.query[i].second, false));
  }
  req.headers = sig.headers;
  req.headers.erase(req.headers.begin());  // curl sends Host from the URL
  req.headers.emplace_back("Authorization", SigV4Authorization(sig, creds, date, options_.region, "s3"));
  if (call.method == "PUT" || call.method == "POST") req.headers.emplace_back("Content-Type", "application/octet-stream");
  req.body = std::string(call.body);
  return transport_->Send(req);
}

Result<HttpResponse> S3Client::Send(const Call& call) {
  int64_t backoff = options_.initial_backoff_ms;
  for (int attempt = 1;; ++attempt) {
    Result<HttpResponse> r = SendOnce(call);
    bool retry = r.ok() ? Retryable(*r) : r.status().code() == StatusCode::kIOError;
    if (!retry || attempt >= options_.max_attempts) return r;
    options_.sleep_ms(backoff);
    backoff *= 2;
  }
}

Status S3Client::ErrorFor(const std::string& verb, const std::string& what, const HttpResponse& r) const {
  std::string code = XmlElement(r.body, "Code").value_or("");
  std::string message = XmlElement(r.body, "Message").value_or("");
  std::string detail = "HTTP " + std::to_string(r.status) + (code.empty() ? "" : " " + code) +
                       (message.empty() ? "" : ": " + message);
  if (r.status == 404 && (code.empty() || code == "NoSuchKey")) {
    return Status::NotFound("File '" + what + "' does not exist (" + detail + ")");
  }
  if (r.status == 403) {
    return Status::IOError("Access denied to '" + what + "' (" + verb + ", " + detail +
                           "): check the S3 credentials ('s3.access-key-id', 's3.secret-access-key', vended by the "
                           "catalog or from AWS_*) and the permissions they carry");
  }
  return Status::IOError("S3 " + verb + " of '" + what + "' failed (" + detail + ")");
}

Result<uint64_t> S3Client::Head(const S3Location& loc) {
  ASSIGN_OR_RETURN(HttpResponse r, Send({"HEAD", loc.bucket, loc.key, {}, {}, {}}));
  if (r.status != 200) return ErrorFor("HEAD", loc.ToString(), r);
  return static_cast<uint64_t>(std::strtoull(r.Header("content-length").c_str(), nullptr, 10));
}

Status S3Client::GetRange(const S3Location& loc, uint64_t offset, uint64_t length, std::string* out) {
  out->clear();
  if (length == 0) return Status::OK();
  Call call{"GET", loc.bucket, loc.key, {}, {}, {}, true};
  call.headers.emplace_back("range", "bytes=" + std::to_string(offset) + "-" + std::to_string(offset + length - 1));
  ASSIGN_OR_RETURN(HttpResponse r, Send(call));
  if (r.status != 206 && r.status != 200) return ErrorFor("GET", loc.ToString(), r);
  if (r.status == 200 && r.body.size() > length) r.body = r.body.substr(offset, length);  // server ignored the range
  if (r.body.size() != length) {
    return Status::IOError("Short read of '" + loc.ToString() + "': " + std::to_string(r.body.size()) + " of " +
                           std::to_string(length) + " bytes at offset " + std::to_string(offset));
  }
  *out = std::move(r.body);
  return Status::OK();
}

Status S3Client::Put(const S3Location& loc, std::string_view body, bool if_none_match) {
  Call call{"PUT", loc.bucket, loc.key, {}, {}, body};
  if (if_none_match) call.headers.emplace_back("if-none-match", "*");
  ASSIGN_OR_RETURN(HttpResponse r, Send(call));
  if (r.status == 412 && if_none_match) return Status::IOError("'" + loc.ToString() + "' already exists");
  if (r.status != 200) return ErrorFor("PUT", loc.ToString(), r);
  return Status::OK();
}

Status S3Client::Delete(const S3Location& loc) {
  ASSIGN_OR_RETURN(HttpResponse r, Send({"DELETE", loc.bucket, loc.key, {}, {}, {}}));
  if (r.status != 204 && r.status != 200 && r.status != 404) return ErrorFor("DELETE", loc.ToString(), r);
  return Status::OK();
}

Result<S3Listing> S3Client::List(const std::string& bucket, const std::string& prefix, const std::string& delimiter) {
  S3Listing out;
  std::string token;
  const std::string what = "s3://" + bucket + "/" + prefix;
  for (;;) {
    Call call{"GET", bucket, "", {{"list-type", "2"}, {"prefix", prefix}}, {}, {}};
    if (!delimiter.empty()) call.query.emplace_back("delimiter", delimiter);
    if (!token.empty()) call.query.emplace_back("continuation-token", token);
    ASSIGN_OR_RETURN(HttpResponse r, Send(call));
    if (r.status != 200) return ErrorFor("LIST", what, r);
    size_t pos = 0;
    while (auto block = XmlElement(r.body, "Contents", &pos)) {
      S3Object o;
      o.key = XmlElement(*block, "Key").value_or("");
      o.size = std::strtoull(XmlElement(*block, "Size").value_or("0").c_str(), nullptr, 10);
      o.modified_ms = ParseIsoMillis(XmlElement(*block, "LastModified").value_or(""));
      out.objects.push_back(std::move(o));
    }
    pos = 0;
    while (auto block = XmlElement(r.body, "CommonPrefixes", &pos)) {
      out.common_prefixes.push_back(XmlElement(*block, "Prefix").value_or(""));
    }
    if (XmlElement(r.body, "IsTruncated").value_or("false") != "true") break;
    token = XmlElement(r.body, "NextContinuationToken").value_or("");
    if (token.empty()) break;
  }
  return out;
}

Result<std::string> S3Client::CreateMultipartUpload(const S3Location& loc) {
  ASSIGN_OR_RETURN(HttpResponse r, Send({"POST", loc.bucket, loc.key, {{"uploads", ""}}, {}, {}}));
  if (r.status != 200) return ErrorFor("CreateMultipartUpload", loc.ToString(), r);
  std::optional<std::string> id = XmlElement(r.body, "UploadId");
  if (!id || id->empty()) return Status::IOError("S3 CreateMultipartUpload of '" + loc.ToString() + "' returned no UploadId");
  return *id;
}

Result<std::string> S3Client::UploadPart(const S3Location& loc, const std::string& upload_id, int part_number,
                                         std::string_view data) {
  Call call{"PUT", loc.bucket, loc.key, {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id}}, {}, data};
  ASSIGN_OR_RETURN(HttpResponse r, Send(call));
  if (r.status != 200) return ErrorFor("UploadPart " + std::to_string(part_number), loc.ToString(), r);
  std::string etag = r.Header("etag");
  if (etag.empty()) return Status::IOError("S3 UploadPart of '" + loc.ToString() + "' returned no ETag");
  return etag;
}

Status S3Client::CompleteMultipartUpload(const S3Location& loc, const std::string& upload_id,
                                         const std::vector<std::string>& etags) {
  std::string body = "<CompleteMultipartUpload>";
  for (size_t i = 0; i < etags.size(); ++i) {
    body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + etags[i] + "</ETag></Part>";
  }
  body += "</CompleteMultipartUpload>";
  ASSIGN_OR_RETURN(HttpResponse r, Send({"POST", loc.bucket, loc.key, {{"uploadId", upload_id}}, {}, body}));
  // S3 may answer 200 with an error document when the completion failed late.
  if (r.status != 200 || r.body.find("<Error>") != std::string::npos) {
    return ErrorFor("CompleteMultipartUpload", loc.ToString(), r);
  }
  return Status::OK();
}

Status S3Client::AbortMultipartUpload(const S3Location& loc, const std::string& upload_id) {
  ASSIGN_OR_RETURN(HttpResponse r, Send({"DELETE", loc.bucket, loc.key, {{"uploadId", upload_id}}, {}, {}}));
  if (r.status != 204 && r.status != 200 && r.status != 404) return ErrorFor("AbortMultipartUpload", loc.ToString(), r);
  return Status::OK();
}

}  // namespace sluice
