// Random identifiers: a version-4 UUID (Iceberg table uuids) and Flink's JobID text (32 hex digits),
// drawn from std::random_device. Not for anything deterministic: tests pass fixed ids instead.
#pragma once

#include <string>

namespace sluice {

// "xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx", lowercase.
std::string RandomUuid();

// A job's id as Flink prints a JobID: 32 lowercase hex digits (the UUID without dashes).
std::string RandomJobId();

}  // namespace sluice
