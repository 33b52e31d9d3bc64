// libFuzzer target: Avro schema JSON and object container files (src/formats/avro;
// tests/fuzz/README.md).
//
// Input: a flag byte, then the payload. Flag bit 0: the payload is a schema JSON document (parsed,
// written back and parsed again, which must give the same JSON); otherwise it is a container file,
// read to its end with the writer's schema (bit 1 clear) or resolved against a fixed reader schema
// with promotions, defaults and an alias (bit 1 set); what was read is written again and re-read.
// With SLUICE_FUZZ_WRITE_SEEDS=<dir> the target writes seed files (every codec, both modes) into
// <dir> and exits (tests/fuzz/run_fuzz.sh calls it).
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "common/check.h"
#include "formats/avro/avro_container.h"

namespace sluice {
namespace {

constexpr char kWriterSchema[] =
    R"({"type":"record","name":"r","fields":[{"name":"id","type":"int","field-id":1},)"
    R"({"name":"name","type":["null","string"],"default":null},)"
    R"({"name":"tags","type":{"type":"array","items":{"type":"record","name":"k1_v2","fields":[)"
    R"({"name":"key","type":"int"},{"name":"value","type":"bytes"}]},"logicalType":"map"}},)"
    R"({"name":"m","type":{"type":"map","values":["null","double"]}},)"
    R"({"name":"e","type":{"type":"enum","name":"e","symbols":["A","B","C"]}},)"
    R"({"name":"f","type":{"type":"fixed","name":"f4","size":4}},{"name":"old_count","type":"float"}]})";
constexpr char kReaderSchema[] =
    R"({"type":"record","name":"x","fields":[{"name":"m","type":{"type":"map","values":["null","double"]}},)"
    R"({"name":"id","type":"long"},{"name":"count","type":"double","aliases":["old_count"]},)"
    R"({"name":"e","type":{"type":"enum","name":"e","symbols":["C","B","A"]}},)"
    R"({"name":"missing","type":["null","int"]},{"name":"d","type":"string","default":"x"}]})";

const AvroSchema& Reader() {
  static const AvroSchema* schema = new AvroSchema(std::move(AvroSchema::Parse(kReaderSchema)).value());
  return *schema;
}

void WriteSeeds(const std::string& dir) {
  const AvroSchema writer = std::move(AvroSchema::Parse(kWriterSchema)).value();
  std::vector<AvroValue> rows;
  for (int i = 0; i < 5; ++i) {
    rows.push_back(AvroValue::Record(
        {AvroValue::Int(i - 2), i % 2 ? AvroValue::Null() : AvroValue::String("n" + std::to_string(i)),
         AvroValue::Array({AvroValue::Record({AvroValue::Int(i), AvroValue::Bytes("b")})}),
         AvroValue::Map({{"k", AvroValue::Double(0.5 * i)}, {"z", AvroValue::Null()}}), AvroValue::Enum(i % 3),
         AvroValue::Fixed("abcd"), AvroValue::Float(1.5f)}));
  }
  int n = 0;
  for (AvroCodec codec : {AvroCodec::kNull, AvroCodec::kDeflate, AvroCodec::kSnappy, AvroCodec::kZstandard}) {
    AvroWriterOptions options;
    options.codec = codec;
    options.block_bytes = 40;
    options.sync_marker = std::string(16, 'S');
    options.metadata = {{"format-version", "2"}};
    const std::string file = std::move(EncodeAvroFile(writer, rows, options)).value();
    for (char flag : {'\x00', '\x02'}) std::ofstream(dir + "/seed-" + std::to_string(n++), std::ios::binary) << flag << file;
  }
  std::ofstream(dir + "/seed-schema", std::ios::binary) << '\x01' << kWriterSchema;
}

void FuzzSchema(std::string_view json) {
  auto schema = AvroSchema::Parse(json);
  if (!schema.ok()) return;
  const std::string written = schema->ToJson();
  auto again = AvroSchema::Parse(written);
  SLUICE_CHECK(again.ok());
  SLUICE_CHECK_EQ(again->ToJson(), written);
}

void FuzzFile(std::string_view file, bool resolve) {
  auto reader = AvroFileReader::Open(std::string(file), "fuzz.avro");
  if (!reader.ok()) return;
  if (resolve && !(*reader)->SetReaderSchema(Reader().root()).ok()) return;
  std::vector<AvroValue> rows;
  while (rows.size() < 10000) {
    AvroValue v;
    auto more = (*reader)->Next(&v);
    if (!more.ok() || !*more) break;
    rows.push_back(std::move(v));
  }
  // What was read writes and reads back the same (with the schema it was read as).
  const AvroSchema& schema = resolve ? Reader() : (*reader)->writer_schema();
  auto bytes = EncodeAvroFile(schema, rows, {});
  SLUICE_CHECK(bytes.ok());
  auto back = AvroFileReader::Open(*bytes, "again.avro");
  SLUICE_CHECK(back.ok());
  auto all = (*back)->ReadAll();
  SLUICE_CHECK(all.ok());
  SLUICE_CHECK_EQ(all->size(), rows.size());
}

}  // namespace
}  // namespace sluice

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  if (const char* seeds = std::getenv("SLUICE_FUZZ_WRITE_SEEDS"); seeds != nullptr && *seeds != '\0') {
    sluice::WriteSeeds(seeds);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view payload(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 1) {
    sluice::FuzzSchema(payload);
  } else {
    sluice::FuzzFile(payload, (data[0] & 2) != 0);
  }
  return 0;
}
