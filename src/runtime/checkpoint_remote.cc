#include "runtime/checkpoint_remote.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "connectors/s3/s3_client.h"
#include "connectors/s3/s3_file_io.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr char kMetadataFile[] = "_metadata";
constexpr char kSharedDir[] = "shared";
constexpr size_t kChunk = size_t{8} << 20;

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

bool IsChkName(const std::string& name) {
  if (name.rfind("chk-", 0) != 0 || name.size() == 4) return false;
  for (size_t i = 4; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

// Streams a local file into a new remote object (multipart when large).
Status Upload(FileIO* io, const std::string& path, const std::string& location) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("Cannot read checkpoint file '" + path + "'");
  ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> out, io->Create(location));
  std::string buf(kChunk, '\0');
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    std::streamsize n = in.gcount();
    if (n > 0) RETURN_IF_ERROR(out->Append(std::string_view(buf.data(), static_cast<size_t>(n))));
  }
  if (in.bad()) return Status::IOError("Cannot read checkpoint file '" + path + "'");
  return out->Close();
}

Status Download(FileIO* io, const std::string& location, const std::string& path) {
  ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> in, io->OpenRead(location));
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::IOError("Cannot write checkpoint staging file '" + path + "'");
  std::string buf;
  for (uint64_t off = 0; off < in->size(); off += kChunk) {
    RETURN_IF_ERROR(in->ReadAt(off, static_cast<size_t>(std::min<uint64_t>(kChunk, in->size() - off)), &buf));
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  }
  out.close();
  if (!out) return Status::IOError("Cannot write checkpoint staging file '" + path + "'");
  return Status::OK();
}

std::set<std::string> LocalNames(const std::string& dir, bool directories) {
  std::set<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory(ec) == directories) out.insert(e.path().filename().string());
  }
  return out;
}

constexpr char kStagingPrefix[] = "sluice-checkpoints-";

// The process id in a staging directory's name "sluice-checkpoints-<pid>-<n>", or 0.
pid_t StagingOwner(const std::string& name) {
  if (name.rfind(kStagingPrefix, 0) != 0) return 0;
  const size_t start = std::strlen(kStagingPrefix);
  const size_t dash = name.find('-', start);
  if (dash == std::string::npos || dash == start) return 0;
  pid_t pid = 0;
  for (size_t i = start; i < dash; ++i) {
    if (name[i] < '0' || name[i] > '9' || pid > 100'000'000) return 0;
    pid = pid * 10 + (name[i] - '0');
  }
  return pid;
}

// Removes the staging directories of processes that no longer run (a job killed while it staged or
// pushed a checkpoint leaves its copy behind; the store itself keeps only complete checkpoints).
void RemoveAbandonedStagingDirs(const fs::path& tmp) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(tmp, ec)) {
    const pid_t pid = StagingOwner(e.path().filename().string());
    if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) {
      std::error_code rm;
      fs::remove_all(e.path(), rm);
    }
  }
}

}  // namespace

bool IsRemoteCheckpointLocation(const std::string& location) { return IsS3Location(location); }

std::shared_ptr<FileIO> CheckpointFileIO(const std::string& location) {
  std::map<std::string, std::string> properties;
  std::string endpoint = Env("AWS_ENDPOINT_URL_S3");
  if (endpoint.empty()) endpoint = Env("AWS_ENDPOINT_URL");
  if (!endpoint.empty()) {
    properties["s3.endpoint"] = endpoint;
    properties["s3.path-style-access"] = endpoint.find("amazonaws.com") == std::string::npos ? "true" : "false";
  }
  return NewFileIO(std::move(properties), "Checkpoint directory '" + location + "'");
}

Result<std::string> NewCheckpointStagingDir() {
  static std::atomic<uint64_t> counter{0};
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);
  RemoveAbandonedStagingDirs(tmp);
  fs::path dir = tmp / (kStagingPrefix + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)));
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError("Cannot create checkpoint staging directory '" + dir.string() + "': " + ec.message());
  return dir.string();
}

Status PushCheckpoint(FileIO* io, const std::string& local_dir, const std::string& remote_dir, int64_t id) {
  const std::string local_shared = (fs::path(local_dir) / kSharedDir).string();
  const std::string remote_shared = JoinLocation(remote_dir, kSharedDir);
  const std::set<std::string> shared = LocalNames(local_shared, false);
  ASSIGN_OR_RETURN(std::vector<std::string> remote_files, io->ListDirectory(remote_shared, false));
  const std::set<std::string> have(remote_files.begin(), remote_files.end());
  for (const std::string& name : shared) {
    if (have.count(name) == 0 && name.find(".tmp") == std::string::npos) {
      RETURN_IF_ERROR(Upload(io, (fs::path(local_shared) / name).string(), JoinLocation(remote_shared, name)));
    }
  }
  const std::string chk = "chk-" + std::to_string(id);
  RETURN_IF_ERROR(Upload(io, (fs::path(local_dir) / chk / kMetadataFile).string(),
                         JoinLocation(JoinLocation(remote_dir, chk), kMetadataFile)));
  // Retention, as done locally.
  const std::set<std::string> local_chks = LocalNames(local_dir, true);
  ASSIGN_OR_RETURN(std::vector<std::string> remote_chks, io->ListDirectory(remote_dir, true));
  for (const std::string& name : remote_chks) {
    if (IsChkName(name) && local_chks.count(name) == 0) {
      RETURN_IF_ERROR(io->DeleteRecursively(JoinLocation(remote_dir, name)));
    }
  }
  for (const std::string& name : have) {
    if (shared.count(name) == 0) RETURN_IF_ERROR(io->Delete(JoinLocation(remote_shared, name)));
  }
  return Status::OK();
}

Status PullCheckpoints(FileIO* io, const std::string& remote_dir, const std::string& local_dir) {
  std::error_code ec;
  fs::remove_all(local_dir, ec);
  fs::create_directories(local_dir, ec);
  if (ec) return Status::IOError("Cannot create checkpoint staging directory '" + local_dir + "': " + ec.message());
  ASSIGN_OR_RETURN(std::vector<std::string> chks, io->ListDirectory(remote_dir, true));
  for (const std::string& name : chks) {
    if (!IsChkName(name)) continue;
    const std::string metadata = JoinLocation(JoinLocation(remote_dir, name), kMetadataFile);
    Status st = Download(io, metadata, (fs::path(local_dir) / name / kMetadataFile).string());
    if (st.code() == StatusCode::kNotFound) continue;  // deleted by a concurrent retention
    RETURN_IF_ERROR(st);
  }
  const std::string remote_shared = JoinLocation(remote_dir, kSharedDir);
  ASSIGN_OR_RETURN(std::vector<std::string> files, io->ListDirectory(remote_shared, false));
  for (const std::string& name : files) {
    RETURN_IF_ERROR(Download(io, JoinLocation(remote_shared, name), (fs::path(local_dir) / kSharedDir / name).string()));
  }
  return Status::OK();
}

}  // namespace sluice
