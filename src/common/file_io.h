// FileIO: the storage a lake table's files live on, addressed by location strings, as Iceberg's
// FileIO is. Data files, manifests and metadata JSON are written once and never changed, so the
// interface is small: read a byte range, write a new file from start to end, publish a small file
// atomically (the hadoop catalog's commit), list, delete.
//
// Locations are what Iceberg metadata stores: "file:///abs/path", "file:/abs/path" or "/abs/path"
// for the local file system (NewLocalFileIO). Object stores (s3://) implement the same interface.
//
// Invariants: a file created by Create is invisible under its location until Close succeeds (it is
// written under a temporary name and renamed), so a crash never leaves a half-written data file where
// a reader looks. WriteAtomically with overwrite=false fails with kAlreadyExists semantics
// (Status code kIOError, message "already exists") when the location exists: the primitive a
// catalog commit is built on.
//
// Threading: a FileIO is shared and thread-safe; a RandomAccessFile or WritableFile is used by one
// thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sluice {

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual const std::string& location() const = 0;
  virtual uint64_t size() const = 0;
  // Reads exactly `length` bytes at `offset` into `out` (replacing its contents); reading past the
  // end is an error naming the file.
  virtual Status ReadAt(uint64_t offset, size_t length, std::string* out) = 0;
};

class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual const std::string& location() const = 0;
  virtual Status Append(std::string_view data) = 0;
  virtual uint64_t bytes_written() const = 0;
  // Makes the file durable and visible under its location. No Append follows.
  virtual Status Close() = 0;
  // Gives up the file: nothing becomes visible. Also what the destructor does when Close was not
  // called.
  virtual void Abort() = 0;
};

// A file found by FileIO::ListFilesRecursively.
struct FileInfo {
  std::string location;
  uint64_t size = 0;
  int64_t modified_ms = 0;  // last modification, epoch milliseconds
};

class FileIO {
 public:
  virtual ~FileIO() = default;
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& location) = 0;
  // Creates a new file (replacing one left at the location only when Close publishes it).
  virtual Result<std::unique_ptr<WritableFile>> Create(const std::string& location) = 0;
  // Writes `data` to `location` durably and atomically; with overwrite=false it fails (without
  // changing anything) when the location already exists.
  virtual Status WriteAtomically(const std::string& location, std::string_view data, bool overwrite) = 0;
  virtual Result<bool> Exists(const std::string& location) = 0;
  // Deletes a file; a missing file is not an error.
  virtual Status Delete(const std::string& location) = 0;
  // Deletes a directory and everything under it (DROP TABLE ... PURGE, a dropped namespace).
  virtual Status DeleteRecursively(const std::string& location) = 0;
  // The names (last path part, sorted) directly under a directory, files or directories; names
  // starting with '.' (writers' temporary files) are skipped. Empty when the directory does not exist.
  virtual Result<std::vector<std::string>> ListDirectory(const std::string& location, bool directories) = 0;
  virtual Status CreateDirectories(const std::string& location) = 0;
  // Every file under a directory, at any depth (as Iceberg's listPrefix), sorted by location; names
  // starting with '.' (files or directories) are skipped as in ListDirectory. Empty when the directory
  // does not exist. File systems that cannot tell modification times return NotSupported.
  virtual Result<std::vector<FileInfo>> ListFilesRecursively(const std::string& location);

  // Whole-file read through OpenRead.
  Result<std::string> ReadAll(const std::string& location);
};

// The local file system. Locations may carry the file: scheme; relative paths are used as given.
std::unique_ptr<FileIO> NewLocalFileIO();

// "/abs/path" for "file:///abs/path", "file:/abs/path" and "/abs/path"; other schemes are returned
// unchanged (the caller refuses them).
std::string LocalPathOf(const std::string& location);

// Joins a location and a relative part with exactly one '/'.
std::string JoinLocation(const std::string& base, const std::string& part);

}  // namespace sluice
