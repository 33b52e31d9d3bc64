// RestCatalog against Iceberg's REST catalog server (RESTCatalogServer), run by
// tests/interop/iceberg_rest_interop.py under tests/interop/rest_catalog_server.sh, which sets
// ICEBERG_REST_URI; skipped otherwise. Commits through CommitTable with requirements, a conflicting
// commit, and the errors of a missing table, a wrong uri and a server that is not there.
#include <gtest/gtest.h>

#include <cstdlib>

#include "connectors/iceberg/rest_catalog.h"

namespace sluice {
namespace {

const char* RestUri() { return std::getenv("ICEBERG_REST_URI"); }

RestCatalogOptions Options(const std::string& uri) {
  RestCatalogOptions o;
  o.catalog_name = "lake";
  o.uri = uri;
  o.max_attempts = 2;
  o.sleep_ms = [](int64_t) {};
  return o;
}

NewTableOptions TableOptions() {
  Schema schema;
  schema.Add("id", LogicalType::BigInt().WithNullable(false));
  schema.Add("day", LogicalType::Date());
  NewTableOptions options;
  options.schema = *ToIcebergSchema(schema, {"id"});
  options.spec = *BuildPartitionSpec(options.schema, {{"day", Transform::Identity(), ""}});
  options.properties = {{"format-version", "2"}};
  options.now_ms = 1000;
  return options;
}

NewSnapshot Append(int64_t id, const std::string& location) {
  NewSnapshot s;
  s.snapshot_id = id;
  s.timestamp_ms = 5000 + id;
  s.manifest_list = location + "/metadata/snap-" + std::to_string(id) + ".avro";
  s.changes.added_data_files = 1;
  s.changes.added_records = 10;
  s.extra_summary = {{"flink.max-committed-checkpoint-id", std::to_string(id)}};
  return s;
}

TEST(IcebergRestInterop, CommitsWithRequirementsAndConflicts) {
  if (RestUri() == nullptr) GTEST_SKIP() << "run by tests/interop/iceberg_rest_interop.py";
  auto catalog = RestCatalog::Connect(Options(RestUri()), NewCurlHttpTransport());
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  ASSERT_TRUE((*catalog)->CreateNamespace({"commits"}, {{"owner", "sluice"}}).ok());
  TableIdentifier ident{{"commits"}, "t"};
  auto created = (*catalog)->CreateTable(ident, TableOptions());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_FALSE(created->metadata_location.empty());
  EXPECT_EQ(created->metadata.CurrentSchema().identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ((*catalog)->CreateTable(ident, TableOptions()).status().message(), "Table already exists: commits.t");

  // The first snapshot, with the sink's requirements and a property change.
  auto first = AddSnapshot(created->metadata, Append(1, created->metadata.location));
  ASSERT_TRUE(first.ok());
  first->properties["sluice.test"] = "one";
  std::vector<TableRequirement> requirements = {TableRequirement::TableUuid(created->metadata.table_uuid),
                                                TableRequirement::RefSnapshotId("main", std::nullopt)};
  auto committed = (*catalog)->CommitTable(*created, *first, requirements);
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->metadata.current_snapshot_id, 1);
  EXPECT_EQ(committed->metadata.Property("sluice.test"), "one");
  EXPECT_NE(committed->metadata_location, created->metadata_location);

  // A second writer that still builds on the created table loses: main has moved.
  auto stale = AddSnapshot(created->metadata, Append(2, created->metadata.location));
  ASSERT_TRUE(stale.ok());
  auto conflict = (*catalog)->CommitTable(*created, *stale, requirements);
  ASSERT_FALSE(conflict.ok());
  EXPECT_TRUE(IsCommitConflict(conflict.status())) << conflict.status().ToString();
  EXPECT_NE(conflict.status().message().find("commit to table commits.t failed: Requirement failed: branch main"),
            std::string::npos)
      << conflict.status().message();
  EXPECT_NE(conflict.status().message().find("CommitFailedException"), std::string::npos);

  // Reloaded and retried, it commits on top of snapshot 1 (its requirements added by the client).
  auto reloaded = (*catalog)->LoadTable(ident);
  ASSERT_TRUE(reloaded.ok());
  auto retry = AddSnapshot(reloaded->metadata, Append(2, reloaded->metadata.location));
  ASSERT_TRUE(retry.ok());
  retry->properties.erase("sluice.test");
  auto second = (*catalog)->CommitTable(*reloaded, *retry, {});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  ASSERT_NE(second->metadata.CurrentSnapshot(), nullptr);
  EXPECT_EQ(second->metadata.CurrentSnapshot()->parent_snapshot_id, 1);
  EXPECT_EQ(second->metadata.CurrentSnapshot()->sequence_number, 2);
  EXPECT_EQ(second->metadata.Property("sluice.test"), "");
  EXPECT_EQ(second->metadata.metadata_log.size(), 2u);
}

// Iceberg's commit loop on the REST catalog: a racer lands a snapshot between the loop's load and its
// commit; the server refuses the stale commit (409) and the loop reloads and commits on top.
TEST(IcebergRestInterop, CommitWithRetriesReloadsAfterAConflict) {
  if (RestUri() == nullptr) GTEST_SKIP() << "run by tests/interop/iceberg_rest_interop.py";
  auto catalog = RestCatalog::Connect(Options(RestUri()), NewCurlHttpTransport());
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  ASSERT_TRUE((*catalog)->CreateNamespace({"retries"}, {}).ok());
  TableIdentifier ident{{"retries"}, "t"};
  ASSERT_TRUE((*catalog)->CreateTable(ident, TableOptions()).ok());
  int attempts = 0;
  auto committed = CommitWithRetries(
      catalog->get(), ident, [&](const LoadedTable& base) -> Result<std::optional<TableMetadata>> {
        if (++attempts == 1) {
          // The racer commits first.
          ASSIGN_OR_RETURN(TableMetadata racer, AddSnapshot(base.metadata, Append(10, base.metadata.location)));
          RETURN_IF_ERROR((*catalog)->CommitTable(base, racer, {}).status());
        }
        ASSIGN_OR_RETURN(TableMetadata next, AddSnapshot(base.metadata, Append(20, base.metadata.location)));
        return std::optional<TableMetadata>(std::move(next));
      });
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(attempts, 2);
  ASSERT_NE(committed->metadata.CurrentSnapshot(), nullptr);
  EXPECT_EQ(committed->metadata.CurrentSnapshot()->snapshot_id, 20);
  EXPECT_EQ(committed->metadata.CurrentSnapshot()->parent_snapshot_id, 10);
}

// Nested namespaces go into paths joined by the server's 'namespace-separator' (this server: %2E).
TEST(IcebergRestInterop, NestedNamespaces) {
  if (RestUri() == nullptr) GTEST_SKIP() << "run by tests/interop/iceberg_rest_interop.py";
  auto catalog = RestCatalog::Connect(Options(RestUri()), NewCurlHttpTransport());
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  ASSERT_TRUE((*catalog)->CreateNamespace({"outer"}, {}).ok());
  ASSERT_TRUE((*catalog)->CreateNamespace({"outer", "in ner"}, {}).ok());
  EXPECT_TRUE(*(*catalog)->NamespaceExists({"outer", "in ner"}));
  EXPECT_FALSE(*(*catalog)->NamespaceExists({"outer", "nope"}));
  auto children = (*catalog)->ListNamespaces({"outer"});
  ASSERT_TRUE(children.ok()) << children.status().ToString();
  EXPECT_EQ(*children, (std::vector<IcebergNamespace>{{"outer", "in ner"}}));
  ASSERT_TRUE((*catalog)->CreateTable({{"outer", "in ner"}, "t"}, TableOptions()).ok());
  auto tables = (*catalog)->ListTables({"outer", "in ner"});
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ((*tables)[0].ToString(), "outer.in ner.t");
  ASSERT_TRUE((*catalog)->DropTable({{"outer", "in ner"}, "t"}, true).ok());
  ASSERT_TRUE((*catalog)->DropNamespace({"outer", "in ner"}).ok());
  ASSERT_TRUE((*catalog)->DropNamespace({"outer"}).ok());
}

TEST(IcebergRestInterop, ErrorsNameTheCatalog) {
  if (RestUri() == nullptr) GTEST_SKIP() << "run by tests/interop/iceberg_rest_interop.py";
  const std::string uri = RestUri();
  auto catalog = RestCatalog::Connect(Options(uri), NewCurlHttpTransport());
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  auto missing = (*catalog)->LoadTable({{"commits"}, "nope"});
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "Table does not exist: commits.nope");
  auto no_ns = (*catalog)->ListTables({"nope"});
  EXPECT_EQ(no_ns.status().message(), "Namespace does not exist: nope");

  auto wrong_path = RestCatalog::Connect(Options(uri + "/not-the-catalog"), NewCurlHttpTransport());
  ASSERT_FALSE(wrong_path.ok());
  EXPECT_NE(wrong_path.status().message().find("GET " + uri + "/not-the-catalog/v1/config answered 400 Bad Request (No route for request: GET "
                                                "not-the-catalog/v1/config (BadRequestException)); is 'uri' the base "
                                                "URI of an Iceberg REST catalog?"),
            std::string::npos)
      << wrong_path.status().message();

  // Port 1 on localhost: nothing listens there.
  auto down = RestCatalog::Connect(Options("http://127.0.0.1:1"), NewCurlHttpTransport());
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.status().code(), StatusCode::kIOError);
  EXPECT_NE(down.status().message().find("Iceberg REST catalog 'lake' at http://127.0.0.1:1: cannot reach the "
                                         "catalog: GET http://127.0.0.1:1/v1/config failed:"),
            std::string::npos)
      << down.status().message();
}

}  // namespace
}  // namespace sluice
