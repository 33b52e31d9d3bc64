// Checkpoint encoding and storage: round trips, retention, and refusal of corrupt files (issue 5).
#include "runtime/checkpoint.h"
#include "runtime/checkpoint_remote.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <xxhash.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <future>
#include <fstream>
#include <random>

#include "state/state_serde.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

Chunk SampleChunk() {
  std::vector<LogicalType> types = {LogicalType::BigInt(), LogicalType::String(), LogicalType::Double(),
                                    LogicalType::Array(LogicalType::Integer()),
                                    LogicalType::Row({"a", "b"}, {LogicalType::Integer(), LogicalType::String()}),
                                    LogicalType::Decimal(20, 4)};
  Chunk c(types);
  for (int i = 0; i < 50; ++i) {
    std::vector<Value> row;
    row.push_back(i % 7 == 0 ? Value::Null(types[0]) : Value::BigInt(i * 1000003LL));
    row.push_back(i % 5 == 0 ? Value::Null(types[1]) : Value::String(std::string(static_cast<size_t>(i), 'x') + "é"));
    row.push_back(Value::Double(i / 3.0));
    std::vector<Value> elems;
    for (int j = 0; j < i % 4; ++j) elems.push_back(Value::Integer(j * i));
    row.push_back(Value::List(types[3], std::move(elems)));
    row.push_back(Value::List(types[4], {Value::Integer(i), Value::String("r" + std::to_string(i))}));
    row.push_back(i % 2 ? Value::Null(types[5]) : Value::Decimal(20, 4, static_cast<__int128>(i) * 12345));
    c.AppendValues(row, i % 3 == 0 ? RowKind::kUpdateAfter : RowKind::kInsert);
  }
  return c;
}

std::string Dump(const Chunk& c) {
  std::string s;
  for (size_t r = 0; r < c.size(); ++r) {
    s += std::string(RowKindShortString(c.kind(r)));
    for (size_t k = 0; k < c.num_columns(); ++k) s += "|" + c.column(k).GetValue(r).ToString();
    s += "\n";
  }
  return s;
}

std::vector<LogicalType> TypesOf(const Chunk& c) {
  std::vector<LogicalType> t;
  for (const auto& col : c.columns()) t.push_back(col.type());
  return t;
}

TEST(StateSerdeTest, ChunkRoundTripsExactly) {
  Chunk c = SampleChunk();
  StateWriter w;
  w.PutTag("chunk");
  w.PutChunk(c);
  w.PutVarint(1ull << 40);
  StateReader r(w.data(), "test");
  r.ExpectTag("chunk");
  Chunk back;
  r.GetChunk(TypesOf(c), &back);
  EXPECT_EQ(r.GetVarint(), 1ull << 40);
  ASSERT_TRUE(r.Finish().ok()) << r.status().ToString();
  EXPECT_EQ(Dump(back), Dump(c));
}

// Strings are written as one run of bytes; rows whose bytes are adjacent in memory are copied
// together, so views that share, overlap, repeat or go backwards must each still come back as their own.
TEST(StateSerdeTest, StringRangesRoundTripWhateverTheirLayoutInMemory) {
  static const char kBytes[] = "abcdefghijklmnopqrstuvwxyz";
  const std::string_view all(kBytes, 26);
  Vector v(LogicalType::String(), 9);
  const std::vector<std::string_view> views = {all.substr(0, 3), all.substr(3, 4), all.substr(7, 0),
                                               all.substr(7, 2), all.substr(2, 5), all.substr(2, 5),
                                               all.substr(20, 6), all.substr(0, 1), all.substr(1, 25)};
  for (size_t i = 0; i < views.size(); ++i) v.SetStringView(i, views[i]);
  v.SetNull(2, true);
  for (size_t begin : {0, 1, 3}) {
    StateWriter w;
    w.PutVectorRange(v, begin, views.size() - begin);
    StateReader r(w.data(), "test");
    Vector back;
    r.GetVector(LogicalType::String(), &back);
    ASSERT_TRUE(r.Finish().ok()) << r.status().ToString();
    ASSERT_EQ(back.size(), views.size() - begin);
    for (size_t i = begin; i < views.size(); ++i) {
      EXPECT_EQ(back.IsNull(i - begin), i == 2) << i;
      if (i != 2) {
        EXPECT_EQ(back.GetString(i - begin), views[i]) << i;
      }
    }
  }
}

TEST(StateSerdeTest, TruncatedAndGarbageInputsFailCleanly) {
  Chunk c = SampleChunk();
  StateWriter w;
  w.PutChunk(c);
  const std::string bytes = w.data();
  std::mt19937_64 rng(42);
  int failures = 0;
  for (int i = 0; i < 1000; ++i) {
    std::string bad = bytes;
    switch (i % 3) {
      case 0: bad.resize(rng() % bytes.size()); break;
      case 1:
        for (int k = 0; k < 4; ++k) bad[rng() % bad.size()] = static_cast<char>(rng());
        break;
      default:
        bad.assign(rng() % 200, '\0');
        for (char& ch : bad) ch = static_cast<char>(rng());
        break;
    }
    StateReader r(bad, "fuzz");
    Chunk out;
    r.GetChunk(TypesOf(c), &out);
    Status s = r.Finish();
    if (!s.ok()) {
      ++failures;
      EXPECT_NE(s.message().find("Corrupt state of fuzz"), std::string::npos) << s.message();
    }
  }
  // Truncations and garbage are refused; a flipped byte inside a value may still decode.
  EXPECT_GT(failures, 600);
}

CheckpointData SampleCheckpoint(int64_t id) {
  CheckpointData d;
  d.id = id;
  d.timestamp_micros = 1700000000000000 + id;
  d.final = id % 2 == 0;
  StateWriter w;
  w.PutChunk(SampleChunk());
  d.operators.push_back({"TableSourceScan(table=[[default_catalog, default_database, t]])", "offsets", {}});
  d.operators.push_back({"GroupAggregate(groupBy=[a], select=[a, COUNT(*) AS c])", w.Release(), {}});
  d.operators.push_back({"Deduplicate(keep=[FirstRow], key=[k], order=[PROCTIME])", std::string(100000, 'z'), {}});
  d.operators.push_back({"Sink(table=[[default_catalog, default_database, s]])", "", {}});
  return d;
}

TEST(CheckpointTest, EncodeDecodeRoundTrip) {
  CheckpointData d = SampleCheckpoint(7);
  // Large states are stored compressed.
  EXPECT_LT(EncodeCheckpoint(d).size(), 50000u);
  auto back = DecodeCheckpoint(EncodeCheckpoint(d), "chk-7/_metadata");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->id, 7);
  EXPECT_EQ(back->timestamp_micros, d.timestamp_micros);
  EXPECT_EQ(back->final, d.final);
  ASSERT_EQ(back->operators.size(), d.operators.size());
  for (size_t i = 0; i < d.operators.size(); ++i) {
    EXPECT_EQ(back->operators[i].digest, d.operators[i].digest);
    EXPECT_EQ(back->operators[i].bytes, d.operators[i].bytes);
  }
}

// A checkpoint of an earlier format (a build whose operators wrote other state bytes) is refused with
// both versions named, not misread: the version is rewritten and the file's checksum made valid again.
TEST(CheckpointTest, EarlierFormatVersionIsRefusedByName) {
  std::string bytes = EncodeCheckpoint(SampleCheckpoint(5));
  const size_t at = std::strlen("SLUICECKPT");
  StateReader version(std::string_view(bytes).substr(at, 4), "version");
  const uint32_t current = version.GetU32();
  StateWriter older;
  older.PutU32(current - 1);
  bytes.replace(at, 4, older.data());
  bytes.resize(bytes.size() - 8);
  StateWriter sum;
  sum.PutU64(XXH64(bytes.data(), bytes.size(), 0));
  bytes += sum.data();
  auto r = DecodeCheckpoint(bytes, "chk-5/_metadata");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "Checkpoint 'chk-5/_metadata' has format version " + std::to_string(current - 1) +
                                       "; this Sluice reads version " + std::to_string(current));
}

TEST(CheckpointTest, ThousandCorruptFilesAreAllRefused) {
  const std::string good = EncodeCheckpoint(SampleCheckpoint(3));
  std::mt19937_64 rng(1234);
  for (int i = 0; i < 1000; ++i) {
    std::string bad = good;
    switch (i % 5) {
      case 0: bad.resize(rng() % good.size()); break;                          // torn write
      case 1: bad[rng() % bad.size()] ^= static_cast<char>(1 << (rng() % 8)); break;  // one bit
      case 2:
        for (int k = 0; k < 16; ++k) bad[rng() % bad.size()] = static_cast<char>(rng());
        break;
      case 3: bad += std::string(1 + rng() % 64, static_cast<char>(rng())); break;  // trailing junk
      default: {
        size_t at = rng() % bad.size();
        bad.erase(at, 1 + rng() % std::min<size_t>(32, bad.size() - at));
        break;
      }
    }
    if (bad == good) continue;
    auto r = DecodeCheckpoint(bad, "/ckpt/job-1/chk-3/_metadata");
    ASSERT_FALSE(r.ok()) << "corruption " << i << " was accepted";
    EXPECT_NE(r.status().message().find("/ckpt/job-1/chk-3/_metadata"), std::string::npos) << r.status().message();
  }
}

class CheckpointStorageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("sluice-ckpt-test-" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(CheckpointStorageTest, KeepsTheRetainedNumberAndFallsBackOverCorruptOnes) {
  CheckpointStorage storage(dir_ + "/job-1", 2);
  for (int64_t id = 1; id <= 4; ++id) {
    CheckpointData d = SampleCheckpoint(id);
    ASSERT_TRUE(storage.Write(&d).ok());
  }
  EXPECT_FALSE(fs::exists(dir_ + "/job-1/chk-2"));
  EXPECT_TRUE(fs::exists(dir_ + "/job-1/chk-3/_metadata"));
  EXPECT_TRUE(fs::exists(dir_ + "/job-1/chk-4/_metadata"));
  // A crash while writing chk-5 leaves an in-progress directory: ignored and removed.
  fs::create_directories(dir_ + "/job-1/chk-5.inprogress");
  std::vector<std::string> notes;
  auto latest = storage.Latest(&notes);
  ASSERT_TRUE(latest.ok());
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->id, 4);
  EXPECT_TRUE(notes.empty());
  EXPECT_FALSE(fs::exists(dir_ + "/job-1/chk-5.inprogress"));
  // Corrupt the newest: the previous one is used, with a note.
  {
    std::fstream f(dir_ + "/job-1/chk-4/_metadata", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(20);
    f.put('\x7f');
  }
  latest = storage.Latest(&notes);
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ((*latest)->id, 3);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("chk-4"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("previous checkpoint"), std::string::npos) << notes[0];
  // None intact: a clear error, never a silent fresh start.
  fs::resize_file(dir_ + "/job-1/chk-3/_metadata", 10);
  notes.clear();
  latest = storage.Latest(&notes);
  ASSERT_FALSE(latest.ok());
  EXPECT_NE(latest.status().message().find("No intact checkpoint"), std::string::npos) << latest.status().message();
}

TEST_F(CheckpointStorageTest, NoCheckpointsMeansAFreshStart) {
  CheckpointStorage storage(dir_ + "/job-1", 1);
  std::vector<std::string> notes;
  auto latest = storage.Latest(&notes);
  ASSERT_TRUE(latest.ok());
  EXPECT_FALSE(latest->has_value());
  auto missing = CheckpointStorage::ReadPath(dir_ + "/nope/chk-1");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("does not exist"), std::string::npos);
}

// Incremental checkpoints: an operator's state as a chain of shared files (a full snapshot, then
// deltas); later checkpoints name earlier files; retention deletes files no retained checkpoint names.
CheckpointData ChainCheckpoint(int64_t id, const std::vector<CheckpointData::StateFile>& earlier, std::string bytes,
                               bool delta) {
  CheckpointData d = SampleCheckpoint(id);
  d.operators[2].bytes.clear();
  d.operators[2].chain = earlier;
  CheckpointData::StateFile f;
  f.delta = delta;
  f.bytes = std::move(bytes);
  d.operators[2].chain.push_back(std::move(f));
  return d;
}

std::string Pattern(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(rng() % 13);  // compressible, not trivially
  return s;
}

TEST_F(CheckpointStorageTest, StateChainsAreSharedAcrossCheckpointsAndCollected) {
  CheckpointStorage storage(dir_ + "/job-1", 1);
  const std::string full = Pattern(200000, 1);
  const std::string delta2 = Pattern(5000, 2);
  const std::string delta3 = Pattern(70000, 3);
  CheckpointData c1 = ChainCheckpoint(1, {}, full, false);
  ASSERT_TRUE(storage.Write(&c1).ok());
  ASSERT_FALSE(c1.operators[2].chain[0].name.empty());
  EXPECT_EQ(c1.operators[2].chain[0].bytes, full);  // left to the caller, which reuses the buffer
  CheckpointData c2 = ChainCheckpoint(2, c1.operators[2].chain, delta2, true);
  ASSERT_TRUE(storage.Write(&c2).ok());
  CheckpointData c3 = ChainCheckpoint(3, c2.operators[2].chain, delta3, true);
  ASSERT_TRUE(storage.Write(&c3).ok());
  // chk-1 and chk-2 are gone, but their files are still named by chk-3.
  EXPECT_FALSE(fs::exists(dir_ + "/job-1/chk-2"));
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir_ + "/job-1/shared")) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 3u);
  auto back = CheckpointStorage::ReadPath(dir_ + "/job-1/chk-3");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->operators[2].chain.size(), 3u);
  EXPECT_EQ(back->operators[2].chain[0].bytes, full);
  EXPECT_FALSE(back->operators[2].chain[0].delta);
  EXPECT_EQ(back->operators[2].chain[1].bytes, delta2);
  EXPECT_TRUE(back->operators[2].chain[2].delta);
  EXPECT_EQ(back->operators[2].chain[2].bytes, delta3);
  EXPECT_EQ(back->operators[1].bytes, c3.operators[1].bytes);  // small states stay inline
  // A new full snapshot: the old chain's files are deleted once no retained checkpoint names them.
  CheckpointData c4 = ChainCheckpoint(4, {}, Pattern(100000, 4), false);
  ASSERT_TRUE(storage.Write(&c4).ok());
  files = 0;
  for (const auto& e : fs::directory_iterator(dir_ + "/job-1/shared")) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1u);
}

// A state file whose state has deferred parts (rows a RowArena hands the background thread): the
// file holds the bytes with the parts written between them, and the parts are dropped once written.
class PatternPart final : public DeferredBytes {
 public:
  PatternPart(size_t n, uint64_t seed, int* alive) : bytes_(Pattern(n, seed)), alive_(alive) { ++*alive_; }
  ~PatternPart() override { --*alive_; }
  size_t Size() const override { return bytes_.size(); }
  void WriteTo(ByteSink* sink) const override {
    // In pieces of every size, as a column writer appends.
    size_t at = 0;
    for (size_t piece = 1; at < bytes_.size(); piece = piece * 3 + 1) {
      const size_t n = std::min(piece, bytes_.size() - at);
      sink->Append(bytes_.data() + at, n);
      at += n;
    }
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
  int* alive_;
};

TEST_F(CheckpointStorageTest, DeferredPartsAreWrittenIntoTheStateFile) {
  CheckpointStorage storage(dir_ + "/job-1", 1);
  int alive = 0;
  for (size_t big : {size_t{1000}, size_t{3} << 20}) {  // a raw file, a compressed one
    auto a = std::make_shared<PatternPart>(big, 7, &alive);
    auto b = std::make_shared<PatternPart>(100, 8, &alive);
    const std::string head = Pattern(300, 9);
    const std::string expected = head.substr(0, 10) + a->bytes() + b->bytes() + head.substr(10, 290);
    CheckpointData d = ChainCheckpoint(static_cast<int64_t>(big), {}, head, false);
    d.operators[2].chain[0].deferred = {{10, a}, {10, b}};
    a.reset();
    b.reset();
    ASSERT_TRUE(storage.Write(&d).ok());
    EXPECT_EQ(alive, 0);  // dropped once written
    EXPECT_EQ(d.operators[2].chain[0].raw_size, expected.size());
    auto back = CheckpointStorage::ReadPath(dir_ + "/job-1/chk-" + std::to_string(big));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(back->operators[2].chain[0].bytes, expected);
  }
}

// A large state file is written in independent frames, which a thread waiting for the write helps
// compress (HelpWrite): the file reads back the same whoever compressed which frame.
TEST_F(CheckpointStorageTest, AHelperCompressesFramesOfTheWriteItWaitsFor) {
  CheckpointStorage storage(dir_ + "/job-1", 1);
  int alive = 0;
  auto part = std::make_shared<PatternPart>(size_t{50} << 20, 11, &alive);  // several frames
  const std::string head = Pattern(1000, 12);
  const std::string expected = head.substr(0, 500) + part->bytes() + head.substr(500);
  CheckpointData d = ChainCheckpoint(1, {}, head, false);
  d.operators[2].chain[0].deferred = {{500, part}};
  part.reset();
  storage.StartWrite();
  auto written = std::async(std::launch::async, [&] { return storage.Write(&d); });
  storage.HelpWrite();  // returns once the write has done its work
  ASSERT_TRUE(written.get().ok());
  storage.HelpWrite();  // no write runs: returns at once
  auto back = CheckpointStorage::ReadPath(dir_ + "/job-1/chk-1");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->operators[2].chain[0].bytes == expected);
  EXPECT_EQ(alive, 0);
}

// A part that abandons checkpoint `id` of `storage` halfway through its bytes, as the job does from
// its own thread at the end of a bounded job.
class AbandoningPart final : public DeferredBytes {
 public:
  AbandoningPart(size_t n, CheckpointStorage* storage, int64_t id) : bytes_(Pattern(n, 5)), storage_(storage), id_(id) {}
  size_t Size() const override { return bytes_.size(); }
  void WriteTo(ByteSink* sink) const override {
    const size_t half = bytes_.size() / 2;
    sink->Append(bytes_.data(), half);
    storage_->Abort(id_);
    sink->Append(bytes_.data() + half, bytes_.size() - half);
  }

 private:
  std::string bytes_;
  CheckpointStorage* storage_;
  int64_t id_;
};

// An abandoned checkpoint (CheckpointStorage::Abort) leaves nothing a restore could read: its Write
// stops at the next frame and returns Aborted, and the next checkpoint's retention collects the
// state file it had begun. Abandoning another id, or a write that already completed, changes nothing.
TEST_F(CheckpointStorageTest, AnAbandonedWriteLeavesNoCheckpoint) {
  CheckpointStorage storage(dir_ + "/job-1", 1);
  CheckpointData c1 = ChainCheckpoint(1, {}, Pattern(100000, 1), false);
  storage.Abort(7);
  ASSERT_TRUE(storage.Write(&c1).ok());
  storage.Abort(1);  // completed already

  // Abandoned while its state file is written (several frames), and before it starts.
  for (const bool during : {true, false}) {
    CheckpointData c2 = ChainCheckpoint(2, {}, Pattern(1000, 2), false);
    if (during) {
      c2.operators[2].chain[0].deferred = {{500, std::make_shared<AbandoningPart>(size_t{40} << 20, &storage, 2)}};
    } else {
      storage.Abort(2);
    }
    Result<int64_t> w = storage.Write(&c2);
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.status().code(), StatusCode::kAborted) << w.status().ToString();
    EXPECT_FALSE(fs::exists(dir_ + "/job-1/chk-2"));
    EXPECT_FALSE(fs::exists(dir_ + "/job-1/chk-2.inprogress"));
    std::vector<std::string> notes;
    auto latest = storage.Latest(&notes);
    ASSERT_TRUE(latest.ok() && latest->has_value()) << latest.status().ToString();
    EXPECT_EQ((*latest)->id, 1);
    EXPECT_TRUE(notes.empty());
  }

  CheckpointData c3 = ChainCheckpoint(3, {}, Pattern(100000, 3), false);
  ASSERT_TRUE(storage.Write(&c3).ok());
  std::vector<std::string> shared;
  for (const auto& e : fs::directory_iterator(dir_ + "/job-1/shared")) shared.push_back(e.path().filename().string());
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_EQ(shared[0], c3.operators[2].chain[0].name);
  auto back = CheckpointStorage::ReadPath(dir_ + "/job-1/chk-3");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->operators[2].chain[0].bytes, Pattern(100000, 3));
}

TEST_F(CheckpointStorageTest, DamagedOrMissingStateFilesAreRefusedAndTheOlderCheckpointUsed) {
  CheckpointStorage storage(dir_ + "/job-1", 2);
  CheckpointData c1 = ChainCheckpoint(1, {}, Pattern(150000, 5), false);
  ASSERT_TRUE(storage.Write(&c1).ok());
  CheckpointData c2 = ChainCheckpoint(2, c1.operators[2].chain, Pattern(9000, 6), true);
  ASSERT_TRUE(storage.Write(&c2).ok());
  const std::string delta_path = dir_ + "/job-1/shared/" + c2.operators[2].chain[1].name;
  std::string good;
  {
    std::ifstream in(delta_path, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::mt19937_64 rng(99);
  for (int i = 0; i < 300; ++i) {
    std::string bad = good;
    switch (i % 4) {
      case 0: bad.resize(rng() % good.size()); break;
      case 1: bad[rng() % bad.size()] ^= static_cast<char>(1 << (rng() % 8)); break;
      case 2: bad += std::string(1 + rng() % 64, static_cast<char>(rng())); break;
      default:
        for (int k = 0; k < 8; ++k) bad[rng() % bad.size()] = static_cast<char>(rng());
        break;
    }
    if (bad == good) continue;
    {
      std::ofstream out(delta_path, std::ios::binary | std::ios::trunc);
      out << bad;
    }
    auto r = CheckpointStorage::ReadPath(dir_ + "/job-1/chk-2");
    ASSERT_FALSE(r.ok()) << "corruption " << i << " was accepted";
    EXPECT_NE(r.status().message().find(delta_path), std::string::npos) << r.status().message();
    // The previous checkpoint (whose chain is the full snapshot alone) is used instead, with a note.
    std::vector<std::string> notes;
    auto latest = storage.Latest(&notes);
    ASSERT_TRUE(latest.ok()) << latest.status().ToString();
    ASSERT_TRUE(latest->has_value());
    EXPECT_EQ((*latest)->id, 1);
    ASSERT_EQ(notes.size(), 1u);
  }
  fs::remove(delta_path);
  auto r = CheckpointStorage::ReadPath(dir_ + "/job-1/chk-2");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("missing"), std::string::npos) << r.status().message();
}

// A job killed while it staged a checkpoint for s3:// leaves its staging directory; the next job's
// staging removes it, and never a running process's.
TEST(CheckpointStagingTest, StagingDirsOfProcessesThatNoLongerRunAreRemoved) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const fs::path tmp = fs::temp_directory_path();
  const fs::path dead = tmp / ("sluice-checkpoints-" + std::to_string(child) + "-0");
  const fs::path alive = tmp / ("sluice-checkpoints-" + std::to_string(::getppid()) + "-99");
  fs::create_directories(dead / "chk-3");
  std::ofstream(dead / "chk-3" / "_metadata") << "x";
  fs::create_directories(alive);
  auto staging = NewCheckpointStagingDir();
  ASSERT_TRUE(staging.ok()) << staging.status().ToString();
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive));
  EXPECT_TRUE(fs::is_directory(*staging));
  fs::remove_all(alive);
  fs::remove_all(*staging);
}

}  // namespace
}  // namespace sluice
