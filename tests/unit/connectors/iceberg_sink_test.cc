#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <functional>

#include "connectors/iceberg/deletion_vector.h"
#include "connectors/iceberg/hadoop_catalog.h"
#include "connectors/iceberg/iceberg_committer.h"
#include "connectors/iceberg/iceberg_connector.h"
#include "connectors/iceberg/manifest_reader.h"
#include "types/value.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// The sink end to end on a hadoop warehouse: the delta writer's data and delete files, the
// committer's snapshots and its idempotence.
class IcebergSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sluice_iceberg_sink_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    schema_.Add("id", LogicalType::BigInt().WithNullable(false));
    schema_.Add("v", LogicalType::String());
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::unique_ptr<SinkWriter> Writer(std::map<std::string, std::string> extra, ChangelogMode input) {
    ConnectorContext ctx;
    ctx.table_name = "t";
    ctx.physical_schema = schema_;
    ctx.primary_key = {"id"};
    ctx.options = {{"connector", "iceberg"}, {"catalog-name", "c"}, {"catalog-type", "hadoop"},
                   {"warehouse", dir_.string()}, {"catalog-database", "db"}, {"catalog-table", "t"}};
    for (auto& [k, v] : extra) ctx.options[k] = v;
    auto factory = MakeIcebergConnectorFactory();
    auto sink = factory->CreateSink(ctx);
    EXPECT_TRUE(sink.ok()) << sink.status().ToString();
    if (!sink.ok()) return nullptr;
    (*sink)->SetInputChangelogMode(input);
    auto writer = (*sink)->CreateWriter();
    EXPECT_TRUE(writer.ok()) << writer.status().ToString();
    return writer.ok() ? std::move(*writer) : nullptr;
  }

  Chunk Rows(const std::vector<std::tuple<RowKind, int64_t, std::string>>& rows) {
    Chunk c(schema_);
    for (const auto& [kind, id, v] : rows) c.AppendValues({Value::BigInt(id), Value::String(v)}, kind);
    return c;
  }

  LoadedTable Load() {
    HadoopCatalog catalog(std::shared_ptr<FileIO>(NewLocalFileIO()), dir_.string(), [] { return int64_t{1}; });
    auto t = catalog.LoadTable({{"db"}, "t"});
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return *t;
  }

  // The files of the current snapshot that its own snapshot added, by content.
  std::vector<DataFile> AddedFiles(const TableMetadata& md) {
    auto io = NewLocalFileIO();
    std::vector<DataFile> out;
    auto list = ReadManifestList(io.get(), md.CurrentSnapshot()->manifest_list);
    EXPECT_TRUE(list.ok());
    for (const auto& m : list->manifests) {
      if (m.added_snapshot_id != md.CurrentSnapshot()->snapshot_id) continue;
      auto contents = ReadManifest(io.get(), m);
      EXPECT_TRUE(contents.ok());
      for (const auto& e : contents->entries) out.push_back(e.data_file);
    }
    return out;
  }

  fs::path dir_;
  Schema schema_;
};

TEST_F(IcebergSinkTest, UpsertWritesEqualityAndPositionDeletesAsFlink) {
  auto w = Writer({{"write.upsert.enabled", "true"}}, ChangelogMode::All());
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->EnableTwoPhaseCommit());
  // k1 and k2 are new in this checkpoint: equality deletes; k1 again: a position delete on row 0;
  // -U is skipped in upsert mode; -D of k2 (written at row 1) is a position delete.
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 1, "a"}, {RowKind::kInsert, 2, "b"}, {RowKind::kUpdateBefore, 1, "a"},
                             {RowKind::kUpdateAfter, 1, "c"}, {RowKind::kDelete, 2, "b"}}))
                  .ok());
  auto committables = w->PreCommit(7);
  ASSERT_TRUE(committables.ok()) << committables.status().ToString();
  ASSERT_TRUE(w->Commit(*committables).ok());
  LoadedTable t = Load();
  const Snapshot* s = t.metadata.CurrentSnapshot();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->operation(), "overwrite");
  EXPECT_EQ(s->SummaryValue(kFlinkMaxCommittedCheckpointId), "7");
  EXPECT_EQ(s->SummaryValue("added-records"), "3");
  EXPECT_EQ(s->SummaryValue("added-equality-deletes"), "2");
  EXPECT_EQ(s->SummaryValue("added-position-deletes"), "2");
  std::string data_path;
  for (const auto& f : AddedFiles(t.metadata)) {
    if (f.content == DataFileContent::kData) data_path = f.file_path;
    if (f.content == DataFileContent::kEqualityDeletes) {
      EXPECT_EQ(f.equality_ids, std::vector<int32_t>{1});
      EXPECT_EQ(f.record_count, 2);
    }
    if (f.content == DataFileContent::kPositionDeletes) {
      EXPECT_EQ(f.record_count, 2);
      EXPECT_EQ(f.lower_bounds.at(kDeletePosFieldId), std::string("\0\0\0\0\0\0\0\0", 8));
      EXPECT_EQ(f.upper_bounds.at(kDeletePosFieldId), std::string("\1\0\0\0\0\0\0\0", 8));
    }
  }
  EXPECT_NE(data_path.find("/db/t/data/00000-0-"), std::string::npos) << data_path;
  // The same committables again (a restart after the commit): nothing new.
  ASSERT_TRUE(w->RecoverAndCommit(*committables).ok());
  EXPECT_EQ(Load().metadata.snapshots.size(), 1u);
  auto fields = w->SummaryFields();
  ASSERT_EQ(fields.size(), 7u);
  EXPECT_EQ(fields[1].second, "1");  // snapshots
  EXPECT_EQ(fields[6].second, "id");
}

TEST_F(IcebergSinkTest, FormatV3WritesDeletionVectorsInsteadOfPositionDeleteFiles) {
  auto w = Writer({{"write.upsert.enabled", "true"}, {"format-version", "3"}}, ChangelogMode::All());
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->EnableTwoPhaseCommit());
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 1, "a"}, {RowKind::kInsert, 2, "b"}, {RowKind::kUpdateAfter, 1, "c"},
                             {RowKind::kUpdateAfter, 2, "d"}, {RowKind::kUpdateAfter, 1, "e"}}))
                  .ok());
  auto committables = w->PreCommit(1);
  ASSERT_TRUE(committables.ok()) << committables.status().ToString();
  ASSERT_TRUE(w->Commit(*committables).ok());
  LoadedTable t = Load();
  EXPECT_EQ(t.metadata.CurrentSnapshot()->SummaryValue("added-dvs"), "1");
  int dvs = 0;
  auto io = NewLocalFileIO();
  for (const auto& f : AddedFiles(t.metadata)) {
    if (f.content != DataFileContent::kPositionDeletes) continue;
    ASSERT_EQ(f.file_format, "PUFFIN");
    ASSERT_TRUE(f.referenced_data_file.has_value());
    auto dv = ReadDeletionVector(io.get(), f);
    ASSERT_TRUE(dv.ok()) << dv.status().ToString();
    EXPECT_EQ(dv->ToVector(), (std::vector<int64_t>{0, 1, 2}));  // rows 0-2 replaced by rows 2-4
    ++dvs;
  }
  EXPECT_EQ(dvs, 1);
}

// The live delete files of the current snapshot (entries not DELETED), with their positions.
std::vector<std::pair<DataFile, std::vector<int64_t>>> LiveDeletionVectors(const TableMetadata& md) {
  auto io = NewLocalFileIO();
  std::vector<std::pair<DataFile, std::vector<int64_t>>> out;
  auto list = ReadManifestList(io.get(), md.CurrentSnapshot()->manifest_list);
  EXPECT_TRUE(list.ok());
  for (const auto& m : list->manifests) {
    auto contents = ReadManifest(io.get(), m);
    EXPECT_TRUE(contents.ok());
    for (const auto& e : contents->entries) {
      if (e.status == ManifestEntryStatus::kDeleted || e.data_file.content == DataFileContent::kData) continue;
      EXPECT_EQ(e.data_file.file_format, "PUFFIN");
      auto dv = ReadDeletionVector(io.get(), e.data_file);
      EXPECT_TRUE(dv.ok()) << dv.status().ToString();
      out.emplace_back(e.data_file, dv.ok() ? dv->ToVector() : std::vector<int64_t>{});
    }
  }
  return out;
}

const std::map<std::string, std::string> kDvMode = {
    {"write.upsert.enabled", "true"}, {"format-version", "3"}, {"sluice.write.delete-mode", "dv"}};

TEST_F(IcebergSinkTest, DvModeMergesAFilesVectorAndRemovesTheOldOne) {
  auto w = Writer(kDvMode, ChangelogMode::All());
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->EnableTwoPhaseCommit());
  int64_t checkpoint = 0;
  auto commit = [&] {
    auto c = w->PreCommit(++checkpoint);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    ASSERT_TRUE(w->Commit(*c).ok());
  };
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 1, "a"}, {RowKind::kInsert, 2, "b"}, {RowKind::kInsert, 3, "c"}})).ok());
  commit();
  ASSERT_TRUE(w->Write(Rows({{RowKind::kUpdateAfter, 1, "a2"}})).ok());
  commit();
  ASSERT_TRUE(w->Write(Rows({{RowKind::kUpdateAfter, 3, "c2"}, {RowKind::kDelete, 2, "b"}})).ok());
  commit();
  LoadedTable t = Load();
  EXPECT_EQ(t.metadata.CurrentSnapshot()->SummaryValue("removed-dvs"), "1");
  EXPECT_EQ(t.metadata.CurrentSnapshot()->SummaryValue("total-delete-files"), "1");
  auto dvs = LiveDeletionVectors(t.metadata);
  ASSERT_EQ(dvs.size(), 1u);  // one live vector for the first file, holding all three of its rows
  EXPECT_EQ(dvs[0].second, (std::vector<int64_t>{0, 1, 2}));
  // A new job indexes the table, vectors included: updating key 1 again deletes its row of the second file.
  auto w2 = Writer(kDvMode, ChangelogMode::All());
  ASSERT_NE(w2, nullptr);
  ASSERT_TRUE(w2->Write(Rows({{RowKind::kUpdateAfter, 1, "a3"}})).ok());
  ASSERT_TRUE(w2->Finish().ok());
  dvs = LiveDeletionVectors(Load().metadata);
  ASSERT_EQ(dvs.size(), 2u);
}

TEST_F(IcebergSinkTest, DvModeRefusesToDropAConcurrentWritersVector) {
  auto w = Writer(kDvMode, ChangelogMode::All());
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 1, "a"}, {RowKind::kInsert, 2, "b"}})).ok());
  ASSERT_TRUE(w->Finish().ok());
  auto a = Writer(kDvMode, ChangelogMode::All());
  auto b = Writer(kDvMode, ChangelogMode::All());
  ASSERT_TRUE(a != nullptr && b != nullptr && a->EnableTwoPhaseCommit() && b->EnableTwoPhaseCommit());
  ASSERT_TRUE(a->Write(Rows({{RowKind::kUpdateAfter, 1, "a2"}})).ok());
  ASSERT_TRUE(b->Write(Rows({{RowKind::kUpdateAfter, 2, "b2"}})).ok());
  auto ca = a->PreCommit(1);
  auto cb = b->PreCommit(1);
  ASSERT_TRUE(ca.ok() && cb.ok());
  ASSERT_TRUE(a->Commit(*ca).ok());
  Status st = b->Commit(*cb);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("found a concurrently added deletion vector"), std::string::npos) << st.ToString();
}

TEST_F(IcebergSinkTest, IndexedWriterCommitsACheckpointIdReusedAfterAFallback) {
  auto w = Writer(kDvMode, ChangelogMode::All());
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->EnableTwoPhaseCommit());
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 1, "a"}, {RowKind::kInsert, 2, "b"}})).ok());
  auto c1 = w->PreCommit(1);
  ASSERT_TRUE(c1.ok() && w->Commit(*c1).ok());
  ASSERT_TRUE(w->Write(Rows({{RowKind::kUpdateAfter, 1, "a2"}})).ok());
  auto c2 = w->PreCommit(2);
  ASSERT_TRUE(c2.ok() && w->Commit(*c2).ok());
  // Restored from checkpoint 1 (checkpoint 2 unreadable): its committables are in the table already.
  auto r = Writer(kDvMode, ChangelogMode::All());
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->EnableTwoPhaseCommit());
  ASSERT_TRUE(r->RecoverAndCommit(*c1).ok());
  EXPECT_EQ(Load().metadata.snapshots.size(), 2u);
  // Its checkpoint 2 is another one than the table's: its deletes were computed on the table as it is.
  ASSERT_TRUE(r->Write(Rows({{RowKind::kUpdateAfter, 2, "b2"}})).ok());
  auto r2 = r->PreCommit(2);
  ASSERT_TRUE(r2.ok() && r->Commit(*r2).ok());
  EXPECT_EQ(Load().metadata.snapshots.size(), 3u);
  ASSERT_TRUE(r->Commit(*r2).ok());  // the same committables again: skipped
  LoadedTable t = Load();
  EXPECT_EQ(t.metadata.snapshots.size(), 3u);
  auto dvs = LiveDeletionVectors(t.metadata);
  ASSERT_EQ(dvs.size(), 1u);
  EXPECT_EQ(dvs[0].second, (std::vector<int64_t>{0, 1}));
}

TEST_F(IcebergSinkTest, CheckpointsAtOrBelowTheCommittedOneAreSkipped) {
  auto w = Writer({}, ChangelogMode::InsertOnly());
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->EnableTwoPhaseCommit());
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 1, "a"}})).ok());
  auto c1 = w->PreCommit(1);
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 2, "0123456789abcdefXYZ"}})).ok());
  auto c2 = w->PreCommit(2);
  ASSERT_TRUE(c1.ok() && c2.ok());
  ASSERT_TRUE(w->Commit(*c2).ok());
  ASSERT_TRUE(w->Commit(*c1).ok());  // 1 <= 2: already covered, skipped
  LoadedTable t = Load();
  ASSERT_EQ(t.metadata.snapshots.size(), 1u);
  EXPECT_EQ(t.metadata.CurrentSnapshot()->operation(), "append");
  auto job = IcebergCommitter::JobIdOf(*c2);
  ASSERT_TRUE(job.ok());
  EXPECT_EQ(*MaxCommittedCheckpointId(t.metadata, *job, t.metadata.CurrentSnapshot()->SummaryValue(kFlinkOperatorId)), 2);
  EXPECT_EQ(*MaxCommittedCheckpointId(t.metadata, "another-job", ""), -1);
  // String bounds truncated to 16 characters, the upper one incremented (Iceberg's truncate(16)).
  auto files = AddedFiles(t.metadata);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].lower_bounds.at(2), "0123456789abcdef");
  EXPECT_EQ(files[0].upper_bounds.at(2), "0123456789abcdeg");
  EXPECT_EQ(files[0].value_counts.at(1), 1);
}

TEST_F(IcebergSinkTest, EndOfInputWithoutCheckpointsCommitsWithLongMax) {
  auto w = Writer({{"target-file-size-bytes", "1"}}, ChangelogMode::InsertOnly());
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 1, "a"}})).ok());
  ASSERT_TRUE(w->Write(Rows({{RowKind::kInsert, 2, "b"}})).ok());
  ASSERT_TRUE(w->Finish().ok());
  LoadedTable t = Load();
  ASSERT_NE(t.metadata.CurrentSnapshot(), nullptr);
  EXPECT_EQ(t.metadata.CurrentSnapshot()->SummaryValue(kFlinkMaxCommittedCheckpointId), "9223372036854775807");
  EXPECT_EQ(t.metadata.CurrentSnapshot()->SummaryValue("added-data-files"), "2");  // rolled after each write
}

TEST_F(IcebergSinkTest, UpsertWithoutPrimaryKeyIsRefused) {
  ConnectorContext ctx;
  ctx.table_name = "t";
  ctx.physical_schema = schema_;
  ctx.options = {{"connector", "iceberg"}, {"catalog-name", "c"}, {"catalog-type", "hadoop"},
                 {"warehouse", dir_.string()}, {"upsert-enabled", "true"}};
  auto sink = MakeIcebergConnectorFactory()->CreateSink(ctx);
  ASSERT_TRUE(sink.ok());
  auto writer = (*sink)->CreateWriter();
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.status().message().find("Equality field columns shouldn't be empty"), std::string::npos);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

// A FileIO that runs a hook just before the first publish of a location ending in `suffix`: another
// committer wins the race for that metadata version.
class HookFileIO : public FileIO {
 public:
  explicit HookFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}
  std::string suffix;
  std::function<void()> hook;
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& l) override { return base_->OpenRead(l); }
  Result<std::unique_ptr<WritableFile>> Create(const std::string& l) override { return base_->Create(l); }
  Status WriteAtomically(const std::string& l, std::string_view data, bool overwrite) override {
    if (hook && l.size() >= suffix.size() && l.compare(l.size() - suffix.size(), suffix.size(), suffix) == 0) {
      auto h = std::move(hook);
      hook = nullptr;
      h();
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

DataFile FakeDataFile(const std::string& path, int64_t rows) {
  DataFile f;
  f.file_path = path;
  f.record_count = rows;
  f.file_size_in_bytes = 100;
  return f;
}

TEST(IcebergCommitterTest, ACommitConflictReloadsAndReappliesOnTheWinner) {
  const fs::path dir = fs::temp_directory_path() / ("sluice_iceberg_conflict_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::shared_ptr<FileIO> plain(NewLocalFileIO());
  auto hooked = std::make_shared<HookFileIO>(plain);
  auto clock = [] { return int64_t{1000}; };
  auto catalog_a = std::make_shared<HadoopCatalog>(hooked, dir.string(), clock);
  auto catalog_b = std::make_shared<HadoopCatalog>(plain, dir.string(), clock);
  Schema schema;
  schema.Add("id", LogicalType::BigInt());
  NewTableOptions opts;
  auto iceberg_schema = ToIcebergSchema(schema);
  ASSERT_TRUE(iceberg_schema.ok());
  opts.schema = *iceberg_schema;
  ASSERT_TRUE(catalog_a->CreateNamespace({"db"}, {}).ok());
  TableIdentifier ident{{"db"}, "t"};
  ASSERT_TRUE(catalog_a->CreateTable(ident, opts).ok());
  IcebergCommitter a(catalog_a, plain, ident, "op-a");
  IcebergCommitter b(catalog_b, plain, ident, "op-b");
  IcebergWriteResult ra, rb;
  ra.data_files = {FakeDataFile(dir.string() + "/db/t/data/a.parquet", 3)};
  rb.data_files = {FakeDataFile(dir.string() + "/db/t/data/b.parquet", 5)};
  auto ca = a.Prepare(1, ra);
  auto cb = b.Prepare(1, rb);
  ASSERT_TRUE(ca.ok() && cb.ok());
  // A's first attempt builds on v1; B commits v2 just before A publishes it.
  hooked->suffix = "v2.metadata.json";
  Status b_status;
  hooked->hook = [&] { b_status = b.Commit(*cb); };
  ASSERT_TRUE(a.Commit(*ca).ok());
  ASSERT_TRUE(b_status.ok()) << b_status.ToString();
  auto t = catalog_b->LoadTable(ident);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->metadata.snapshots.size(), 2u);
  const Snapshot* head = t->metadata.CurrentSnapshot();
  EXPECT_EQ(head->SummaryValue(kFlinkOperatorId), "op-a");
  EXPECT_EQ(head->SummaryValue("total-records"), "8");  // B's rows carried over
  EXPECT_EQ(head->sequence_number, 2);
  EXPECT_EQ(a.stats().snapshots, 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sluice
