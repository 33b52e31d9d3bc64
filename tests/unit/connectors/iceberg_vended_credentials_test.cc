// Vended storage credentials of a REST catalog (header.X-Iceberg-Access-Delegation =
// vended-credentials): loadTable's "config" and "storage-credentials" reach LoadedTable::config, and
// the table's credentials provider loads the table again when they near expiry.
#include <gtest/gtest.h>

#include "connectors/iceberg/iceberg_file_io.h"
#include "connectors/iceberg/rest_catalog.h"
#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {
namespace {

class FakeTransport : public HttpTransport {
 public:
  explicit FakeTransport(std::function<HttpResponse(const HttpRequest&)> handler) : handler_(std::move(handler)) {}
  Result<HttpResponse> Send(const HttpRequest& request) override {
    requests.push_back(request);
    return handler_(request);
  }
  std::vector<HttpRequest> requests;

 private:
  std::function<HttpResponse(const HttpRequest&)> handler_;
};

TableMetadata TestTable() {
  Schema schema;
  schema.Add("id", LogicalType::BigInt().WithNullable(false));
  NewTableOptions options;
  options.schema = *ToIcebergSchema(schema, {"id"});
  options.spec = *BuildPartitionSpec(options.schema, {});
  options.location = "s3://bucket/wh/stream/t";
  options.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  options.now_ms = 1000;
  return *NewTableMetadata(options);
}

struct VendedFixture {
  int loads = 0;
  int64_t now = 0;
  std::shared_ptr<FakeTransport> transport;
  std::shared_ptr<RestCatalog> catalog;

  VendedFixture() {
    const std::string metadata = TableMetadataToJson(TestTable());
    transport = std::make_shared<FakeTransport>([this, metadata](const HttpRequest& r) -> HttpResponse {
      if (r.url.find("/v1/config") != std::string::npos) return {200, "{\"defaults\": {}, \"overrides\": {}}"};
      ++loads;
      const std::string n = std::to_string(loads);
      const std::string expires = std::to_string(loads * 600'000);  // each set lives until 10 min * n
      return {200, "{\"metadata-location\": \"s3://bucket/wh/stream/t/metadata/v1.metadata.json\", \"metadata\": " +
                       metadata + ", \"config\": {\"s3.endpoint\": \"http://127.0.0.1:9000\"}, " +
                       "\"storage-credentials\": [" +
                       "{\"prefix\": \"s3://bucket/\", \"config\": {\"s3.access-key-id\": \"wide\"}}, " +
                       "{\"prefix\": \"s3://bucket/wh/stream/t\", \"config\": {\"s3.access-key-id\": \"key" + n +
                       "\", \"s3.secret-access-key\": \"secret" + n + "\", \"s3.session-token\": \"token" + n +
                       "\", \"s3.session-token-expires-at-ms\": \"" + expires + "\"}}]}"};
    });
    RestCatalogOptions o;
    o.catalog_name = "lake";
    o.uri = "http://catalog.test:8181";
    o.properties = {{"header.X-Iceberg-Access-Delegation", "vended-credentials"}};
    o.now_ms = [this] { return now; };
    o.sleep_ms = [](int64_t) {};
    catalog = *RestCatalog::Connect(std::move(o), transport);
  }
};

TEST(IcebergVendedCredentials, LoadTableCarriesTheTablesStorageConfig) {
  VendedFixture f;
  auto table = f.catalog->LoadTable({{"stream"}, "t"});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(table->config.at("s3.endpoint"), "http://127.0.0.1:9000");
  // The longest matching prefix wins.
  EXPECT_EQ(table->config.at("s3.access-key-id"), "key1");
  EXPECT_EQ(table->config.at("s3.session-token"), "token1");
  bool sent = false;
  for (const auto& [k, v] : f.transport->requests.back().headers) {
    sent = sent || (k == "X-Iceberg-Access-Delegation" && v == "vended-credentials");
  }
  EXPECT_TRUE(sent);
}

TEST(IcebergVendedCredentials, RefreshedThroughTheCatalogBeforeExpiry) {
  VendedFixture f;
  auto table = f.catalog->LoadTable({{"stream"}, "t"});
  ASSERT_TRUE(table.ok());
  auto provider = VendedCredentialsProvider(f.catalog, *table, [&f] { return f.now; });
  ASSERT_TRUE(provider);
  auto c = provider();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "key1");
  EXPECT_EQ(c->session_token, "token1");
  EXPECT_EQ(f.loads, 1);
  f.now = 600'000 - kVendedRefreshMarginMs - 1;  // not yet within the margin
  EXPECT_EQ(provider()->access_key_id, "key1");
  EXPECT_EQ(f.loads, 1);
  f.now = 600'000 - kVendedRefreshMarginMs;  // five minutes before expiry: loaded again
  c = provider();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "key2");
  EXPECT_EQ(c->secret_access_key, "secret2");
  EXPECT_EQ(f.loads, 2);
  EXPECT_EQ(provider()->access_key_id, "key2");  // the new set lives until 20 min
  EXPECT_EQ(f.loads, 2);
}

TEST(IcebergVendedCredentials, ShortLivedCredentialsAreRefreshedAtHalfTheirLife) {
  VendedFixture f;
  f.now = 596'000;  // the first set expires at 600 s: 4 s left, less than the margin
  auto table = f.catalog->LoadTable({{"stream"}, "t"});
  ASSERT_TRUE(table.ok());
  auto provider = VendedCredentialsProvider(f.catalog, *table, [&f] { return f.now; });
  ASSERT_TRUE(provider);
  EXPECT_EQ(provider()->access_key_id, "key1");
  f.now = 597'999;  // not yet half of their 4 s
  EXPECT_EQ(provider()->access_key_id, "key1");
  EXPECT_EQ(f.loads, 1);
  f.now = 598'000;  // half their life: loaded again
  EXPECT_EQ(provider()->access_key_id, "key2");
  EXPECT_EQ(f.loads, 2);
}

TEST(IcebergVendedCredentials, NoProviderWithoutVendedCredentials) {
  LoadedTable table;
  table.config = {{"s3.endpoint", "http://x"}};
  EXPECT_FALSE(VendedCredentialsProvider(nullptr, table));
}

}  // namespace
}  // namespace sluice
