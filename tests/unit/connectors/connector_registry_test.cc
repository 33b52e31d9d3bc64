#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "connectors/builtin_connectors.h"
#include "connectors/connector.h"
#include "connectors/connector_options.h"

namespace sluice {
namespace {

ConnectorContext Context(std::map<std::string, std::string> options) {
  ConnectorContext ctx;
  ctx.table_name = "orders";
  ctx.physical_schema = Schema({{"sku", LogicalType::String()}, {"qty", LogicalType::Integer()}});
  ctx.options = std::move(options);
  return ctx;
}

TEST(ConnectorRegistryTest, BuiltinHasTheBasicConnectors) {
  const ConnectorRegistry& r = ConnectorRegistry::Builtin();
  for (const char* id : {"filesystem", "print", "blackhole", "values"}) {
    auto f = r.Find(id);
    ASSERT_TRUE(f.ok()) << id;
    EXPECT_EQ((*f)->identifier(), id);
  }
  EXPECT_EQ(&ConnectorRegistry::Builtin(), &r);
  // The generator connectors join the list when their folders are in the tree.
#if __has_include("connectors/datagen/datagen_connector.cc")
  EXPECT_TRUE(r.Find("datagen").ok());
#endif
#if __has_include("connectors/nexmark/nexmark_connector.cc")
  EXPECT_TRUE(r.Find("nexmark").ok());
#endif
  EXPECT_GE(r.all().size(), 4u);
}

TEST(ConnectorRegistryTest, UnknownConnectorGetsDidYouMean) {
  auto f = ConnectorRegistry::Builtin().Find("filesytem");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message().rfind("Could not find any factory for identifier 'filesytem'. Did you mean "
                                       "'filesystem'? Available factory identifiers are: blackhole, ",
                                       0),
            0u)
      << f.status().message();
  auto none = ConnectorRegistry::Builtin().Find("");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("option key 'connector'"), std::string::npos);
}

TEST(ConnectorRegistryTest, SinkOnlyConnectorRefusesSource) {
  auto print = ConnectorRegistry::Builtin().Find("print");
  ASSERT_TRUE(print.ok());
  auto src = (*print)->CreateSource(Context({{"connector", "print"}}));
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().message(),
            "Connector 'print' cannot be used as a source; it can only be used as a sink (table 'orders').");
}

TEST(ConnectorRegistryTest, ProjectedSchemaAppendsMetadata) {
  ConnectorContext ctx = Context({});
  EXPECT_EQ(ProjectedSchema(ctx).ToString(), Schema(ctx.physical_schema.fields()).ToString());
  ctx.projection = {1};
  ctx.metadata = {{"file.path", LogicalType::String()}};
  Schema s = ProjectedSchema(ctx);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.field(0).name, "qty");
  EXPECT_EQ(s.field(1).name, "file.path");
}

TEST(ConnectorOptionsTest, UnknownKeyGetsFlinkWordingAndDidYouMean) {
  auto fs = ConnectorRegistry::Builtin().Find("filesystem");
  ASSERT_TRUE(fs.ok());
  auto r = ValidateConnectorOptions(Context({{"connector", "filesystem"},
                                             {"path", "/tmp/x"},
                                             {"format", "json"},
                                             {"json.fail-on-missng-field", "true"}}),
                                    **fs, ConnectorRole::kSource);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Unable to create a source for reading table 'orders': Unsupported options found for 'filesystem'. "
            "Unsupported options: json.fail-on-missng-field. Did you mean 'json.fail-on-missing-field'?");
}

TEST(ConnectorOptionsTest, FormatOptionsAreAllowedOnlyForTheChosenFormat) {
  auto fs = ConnectorRegistry::Builtin().Find("filesystem");
  ASSERT_TRUE(fs.ok());
  auto ok = ValidateConnectorOptions(
      Context({{"connector", "filesystem"}, {"path", "/x"}, {"format", "csv"}, {"csv.field-delimiter", ";"}}), **fs,
      ConnectorRole::kSink);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)->identifier(), "csv");
  auto bad = ValidateConnectorOptions(
      Context({{"connector", "filesystem"}, {"path", "/x"}, {"format", "csv"}, {"json.ignore-parse-errors", "true"}}),
      **fs, ConnectorRole::kSink);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Unable to create a sink for writing table 'orders': Unsupported options "
                                        "found for 'filesystem'. Unsupported options: json.ignore-parse-errors."),
            std::string::npos)
      << bad.status().message();
  auto fmt = ValidateConnectorOptions(Context({{"connector", "filesystem"}, {"path", "/x"}, {"format", "jsn"}}), **fs,
                                      ConnectorRole::kSource);
  ASSERT_FALSE(fmt.ok());
  EXPECT_NE(fmt.status().message().find("Could not find any format factory for identifier 'jsn'. Did you mean 'json'?"),
            std::string::npos)
      << fmt.status().message();
}

TEST(ConnectorOptionsTest, MissingRequiredOptionsAreListed) {
  auto fs = ConnectorRegistry::Builtin().Find("filesystem");
  ASSERT_TRUE(fs.ok());
  auto r = ValidateConnectorOptions(Context({{"connector", "filesystem"}, {"format", "json"}}), **fs,
                                    ConnectorRole::kSource);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Unable to create a source for reading table 'orders': One or more required options are missing. Missing "
            "required options are: path");
}

TEST(ConnectorOptionsTest, UnrelatedUnknownKeyListsSupportedOptions) {
  auto bh = ConnectorRegistry::Builtin().Find("blackhole");
  ASSERT_TRUE(bh.ok());
  auto r = ValidateConnectorOptions(Context({{"connector", "blackhole"}, {"zzzzzzzzzzzzzz", "1"}}), **bh,
                                    ConnectorRole::kSink);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Unsupported options: zzzzzzzzzzzzzz. Supported options: connector, format."),
            std::string::npos)
      << r.status().message();
}

TEST(ConnectorOptionsTest, WildcardKeysAndTypedValues) {
  EXPECT_TRUE(OptionKeyMatches("fields.#.kind", "fields.price.kind"));
  EXPECT_TRUE(OptionKeyMatches("fields.#.kind", "fields.buyer.name.kind"));
  EXPECT_FALSE(OptionKeyMatches("fields.#.kind", "fields..kind"));
  EXPECT_FALSE(OptionKeyMatches("fields.#.kind", "fields.price.min"));
  EXPECT_TRUE(OptionKeyMatches("properties.#", "properties.bootstrap.servers"));

  ConnectorContext ctx = Context({{"a", "10 s"}, {"b", "5min"}, {"c", "1h"}, {"d", "64 mb"}, {"e", "x"},
                                  {"sasl.password", "hunter2"}, {"n", "42"}});
  OptionReader reader = ConnectorOptionReader(ctx);
  EXPECT_EQ(*reader.GetDurationMillis("a", 0), 10000);
  EXPECT_EQ(*reader.GetDurationMillis("b", 0), 300000);
  EXPECT_EQ(*reader.GetDurationMillis("c", 0), 3600000);
  EXPECT_EQ(*reader.GetMemorySize("d", 0), 64 << 20);
  EXPECT_EQ(*reader.GetInt("n", 0), 42);
  EXPECT_EQ(*reader.GetInt("missing", 7), 7);
  auto bad = reader.GetInt("e", 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "Invalid value for option 'e' of table 'orders': 'x' is not an integer");
  auto dur = reader.GetDurationMillis("e", 0);
  ASSERT_FALSE(dur.ok());
  EXPECT_NE(dur.status().message().find("Invalid value for option 'e' of table 'orders': 'x' is not a duration"),
            std::string::npos);
  auto secret = reader.GetBool("sasl.password", false);
  ASSERT_FALSE(secret.ok());
  EXPECT_EQ(secret.status().message().find("hunter2"), std::string::npos);
}

}  // namespace
}  // namespace sluice
