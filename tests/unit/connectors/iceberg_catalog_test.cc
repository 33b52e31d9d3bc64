#include <gtest/gtest.h>

#include <zlib.h>

#include <filesystem>

#include "connectors/iceberg/hadoop_catalog.h"
#include "connectors/iceberg/iceberg_options.h"
#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

#ifndef SLUICE_ICEBERG_VECTORS
#define SLUICE_ICEBERG_VECTORS "/work/shared/iceberg-vectors"
#endif

// A FileIO that lets a test act as a second committer at the worst moment: just before the catalog
// publishes `race_location`, another writer publishes it first.
class RacingFileIO : public FileIO {
 public:
  explicit RacingFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}
  std::string race_location;
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& l) override { return base_->OpenRead(l); }
  Result<std::unique_ptr<WritableFile>> Create(const std::string& l) override { return base_->Create(l); }
  Status WriteAtomically(const std::string& l, std::string_view data, bool overwrite) override {
    if (!race_location.empty() && l == race_location) {
      race_location.clear();
      RETURN_IF_ERROR(base_->WriteAtomically(l, "{\"written\": \"by the other committer\"}", false));
    }
    return base_->WriteAtomically(l, data, overwrite);
  }
  Result<bool> Exists(const std::string& l) override { return base_->Exists(l); }
  Status Delete(const std::string& l) override { return base_->Delete(l); }
  Status DeleteRecursively(const std::string& l) override { return base_->DeleteRecursively(l); }
  Result<std::vector<std::string>> ListDirectory(const std::string& l, bool d) override {
    return base_->ListDirectory(l, d);
  }
  Status CreateDirectories(const std::string& l) override { return base_->CreateDirectories(l); }

 private:
  std::shared_ptr<FileIO> base_;
};

class IcebergCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sluice_iceberg_catalog_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    io_ = std::make_shared<RacingFileIO>(std::shared_ptr<FileIO>(NewLocalFileIO()));
    catalog_ = std::make_unique<HadoopCatalog>(io_, "file://" + dir_.string(), [this] { return ++clock_; });
  }
  void TearDown() override { fs::remove_all(dir_); }

  NewTableOptions Options() {
    Schema schema;
    schema.Add("id", LogicalType::BigInt().WithNullable(false));
    schema.Add("day", LogicalType::Date());
    NewTableOptions options;
    options.schema = *ToIcebergSchema(schema, {"id"});
    options.spec = *BuildPartitionSpec(options.schema, {{"day", Transform::Identity(), ""}});
    options.properties = {{"format-version", "2"}};
    return options;
  }

  NewSnapshot Append(int64_t id) {
    NewSnapshot s;
    s.snapshot_id = id;
    s.timestamp_ms = 1000 + id;
    s.manifest_list = "file:///m/snap-" + std::to_string(id) + ".avro";
    s.changes.added_data_files = 1;
    s.changes.added_records = 10;
    return s;
  }

  fs::path dir_;
  int64_t clock_ = 1000;
  std::shared_ptr<RacingFileIO> io_;
  std::unique_ptr<HadoopCatalog> catalog_;
};

TEST_F(IcebergCatalogTest, NamespacesAndTablesAreDirectories) {
  ASSERT_TRUE(catalog_->CreateNamespace({"stream"}, {}).ok());
  auto again = catalog_->CreateNamespace({"stream"}, {});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.message(), "Namespace already exists: stream");
  ASSERT_TRUE(catalog_->CreateNamespace({"other"}, {}).ok());
  EXPECT_FALSE(catalog_->CreateNamespace({"x"}, {{"owner", "me"}}).ok());

  auto table = catalog_->CreateTable({{"stream"}, "sales"}, Options());
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(table->version, 1);
  EXPECT_TRUE(fs::exists(dir_ / "stream/sales/metadata/v1.metadata.json"));
  EXPECT_TRUE(fs::exists(dir_ / "stream/sales/metadata/version-hint.text"));
  EXPECT_EQ(table->metadata.location, "file://" + (dir_ / "stream/sales").string());
  auto dup = catalog_->CreateTable({{"stream"}, "sales"}, Options());
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().message(), "Table already exists: stream.sales");

  auto namespaces = catalog_->ListNamespaces({});
  ASSERT_TRUE(namespaces.ok());
  EXPECT_EQ(*namespaces, (std::vector<IcebergNamespace>{{"other"}, {"stream"}}));
  auto tables = catalog_->ListTables({"stream"});
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ((*tables)[0].ToString(), "stream.sales");
  auto missing = catalog_->ListTables({"nope"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "Namespace does not exist: nope");

  auto not_empty = catalog_->DropNamespace({"stream"});
  ASSERT_FALSE(not_empty.ok());
  EXPECT_EQ(not_empty.message(), "Namespace stream is not empty.");
  ASSERT_TRUE(catalog_->DropTable({{"stream"}, "sales"}, false).ok());
  EXPECT_EQ(catalog_->DropTable({{"stream"}, "sales"}, false).message(), "Table does not exist: stream.sales");
  ASSERT_TRUE(catalog_->DropNamespace({"stream"}).ok());
  EXPECT_EQ(catalog_->LoadTable({{"stream"}, "sales"}).status().message(), "Table does not exist: stream.sales");
}

TEST_F(IcebergCatalogTest, CommitsAndLoadsVersions) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  auto base = catalog_->CreateTable({{"db"}, "t"}, Options());
  ASSERT_TRUE(base.ok());
  auto next = AddSnapshot(base->metadata, Append(1));
  ASSERT_TRUE(next.ok());
  auto committed = catalog_->CommitTable(*base, *next, {TableRequirement::RefSnapshotId("main", std::nullopt)});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->version, 2);
  ASSERT_EQ(committed->metadata.metadata_log.size(), 1u);
  EXPECT_EQ(committed->metadata.metadata_log[0].metadata_file, base->metadata_location);

  auto loaded = catalog_->LoadTable({{"db"}, "t"});
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->version, 2);
  EXPECT_EQ(loaded->metadata.current_snapshot_id, 1);

  // A requirement that no longer holds.
  auto next2 = AddSnapshot(loaded->metadata, Append(2));
  ASSERT_TRUE(next2.ok());
  auto stale_ref = catalog_->CommitTable(*loaded, *next2, {TableRequirement::RefSnapshotId("main", 7)});
  ASSERT_FALSE(stale_ref.ok());
  EXPECT_TRUE(IsCommitConflict(stale_ref.status()));
  EXPECT_NE(stale_ref.status().message().find("branch main has changed: expected id 7 != 1"), std::string::npos);

  // A committer that built on version 1 loses.
  auto from_old = catalog_->CommitTable(*base, *next, {});
  ASSERT_FALSE(from_old.ok());
  EXPECT_TRUE(IsCommitConflict(from_old.status()));
  EXPECT_NE(from_old.status().message().find("Cannot commit changes based on stale table metadata"), std::string::npos);

  // A lost hint: loading finds the newest version anyway.
  fs::remove(dir_ / "db/t/metadata/version-hint.text");
  EXPECT_EQ(catalog_->LoadTable({{"db"}, "t"})->version, 2);
}

TEST_F(IcebergCatalogTest, TwoCommittersOnlyOneWins) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  auto base = catalog_->CreateTable({{"db"}, "t"}, Options());
  ASSERT_TRUE(base.ok());
  auto next = AddSnapshot(base->metadata, Append(1));
  ASSERT_TRUE(next.ok());
  io_->race_location = HadoopCatalog::MetadataFileLocation(base->metadata.location, 2);
  auto lost = catalog_->CommitTable(*base, *next, {});
  ASSERT_FALSE(lost.ok());
  EXPECT_TRUE(IsCommitConflict(lost.status()));
  EXPECT_NE(lost.status().message().find("Version 2 already exists: "), std::string::npos);
  // The winner's file is untouched.
  auto text = io_->ReadAll(HadoopCatalog::MetadataFileLocation(base->metadata.location, 2));
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("by the other committer"), std::string::npos);
}

TEST_F(IcebergCatalogTest, ExpiresOldMetadataFiles) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  NewTableOptions options = Options();
  options.properties["write.metadata.previous-versions-max"] = "2";
  options.properties["write.metadata.delete-after-commit.enabled"] = "true";
  auto table = catalog_->CreateTable({{"db"}, "t"}, options);
  ASSERT_TRUE(table.ok());
  LoadedTable current = *table;
  for (int i = 1; i <= 4; ++i) {
    auto next = AddSnapshot(current.metadata, Append(i));
    ASSERT_TRUE(next.ok());
    auto committed = catalog_->CommitTable(current, *next, {});
    ASSERT_TRUE(committed.ok()) << committed.status().ToString();
    current = *committed;
  }
  EXPECT_EQ(current.version, 5);
  EXPECT_EQ(current.metadata.metadata_log.size(), 2u);
  EXPECT_FALSE(fs::exists(dir_ / "db/t/metadata/v1.metadata.json"));
  EXPECT_FALSE(fs::exists(dir_ / "db/t/metadata/v2.metadata.json"));
  EXPECT_TRUE(fs::exists(dir_ / "db/t/metadata/v3.metadata.json"));
  EXPECT_TRUE(fs::exists(dir_ / "db/t/metadata/v5.metadata.json"));
  EXPECT_EQ(current.metadata.CurrentSnapshot()->SummaryValue("total-records"), "40");
}

std::string Gzip(std::string_view text) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, text.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// Java writes v<N>.gz.metadata.json with 'write.metadata.compression-codec' = 'gzip'.
TEST_F(IcebergCatalogTest, ReadsGzipMetadataVersions) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  auto base = catalog_->CreateTable({{"db"}, "t"}, Options());
  ASSERT_TRUE(base.ok());
  auto next = AddSnapshot(base->metadata, Append(9));
  ASSERT_TRUE(next.ok());
  fs::path gz = dir_ / "db/t/metadata/v2.gz.metadata.json";
  ASSERT_TRUE(io_->WriteAtomically(gz.string(), Gzip(TableMetadataToJson(*next)), false).ok());
  auto loaded = catalog_->LoadTable({{"db"}, "t"});
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->version, 2);
  EXPECT_EQ(loaded->metadata_location, "file://" + gz.string());
  EXPECT_EQ(loaded->metadata.current_snapshot_id, 9);
  auto committed = catalog_->CommitTable(*loaded, *AddSnapshot(loaded->metadata, Append(10)), {});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->version, 3);
}

// The hadoop tables of the vectors load through the catalog (version hint, Java-written metadata).
TEST_F(IcebergCatalogTest, LoadsJavaWrittenHadoopTables) {
  std::string vectors = std::string(SLUICE_ICEBERG_VECTORS) + "/duckdb-iceberg/equality_deletes";
  if (!fs::exists(vectors)) GTEST_SKIP();
  HadoopCatalog catalog(std::shared_ptr<FileIO>(NewLocalFileIO()), vectors, [] { return int64_t{0}; });
  auto tables = catalog.ListNamespaces({});
  ASSERT_TRUE(tables.ok());
  auto t = catalog.LoadTable({{}, "mytable"});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->version, 7);
  EXPECT_EQ(t->metadata.format_version, 2);
  auto p = catalog.LoadTable({{}, "mytable_partitioned"});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->version, 6);
  EXPECT_EQ(p->metadata.DefaultSpec().fields().at(0).field_id, 1000);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

// Another committer lands between our load and our commit: the loop reloads, re-applies on top of
// the other commit, and succeeds; `apply` sees the fresh base each time.
TEST_F(IcebergCatalogTest, CommitWithRetriesReappliesAfterAConflict) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  ASSERT_TRUE(catalog_->CreateTable({{"db"}, "t"}, Options()).ok());
  TableIdentifier ident{{"db"}, "t"};
  int calls = 0;
  using Update = Result<std::optional<TableMetadata>>;
  auto result = CommitWithRetries(catalog_.get(), ident, [&](const LoadedTable& base) -> Update {
    ++calls;
    if (calls == 1) {
      // The other committer wins the race for version 2.
      auto theirs = AddSnapshot(base.metadata, Append(100));
      if (!theirs.ok()) return theirs.status();
      auto landed = catalog_->CommitTable(base, *theirs, {});
      if (!landed.ok()) return landed.status();
    }
    auto ours = AddSnapshot(base.metadata, Append(200 + calls));
    if (!ours.ok()) return ours.status();
    return std::optional<TableMetadata>(std::move(ours).value());
  });
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(result->version, 3);
  EXPECT_EQ(result->metadata.current_snapshot_id, 202);
  EXPECT_EQ(result->metadata.CurrentSnapshot()->parent_snapshot_id, 100);
  EXPECT_EQ(result->metadata.CurrentSnapshot()->SummaryValue("total-records"), "20");

  // Nothing to commit: the loaded table comes back unchanged.
  auto noop = CommitWithRetries(catalog_.get(), ident, [](const LoadedTable&) -> Result<std::optional<TableMetadata>> {
    return std::optional<TableMetadata>();
  });
  ASSERT_TRUE(noop.ok());
  EXPECT_EQ(noop->version, 3);

  // A conflict on every attempt gives up after commit.retry.num-retries.
  int attempts = 0;
  auto hopeless = CommitWithRetries(catalog_.get(), ident, [&](const LoadedTable& base) -> Update {
    ++attempts;
    auto theirs = AddSnapshot(base.metadata, Append(1000 + attempts));
    if (!theirs.ok()) return theirs.status();
    if (auto landed = catalog_->CommitTable(base, *theirs, {}); !landed.ok()) return landed.status();
    auto ours = AddSnapshot(base.metadata, Append(2000 + attempts));
    if (!ours.ok()) return ours.status();
    return std::optional<TableMetadata>(std::move(ours).value());
  });
  ASSERT_FALSE(hopeless.ok());
  EXPECT_TRUE(IsCommitConflict(hopeless.status()));
  EXPECT_EQ(attempts, 5);
  EXPECT_NE(hopeless.status().message().find("failed after 5 attempts"), std::string::npos);
}

}  // namespace
}  // namespace sluice

#include <sys/wait.h>
#include <unistd.h>

namespace sluice {
namespace {

// Two processes commit to one table at the same time through the local file system: every commit
// lands exactly once, in one linear history, whatever the interleaving.
TEST_F(IcebergCatalogTest, ConcurrentProcessesCommitEachChangeOnce) {
  ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}).ok());
  NewTableOptions options = Options();
  options.properties["commit.retry.num-retries"] = "100000";
  ASSERT_TRUE(catalog_->CreateTable({{"db"}, "t"}, options).ok());
  TableIdentifier ident{{"db"}, "t"};
  constexpr int kCommits = 15;
  std::vector<pid_t> children;
  for (int64_t first_id : {1, 1001}) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      HadoopCatalog catalog(std::shared_ptr<FileIO>(NewLocalFileIO()), catalog_->warehouse(),
                            [] { return int64_t{5000}; });
      for (int i = 0; i < kCommits; ++i) {
        auto done = CommitWithRetries(&catalog, ident, [&](const LoadedTable& base) {
          auto next = AddSnapshot(base.metadata, Append(first_id + i));
          if (!next.ok()) return Result<std::optional<TableMetadata>>(next.status());
          return Result<std::optional<TableMetadata>>(std::optional<TableMetadata>(std::move(next).value()));
        });
        if (!done.ok()) _exit(1);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto table = catalog_->LoadTable(ident);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(table->version, 1 + 2 * kCommits);
  EXPECT_EQ(table->metadata.snapshots.size(), static_cast<size_t>(2 * kCommits));
  EXPECT_EQ(table->metadata.CurrentSnapshot()->SummaryValue("total-records"), std::to_string(2 * kCommits * 10));
  // One linear history: walking parents from the head visits every snapshot once.
  size_t chain = 0;
  for (const Snapshot* s = table->metadata.CurrentSnapshot(); s != nullptr;
       s = s->parent_snapshot_id ? table->metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    ++chain;
    EXPECT_EQ(s->sequence_number, static_cast<int64_t>(2 * kCommits + 1 - chain));
  }
  EXPECT_EQ(chain, static_cast<size_t>(2 * kCommits));
}

// A relative 'warehouse' of a hadoop catalog is made absolute against the working directory, so the
// table locations written into metadata are absolute (readers started elsewhere find the files); a
// location with a scheme and a REST catalog's warehouse (a name the server interprets) are kept.
TEST(IcebergCatalogConfigTest, RelativeHadoopWarehouseBecomesAbsolute) {
  auto rel = IcebergCatalogConfig::FromCatalogOptions(
      "lake", {{"type", "iceberg"}, {"catalog-type", "hadoop"}, {"warehouse", "./a/../wh/"}});
  ASSERT_TRUE(rel.ok()) << rel.status().ToString();
  EXPECT_EQ(rel->warehouse, (fs::current_path() / "wh").string());
  auto table = IcebergCatalogConfig::FromTableOptions(
      {{"catalog-name", "lake"}, {"catalog-type", "hadoop"}, {"warehouse", "wh"}}, "t");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(table->warehouse, (fs::current_path() / "wh").string());
  for (const char* kept : {"file:///tmp/wh", "file:wh", "s3://bucket/wh", "/abs/wh"}) {
    auto c = IcebergCatalogConfig::FromCatalogOptions(
        "lake", {{"type", "iceberg"}, {"catalog-type", "hadoop"}, {"warehouse", kept}});
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    EXPECT_EQ(c->warehouse, kept);
  }
  auto rest = IcebergCatalogConfig::FromCatalogOptions(
      "lake", {{"type", "iceberg"}, {"catalog-type", "rest"}, {"uri", "http://127.0.0.1:1"}, {"warehouse", "wh"}});
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  EXPECT_EQ(rest->warehouse, "wh");
}

}  // namespace
}  // namespace sluice
