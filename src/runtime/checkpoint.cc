#include "runtime/checkpoint.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "runtime/checkpoint_format.h"
#include "runtime/checkpoint_remote.h"
#include "state/state_serde.h"

namespace sluice {

namespace fs = std::filesystem;
using checkpoint_format::kCompressAbove;
using checkpoint_format::kRaw;
using checkpoint_format::kStateFileLevel;
using checkpoint_format::kZstd;
using checkpoint_format::Unpack;
using checkpoint_format::ValidStateFileName;

namespace {

constexpr char kMetadataFile[] = "_metadata";
constexpr char kChkPrefix[] = "chk-";
constexpr char kInProgressSuffix[] = ".inprogress";
constexpr char kSharedDir[] = "shared";
constexpr char kTmpSuffix[] = ".tmp";

Status ErrnoStatus(const std::string& what, const std::string& path) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(errno));
}

Status FsyncPath(const std::string& path, bool directory) {
  int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("Cannot open for fsync", path);
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  if (rc != 0) {
    errno = saved;
    return ErrnoStatus("Cannot fsync", path);
  }
  return Status::OK();
}

// chk-<digits> → id; anything else → -1.
int64_t ParseChkName(const std::string& name) {
  if (name.rfind(kChkPrefix, 0) != 0) return -1;
  std::string digits = name.substr(std::strlen(kChkPrefix));
  if (digits.empty() || digits.size() > 18) return -1;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
  }
  return std::stoll(digits);
}

Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("Cannot read checkpoint file '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes all of `data` to `fd`.
Status WriteAll(int fd, std::string_view data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoStatus("Cannot write checkpoint file", path);
    done += static_cast<size_t>(n);
  }
  return Status::OK();
}

// Fsyncs and closes `fd` (closed on error too).
Status SyncAndClose(int fd, const std::string& path) {
  if (::fsync(fd) != 0) {
    int saved = errno;
    ::close(fd);
    errno = saved;
    return ErrnoStatus("Cannot fsync checkpoint file", path);
  }
  ::close(fd);
  return Status::OK();
}

// A state file on its way to disk. Where the file system allows it, the file is opened with O_DIRECT
// and the bytes go from an aligned buffer straight to the device: the write neither copies them into
// the page cache nor allocates page-cache pages, which would compete with the job's own page faults
// for the kernel's page lists while the job runs, and the fsync has little left to flush. The last
// block is padded and the file then cut to its size. A file system that refuses O_DIRECT (tmpfs, at
// open or at the first write) gets the same bytes through the page cache.
class FileOut {
 public:
  static constexpr size_t kAlign = 4096;
  static constexpr size_t kBuffer = size_t{4} << 20;

  FileOut() = default;
  FileOut(const FileOut&) = delete;
  FileOut& operator=(const FileOut&) = delete;
  ~FileOut() {
    if (fd_ >= 0) ::close(fd_);
  }

  Status Open(const std::string& path) {
    if (fd_ >= 0) ::close(std::exchange(fd_, -1));
    path_ = path;
    size_ = 0;
    used_ = 0;
    written_direct_ = 0;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_DIRECT, 0644);
    direct_ = fd_ >= 0;
    if (fd_ < 0 && errno == EINVAL) fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) return ErrnoStatus("Cannot create checkpoint file", path);
    if (direct_ && buffer_ == nullptr) {
      buffer_.reset(static_cast<char*>(std::aligned_alloc(kAlign, kBuffer)));
      if (buffer_ == nullptr) return Buffered();
    }
    return Status::OK();
  }
  Status Append(std::string_view bytes) {
    size_ += bytes.size();
    if (!direct_) return WriteAll(fd_, bytes, path_);
    while (!bytes.empty()) {
      const size_t take = std::min(bytes.size(), kBuffer - used_);
      std::memcpy(buffer_.get() + used_, bytes.data(), take);
      used_ += take;
      bytes.remove_prefix(take);
      if (used_ == kBuffer) RETURN_IF_ERROR(FlushBuffer(kBuffer));
    }
    return Status::OK();
  }
  // Writes what is buffered, fsyncs and closes the file.
  Status Close() {
    if (direct_ && used_ > 0) {
      const size_t padded = (used_ + kAlign - 1) / kAlign * kAlign;
      std::memset(buffer_.get() + used_, 0, padded - used_);
      RETURN_IF_ERROR(FlushBuffer(padded));
    }
    if (::ftruncate(fd_, static_cast<off_t>(size_)) != 0) return ErrnoStatus("Cannot truncate checkpoint file", path_);
    const int fd = std::exchange(fd_, -1);
    return SyncAndClose(fd, path_);
  }

 private:
  // Writes the first `n` buffered bytes (n a multiple of kAlign, all of them real but for padding).
  Status FlushBuffer(size_t n) {
    const size_t real = std::min(n, used_);
    used_ = 0;
    size_t done = 0;
    while (done < n) {
      const ssize_t w = ::write(fd_, buffer_.get() + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0 && errno == EINVAL && done == 0 && written_direct_ == 0) {
        // O_DIRECT accepted at open but not for writes: go through the page cache.
        RETURN_IF_ERROR(Buffered());
        return WriteAll(fd_, std::string_view(buffer_.get(), real), path_);
      }
      if (w <= 0) return ErrnoStatus("Cannot write checkpoint file", path_);
      done += static_cast<size_t>(w);
      if (done % kAlign != 0 && done < n) {
        // A short write that leaves the offset unaligned: the rest through the page cache.
        RETURN_IF_ERROR(Buffered());
        return WriteAll(fd_, std::string_view(buffer_.get() + done, real > done ? real - done : 0), path_);
      }
    }
    written_direct_ += n;
    return Status::OK();
  }
  Status Buffered() {
    direct_ = false;
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT) != 0) {
      return ErrnoStatus("Cannot write checkpoint file", path_);
    }
    return Status::OK();
  }

  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> buffer_;  // kBuffer bytes aligned to kAlign, kept for the next file
  std::string path_;
  int fd_ = -1;
  bool direct_ = false;
  size_t used_ = 0;              // bytes in buffer_
  uint64_t size_ = 0;            // bytes appended
  uint64_t written_direct_ = 0;  // bytes written with O_DIRECT
};

// Writes `bytes` to `path` and fsyncs it.
Status WriteFileSynced(const std::string& path, std::string_view a, std::string_view b, const char* failpoint) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("Cannot create checkpoint file", path);
  for (std::string_view part : {a, b}) {
    Status st = WriteAll(fd, part, path);
    if (!st.ok()) {
      ::close(fd);
      return st;
    }
  }
  if (failpoint != nullptr) Failpoint(failpoint);
  return SyncAndClose(fd, path);
}

// Compression of shared state files in independent zstd frames of kFrameBytes raw bytes each, so
// that another thread can compress some of them while the writer goes on: the job's task thread, when
// it has nothing left to do but wait for the checkpoint being written (CheckpointStorage::HelpWrite).
// The writer queues each full frame and writes the compressed frames in order; with no helper it
// compresses each frame as soon as it is queued, with one it keeps a few queued for the helper.
constexpr size_t kFrameBytes = size_t{8} << 20;
constexpr size_t kHelpedQueue = 4;

}  // namespace

struct CheckpointStorage::Frames {
  struct Frame {
    enum class State : uint8_t { kQueued, kTaken, kDone } state = State::kQueued;
    std::string raw;
    std::string packed;
    size_t error = 0;  // a zstd error code
  };
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::shared_ptr<Frame>> queue;  // in file order
  int helpers = 0;
  bool writing = false;  // a Write runs (or was started: StartWrite)
  std::atomic<int64_t> aborted{-1};  // the id of a checkpoint to abandon (Abort)
  int64_t current = -1;              // the id of the checkpoint Write writes (its thread's)

  // On the writing thread: whether the checkpoint being written was abandoned.
  bool Abandoned() const { return aborted.load(std::memory_order_relaxed) == current; }

  // Called with `lock` held on mu: compresses the oldest frame nobody compresses yet with `cctx`
  // (unlocking meanwhile) and returns true; false when there is none.
  bool CompressOne(std::unique_lock<std::mutex>& lock, ZSTD_CCtx* cctx);
};

namespace {

ZSTD_CCtx* NewFrameContext() {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  if (c != nullptr) ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, kStateFileLevel);
  return c;
}

Status Abandoned(const std::string& path) {
  return Status::Aborted("The checkpoint writing '" + path + "' was abandoned");
}

void CompressFrame(ZSTD_CCtx* cctx, CheckpointStorage::Frames::Frame* f) {
  f->packed.resize(ZSTD_compressBound(f->raw.size()));
  const size_t n = ZSTD_compress2(cctx, f->packed.data(), f->packed.size(), f->raw.data(), f->raw.size());
  if (ZSTD_isError(n)) {
    f->error = n;
    return;
  }
  f->packed.resize(n);
}

}  // namespace

bool CheckpointStorage::Frames::CompressOne(std::unique_lock<std::mutex>& lock, ZSTD_CCtx* cctx) {
  std::shared_ptr<Frame> todo;
  for (const auto& f : queue) {
    if (f->state == Frame::State::kQueued) {
      todo = f;
      break;
    }
  }
  if (todo == nullptr) return false;
  todo->state = Frame::State::kTaken;
  lock.unlock();
  CompressFrame(cctx, todo.get());
  lock.lock();
  todo->state = Frame::State::kDone;
  cv.notify_all();
  return true;
}

namespace {

// Writes a shared state file and fsyncs it: a head (the codec and the state's size) and the state,
// compressed when large. The state is an operator's bytes with its deferred parts (rows read from
// the operator's buffers, state_serde.h) between them; everything streams through frame-sized
// buffers straight into the file (no whole copy of a state of hundreds of MB), and the checksum is
// taken as the bytes go out.
class StateFileWriter {
 public:
  explicit StateFileWriter(CheckpointStorage::Frames* frames) : frames_(frames), cctx_(NewFrameContext()) {
    stage_.reserve(kStage);
  }
  ~StateFileWriter() { ZSTD_freeCCtx(cctx_); }
  StateFileWriter(const StateFileWriter&) = delete;
  StateFileWriter& operator=(const StateFileWriter&) = delete;

  // Writes `bytes` with `deferred` inserted; sets the state's size, the file's checksum and size.
  Status Write(const std::string& path, std::string_view bytes, const std::vector<DeferredPart>& deferred,
               uint64_t* raw_size, uint64_t* checksum, uint64_t* file_size) {
    if (cctx_ == nullptr) return Status::IOError("Cannot compress checkpoint file '" + path + "': out of memory");
    *raw_size = OutputSize(bytes, deferred);
    RETURN_IF_ERROR(out_.Open(path));
    RETURN_IF_ERROR(WriteBody(&out_, path, bytes, deferred, *raw_size, checksum, file_size));
    return out_.Close();
  }

 private:
  using Frame = CheckpointStorage::Frames::Frame;
  // Uncompressed files: appends smaller than this are gathered before they are written.
  static constexpr size_t kStage = 256 << 10;

  // The state's bytes on their way into the file: compressed frame by frame (or not), written,
  // checksummed. The first error sticks and makes later appends no-ops.
  class FileSink final : public ByteSink {
   public:
    FileSink(StateFileWriter* w, FileOut* out, const std::string& path, bool compress)
        : w_(w), out_(out), path_(path), compress_(compress), h_(XXH64_createState(), XXH64_freeState) {
      XXH64_reset(h_.get(), 0);
      w_->stage_.clear();
    }
    void Append(const void* data, size_t n) override {
      if (n == 0 || !status_.ok()) return;
      appended_ += n;
      if (compress_) {
        const char* p = static_cast<const char*>(data);
        while (n > 0) {
          if (frame_ == nullptr) frame_ = w_->NewFrame();
          const size_t take = std::min(n, kFrameBytes - frame_->raw.size());
          frame_->raw.append(p, take);
          p += take;
          n -= take;
          if (frame_->raw.size() == kFrameBytes) Submit();
        }
        return;
      }
      if (n < kStage / 4) {
        if (w_->stage_.size() + n > kStage) Flush();
        w_->stage_.append(static_cast<const char*>(data), n);
        return;
      }
      Flush();
      Emit(std::string_view(static_cast<const char*>(data), n));
    }
    // The codec head, written as is.
    void Head(std::string_view head) { Emit(head); }
    Status Finish(uint64_t expected, uint64_t* checksum, uint64_t* file_size) {
      if (compress_) {
        if (frame_ != nullptr && !frame_->raw.empty()) Submit();
        Drain(/*all=*/true);
      } else {
        Flush();
      }
      if (status_.ok() && appended_ != expected) {
        status_ = Status::Internal("Checkpoint file '" + path_ + "': the state wrote " + std::to_string(appended_) +
                                   " bytes, not " + std::to_string(expected));
      }
      *checksum = XXH64_digest(h_.get());
      *file_size = size_;
      return status_;
    }

   private:
    void Flush() {
      if (w_->stage_.empty()) return;
      Emit(w_->stage_);
      w_->stage_.clear();
    }
    void Submit() {
      if (status_.ok() && w_->frames_->Abandoned()) status_ = Abandoned(path_);
      if (!status_.ok()) {  // nothing more is compressed or written
        frame_->raw.clear();
        return;
      }
      {
        std::lock_guard<std::mutex> lock(w_->frames_->mu);
        w_->frames_->queue.push_back(std::move(frame_));
      }
      w_->frames_->cv.notify_all();
      frame_ = nullptr;
      Drain(/*all=*/false);
    }
    // Writes the compressed frames at the head of the queue; compresses queued frames on this thread
    // until at most a helper's share of them is left (none without a helper, or `all`).
    void Drain(bool all) {
      CheckpointStorage::Frames& q = *w_->frames_;
      std::unique_lock<std::mutex> lock(q.mu);
      while (!q.queue.empty()) {
        std::shared_ptr<Frame> front = q.queue.front();
        if (front->state == Frame::State::kDone) {
          q.queue.pop_front();
          lock.unlock();
          if (front->error != 0) {
            if (status_.ok()) {
              status_ = Status::IOError("Cannot compress checkpoint file '" + path_ + "': " +
                                        ZSTD_getErrorName(front->error));
            }
          } else {
            Emit(front->packed);
          }
          w_->Recycle(std::move(front));
          lock.lock();
          continue;
        }
        if (!all && q.queue.size() <= (q.helpers > 0 ? kHelpedQueue : 0)) return;
        // Compress the oldest frame nobody compresses yet; when a helper has them all, wait.
        if (!q.CompressOne(lock, w_->cctx_)) q.cv.wait(lock);
      }
    }
    void Emit(std::string_view bytes) {
      if (status_.ok() && w_->frames_->Abandoned()) status_ = Abandoned(path_);
      if (bytes.empty() || !status_.ok()) return;
      XXH64_update(h_.get(), bytes.data(), bytes.size());
      size_ += bytes.size();
      status_ = out_->Append(bytes);
    }

    StateFileWriter* w_;
    FileOut* out_;
    const std::string& path_;
    bool compress_;
    std::unique_ptr<XXH64_state_t, XXH_errorcode (*)(XXH64_state_t*)> h_;
    std::shared_ptr<Frame> frame_;  // being filled
    uint64_t appended_ = 0;
    uint64_t size_ = 0;
    Status status_;
  };

  std::shared_ptr<Frame> NewFrame() {
    std::shared_ptr<Frame> f;
    if (spare_.empty()) {
      f = std::make_shared<Frame>();
      f->raw.reserve(kFrameBytes);
    } else {
      f = std::move(spare_.back());
      spare_.pop_back();
      f->raw.clear();
      f->state = Frame::State::kQueued;
      f->error = 0;
    }
    return f;
  }
  // Frame buffers are reused, so a large state does not map fresh memory frame after frame.
  void Recycle(std::shared_ptr<Frame> f) {
    if (spare_.size() < kHelpedQueue + 2) spare_.push_back(std::move(f));
  }

  Status WriteBody(FileOut* out, const std::string& path, std::string_view bytes, const std::vector<DeferredPart>& deferred,
                   uint64_t raw_size, uint64_t* checksum, uint64_t* file_size) {
    const bool compress = raw_size >= kCompressAbove;
    StateWriter head;
    head.PutU8(compress ? kZstd : kRaw);
    head.PutVarint(raw_size);
    FileSink sink(this, out, path, compress);
    sink.Head(head.data());
    WriteOutput(bytes, deferred, &sink);
    return sink.Finish(raw_size, checksum, file_size);
  }

  CheckpointStorage::Frames* frames_;
  ZSTD_CCtx* cctx_;
  FileOut out_;
  std::string stage_;
  std::vector<std::shared_ptr<Frame>> spare_;
};

}  // namespace

CheckpointStorage::CheckpointStorage(std::string job_dir, int num_retained)
    : dir_(std::move(job_dir)), num_retained_(std::max(1, num_retained)), frames_(std::make_unique<Frames>()) {
  if (IsRemoteCheckpointLocation(dir_)) {
    remote_ = dir_;
    remote_io_ = CheckpointFileIO(remote_);
    Result<std::string> staging = NewCheckpointStagingDir();
    // Without a staging directory the first write reports the failure to create it.
    dir_ = staging.ok() ? *staging : (fs::temp_directory_path() / "sluice-checkpoints-unavailable").string();
  }
}

CheckpointStorage::~CheckpointStorage() {
  if (!remote_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

Result<int64_t> CheckpointStorage::Write(CheckpointData* data) {
  ASSIGN_OR_RETURN(int64_t written, WriteLocal(data));
  if (remote_io_) {
    Status pushed = PushCheckpoint(remote_io_.get(), dir_, remote_, data->id);
    if (!pushed.ok()) return pushed.WithContext("Cannot store checkpoint " + std::to_string(data->id) + " in '" + remote_ + "'");
  }
  return written;
}

void CheckpointStorage::StartWrite() {
  std::lock_guard<std::mutex> lock(frames_->mu);
  frames_->writing = true;
}

void CheckpointStorage::Abort(int64_t id) {
  {
    std::lock_guard<std::mutex> lock(frames_->mu);
    frames_->aborted.store(id, std::memory_order_relaxed);
  }
  frames_->cv.notify_all();
}

void CheckpointStorage::HelpWrite(std::chrono::steady_clock::time_point deadline) {
  ZSTD_CCtx* cctx = NewFrameContext();
  if (cctx == nullptr) return;  // the writer compresses everything itself
  Frames& q = *frames_;
  std::unique_lock<std::mutex> lock(q.mu);
  ++q.helpers;
  q.cv.notify_all();
  while (q.writing && std::chrono::steady_clock::now() < deadline) {
    if (!q.CompressOne(lock, cctx)) q.cv.wait_until(lock, deadline);
  }
  --q.helpers;
  lock.unlock();
  ZSTD_freeCCtx(cctx);
}

namespace {

// Retention after checkpoint `written` completed in `dir`: the newest `num_retained` complete
// checkpoints stay, older ones are deleted, and so are the shared state files none of the kept ones
// names (a kept checkpoint whose _metadata cannot be read names none: restore skips it).
void RemoveUnretained(const std::string& dir, int num_retained, const CheckpointData& written) {
  std::error_code ec;
  const std::string shared = (fs::path(dir) / kSharedDir).string();
  std::vector<int64_t> ids;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    int64_t id = ParseChkName(entry.path().filename().string());
    if (id >= 0) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  std::set<std::string> referenced;
  for (size_t i = 0; i < ids.size(); ++i) {
    const fs::path chk = fs::path(dir) / (kChkPrefix + std::to_string(ids[i]));
    if (i + static_cast<size_t>(num_retained) < ids.size()) {
      fs::remove_all(chk, ec);
      continue;
    }
    if (ids[i] == written.id) {
      for (const auto& op : written.operators) {
        for (const auto& f : op.chain) referenced.insert(f.name);
      }
      continue;
    }
    auto meta = ReadWholeFile((chk / kMetadataFile).string());
    if (!meta.ok()) continue;
    auto decoded = DecodeCheckpoint(*meta, (chk / kMetadataFile).string());
    if (!decoded.ok()) continue;  // unreadable: restore skips it, so its files need not be kept
    for (const auto& op : decoded->operators) {
      for (const auto& f : op.chain) referenced.insert(f.name);
    }
  }
  if (fs::is_directory(shared, ec)) {
    for (const auto& entry : fs::directory_iterator(shared, ec)) {
      if (referenced.count(entry.path().filename().string()) == 0) fs::remove(entry.path(), ec);
    }
  }
}

}  // namespace

Result<int64_t> CheckpointStorage::WriteLocal(CheckpointData* data) {
  StartWrite();
  // However Write ends, a helper waiting for frames stops.
  struct EndWrite {
    Frames* q;
    ~EndWrite() {
      {
        std::lock_guard<std::mutex> lock(q->mu);
        q->writing = false;
      }
      q->cv.notify_all();
    }
  } end_write{frames_.get()};
  frames_->current = data->id;
  if (FailpointReached("checkpoint.stall")) {
    // Test hook: the write hangs until the job abandons it ('execution.checkpointing.timeout').
    std::unique_lock<std::mutex> lock(frames_->mu);
    frames_->cv.wait(lock, [this] { return frames_->Abandoned(); });
  }
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::IOError("Cannot create checkpoint directory '" + dir_ + "': " + ec.message());
  int64_t written = 0;
  // The new chain files first: a checkpoint's _metadata only ever names files that are durable.
  const std::string shared = (fs::path(dir_) / kSharedDir).string();
  bool wrote_shared = false;
  std::optional<StateFileWriter> file_writer;
  for (size_t i = 0; i < data->operators.size(); ++i) {
    for (auto& f : data->operators[i].chain) {
      if (!f.name.empty()) continue;
      if (frames_->Abandoned()) return Abandoned(shared);
      if (!wrote_shared) {
        fs::create_directories(shared, ec);
        if (ec) return Status::IOError("Cannot create checkpoint directory '" + shared + "': " + ec.message());
        wrote_shared = true;
        file_writer.emplace(frames_.get());
      }
      // Written under a temporary name first: the file's name carries its checksum.
      const std::string tmp = (fs::path(shared) / ("op" + std::to_string(i + 1) + "-chk" + std::to_string(data->id) +
                                                   kTmpSuffix)).string();
      RETURN_IF_ERROR(file_writer->Write(tmp, f.bytes, f.deferred, &f.raw_size, &f.checksum, &f.file_size));
      f.deferred.clear();  // lets the operators' buffers go
      char hex[17];
      std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(f.checksum));
      f.name = "op" + std::to_string(i + 1) + "-chk" + std::to_string(data->id) + (f.delta ? "-delta-" : "-full-") + hex;
      const std::string path = (fs::path(shared) / f.name).string();
      if (::rename(tmp.c_str(), path.c_str()) != 0) return ErrnoStatus("Cannot rename checkpoint file", tmp);
      written += static_cast<int64_t>(f.file_size);
    }
  }
  if (wrote_shared) RETURN_IF_ERROR(FsyncPath(shared, true));
  const std::string name = kChkPrefix + std::to_string(data->id);
  // The last moment to abandon it: once _metadata is written, the checkpoint completes.
  if (frames_->Abandoned()) return Abandoned((fs::path(dir_) / name).string());
  const std::string tmp_dir = (fs::path(dir_) / (name + kInProgressSuffix)).string();
  const std::string final_dir = (fs::path(dir_) / name).string();
  fs::remove_all(tmp_dir, ec);
  fs::create_directories(tmp_dir, ec);
  if (ec) return Status::IOError("Cannot create '" + tmp_dir + "': " + ec.message());
  const std::string bytes = EncodeCheckpoint(*data);
  const std::string file = (fs::path(tmp_dir) / kMetadataFile).string();
  RETURN_IF_ERROR(WriteFileSynced(file, bytes, std::string_view(), "checkpoint.before-sync"));
  Failpoint("checkpoint.after-sync");
  fs::remove_all(final_dir, ec);
  if (::rename(tmp_dir.c_str(), final_dir.c_str()) != 0) return ErrnoStatus("Cannot rename checkpoint", tmp_dir);
  RETURN_IF_ERROR(FsyncPath(dir_, true));
  written += static_cast<int64_t>(bytes.size());
  RemoveUnretained(dir_, num_retained_, *data);
  return written;
}

Result<CheckpointData> CheckpointStorage::ReadPath(const std::string& path) {
  std::error_code ec;
  if (IsRemoteCheckpointLocation(path)) {
    // s3://.../<job>/chk-<id>[/_metadata]: fetch the job directory, read the local copy.
    std::string chk = path;
    while (!chk.empty() && chk.back() == '/') chk.pop_back();
    if (chk.size() > 10 && chk.compare(chk.size() - 10, 10, "/_metadata") == 0) chk.resize(chk.size() - 10);
    const size_t slash = chk.rfind('/');
    ASSIGN_OR_RETURN(std::string staging, NewCheckpointStagingDir());
    std::shared_ptr<FileIO> io = CheckpointFileIO(path);
    Status pulled = PullCheckpoints(io.get(), chk.substr(0, slash), staging);
    Result<CheckpointData> data =
        pulled.ok() ? ReadPath((fs::path(staging) / chk.substr(slash + 1)).string()) : Result<CheckpointData>(pulled);
    fs::remove_all(staging, ec);
    if (!data.ok()) return data.status().WithContext("Checkpoint '" + path + "'");
    return data;
  }
  std::string file = path;
  if (fs::is_directory(path, ec)) file = (fs::path(path) / kMetadataFile).string();
  if (!fs::exists(file, ec)) return Status::NotFound("Checkpoint '" + path + "' does not exist (no " + kMetadataFile + ")");
  ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(file));
  ASSIGN_OR_RETURN(CheckpointData data, DecodeCheckpoint(bytes, file));
  // Chain files live in <job>/shared/, next to the chk-<id> directory.
  const fs::path shared = fs::path(file).parent_path().parent_path() / kSharedDir;
  for (auto& op : data.operators) {
    for (auto& f : op.chain) {
      const std::string p = (shared / f.name).string();
      if (!fs::exists(p, ec)) {
        return Status::IOError("Checkpoint '" + file + "' names the state file '" + p + "', which is missing");
      }
      ASSIGN_OR_RETURN(std::string content, ReadWholeFile(p));
      if (content.size() != f.file_size || XXH64(content.data(), content.size(), 0) != f.checksum) {
        return Status::IOError("Checkpoint state file '" + p + "' is corrupt: " +
                               (content.size() != f.file_size ? "size " + std::to_string(content.size()) +
                                                                    ", expected " + std::to_string(f.file_size)
                                                              : std::string("checksum mismatch")) +
                               " (torn or damaged file)");
      }
      StateReader r(content, "checkpoint state file '" + p + "'");
      const uint8_t codec = r.GetU8();
      const uint64_t raw_size = r.GetVarint();
      RETURN_IF_ERROR(r.status());
      if (raw_size != f.raw_size ||
          !Unpack(codec, raw_size, std::string_view(content).substr(content.size() - r.remaining()), &f.bytes)) {
        return Status::IOError("Checkpoint state file '" + p + "' does not decode");
      }
    }
  }
  return data;
}

Result<std::optional<CheckpointData>> CheckpointStorage::Latest(std::vector<std::string>* notes) {
  std::error_code ec;
  if (remote_io_) {
    Status pulled = PullCheckpoints(remote_io_.get(), remote_, dir_);
    if (!pulled.ok()) return pulled.WithContext("Cannot read the checkpoints in '" + remote_ + "'");
  }
  if (!fs::is_directory(dir_, ec)) return std::optional<CheckpointData>();
  std::vector<int64_t> ids;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > std::strlen(kInProgressSuffix) &&
        name.compare(name.size() - std::strlen(kInProgressSuffix), std::string::npos, kInProgressSuffix) == 0) {
      fs::remove_all(entry.path(), ec);  // a checkpoint a crash interrupted before it completed
      continue;
    }
    int64_t id = ParseChkName(name);
    if (id >= 0) ids.push_back(id);
  }
  std::sort(ids.rbegin(), ids.rend());
  std::string last_error;
  for (int64_t id : ids) {
    const std::string path = (fs::path(dir_) / (kChkPrefix + std::to_string(id))).string();
    auto data = ReadPath(path);
    if (data.ok()) {
      if (data->id != id) {
        last_error = "Checkpoint '" + path + "' holds checkpoint " + std::to_string(data->id);
        notes->push_back(last_error + "; skipped");
        continue;
      }
      return std::optional<CheckpointData>(std::move(data).value());
    }
    last_error = data.status().message();
    notes->push_back(last_error + "; falling back to the previous checkpoint");
  }
  if (!ids.empty()) {
    return Status::IOError("No intact checkpoint in '" + dir_ + "' (" + std::to_string(ids.size()) +
                           " found, none readable; last error: " + last_error +
                           "). Remove the directory to start the job from scratch.");
  }
  return std::optional<CheckpointData>();
}

}  // namespace sluice
