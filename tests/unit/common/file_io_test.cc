#include "common/file_io.h"

#include <gtest/gtest.h>

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

TEST(LocationTest, LocalPathsAndJoins) {
  EXPECT_EQ(LocalPathOf("file:///wh/db"), "/wh/db");
  EXPECT_EQ(LocalPathOf("file:/wh/db"), "/wh/db");
  EXPECT_EQ(LocalPathOf("/wh/db"), "/wh/db");
  EXPECT_EQ(JoinLocation("file:///wh/", "/db/t"), "file:///wh/db/t");
  EXPECT_EQ(JoinLocation("s3://b/wh", "db"), "s3://b/wh/db");
}

}  // namespace
}  // namespace sluice
