#include "connectors/iceberg/rest_catalog.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <thread>

#include "connectors/iceberg/iceberg_json.h"
#include "connectors/iceberg/rest_catalog_requests.h"
#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {

namespace dom = simdjson::dom;

namespace {

constexpr char kDefaultSeparator[] = "%1F";
constexpr int64_t kTokenRefreshMarginMs = 60'000;

std::string JsonString(dom::element e, std::string_view key) {
  std::string_view s;
  if (e[key].get_string().get(s) == simdjson::SUCCESS) return std::string(s);
  return {};
}

// "message (type)" from the REST error model {"error": {"message", "type", "code"}}, or OAuth2's
// {"error": "...", "error_description": "..."}; the body's start when it is neither.
std::string ServerMessage(const std::string& body) {
  dom::parser parser;
  dom::element doc;
  if (!body.empty() && parser.parse(body).get(doc) == simdjson::SUCCESS) {
    dom::element err;
    if (doc["error"].get(err) == simdjson::SUCCESS) {
      if (err.is_object()) {
        std::string msg = JsonString(err, "message");
        std::string type = JsonString(err, "type");
        return type.empty() ? msg : msg + " (" + type + ")";
      }
      std::string_view code;
      if (err.get_string().get(code) == simdjson::SUCCESS) {
        std::string desc = JsonString(doc, "error_description");
        return desc.empty() ? std::string(code) : std::string(code) + ": " + desc;
      }
    }
  }
  std::string start = body.substr(0, 200);
  for (char& c : start) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return start.empty() ? "(no response body)" : start;
}

bool RetryableStatus(int status, const std::string& method) {
  if (status == 429 || status == 503) return true;
  return (method == "GET" || method == "HEAD") && (status == 500 || status == 502 || status == 504);
}

// The version number a metadata file name carries: "00003-<uuid>.metadata.json" and
// "v3.metadata.json" give 3; 0 when there is none.
int64_t MetadataVersion(const std::string& location) {
  size_t slash = location.rfind('/');
  std::string name = location.substr(slash == std::string::npos ? 0 : slash + 1);
  size_t i = name.rfind('v', 0) == 0 ? 1 : 0;
  int64_t v = 0;
  bool any = false;
  for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i) {
    v = v * 10 + (name[i] - '0');
    any = true;
    if (v > (int64_t{1} << 40)) return 0;
  }
  return any ? v : 0;
}

Result<dom::element> ParseBody(dom::parser* parser, const std::string& body, const std::string& what) {
  dom::element doc;
  if (parser->parse(body).get(doc) != simdjson::SUCCESS || !doc.is_object()) {
    return Status::IOError(what + ": the response is not a JSON object: " + ServerMessage(body));
  }
  return doc;
}

Result<IcebergNamespace> ParseNamespace(dom::element e, const std::string& what) {
  dom::array arr;
  if (e.get_array().get(arr) != simdjson::SUCCESS) return Status::IOError(what + ": a namespace is not a list");
  IcebergNamespace ns;
  for (dom::element level : arr) {
    std::string_view s;
    if (level.get_string().get(s) != simdjson::SUCCESS) return Status::IOError(what + ": a namespace level is not a string");
    ns.emplace_back(s);
  }
  return ns;
}

std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out += '&';
    out += PercentEncode(k) + "=" + PercentEncode(v);
  }
  return out;
}

}  // namespace

RestCatalog::RestCatalog(RestCatalogOptions options, std::shared_ptr<HttpTransport> transport)
    : options_(std::move(options)), transport_(std::move(transport)) {
  if (!options_.now_ms) {
    options_.now_ms = [] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
          .count();
    };
  }
  if (!options_.sleep_ms) {
    options_.sleep_ms = [](int64_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); };
  }
  base_ = options_.uri;
  while (!base_.empty() && base_.back() == '/') base_.pop_back();
  properties_ = options_.properties;
  prefix_ = "v1/";
  separator_ = kDefaultSeparator;
}

Result<std::shared_ptr<RestCatalog>> RestCatalog::Connect(RestCatalogOptions options,
                                                          std::shared_ptr<HttpTransport> transport) {
  if (options.uri.rfind("http://", 0) != 0 && options.uri.rfind("https://", 0) != 0) {
    return Status::InvalidArgument("Iceberg catalog '" + options.catalog_name + "': 'uri' = '" + options.uri +
                                   "' is not an http:// or https:// URI");
  }
  std::shared_ptr<RestCatalog> catalog(new RestCatalog(std::move(options), std::move(transport)));
  RETURN_IF_ERROR(catalog->LoadConfig());
  return catalog;
}

std::string RestCatalog::Place() const {
  return "Iceberg REST catalog '" + options_.catalog_name + "' at " + base_;
}

Status RestCatalog::LoadConfig() {
  std::string path = "v1/config";
  if (!options_.warehouse.empty()) path += "?warehouse=" + PercentEncode(options_.warehouse);
  ASSIGN_OR_RETURN(Reply reply, Call("GET", path));
  // A server that is not a REST catalog (or a uri with a wrong path) has no such endpoint.
  if (reply.status == 400 || reply.status == 404 || reply.status == 405) {
    std::string msg = Place() + ": GET " + base_ + "/v1/config answered " + std::to_string(reply.status) + " " +
                      HttpReasonPhrase(reply.status) + " (" + ServerMessage(reply.body) +
                      "); is 'uri' the base URI of an Iceberg REST catalog?";
    return reply.status == 404 ? Status::NotFound(msg) : Status::InvalidArgument(msg);
  }
  if (reply.status != 200) return ErrorFor("GET", "v1/config", reply);
  dom::parser parser;
  ASSIGN_OR_RETURN(dom::element doc, ParseBody(&parser, reply.body, Place() + ": GET /v1/config"));
  std::map<std::string, std::string> merged;
  auto read = [&](std::string_view key) {
    dom::object o;
    if (doc[key].get_object().get(o) != simdjson::SUCCESS) return;
    for (auto [k, v] : o) {
      std::string_view s;
      if (v.get_string().get(s) == simdjson::SUCCESS) merged[std::string(k)] = std::string(s);
    }
  };
  read("defaults");
  for (const auto& [k, v] : options_.properties) merged[k] = v;
  read("overrides");
  properties_ = std::move(merged);
  auto prefix = properties_.find("prefix");
  if (prefix != properties_.end() && !prefix->second.empty()) {
    std::string p = prefix->second;
    while (!p.empty() && p.back() == '/') p.pop_back();
    while (!p.empty() && p.front() == '/') p.erase(0, 1);
    prefix_ = "v1/" + p + "/";
  }
  auto sep = properties_.find("namespace-separator");
  if (sep != properties_.end() && !sep->second.empty()) separator_ = sep->second;
  return Status::OK();
}

Result<std::string> RestCatalog::Authorization(bool force_refresh) {
  std::lock_guard<std::mutex> lock(token_mu_);
  auto credential = properties_.find("credential");
  bool has_credential = credential != properties_.end() && !credential->second.empty();
  if (token_.empty()) {
    auto token = properties_.find("token");
    if (token != properties_.end() && !token->second.empty()) token_ = token->second;
  }
  bool refresh = force_refresh || token_.empty() ||
                 (token_refresh_at_ms_ > 0 && options_.now_ms() >= token_refresh_at_ms_);
  if (has_credential && refresh) RETURN_IF_ERROR(FetchToken());
  return token_.empty() ? std::string() : "Bearer " + token_;
}

Status RestCatalog::FetchToken() {
  const std::string& credential = properties_.at("credential");
  std::string endpoint = base_ + "/v1/oauth/tokens";
  auto server = properties_.find("oauth2-server-uri");
  if (server != properties_.end() && !server->second.empty()) {
    endpoint = server->second.find("://") != std::string::npos ? server->second : base_ + "/" + server->second;
  }
  auto scope = properties_.find("scope");
  std::vector<std::pair<std::string, std::string>> form = {{"grant_type", "client_credentials"}};
  size_t colon = credential.find(':');
  if (colon != std::string::npos) {
    form.emplace_back("client_id", credential.substr(0, colon));
    form.emplace_back("client_secret", credential.substr(colon + 1));
  } else {
    form.emplace_back("client_secret", credential);
  }
  form.emplace_back("scope", scope != properties_.end() && !scope->second.empty() ? scope->second : "catalog");
  for (const char* key : {"audience", "resource"}) {
    auto it = properties_.find(key);
    if (it != properties_.end() && !it->second.empty()) form.emplace_back(key, it->second);
  }
  int64_t now = options_.now_ms();
  auto reply = CallOnce("POST", endpoint, FormEncode(form), "application/x-www-form-urlencoded", "");
  if (!reply.ok()) return Status::IOError(Place() + ": cannot get an OAuth2 token: " + reply.status().message());
  if (reply->status != 200) {
    return Status::InvalidArgument(Place() + ": the OAuth2 token request to " + endpoint + " answered " +
                                   std::to_string(reply->status) + " " + HttpReasonPhrase(reply->status) + ": " +
                                   ServerMessage(reply->body) + " (check 'credential' and 'scope')");
  }
  dom::parser parser;
  ASSIGN_OR_RETURN(dom::element doc, ParseBody(&parser, reply->body, Place() + ": POST " + endpoint));
  std::string token = JsonString(doc, "access_token");
  if (token.empty()) return Status::IOError(Place() + ": the OAuth2 response of " + endpoint + " has no access_token");
  token_ = std::move(token);
  int64_t expires_in = 0;
  token_refresh_at_ms_ = 0;
  auto enabled = properties_.find("token-refresh-enabled");
  bool refresh = enabled == properties_.end() || enabled->second != "false";
  if (refresh && doc["expires_in"].get_int64().get(expires_in) == simdjson::SUCCESS && expires_in > 0) {
    int64_t lifetime = expires_in * 1000;
    token_refresh_at_ms_ = now + std::max(lifetime / 2, lifetime - kTokenRefreshMarginMs);
  }
  return Status::OK();
}

Result<RestCatalog::Reply> RestCatalog::CallOnce(const std::string& method, const std::string& url,
                                                 const std::string& body, const std::string& content_type,
                                                 const std::string& auth) {
  HttpRequest request;
  request.method = method;
  request.url = url;
  request.body = body;
  request.headers.emplace_back("Accept", "application/json");
  if (!content_type.empty()) request.headers.emplace_back("Content-Type", content_type);
  request.headers.emplace_back("User-Agent", "sluice");
  if (!auth.empty()) request.headers.emplace_back("Authorization", auth);
  for (const auto& [k, v] : properties_) {
    if (k.rfind("header.", 0) == 0 && k.size() > 7) request.headers.emplace_back(k.substr(7), v);
  }
  ASSIGN_OR_RETURN(HttpResponse response, transport_->Send(request));
  return Reply{response.status, std::move(response.body)};
}

Result<RestCatalog::Reply> RestCatalog::Call(const std::string& method, const std::string& path,
                                             const std::string& body) {
  const std::string url = base_ + "/" + path;
  int64_t backoff = options_.initial_backoff_ms;
  bool reauthenticated = false;
  for (int attempt = 1;; ++attempt) {
    ASSIGN_OR_RETURN(std::string auth, Authorization(false));
    Result<Reply> reply = CallOnce(method, url, body, method == "POST" ? "application/json" : "", auth);
    bool idempotent = method == "GET" || method == "HEAD";
    if (!reply.ok()) {
      if (idempotent && attempt < options_.max_attempts) {
        options_.sleep_ms(backoff);
        backoff *= 2;
        continue;
      }
      return Status::IOError(Place() + ": cannot reach the catalog: " + reply.status().message() +
                             (attempt > 1 ? " (after " + std::to_string(attempt) + " attempts)" : ""));
    }
    if (reply->status == 401 && !reauthenticated && properties_.count("credential")) {
      reauthenticated = true;
      RETURN_IF_ERROR(Authorization(true).status());
      --attempt;
      continue;
    }
    if (RetryableStatus(reply->status, method) && attempt < options_.max_attempts) {
      options_.sleep_ms(backoff);
      backoff *= 2;
      continue;
    }
    return std::move(*reply);
  }
}

Status RestCatalog::ErrorFor(const std::string& method, const std::string& path, const Reply& reply) const {
  std::string endpoint = method + " /" + UrlWithoutQuery(path);
  std::string msg = Place() + ": " + endpoint + " answered " + std::to_string(reply.status) + " " +
                    HttpReasonPhrase(reply.status) + ": " + ServerMessage(reply.body);
  if (reply.status == 401 || reply.status == 419) {
    return Status::InvalidArgument(msg + " (check the catalog's 'token' or 'credential')");
  }
  // Authenticated, but the catalog does not allow this principal the operation (e.g. Polaris's
  // privileges): the credential is right, a grant is missing.
  if (reply.status == 403) return Status::InvalidArgument(msg + " (a privilege the catalog has not granted)");
  if (reply.status == 404) return Status::NotFound(msg);
  if (reply.status == 400 || reply.status == 406 || reply.status == 405) return Status::InvalidArgument(msg);
  return Status::IOError(msg);
}

std::string RestCatalog::NamespacePath(const IcebergNamespace& ns) const {
  std::string joined;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) joined += separator_;
    joined += PercentEncode(ns[i]);
  }
  return prefix_ + "namespaces/" + joined;
}

std::string RestCatalog::TablePath(const TableIdentifier& ident) const {
  return NamespacePath(ident.ns) + "/tables/" + PercentEncode(ident.name);
}

Result<bool> RestCatalog::Exists(const std::string& path) {
  ASSIGN_OR_RETURN(Reply reply, Call("HEAD", path));
  std::string method = "HEAD";
  // Servers older than the HEAD endpoints (Iceberg < 1.6) answer 400, 405 or 501: ask with GET.
  if (reply.status == 400 || reply.status == 405 || reply.status == 501) {
    method = "GET";
    ASSIGN_OR_RETURN(reply, Call("GET", path));
  }
  if (reply.status == 200 || reply.status == 204) return true;
  if (reply.status == 404) return false;
  return ErrorFor(method, path, reply);
}

Result<std::vector<IcebergNamespace>> RestCatalog::ListNamespaces(const IcebergNamespace& parent) {
  std::vector<IcebergNamespace> out;
  std::string page_token;
  do {
    std::string path = prefix_ + "namespaces";
    std::string sep = "?";
    if (!parent.empty()) {
      std::string joined;
      for (size_t i = 0; i < parent.size(); ++i) joined += (i ? separator_ : "") + PercentEncode(parent[i]);
      path += "?parent=" + joined;
      sep = "&";
    }
    if (!page_token.empty()) path += sep + "pageToken=" + PercentEncode(page_token);
    ASSIGN_OR_RETURN(Reply reply, Call("GET", path));
    if (reply.status == 404) return Status::NotFound("Namespace does not exist: " + NamespaceToString(parent));
    if (reply.status != 200) return ErrorFor("GET", path, reply);
    dom::parser parser;
    ASSIGN_OR_RETURN(dom::element doc, ParseBody(&parser, reply.body, Place() + ": GET /" + path));
    dom::array arr;
    if (doc["namespaces"].get_array().get(arr) == simdjson::SUCCESS) {
      for (dom::element e : arr) {
        ASSIGN_OR_RETURN(IcebergNamespace ns, ParseNamespace(e, Place() + ": GET /" + path));
        out.push_back(std::move(ns));
      }
    }
    page_token = JsonString(doc, "next-page-token");
  } while (!page_token.empty());
  std::sort(out.begin(), out.end());
  return out;
}

Status RestCatalog::CreateNamespace(const IcebergNamespace& ns, const std::map<std::string, std::string>& properties) {
  std::string path = prefix_ + "namespaces";
  ASSIGN_OR_RETURN(Reply reply, Call("POST", path, RestCreateNamespaceRequest(ns, properties)));
  if (reply.status == 200 || reply.status == 204) return Status::OK();
  if (reply.status == 409) return Status::InvalidArgument("Namespace already exists: " + NamespaceToString(ns));
  return ErrorFor("POST", path, reply);
}

Result<bool> RestCatalog::NamespaceExists(const IcebergNamespace& ns) {
  if (ns.empty()) return false;
  return Exists(NamespacePath(ns));
}

Status RestCatalog::DropNamespace(const IcebergNamespace& ns) {
  std::string path = NamespacePath(ns);
  ASSIGN_OR_RETURN(Reply reply, Call("DELETE", path));
  if (reply.status == 200 || reply.status == 204) return Status::OK();
  if (reply.status == 404) return Status::NotFound("Namespace does not exist: " + NamespaceToString(ns));
  if (reply.status == 409) return Status::InvalidArgument("Namespace " + NamespaceToString(ns) + " is not empty.");
  return ErrorFor("DELETE", path, reply);
}

Result<std::vector<TableIdentifier>> RestCatalog::ListTables(const IcebergNamespace& ns) {
  std::vector<TableIdentifier> out;
  std::string page_token;
  do {
    std::string path = NamespacePath(ns) + "/tables";
    if (!page_token.empty()) path += "?pageToken=" + PercentEncode(page_token);
    ASSIGN_OR_RETURN(Reply reply, Call("GET", path));
    if (reply.status == 404) return Status::NotFound("Namespace does not exist: " + NamespaceToString(ns));
    if (reply.status != 200) return ErrorFor("GET", path, reply);
    dom::parser parser;
    ASSIGN_OR_RETURN(dom::element doc, ParseBody(&parser, reply.body, Place() + ": GET /" + path));
    dom::array arr;
    if (doc["identifiers"].get_array().get(arr) == simdjson::SUCCESS) {
      for (dom::element e : arr) {
        TableIdentifier ident;
        ASSIGN_OR_RETURN(ident.ns, ParseNamespace(e["namespace"].value_unsafe(), Place() + ": GET /" + path));
        ident.name = JsonString(e, "name");
        out.push_back(std::move(ident));
      }
    }
    page_token = JsonString(doc, "next-page-token");
  } while (!page_token.empty());
  std::sort(out.begin(), out.end(), [](const TableIdentifier& a, const TableIdentifier& b) { return a.name < b.name; });
  return out;
}

namespace {

void ReadStringMap(dom::element object, std::map<std::string, std::string>* out) {
  dom::object fields;
  if (object.get(fields) != simdjson::SUCCESS) return;
  for (auto field : fields) {
    std::string_view value;
    if (field.value.get(value) == simdjson::SUCCESS) (*out)[std::string(field.key)] = std::string(value);
  }
}

// loadTable's "config" and the longest-prefix "storage-credentials" entry for the table's location.
void ReadTableConfig(dom::element doc, const std::string& location, std::map<std::string, std::string>* out) {
  dom::element config;
  if (doc["config"].get(config) == simdjson::SUCCESS) ReadStringMap(config, out);
  dom::array credentials;
  if (doc["storage-credentials"].get(credentials) != simdjson::SUCCESS) return;
  std::string_view best_prefix;
  dom::element best;
  bool found = false;
  for (dom::element c : credentials) {
    std::string_view prefix;
    if (c["prefix"].get(prefix) != simdjson::SUCCESS || location.rfind(prefix, 0) != 0) continue;
    if (!found || prefix.size() > best_prefix.size()) {
      best_prefix = prefix;
      best = c;
      found = true;
    }
  }
  dom::element best_config;
  if (found && best["config"].get(best_config) == simdjson::SUCCESS) ReadStringMap(best_config, out);
}

}  // namespace

Result<LoadedTable> RestCatalog::ParseLoadTable(const TableIdentifier& ident, const Reply& reply,
                                                const std::string& what) const {
  dom::parser parser;
  ASSIGN_OR_RETURN(dom::element doc, ParseBody(&parser, reply.body, Place() + ": " + what));
  dom::element metadata;
  if (doc["metadata"].get(metadata) != simdjson::SUCCESS || !metadata.is_object()) {
    return Status::IOError(Place() + ": " + what + ": the response has no table metadata");
  }
  LoadedTable loaded;
  loaded.ident = ident;
  loaded.metadata_location = JsonString(doc, "metadata-location");
  auto md = ParseTableMetadata(simdjson::minify(metadata), loaded.metadata_location);
  if (!md.ok()) return md.status().WithContext(Place() + ": " + what + ": table " + ident.ToString());
  loaded.metadata = std::move(*md);
  loaded.version = MetadataVersion(loaded.metadata_location);
  ReadTableConfig(doc, loaded.metadata.location, &loaded.config);
  return loaded;
}

Result<LoadedTable> RestCatalog::CreateTable(const TableIdentifier& ident, NewTableOptions options) {
  std::string location = options.location;
  // The ids are assigned here as Java assigns them; the server assigns the same ones again.
  if (options.location.empty()) options.location = "rest:///unassigned";
  ASSIGN_OR_RETURN(TableMetadata fresh, NewTableMetadata(options));
  std::string path = NamespacePath(ident.ns) + "/tables";
  ASSIGN_OR_RETURN(Reply reply, Call("POST", path, RestCreateTableRequest(ident.name, fresh, location)));
  if (reply.status == 409) return Status::InvalidArgument("Table already exists: " + ident.ToString());
  if (reply.status == 404) return Status::NotFound("Namespace does not exist: " + NamespaceToString(ident.ns));
  if (reply.status != 200) return ErrorFor("POST", path, reply);
  return ParseLoadTable(ident, reply, "POST /" + path);
}

Result<bool> RestCatalog::TableExists(const TableIdentifier& ident) {
  return Exists(TablePath(ident));
}

Result<LoadedTable> RestCatalog::LoadTable(const TableIdentifier& ident) {
  std::string path = TablePath(ident);
  ASSIGN_OR_RETURN(Reply reply, Call("GET", path));
  if (reply.status == 404) return Status::NotFound("Table does not exist: " + ident.ToString());
  if (reply.status != 200) return ErrorFor("GET", path, reply);
  return ParseLoadTable(ident, reply, "GET /" + path);
}

Result<LoadedTable> RestCatalog::CommitTable(const LoadedTable& base, const TableMetadata& updated,
                                             const std::vector<TableRequirement>& requirements) {
  ASSIGN_OR_RETURN(std::string body, RestCommitTableRequest(base.ident, base.metadata, updated, requirements));
  std::string path = TablePath(base.ident);
  ASSIGN_OR_RETURN(Reply reply, Call("POST", path, body));
  if (reply.status == 409) {
    return Status::Aborted(Place() + ": commit to table " + base.ident.ToString() +
                           " failed: " + ServerMessage(reply.body));
  }
  if (reply.status == 404) return Status::NotFound("Table does not exist: " + base.ident.ToString());
  if (reply.status == 500 || reply.status == 502 || reply.status == 504) {
    return Status::RuntimeError(Place() + ": POST /" + path + " answered " + std::to_string(reply.status) + " " +
                                HttpReasonPhrase(reply.status) + ": " + ServerMessage(reply.body) +
                                "; the commit's state is unknown (CommitStateUnknownException)");
  }
  if (reply.status != 200) return ErrorFor("POST", path, reply);
  return ParseLoadTable(base.ident, reply, "POST /" + path);
}

Status RestCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  std::string path = TablePath(ident) + (purge ? "?purgeRequested=true" : "");
  ASSIGN_OR_RETURN(Reply reply, Call("DELETE", path));
  if (reply.status == 200 || reply.status == 204) return Status::OK();
  if (reply.status == 404) return Status::NotFound("Table does not exist: " + ident.ToString());
  return ErrorFor("DELETE", path, reply);
}

}  // namespace sluice
