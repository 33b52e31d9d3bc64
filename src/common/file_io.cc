#include "common/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace sluice {
namespace {

namespace fs = std::filesystem;

Status Errno(const std::string& what, const std::string& path) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(errno));
}

// A temporary name next to `path`, hidden (leading '.') so directory listings of tables skip it, and
// unique within the process and across processes.
std::string TempPathFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  fs::path p(path);
  std::string name = "." + p.filename().string() + "." + std::to_string(::getpid()) + "-" +
                     std::to_string(counter.fetch_add(1)) + ".tmp";
  return (p.parent_path() / name).string();
}

Status WriteFully(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("Cannot write", path);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

Status EnsureParent(const std::string& path) {
  std::error_code ec;
  fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) return Status::IOError("Cannot create directory '" + parent.string() + "': " + ec.message());
  return Status::OK();
}

class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(std::string location, int fd, uint64_t size)
      : location_(std::move(location)), fd_(fd), size_(size) {}
  ~LocalRandomAccessFile() override { ::close(fd_); }
  const std::string& location() const override { return location_; }
  uint64_t size() const override { return size_; }
  Status ReadAt(uint64_t offset, size_t length, std::string* out) override {
    if (offset > size_ || length > size_ - offset) {
      return Status::IOError("Cannot read " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                             " of '" + location_ + "' (" + std::to_string(size_) + " bytes)");
    }
    out->resize(length);
    size_t done = 0;
    while (done < length) {
      ssize_t n = ::pread(fd_, out->data() + done, length - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return n == 0 ? Status::IOError("Unexpected end of '" + location_ + "'") : Errno("Cannot read", location_);
      done += static_cast<size_t>(n);
    }
    return Status::OK();
  }

 private:
  std::string location_;
  int fd_;
  uint64_t size_;
};

class LocalWritableFile final : public WritableFile {
 public:
  LocalWritableFile(std::string location, std::string path, std::string temp, int fd)
      : location_(std::move(location)), path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}
  ~LocalWritableFile() override { Abort(); }
  const std::string& location() const override { return location_; }
  uint64_t bytes_written() const override { return written_; }
  Status Append(std::string_view data) override {
    if (fd_ < 0) return Status::Internal("append to closed file '" + location_ + "'");
    RETURN_IF_ERROR(WriteFully(fd_, data, temp_));
    written_ += data.size();
    return Status::OK();
  }
  Status Close() override {
    if (fd_ < 0) return Status::Internal("close of closed file '" + location_ + "'");
    int fd = fd_;
    fd_ = -1;
    if (::fsync(fd) != 0) {
      Status st = Errno("Cannot fsync", temp_);
      ::close(fd);
      ::unlink(temp_.c_str());
      return st;
    }
    ::close(fd);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) {
      Status st = Errno("Cannot publish", path_);
      ::unlink(temp_.c_str());
      return st;
    }
    return Status::OK();
  }
  void Abort() override {
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
    ::unlink(temp_.c_str());
  }

 private:
  std::string location_, path_, temp_;
  int fd_;
  uint64_t written_ = 0;
};

class LocalFileIO final : public FileIO {
 public:
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& location) override {
    std::string path = LocalPathOf(location);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return Status::NotFound("File '" + location + "' does not exist");
      return Errno("Cannot open", location);
    }
    off_t size = ::lseek(fd, 0, SEEK_END);
    if (size < 0) {
      Status st = Errno("Cannot size", location);
      ::close(fd);
      return st;
    }
    return std::unique_ptr<RandomAccessFile>(new LocalRandomAccessFile(location, fd, static_cast<uint64_t>(size)));
  }

  Result<std::unique_ptr<WritableFile>> Create(const std::string& location) override {
    std::string path = LocalPathOf(location);
    RETURN_IF_ERROR(EnsureParent(path));
    std::string temp = TempPathFor(path);
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Errno("Cannot create", temp);
    return std::unique_ptr<WritableFile>(new LocalWritableFile(location, path, temp, fd));
  }

  Status WriteAtomically(const std::string& location, std::string_view data, bool overwrite) override {
    std::string path = LocalPathOf(location);
    RETURN_IF_ERROR(EnsureParent(path));
    std::string temp = TempPathFor(path);
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Errno("Cannot create", temp);
    Status st = WriteFully(fd, data, temp);
    if (st.ok() && ::fsync(fd) != 0) st = Errno("Cannot fsync", temp);
    ::close(fd);
    if (st.ok()) {
      // link() fails with EEXIST when the target exists: an atomic create-if-absent, which rename()
      // is not (it replaces).
      int rc = overwrite ? ::rename(temp.c_str(), path.c_str()) : ::link(temp.c_str(), path.c_str());
      if (rc != 0) {
        st = errno == EEXIST ? Status::IOError("'" + location + "' already exists") : Errno("Cannot publish", location);
      }
    }
    ::unlink(temp.c_str());
    return st;
  }

  Result<bool> Exists(const std::string& location) override {
    std::error_code ec;
    bool exists = fs::exists(LocalPathOf(location), ec);
    if (ec) return Status::IOError("Cannot check '" + location + "': " + ec.message());
    return exists;
  }

  Status Delete(const std::string& location) override {
    std::string path = LocalPathOf(location);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Errno("Cannot delete", location);
    return Status::OK();
  }

  Status DeleteRecursively(const std::string& location) override {
    std::error_code ec;
    fs::remove_all(LocalPathOf(location), ec);
    if (ec) return Status::IOError("Cannot delete '" + location + "': " + ec.message());
    return Status::OK();
  }

  Result<std::vector<std::string>> ListDirectory(const std::string& location, bool directories) override {
    std::vector<std::string> names;
    std::error_code ec;
    std::string path = LocalPathOf(location);
    if (!fs::is_directory(path, ec)) return names;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (name.empty() || name[0] == '.') continue;  // temporary files of writers in progress
      if (it->is_directory(ec) == directories) names.push_back(std::move(name));
    }
    if (ec) return Status::IOError("Cannot list '" + location + "': " + ec.message());
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<std::vector<FileInfo>> ListFilesRecursively(const std::string& location) override {
    std::vector<FileInfo> out;
    std::error_code ec;
    const std::string root = LocalPathOf(location);
    if (!fs::is_directory(root, ec)) return out;
    fs::recursive_directory_iterator it(root, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.empty() || name[0] == '.') {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec)) continue;
      struct stat st;
      if (::stat(it->path().c_str(), &st) != 0) {
        if (errno == ENOENT) continue;  // deleted while listed
        return Errno("Cannot stat", it->path().string());
      }
      const std::string relative = it->path().lexically_relative(root).string();
      out.push_back({JoinLocation(location, relative), static_cast<uint64_t>(st.st_size),
                     static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000});
    }
    if (ec) return Status::IOError("Cannot list '" + location + "': " + ec.message());
    std::sort(out.begin(), out.end(), [](const FileInfo& a, const FileInfo& b) { return a.location < b.location; });
    return out;
  }

  Status CreateDirectories(const std::string& location) override {
    std::error_code ec;
    fs::create_directories(LocalPathOf(location), ec);
    if (ec) return Status::IOError("Cannot create directory '" + location + "': " + ec.message());
    return Status::OK();
  }
};

}  // namespace

Result<std::vector<FileInfo>> FileIO::ListFilesRecursively(const std::string& location) {
  return Status::NotSupported("listing the files under '" + location + "' with their modification times");
}

Result<std::string> FileIO::ReadAll(const std::string& location) {
  ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, OpenRead(location));
  std::string out;
  RETURN_IF_ERROR(file->ReadAt(0, file->size(), &out));
  return out;
}

std::unique_ptr<FileIO> NewLocalFileIO() { return std::make_unique<LocalFileIO>(); }

std::string LocalPathOf(const std::string& location) {
  constexpr std::string_view kTriple = "file://";
  if (location.rfind(kTriple, 0) == 0) {
    std::string rest = location.substr(kTriple.size());
    return rest;  // "file:///abs" -> "/abs"; "file://host/x" keeps "host/x" (no hosts locally)
  }
  if (location.rfind("file:", 0) == 0) return location.substr(5);
  return location;
}

std::string JoinLocation(const std::string& base, const std::string& part) {
  if (base.empty()) return part;
  std::string out = base;
  while (!out.empty() && out.back() == '/') out.pop_back();
  size_t start = 0;
  while (start < part.size() && part[start] == '/') ++start;
  return out + "/" + part.substr(start);
}

}  // namespace sluice
