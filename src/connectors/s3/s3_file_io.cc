#include "connectors/s3/s3_file_io.h"

#include <algorithm>
#include <deque>
#include <future>
#include <mutex>

namespace sluice {
namespace {

// The last path part of a key or prefix ("a/b/c/" -> "c").
std::string LastPart(std::string_view key) {
  while (!key.empty() && key.back() == '/') key.remove_suffix(1);
  size_t slash = key.rfind('/');
  return std::string(slash == std::string_view::npos ? key : key.substr(slash + 1));
}

std::string AsPrefix(std::string key) {
  if (!key.empty() && key.back() != '/') key += '/';
  return key;
}

class S3RandomAccessFile final : public RandomAccessFile {
 public:
  S3RandomAccessFile(std::shared_ptr<S3Client> client, std::string location, S3Location loc, uint64_t size)
      : client_(std::move(client)), location_(std::move(location)), loc_(std::move(loc)), size_(size) {}
  const std::string& location() const override { return location_; }
  uint64_t size() const override { return size_; }
  Status ReadAt(uint64_t offset, size_t length, std::string* out) override {
    if (offset > size_ || length > size_ - offset) {
      return Status::IOError("Cannot read " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                             " of '" + location_ + "' (" + std::to_string(size_) + " bytes)");
    }
    return client_->GetRange(loc_, offset, length, out);
  }

 private:
  std::shared_ptr<S3Client> client_;
  std::string location_;
  S3Location loc_;
  uint64_t size_;
};

// Parts go out on their own threads, at most 's3.multipart.num-threads' at a time (each holding its
// part's bytes), while the writer fills the next; the part numbers and ETags keep the file's order.
// Close waits for every part before CompleteMultipartUpload; a failed part fails the next Append or
// Close, and the upload is aborted once no part is in flight.
class S3WritableFile final : public WritableFile {
 public:
  S3WritableFile(std::shared_ptr<S3Client> client, std::string location, S3Location loc)
      : client_(std::move(client)), location_(std::move(location)), loc_(std::move(loc)) {}
  ~S3WritableFile() override { Abort(); }
  const std::string& location() const override { return location_; }
  uint64_t bytes_written() const override { return written_; }

  Status Append(std::string_view data) override {
    if (closed_) return Status::Internal("append to closed file '" + location_ + "'");
    buffer_.append(data);
    written_ += data.size();
    const uint64_t part = client_->options().multipart_size;
    if (buffer_.size() < part) return Status::OK();
    size_t used = 0;
    for (; buffer_.size() - used >= part; used += part) {
      RETURN_IF_ERROR(StartPart(buffer_.substr(used, part)));
    }
    buffer_.erase(0, used);
    return Status::OK();
  }

  Status Close() override {
    if (closed_) return Status::Internal("close of closed file '" + location_ + "'");
    closed_ = true;
    Status st;
    if (upload_id_.empty()) {
      st = client_->Put(loc_, buffer_, /*if_none_match=*/false);
    } else {
      if (!buffer_.empty()) st = StartPart(std::move(buffer_));
      Status parts = WaitAll();
      if (st.ok()) st = parts;
      if (st.ok()) st = client_->CompleteMultipartUpload(loc_, upload_id_, etags_);
      if (!st.ok()) client_->AbortMultipartUpload(loc_, upload_id_).IgnoreError();
      upload_id_.clear();
    }
    buffer_.clear();
    buffer_.shrink_to_fit();
    return st;
  }

  void Abort() override {
    if (closed_) return;
    closed_ = true;
    WaitAll().IgnoreError();
    if (!upload_id_.empty()) client_->AbortMultipartUpload(loc_, upload_id_).IgnoreError();
    upload_id_.clear();
    buffer_.clear();
  }

 private:
  struct InFlight {
    size_t part;  // index into etags_
    std::future<Result<std::string>> etag;
  };

  // Sends `data` as the next part, first waiting for the oldest part while the limit is in flight.
  Status StartPart(std::string data) {
    if (upload_id_.empty()) {
      ASSIGN_OR_RETURN(upload_id_, client_->CreateMultipartUpload(loc_));
    }
    const size_t limit = static_cast<size_t>(std::max(1, client_->options().multipart_threads));
    while (in_flight_.size() >= limit) RETURN_IF_ERROR(FinishOldest());
    const size_t part = etags_.size();
    etags_.emplace_back();
    in_flight_.push_back({part, std::async(std::launch::async,
                                           [client = client_, loc = loc_, id = upload_id_, part, d = std::move(data)]() {
                                             return client->UploadPart(loc, id, static_cast<int>(part) + 1, d);
                                           })});
    return Status::OK();
  }

  Status FinishOldest() {
    InFlight f = std::move(in_flight_.front());
    in_flight_.pop_front();
    ASSIGN_OR_RETURN(etags_[f.part], f.etag.get());
    return Status::OK();
  }

  // Waits for every part in flight; the first failure.
  Status WaitAll() {
    Status first;
    while (!in_flight_.empty()) {
      Status st = FinishOldest();
      if (first.ok() && !st.ok()) first = st;
    }
    return first;
  }

  std::shared_ptr<S3Client> client_;
  std::string location_;
  S3Location loc_;
  std::string buffer_;
  std::string upload_id_;
  std::vector<std::string> etags_;  // per part, in part order
  std::deque<InFlight> in_flight_;
  uint64_t written_ = 0;
  bool closed_ = false;
};

class S3FileIO final : public FileIO {
 public:
  explicit S3FileIO(std::shared_ptr<S3Client> client) : client_(std::move(client)) {}

  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& location) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    ASSIGN_OR_RETURN(uint64_t size, client_->Head(loc));
    return std::unique_ptr<RandomAccessFile>(new S3RandomAccessFile(client_, location, std::move(loc), size));
  }

  Result<std::unique_ptr<WritableFile>> Create(const std::string& location) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    return std::unique_ptr<WritableFile>(new S3WritableFile(client_, location, std::move(loc)));
  }

  Status WriteAtomically(const std::string& location, std::string_view data, bool overwrite) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    Status st = client_->Put(loc, data, /*if_none_match=*/!overwrite);
    if (!st.ok() && st.message().find("already exists") != std::string::npos) {
      return Status::IOError("'" + location + "' already exists");
    }
    return st;
  }

  Result<bool> Exists(const std::string& location) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    Result<uint64_t> size = client_->Head(loc);
    if (size.ok()) return true;
    if (size.status().code() == StatusCode::kNotFound) {
      // A "directory": any object under the prefix.
      ASSIGN_OR_RETURN(S3Listing listing, client_->List(loc.bucket, AsPrefix(loc.key), "/"));
      return !listing.objects.empty() || !listing.common_prefixes.empty();
    }
    return size.status();
  }

  Status Delete(const std::string& location) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    return client_->Delete(loc);
  }

  Status DeleteRecursively(const std::string& location) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    ASSIGN_OR_RETURN(S3Listing listing, client_->List(loc.bucket, AsPrefix(loc.key), ""));
    for (const S3Object& o : listing.objects) RETURN_IF_ERROR(client_->Delete({loc.bucket, o.key}));
    return Status::OK();
  }

  Result<std::vector<std::string>> ListDirectory(const std::string& location, bool directories) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    ASSIGN_OR_RETURN(S3Listing listing, client_->List(loc.bucket, AsPrefix(loc.key), "/"));
    std::vector<std::string> names;
    if (directories) {
      for (const std::string& p : listing.common_prefixes) names.push_back(LastPart(p));
    } else {
      for (const S3Object& o : listing.objects) {
        if (o.key.back() != '/') names.push_back(LastPart(o.key));  // "dir/" markers are no files
      }
    }
    names.erase(std::remove_if(names.begin(), names.end(), [](const std::string& n) { return n.empty() || n[0] == '.'; }),
                names.end());
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<std::vector<FileInfo>> ListFilesRecursively(const std::string& location) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    const std::string prefix = AsPrefix(loc.key);
    ASSIGN_OR_RETURN(S3Listing listing, client_->List(loc.bucket, prefix, ""));
    std::vector<FileInfo> out;
    for (const S3Object& o : listing.objects) {
      const std::string relative = o.key.substr(prefix.size());
      // Skip hidden files and anything under a hidden directory, as the local listing does.
      bool hidden = relative.empty() || relative[0] == '.' || relative.find("/.") != std::string::npos || o.key.back() == '/';
      if (!hidden) out.push_back({JoinLocation(location, relative), o.size, o.modified_ms});
    }
    std::sort(out.begin(), out.end(), [](const FileInfo& a, const FileInfo& b) { return a.location < b.location; });
    return out;
  }

  // A zero-byte "dir/" marker object, as Hadoop's S3A writes: an empty namespace exists.
  Status CreateDirectories(const std::string& location) override {
    ASSIGN_OR_RETURN(S3Location loc, S3Location::Parse(location));
    if (loc.key.empty()) return Status::OK();
    return client_->Put({loc.bucket, AsPrefix(loc.key)}, std::string_view(), /*if_none_match=*/false);
  }

 private:
  std::shared_ptr<S3Client> client_;
};

// Routes each call by the location's scheme.
class SchemeFileIO final : public FileIO {
 public:
  SchemeFileIO(std::map<std::string, std::string> properties, std::string place,
               std::function<Result<AwsCredentials>()> provider)
      : properties_(std::move(properties)), place_(std::move(place)), provider_(std::move(provider)),
        local_(NewLocalFileIO()) {}

  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& l) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->OpenRead(l);
  }
  Result<std::unique_ptr<WritableFile>> Create(const std::string& l) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->Create(l);
  }
  Status WriteAtomically(const std::string& l, std::string_view data, bool overwrite) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->WriteAtomically(l, data, overwrite);
  }
  Result<bool> Exists(const std::string& l) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->Exists(l);
  }
  Status Delete(const std::string& l) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->Delete(l);
  }
  Status DeleteRecursively(const std::string& l) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->DeleteRecursively(l);
  }
  Result<std::vector<std::string>> ListDirectory(const std::string& l, bool directories) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->ListDirectory(l, directories);
  }
  Status CreateDirectories(const std::string& l) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->CreateDirectories(l);
  }
  Result<std::vector<FileInfo>> ListFilesRecursively(const std::string& l) override {
    ASSIGN_OR_RETURN(FileIO * io, For(l));
    return io->ListFilesRecursively(l);
  }

 private:
  Result<FileIO*> For(const std::string& location) {
    if (!IsS3Location(location)) {
      size_t scheme = location.find("://");
      if (scheme != std::string::npos && location.rfind("file:", 0) != 0) {
        return Status::NotSupported(place_ + ": location '" + location +
                                    "' has a scheme Sluice cannot read or write (file://, s3://, s3a://)");
      }
      return local_.get();
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (!s3_) {
      ASSIGN_OR_RETURN(S3Options options, S3Options::FromProperties(properties_, place_));
      options.credentials_provider = provider_;
      s3_ = NewS3FileIO(std::make_shared<S3Client>(std::move(options), NewCurlHttpTransport()));
    }
    return s3_.get();
  }

  std::map<std::string, std::string> properties_;
  std::string place_;
  std::function<Result<AwsCredentials>()> provider_;
  std::unique_ptr<FileIO> local_;
  std::mutex mu_;
  std::unique_ptr<FileIO> s3_;
};

}  // namespace

std::unique_ptr<FileIO> NewS3FileIO(std::shared_ptr<S3Client> client) {
  return std::make_unique<S3FileIO>(std::move(client));
}

std::shared_ptr<FileIO> NewFileIO(std::map<std::string, std::string> properties, std::string place,
                                  std::function<Result<AwsCredentials>()> credentials_provider) {
  return std::make_shared<SchemeFileIO>(std::move(properties), std::move(place), std::move(credentials_provider));
}

}  // namespace sluice
