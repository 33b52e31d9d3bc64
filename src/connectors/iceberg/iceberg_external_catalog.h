// The Iceberg catalog as Sluice SQL sees it: CREATE CATALOG lake WITH ('type' = 'iceberg', ...)
// registers an IcebergExternalCatalog, whose databases are the catalog's namespaces and whose tables
// are Iceberg tables, as Flink's FlinkCatalog (iceberg-flink) presents them:
//   - a table's columns come from its current schema (TypeToFlinkType: timestamp -> TIMESTAMP(6),
//     ...), its PRIMARY KEY from the identifier fields, its partition columns from the default spec;
//   - CREATE TABLE maps columns to a schema with fresh field ids, the PRIMARY KEY to identifier
//     fields, PARTITIONED BY columns to identity partitions (and, beyond Flink, Spark's transform
//     terms bucket(N, c), truncate(W, c), year/month/day/hour(c)), the WITH options to table
//     properties (those Sluice does not implement are refused by name); computed columns,
//     metadata columns and watermarks are refused, as Flink's Iceberg catalog does;
//   - a table's options route it to the 'iceberg' connector with the catalog's connection options.
//
// Threading: the session's thread (ExternalCatalog).
#pragma once

#include <memory>

#include "catalog/external_catalog.h"
#include "connectors/iceberg/iceberg_options.h"

namespace sluice {

// The 'iceberg' catalog type (registered by BuiltinCatalogFactories).
const ExternalCatalogFactory* IcebergCatalogFactory();

}  // namespace sluice
