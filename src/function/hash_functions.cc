// The SHA hash functions with Flink's semantics (SqlFunctionUtils.hash): SHA1, SHA224, SHA256, SHA384,
// SHA512 and SHA2(s, bits) hash the UTF-8 bytes of a string and return the digest as lower-case hex.
// The digests come from OpenSSL's libcrypto (Debian's libssl), already linked for the S3 client.
// Types as Flink's: SHA1 CHAR(40) ... SHA512 CHAR(128), SHA2 VARCHAR(128); NULL in, NULL out.
// SHA2 with a bit length other than 224, 256, 384 or 512 fails the row with Flink's "Unsupported
// algorithm." (a constant bad length fails when the query is planned, as Flink's constant folding does).
#include <openssl/evp.h>

#include <string>
#include <string_view>

#include "function/string_kernels.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {

const EVP_MD* DigestForBits(int64_t bits) {
  switch (bits) {
    case 224: return EVP_sha224();
    case 256: return EVP_sha256();
    case 384: return EVP_sha384();
    case 512: return EVP_sha512();
    default: return nullptr;
  }
}

// The hex digest of `s` under `md` into *out.
Status HexDigest(const EVP_MD* md, std::string_view s, std::string* out) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(s.data(), s.size(), digest, &len, md, nullptr) != 1) {
    return Status::RuntimeError("the SHA digest failed in OpenSSL");
  }
  static const char kHex[] = "0123456789abcdef";
  out->resize(2 * static_cast<size_t>(len));
  for (unsigned int k = 0; k < len; ++k) {
    (*out)[2 * k] = kHex[digest[k] >> 4];
    (*out)[2 * k + 1] = kHex[digest[k] & 0xF];
  }
  return Status::OK();
}

Status UnsupportedAlgorithm() { return Status::RuntimeError("Unsupported algorithm."); }

void AddFixed(FunctionTable* t, const std::string& name, const EVP_MD* (*md)(), int hex_chars) {
  t->Add({name, {name + "(<CHARACTER>)"}, [md, hex_chars](const CallInfo& c) -> Result<FnPtr> {
            return Simple(c, {AsString}, LogicalType::Char(hex_chars),
                          [md](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                            std::string buf;
                            const EVP_MD* digest = md();
                            return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                              RETURN_IF_ERROR(HexDigest(digest, args[0]->GetString(i), &buf));
                              out->SetString(i, buf);
                              return Status::OK();
                            });
                          });
          }});
}

Result<FnPtr> ResolveSha2(const CallInfo& c) {
  const Value* bits = c.constant(1);
  if (c.size() == 2 && bits != nullptr && !bits->is_null() && c.type(1).IsIntegral() &&
      DigestForBits(bits->int_value()) == nullptr) {
    return UnsupportedAlgorithm();
  }
  return Simple(c, {AsString, AsInt}, LogicalType::VarChar(128),
                [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) -> Status {
                  std::string buf;
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    const EVP_MD* md = DigestForBits(args[1]->data<int32_t>()[i]);
                    if (md == nullptr) return UnsupportedAlgorithm();
                    RETURN_IF_ERROR(HexDigest(md, args[0]->GetString(i), &buf));
                    out->SetString(i, buf);
                    return Status::OK();
                  });
                });
}

}  // namespace

void RegisterHashFunctions(FunctionTable* t) {
  AddFixed(t, "SHA1", EVP_sha1, 40);
  AddFixed(t, "SHA224", EVP_sha224, 56);
  AddFixed(t, "SHA256", EVP_sha256, 64);
  AddFixed(t, "SHA384", EVP_sha384, 96);
  AddFixed(t, "SHA512", EVP_sha512, 128);
  t->Add({"SHA2", {"SHA2(<CHARACTER>, <INTEGER>)"}, ResolveSha2});
}

}  // namespace sluice::fn
