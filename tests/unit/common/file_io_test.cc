#include "common/file_io.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

namespace sluice {
namespace {

class FileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sluice_file_io_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Loc(const std::string& name) const { return "file://" + (dir_ / name).string(); }
  std::filesystem::path dir_;
  std::unique_ptr<FileIO> io_ = NewLocalFileIO();
};

TEST_F(FileIOTest, ACreatedFileIsInvisibleUntilClosed) {
  auto file = io_->Create(Loc("a/b.parquet"));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->Append("hello ").ok());
  ASSERT_TRUE((*file)->Append("lake").ok());
  EXPECT_FALSE(*io_->Exists(Loc("a/b.parquet")));
  EXPECT_TRUE(io_->ListDirectory(Loc("a"), false)->empty());  // the temporary file is hidden
  ASSERT_TRUE((*file)->Close().ok());
  EXPECT_EQ(*io_->ReadAll(Loc("a/b.parquet")), "hello lake");
  auto in = io_->OpenRead(Loc("a/b.parquet"));
  std::string bytes;
  ASSERT_TRUE((*in)->ReadAt(6, 4, &bytes).ok());
  EXPECT_EQ(bytes, "lake");
  EXPECT_FALSE((*in)->ReadAt(8, 4, &bytes).ok());
}

TEST_F(FileIOTest, AnAbortedFileLeavesNothing) {
  {
    auto file = io_->Create(Loc("x.avro"));
    ASSERT_TRUE((*file)->Append("partial").ok());
  }  // destroyed without Close
  EXPECT_FALSE(*io_->Exists(Loc("x.avro")));
  std::error_code ec;
  EXPECT_TRUE(std::filesystem::is_empty(dir_, ec));
}

TEST_F(FileIOTest, WriteAtomicallyWithoutOverwriteRefusesAnExistingFile) {
  ASSERT_TRUE(io_->WriteAtomically(Loc("v1.metadata.json"), "first", false).ok());
  Status again = io_->WriteAtomically(Loc("v1.metadata.json"), "second", false);
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find("already exists"), std::string::npos) << again.message();
  EXPECT_EQ(*io_->ReadAll(Loc("v1.metadata.json")), "first");
  ASSERT_TRUE(io_->WriteAtomically(Loc("v1.metadata.json"), "second", true).ok());
  EXPECT_EQ(*io_->ReadAll(Loc("v1.metadata.json")), "second");
}

TEST_F(FileIOTest, MissingFilesAreNamed) {
  auto in = io_->OpenRead(Loc("nope"));
  ASSERT_FALSE(in.ok());
  EXPECT_NE(in.status().message().find("nope"), std::string::npos);
  EXPECT_TRUE(io_->Delete(Loc("nope")).ok());
  EXPECT_TRUE(io_->ListDirectory(Loc("no-dir"), true)->empty());
}

TEST_F(FileIOTest, ListFilesRecursivelyListsEveryVisibleFileWithItsTime) {
  ASSERT_TRUE(io_->WriteAtomically(Loc("t/metadata/v1.metadata.json"), "{}", false).ok());
  ASSERT_TRUE(io_->WriteAtomically(Loc("t/data/p=1/a.parquet"), "abc", false).ok());
  ASSERT_TRUE(io_->WriteAtomically(Loc("t/data/.hidden/b.parquet"), "x", false).ok());
  auto open = io_->Create(Loc("t/data/c.parquet"));  // in progress: a hidden temporary file
  ASSERT_TRUE(open.ok());
  std::filesystem::last_write_time(dir_ / "t/data/p=1/a.parquet",
                                   std::filesystem::file_time_type::clock::now() - std::chrono::hours(48));
  auto files = io_->ListFilesRecursively(Loc("t"));
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].location, Loc("t/data/p=1/a.parquet"));
  EXPECT_EQ((*files)[0].size, 3u);
  EXPECT_EQ((*files)[1].location, Loc("t/metadata/v1.metadata.json"));
  EXPECT_GT((*files)[1].modified_ms - (*files)[0].modified_ms, 47LL * 3600 * 1000);
  EXPECT_TRUE(io_->ListFilesRecursively(Loc("no-dir"))->empty());
}

TEST(LocationTest, LocalPathsAndJoins) {
  EXPECT_EQ(LocalPathOf("file:///wh/db"), "/wh/db");
  EXPECT_EQ(LocalPathOf("file:/wh/db"), "/wh/db");
  EXPECT_EQ(LocalPathOf("/wh/db"), "/wh/db");
  EXPECT_EQ(JoinLocation("file:///wh/", "/db/t"), "file:///wh/db/t");
  EXPECT_EQ(JoinLocation("s3://b/wh", "db"), "s3://b/wh/db");
}

}  // namespace
}  // namespace sluice
