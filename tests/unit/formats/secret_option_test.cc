// Secret-looking option keys (formats/format.h IsSecretOptionKey): their values never appear in
// SHOW CREATE TABLE, EXPLAIN, errors or logs.
#include <gtest/gtest.h>

#include "formats/format.h"

namespace sluice {
namespace {

TEST(SecretOptionKeyTest, CredentialsTokensAndAuthorizationHeadersAreSecret) {
  for (const char* key : {"properties.sasl.jaas.config", "password", "credential", "token", "s3.session-token",
                          "s3.secret-access-key", "s3.access-key-id", "header.Authorization",
                          "ssl.keystore.password", "private-key"}) {
    EXPECT_TRUE(IsSecretOptionKey(key)) << key;
  }
  for (const char* key : {"uri", "warehouse", "scope", "header.X-Iceberg-Access-Delegation", "topic"}) {
    EXPECT_FALSE(IsSecretOptionKey(key)) << key;
  }
}

TEST(SecretOptionKeyTest, ShownOptionValueMasksOnlySecrets) {
  EXPECT_EQ(ShownOptionValue("credential", "id:secret"), "******");
  EXPECT_EQ(ShownOptionValue("s3.secret-access-key", "k"), "******");
  EXPECT_EQ(ShownOptionValue("warehouse", "s3://b/wh"), "s3://b/wh");
}

}  // namespace
}  // namespace sluice
