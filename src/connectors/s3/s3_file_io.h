// S3FileIO: the FileIO (common/file_io.h) of objects in S3 or an S3-compatible store, for locations
// "s3://bucket/key" and "s3a://bucket/key"; and NewFileIO, the FileIO that picks the local file system
// or S3 by each location's scheme, which every Iceberg table, manifest, metadata file and checkpoint
// goes through.
//
// Mapping of FileIO's contract onto S3:
//  - OpenRead asks the size with HEAD; ReadAt is a ranged GET (Parquet footers and column chunks).
//  - Create buffers up to 's3.multipart.size' bytes; a file that stays below is one PUT at Close, a
//    larger one a multipart upload whose parts go out as they fill and which CompleteMultipartUpload
//    publishes at Close. Either way nothing is visible under the location before Close succeeds; Abort
//    (and a crash: S3 never shows an incomplete multipart upload) leaves nothing.
//  - WriteAtomically with overwrite=false is a conditional PUT (If-None-Match: *), which S3 and
//    compatible stores answer 412 when the object exists.
//  - Directories are key prefixes ending in '/': ListDirectory lists with delimiter '/',
//    CreateDirectories writes a zero-byte "dir/" marker (so an empty namespace exists), Exists is true
//    for an object or any key under the prefix, DeleteRecursively deletes every object under it.
//
// Threading: thread-safe; files are used by one thread at a time.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "common/file_io.h"
#include "connectors/s3/s3_client.h"

namespace sluice {

std::unique_ptr<FileIO> NewS3FileIO(std::shared_ptr<S3Client> client);

// A FileIO for every scheme: s3://, s3a:// (and s3n://) through S3 configured from `properties`
// (S3Options::FromProperties, created on first use, so a table on local files needs no S3
// configuration), anything else through the local file system. `place` prefixes configuration errors.
std::shared_ptr<FileIO> NewFileIO(std::map<std::string, std::string> properties, std::string place,
                                  std::function<Result<AwsCredentials>()> credentials_provider = nullptr);

}  // namespace sluice
