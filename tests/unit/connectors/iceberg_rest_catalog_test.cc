// RestCatalog against an in-process fake HTTP transport: the requests it sends (paths, prefix,
// headers, auth, commit bodies) and how it maps answers to errors and retries.
#include <gtest/gtest.h>

#include <functional>

#include "connectors/iceberg/iceberg_json.h"
#include "connectors/iceberg/rest_catalog.h"
#include "connectors/iceberg/rest_catalog_requests.h"
#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {
namespace {

using Handler = std::function<Result<HttpResponse>(const HttpRequest&)>;

class FakeTransport : public HttpTransport {
 public:
  explicit FakeTransport(Handler handler) : handler_(std::move(handler)) {}
  Result<HttpResponse> Send(const HttpRequest& request) override {
    requests.push_back(request);
    return handler_(request);
  }
  std::vector<HttpRequest> requests;

 private:
  Handler handler_;
};

std::string Header(const HttpRequest& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return {};
}

HttpResponse Json(int status, std::string body) { return {status, std::move(body)}; }
HttpResponse Error(int status, const std::string& type, const std::string& message) {
  return {status, "{\"error\": {\"message\": \"" + message + "\", \"type\": \"" + type + "\", \"code\": " +
                      std::to_string(status) + "}}"};
}

constexpr char kUri[] = "http://catalog.test:8181";

TableMetadata TestTable() {
  Schema schema;
  schema.Add("id", LogicalType::BigInt().WithNullable(false));
  schema.Add("day", LogicalType::Date());
  NewTableOptions options;
  options.schema = *ToIcebergSchema(schema, {"id"});
  options.spec = *BuildPartitionSpec(options.schema, {{"day", Transform::Identity(), ""}});
  options.location = "file:///wh/db/t";
  options.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  options.now_ms = 1000;
  options.properties = {{"format-version", "2"}, {"owner", "me"}};
  return *NewTableMetadata(options);
}

std::string LoadResult(const TableMetadata& md, const std::string& location) {
  return "{\"metadata-location\": \"" + location + "\", \"metadata\": " + TableMetadataToJson(md) + "}";
}

struct Fixture {
  std::shared_ptr<FakeTransport> transport;
  std::vector<int64_t> sleeps;
  int64_t now = 0;
  RestCatalogOptions Options(std::map<std::string, std::string> properties = {}) {
    RestCatalogOptions o;
    o.catalog_name = "lake";
    o.uri = std::string(kUri) + "/";
    o.warehouse = "s3://bucket/wh";
    o.properties = std::move(properties);
    o.now_ms = [this] { return now; };
    o.sleep_ms = [this](int64_t ms) { sleeps.push_back(ms); };
    return o;
  }
};

TEST(IcebergRestCatalog, ConfigPrefixHeadersAndBearerToken) {
  Fixture f;
  f.transport = std::make_shared<FakeTransport>([](const HttpRequest& r) -> Result<HttpResponse> {
    if (r.url.find("/v1/config") != std::string::npos) {
      return Json(200, R"({"defaults": {"prefix": "ignored", "header.X-Default": "d"},
                           "overrides": {"prefix": "cat/one", "namespace-separator": "%2E"}})");
    }
    if (r.url == std::string(kUri) + "/v1/cat/one/namespaces") {
      return Json(200, R"({"namespaces": [["b"], ["a"]], "next-page-token": "p2"})");
    }
    if (r.url == std::string(kUri) + "/v1/cat/one/namespaces?pageToken=p2") {
      return Json(200, R"({"namespaces": [["c"]], "next-page-token": null})");
    }
    if (r.method == "HEAD" && r.url.find("/tables/") != std::string::npos) return Json(405, "");
    if (r.method == "GET" && r.url.find("/tables/") != std::string::npos) return Json(404, "");
    if (r.method == "HEAD") return Json(r.url.find("a%2Eb%20c") != std::string::npos ? 204 : 404, "");
    return Json(500, "unexpected");
  });
  auto catalog = RestCatalog::Connect(f.Options({{"token", "s3cr3t"}, {"header.X-Custom", "v"}}), f.transport);
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  EXPECT_EQ(f.transport->requests[0].url, std::string(kUri) + "/v1/config?warehouse=s3%3A%2F%2Fbucket%2Fwh");
  EXPECT_EQ(Header(f.transport->requests[0], "Authorization"), "Bearer s3cr3t");
  auto namespaces = (*catalog)->ListNamespaces({});
  ASSERT_TRUE(namespaces.ok()) << namespaces.status().ToString();
  EXPECT_EQ(*namespaces, (std::vector<IcebergNamespace>{{"a"}, {"b"}, {"c"}}));
  const HttpRequest& list = f.transport->requests[1];
  EXPECT_EQ(Header(list, "Authorization"), "Bearer s3cr3t");
  EXPECT_EQ(Header(list, "X-Custom"), "v");
  EXPECT_EQ(Header(list, "X-Default"), "d");
  EXPECT_TRUE(*(*catalog)->NamespaceExists({"a", "b c"}));
  EXPECT_EQ(f.transport->requests.back().url, std::string(kUri) + "/v1/cat/one/namespaces/a%2Eb%20c");
  // A server without HEAD endpoints is asked with GET.
  EXPECT_FALSE(*(*catalog)->TableExists({{"a"}, "t"}));
  EXPECT_EQ(f.transport->requests.back().method, "GET");
  EXPECT_EQ(f.transport->requests.back().url, std::string(kUri) + "/v1/cat/one/namespaces/a/tables/t");
}

TEST(IcebergRestCatalog, OAuth2ClientCredentialsAreExchangedAndRefreshed) {
  Fixture f;
  int tokens = 0;
  bool reject_tok2 = false;
  f.transport = std::make_shared<FakeTransport>([&](const HttpRequest& r) -> Result<HttpResponse> {
    if (r.url == "https://auth.test/token") {
      ++tokens;
      return Json(200, "{\"access_token\": \"tok" + std::to_string(tokens) +
                           "\", \"token_type\": \"bearer\", \"expires_in\": 3600}");
    }
    if (reject_tok2 && Header(r, "Authorization") == "Bearer tok2") {
      return Error(401, "NotAuthorizedException", "Token expired");
    }
    return Json(200, R"({"defaults": {}, "overrides": {}, "namespaces": []})");
  });
  auto catalog = RestCatalog::Connect(
      f.Options({{"credential", "client:secret"}, {"oauth2-server-uri", "https://auth.test/token"}}), f.transport);
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  const HttpRequest& token = f.transport->requests[0];
  EXPECT_EQ(token.method, "POST");
  EXPECT_EQ(Header(token, "Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(token.body, "grant_type=client_credentials&client_id=client&client_secret=secret&scope=catalog");
  EXPECT_EQ(Header(f.transport->requests[1], "Authorization"), "Bearer tok1");
  // Still valid: no new token.
  f.now = 3'000'000;
  ASSERT_TRUE((*catalog)->ListNamespaces({}).ok());
  EXPECT_EQ(tokens, 1);
  // Within the last minute of its hour: refreshed first.
  f.now = 3'550'000;
  ASSERT_TRUE((*catalog)->ListNamespaces({}).ok());
  EXPECT_EQ(tokens, 2);
  EXPECT_EQ(Header(f.transport->requests.back(), "Authorization"), "Bearer tok2");
  // A 401 fetches a new token once and repeats the request.
  reject_tok2 = true;
  auto listed = (*catalog)->ListNamespaces({});
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(tokens, 3);
  EXPECT_EQ(Header(f.transport->requests.back(), "Authorization"), "Bearer tok3");
}

TEST(IcebergRestCatalog, ErrorsNameTheCatalogAndNeverTheSecrets) {
  Fixture f;
  f.transport = std::make_shared<FakeTransport>([](const HttpRequest&) -> Result<HttpResponse> {
    return Error(401, "NotAuthorizedException", "Not authorized");
  });
  auto denied = RestCatalog::Connect(f.Options({{"token", "s3cr3t"}}), f.transport);
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().message(),
            "Iceberg REST catalog 'lake' at http://catalog.test:8181: GET /v1/config answered 401 Unauthorized: "
            "Not authorized (NotAuthorizedException) (check the catalog's 'token' or 'credential')");

  auto oauth = std::make_shared<FakeTransport>([](const HttpRequest&) -> Result<HttpResponse> {
    return Json(401, R"({"error": "invalid_client", "error_description": "bad secret"})");
  });
  auto bad_credential = RestCatalog::Connect(f.Options({{"credential", "id:hunter2"}}), oauth);
  ASSERT_FALSE(bad_credential.ok());
  EXPECT_EQ(bad_credential.status().message(),
            "Iceberg REST catalog 'lake' at http://catalog.test:8181: the OAuth2 token request to "
            "http://catalog.test:8181/v1/oauth/tokens answered 401 Unauthorized: invalid_client: bad secret "
            "(check 'credential' and 'scope')");
  EXPECT_EQ(bad_credential.status().message().find("hunter2"), std::string::npos);

  auto not_rest = std::make_shared<FakeTransport>([](const HttpRequest&) -> Result<HttpResponse> {
    return Json(404, "<html>Not Found</html>");
  });
  auto wrong_uri = RestCatalog::Connect(f.Options(), not_rest);
  ASSERT_FALSE(wrong_uri.ok());
  EXPECT_EQ(wrong_uri.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(wrong_uri.status().message(),
            "Iceberg REST catalog 'lake' at http://catalog.test:8181: GET http://catalog.test:8181/v1/config "
            "answered 404 Not Found (<html>Not Found</html>); is 'uri' the base URI of an Iceberg REST catalog?");

  RestCatalogOptions ftp = f.Options();
  ftp.uri = "ftp://x";
  EXPECT_EQ(RestCatalog::Connect(ftp, not_rest).status().message(),
            "Iceberg catalog 'lake': 'uri' = 'ftp://x' is not an http:// or https:// URI");
}

TEST(IcebergRestCatalog, UnreachableServerIsRetriedWithBackoffThenNamed) {
  Fixture f;
  f.transport = std::make_shared<FakeTransport>([](const HttpRequest& r) -> Result<HttpResponse> {
    return Status::IOError(r.method + " " + UrlWithoutQuery(r.url) + " failed: Couldn't connect to server");
  });
  auto down = RestCatalog::Connect(f.Options(), f.transport);
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.status().code(), StatusCode::kIOError);
  EXPECT_EQ(down.status().message(),
            "Iceberg REST catalog 'lake' at http://catalog.test:8181: cannot reach the catalog: GET "
            "http://catalog.test:8181/v1/config failed: Couldn't connect to server (after 5 attempts)");
  EXPECT_EQ(f.sleeps, (std::vector<int64_t>{100, 200, 400, 800}));
}

TEST(IcebergRestCatalog, ServiceUnavailableIsRetriedAndNotFoundIsIcebergs) {
  Fixture f;
  int calls = 0;
  f.transport = std::make_shared<FakeTransport>([&](const HttpRequest& r) -> Result<HttpResponse> {
    if (r.url.find("/v1/config") != std::string::npos) return Json(200, "{}");
    if (++calls < 3) return Error(503, "ServiceUnavailableException", "busy");
    return Error(404, "NoSuchTableException", "Table does not exist: db.t");
  });
  auto catalog = RestCatalog::Connect(f.Options(), f.transport);
  ASSERT_TRUE(catalog.ok());
  auto missing = (*catalog)->LoadTable({{"db"}, "t"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "Table does not exist: db.t");
  EXPECT_EQ(f.sleeps, (std::vector<int64_t>{100, 200}));
}

TEST(IcebergRestCatalog, CommitSendsDerivedUpdatesAndRequirements) {
  TableMetadata base_md = TestTable();
  NewSnapshot snap;
  snap.snapshot_id = 42;
  snap.timestamp_ms = 2000;
  snap.manifest_list = "file:///wh/db/t/metadata/snap-42.avro";
  snap.changes.added_data_files = 1;
  snap.changes.added_records = 3;
  TableMetadata updated = *AddSnapshot(base_md, snap);
  updated.properties["flink.checkpoint"] = "3";
  updated.properties.erase("owner");

  Fixture f;
  std::string commit_body;
  f.transport = std::make_shared<FakeTransport>([&](const HttpRequest& r) -> Result<HttpResponse> {
    if (r.url.find("/v1/config") != std::string::npos) return Json(200, "{}");
    commit_body = r.body;
    return Json(200, LoadResult(updated, "file:///wh/db/t/metadata/00001-abc.metadata.json"));
  });
  auto catalog = RestCatalog::Connect(f.Options(), f.transport);
  ASSERT_TRUE(catalog.ok());
  LoadedTable base{{{"db"}, "t"}, base_md, "file:///wh/db/t/metadata/00000-abc.metadata.json", 0, {}};
  auto committed = (*catalog)->CommitTable(base, updated, {TableRequirement::RefSnapshotId("main", std::nullopt)});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->version, 1);
  EXPECT_EQ(committed->metadata.current_snapshot_id, 42);
  EXPECT_EQ(f.transport->requests.back().url, std::string(kUri) + "/v1/namespaces/db/tables/t");
  EXPECT_EQ(f.transport->requests.back().method, "POST");

  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(commit_body).value();
  EXPECT_EQ(simdjson::minify(doc["identifier"]), R"({"namespace":["db"],"name":"t"})");
  EXPECT_EQ(simdjson::minify(doc["requirements"]),
            R"([{"type":"assert-table-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"},)"
            R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}])");
  std::vector<std::string> actions;
  for (simdjson::dom::element u : doc["updates"].get_array()) actions.emplace_back(std::string_view(u["action"]));
  EXPECT_EQ(actions, (std::vector<std::string>{"add-snapshot", "set-snapshot-ref", "set-properties", "remove-properties"}));
  simdjson::dom::element added = doc["updates"].at(0)["snapshot"];
  EXPECT_EQ(int64_t(added["snapshot-id"]), 42);
  EXPECT_EQ(int64_t(added["sequence-number"]), 1);
  EXPECT_EQ(std::string_view(added["summary"]["operation"]), "append");
  EXPECT_EQ(simdjson::minify(doc["updates"].at(1)),
            R"({"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":42})");
  EXPECT_EQ(simdjson::minify(doc["updates"].at(2)),
            R"({"action":"set-properties","updates":{"flink.checkpoint":"3"}})");
  EXPECT_EQ(simdjson::minify(doc["updates"].at(3)), R"({"action":"remove-properties","removals":["owner"]})");
}

TEST(IcebergRestCatalog, CommitConflictIsAbortedAndUnknownStateIsNotRetried) {
  TableMetadata base_md = TestTable();
  NewSnapshot snap;
  snap.snapshot_id = 7;
  snap.timestamp_ms = 2000;
  snap.manifest_list = "file:///m.avro";
  TableMetadata updated = *AddSnapshot(base_md, snap);
  Fixture f;
  int status = 409;
  f.transport = std::make_shared<FakeTransport>([&](const HttpRequest& r) -> Result<HttpResponse> {
    if (r.url.find("/v1/config") != std::string::npos) return Json(200, "{}");
    return Error(status, status == 409 ? "CommitFailedException" : "CommitStateUnknownException",
                 status == 409 ? "Requirement failed: branch main has changed: expected id null != 5" : "boom");
  });
  auto catalog = RestCatalog::Connect(f.Options(), f.transport);
  ASSERT_TRUE(catalog.ok());
  LoadedTable base{{{"db"}, "t"}, base_md, "file:///x.metadata.json", 0, {}};
  auto conflict = (*catalog)->CommitTable(base, updated, {});
  ASSERT_FALSE(conflict.ok());
  EXPECT_TRUE(IsCommitConflict(conflict.status()));
  EXPECT_EQ(conflict.status().message(),
            "Iceberg REST catalog 'lake' at http://catalog.test:8181: commit to table db.t failed: Requirement "
            "failed: branch main has changed: expected id null != 5 (CommitFailedException)");
  status = 500;
  size_t before = f.transport->requests.size();
  auto unknown = (*catalog)->CommitTable(base, updated, {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_FALSE(IsCommitConflict(unknown.status()));
  EXPECT_NE(unknown.status().message().find("the commit's state is unknown"), std::string::npos);
  EXPECT_EQ(f.transport->requests.size(), before + 1);
  EXPECT_TRUE(f.sleeps.empty());
}

TEST(IcebergRestCatalog, CreateRequestsCarryTheNewTablesDefinition) {
  std::string body = RestCreateTableRequest("t", TestTable(), "");
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(body).value();
  EXPECT_EQ(std::string_view(doc["name"]), "t");
  EXPECT_TRUE(doc["location"].error() == simdjson::NO_SUCH_FIELD);
  EXPECT_EQ(simdjson::minify(doc["schema"]["identifier-field-ids"]), "[1]");
  EXPECT_EQ(simdjson::minify(doc["partition-spec"]["fields"]),
            R"([{"name":"day","transform":"identity","source-id":2,"field-id":1000}])");
  EXPECT_EQ(std::string_view(doc["properties"]["format-version"]), "2");
  EXPECT_EQ(std::string_view(doc["properties"]["owner"]), "me");
  EXPECT_EQ(RestCreateNamespaceRequest({"a", "b"}, {{"k", "v"}}), R"({"namespace":["a","b"],"properties":{"k":"v"}})");
}

}  // namespace
}  // namespace sluice
