// The `sluice` command line: runs Flink SQL scripts (DESIGN.md §9 is the contract).
//
//   sluice run [--format tableau|jsonl|csv] [--mode changelog|table] [--set key=value]... FILE.sql
//   sluice run -e 'SQL'
//   sluice run -i init.sql [-i more.sql]... FILE.sql   (init scripts run first, in the same session)
//   sluice explain FILE.sql      (DDL runs; queries, INSERTs and statement sets are explained)
//   sluice --version | --help
//
// Each statement's rows go to stdout; job summaries and errors go to stderr. The first failing
// statement stops the script with a non-zero exit and one clear message.
#include <CLI/CLI.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <exception>
#include <new>
#include <sstream>

#include "cli/result_printer.h"
#include "cli/gen_larkspur.h"
#include "cli/iceberg_command.h"
#include "connectors/connector.h"
#include "formats/format.h"
#include "common/config.h"
#include "common/version.h"
#include "engine/session.h"
#include "sql/parser.h"

namespace sluice {
namespace {

const std::string kVersion = std::string("sluice ") + kSluiceVersion;

std::string FirstKeyword(const std::string& text) {
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text.compare(i, 2, "--") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t e = text.find("*/", i + 2);
      i = e == std::string::npos ? text.size() : e + 2;
    } else {
      break;
    }
  }
  std::string kw;
  while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
    kw.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(text[i]))));
    ++i;
  }
  return kw;
}

struct RunOptions {
  std::vector<std::string> init_files;  // -i: run first, in the same session (Flink SQL client's -i)
  std::string file;
  std::string sql;
  std::string format = "tableau";
  std::string mode;
  std::vector<std::string> sets;
  bool explain_only = false;
  bool verbose = false;
};

int Fail(const std::string& where, const Status& st) {
  std::cerr << "sluice: error" << (where.empty() ? "" : " in " + where) << ": " << st.message() << "\n";
  return 1;
}

Result<std::string> ReadScript(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::InvalidArgument("script '" + path + "' is a directory, not a file of SQL statements");
  }
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open script '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the statements of one script (`where` names it in errors); returns the exit code.
int RunStatements(Session& session, const RunOptions& opts, const std::string& script, const std::string& where) {
  auto statements = sql::SplitStatements(script);
  if (!statements.ok()) return Fail(where, statements.status());
  OutputFormat format = opts.format == "jsonl" ? OutputFormat::kJsonl
                        : opts.format == "csv" ? OutputFormat::kCsv
                                               : OutputFormat::kTableau;
  for (const auto& st : *statements) {
    std::string mode = opts.mode;
    if (mode.empty()) {
      auto m = session.GetConfig(kResultModeKey);
      mode = m.ok() ? *m : "changelog";
    }
    // The option holds Flink's spelling (TABLE); --mode is lower-case.
    for (char& c : mode) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto width = session.GetConfig(kMaxColumnWidthKey);
    ResultPrinter printer(&std::cout, format, mode == "table" ? ResultMode::kTable : ResultMode::kChangelog,
                          width.ok() ? std::atoi(width->c_str()) : 30);
    std::string kw = FirstKeyword(st.text);
    printer.set_listing(kw == "SHOW" || kw == "DESCRIBE" || kw == "DESC" || kw == "SET");
    std::string text = st.text;
    bool is_job = kw == "SELECT" || kw == "WITH" || kw == "INSERT" || kw == "EXECUTE" || kw == "BEGIN" || kw == "VALUES";
    if (opts.explain_only && !is_job && (kw == "CREATE" || kw == "REPLACE")) {
      // A CTAS / RTAS is a job too: explained, its table not created.
      auto parsed = sql::ParseStatement(text);
      is_job = parsed.ok() && (*parsed)->kind == ast::StatementKind::kCreateTable &&
               (*parsed)->As<ast::CreateTable>().as_query != nullptr;
    }
    if (opts.explain_only && is_job) text = "EXPLAIN " + text;
    auto result = session.ExecuteAt(text, st.line, st.column, &printer);
    std::cout.flush();
    // A job's summary (also a failed job's, before its error).
    if (const auto& summary = session.LastJobSummary()) {
      for (const auto& note : summary->notes) std::cerr << "Note: " << note << "\n";
      std::cerr << summary->ToString() << "\n";
      std::cerr << summary->SinkTables();
    }
    if (!result.ok()) return Fail(where, result.status());
    switch (result->kind) {
      case StatementResult::Kind::kText: std::cout << result->text << std::flush; break;
      case StatementResult::Kind::kOk:
        if (opts.verbose) std::cout << result->text << "\n";
        break;
      case StatementResult::Kind::kJob:
      case StatementResult::Kind::kRows: break;
    }
  }
  return 0;
}

int RunScript(const RunOptions& opts) {
  SessionOptions sopts;
  for (const auto& kv : opts.sets) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) {
      std::cerr << "sluice: error: --set expects key=value, got '" << kv << "'\n";
      return 2;
    }
    sopts.config[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  Session session(sopts);
  for (const auto& init : opts.init_files) {
    auto text = ReadScript(init);
    if (!text.ok()) return Fail("", text.status());
    if (int rc = RunStatements(session, opts, *text, init); rc != 0) return rc;
  }
  if (opts.file.empty()) {
    // Blank or comment-only text would otherwise run nothing and exit 0, hiding a quoting mistake.
    auto statements = sql::SplitStatements(opts.sql);
    if (statements.ok() && statements->empty()) {
      std::cerr << "sluice: error: the SQL given to -e is empty (no statement, only blanks or comments)\n";
      return 2;
    }
    return RunStatements(session, opts, opts.sql, "");
  }
  auto text = ReadScript(opts.file);
  if (!text.ok()) return Fail("", text.status());
  return RunStatements(session, opts, *text, opts.file);
}

// The values SET accepts, from the declaration: an enum's values, an integer's range.
std::string OptionValuesNote(const ConfigOption& o) {
  if (o.type == OptionType::kEnum && !o.enum_values.empty()) {
    std::string v;
    for (const auto& e : o.enum_values) v += (v.empty() ? "" : ", ") + ("`" + e + "`");
    return " Values: " + v + " (any case).";
  }
  if (o.type != OptionType::kInteger || (o.min_value == INT64_MIN && o.max_value == INT64_MAX)) return "";
  if (o.max_value == INT64_MAX) return " At least " + std::to_string(o.min_value) + ".";
  return " From " + std::to_string(o.min_value) + " to " + std::to_string(o.max_value) + ".";
}

// Markdown reference of every connector, format and configuration option, generated from their
// declarations (docs/connectors.md and docs/options.md are this output).
void PrintReference() {
  std::cout << "# Connectors and formats\n\nGenerated by `sluice reference` from the option declarations.\n";
  for (const ConnectorFactory* f : ConnectorRegistry::Builtin().all()) {
    std::cout << "\n## '" << f->identifier() << "'\n\n";
    std::cout << "Source: " << (f->supports_source() ? "yes" : "no") << ". Sink: " << (f->supports_sink() ? "yes" : "no")
              << ".\n\n| option | required | default | description |\n|---|---|---|---|\n";
    for (const auto& o : f->options()) {
      std::cout << "| `" << o.key << "` | " << (o.required ? "yes" : "no") << " | " << (o.default_value.empty() ? "" : "`" + o.default_value + "`")
                << " | " << o.description << " |\n";
    }
    auto meta = f->metadata();
    if (!meta.empty()) {
      std::cout << "\nMetadata columns: ";
      for (size_t i = 0; i < meta.size(); ++i) std::cout << (i ? ", " : "") << "`" << meta[i].name << "` " << meta[i].type.ToString();
      std::cout << ".\n";
    }
    auto writable = f->writable_metadata();
    if (!writable.empty()) {
      std::cout << "\nWritable metadata columns (sinks; declare the others VIRTUAL in a sink table): ";
      for (size_t i = 0; i < writable.size(); ++i) std::cout << (i ? ", " : "") << "`" << writable[i].name << "` " << writable[i].type.ToString();
      std::cout << ".\n";
    }
  }
  for (const FormatFactory* f : AllFormats()) {
    std::cout << "\n## format '" << f->identifier() << "'\n\n| option | default | description |\n|---|---|---|\n";
    for (const auto& o : f->options()) {
      std::cout << "| `" << o.key << "` | " << (std::string(o.default_value).empty() ? "" : "`" + std::string(o.default_value) + "`")
                << " | " << o.description << " |\n";
    }
  }
  std::cout << "\n# Configuration options (SET / --set)\n\n| key | default | description |\n|---|---|---|\n";
  for (const auto& o : AllConfigOptions()) {
    std::cout << "| `" << o.key << "` | " << (std::string(o.default_value).empty() ? "" : "`" + std::string(o.default_value) + "`")
              << " | " << o.description << OptionValuesNote(o) << " |\n";
  }
}

// `gen larkspur`: the example data generator's subcommand, its options parsed into *opts.
CLI::App* AddGenCommand(CLI::App* app, LarkspurOptions* opts) {
  CLI::App* gen = app->add_subcommand("gen", "Generate an example's data set");
  CLI::App* gen_larkspur = gen->add_subcommand("larkspur", "The Larkspur replay (examples/larkspur): basket uploads, prices, stores, ground truth");
  gen->require_subcommand(1);
  gen_larkspur->add_option("--out", opts->out_dir, "The directory to write")->required();
  gen_larkspur->add_option("--days", opts->days, "UTC upload days around the replay day 2026-08-15 (default 3: the 14th to the 16th)");
  gen_larkspur->add_option("--seed", opts->seed, "The random seed (default 28)");
  gen_larkspur->add_option("--stores", opts->stores, "Stores, split over GB, IN and SG (default 600)");
  return gen_larkspur;
}

// The `iceberg` maintenance subcommands (docs/iceberg.md).
struct IcebergCommands {
  CLI::App* compact;
  CLI::App* expire;
  CLI::App* orphans;
};

// Adds `iceberg compact | expire-snapshots | remove-orphan-files`, their options parsed into *opts
// (all but `action`, which the parsed subcommand decides).
IcebergCommands AddIcebergCommands(CLI::App* app, IcebergCommandOptions* opts) {
  CLI::App* iceberg = app->add_subcommand("iceberg", "Iceberg table maintenance (docs/iceberg.md)");
  iceberg->require_subcommand(1);
  CLI::App* compact = iceberg->add_subcommand(
      "compact", "Rewrite data files with their deletes applied (Iceberg's rewrite_data_files): one 'replace' snapshot");
  CLI::App* expire = iceberg->add_subcommand(
      "expire-snapshots", "Expire old snapshots and delete the files only they reach (Iceberg's expire_snapshots)");
  CLI::App* orphans = iceberg->add_subcommand(
      "remove-orphan-files",
      "Delete the files under the table's location its metadata does not reach (Iceberg's remove_orphan_files)");
  for (CLI::App* cmd : {compact, expire, orphans}) {
    cmd->add_option("CATALOG", opts->catalog,
                    "A warehouse path (hadoop catalog) or catalog options 'catalog-type=rest,uri=http://...'")
        ->required();
    cmd->add_option("TABLE", opts->table, "The table, <database>.<table>")->required();
  }
  compact->add_option("--target-file-size-bytes", opts->target_file_size,
                      "Size of the written files (default: the table's write.target-file-size-bytes)");
  expire->add_option("--older-than", opts->older_than,
                     "Expire snapshots older than this: epoch milliseconds or 'YYYY-MM-DD HH:MM:SS' (UTC); default: "
                     "now minus history.expire.max-snapshot-age-ms");
  expire->add_option("--retain-last", opts->retain_last,
                     "Keep at least this many snapshots of each branch (default: history.expire.min-snapshots-to-keep)");

  orphans->add_option("--older-than", opts->older_than,
                      "Only files last modified before this are orphans: epoch milliseconds or 'YYYY-MM-DD HH:MM:SS' "
                      "(UTC); default: 3 days ago");
  orphans->add_flag("--dry-run", opts->dry_run, "List the orphan files without deleting them");
  return {compact, expire, orphans};
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) {
  CLI::App app{"Sluice: an embedded streaming SQL engine that speaks Apache Flink SQL"};
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "Print the version and exit");

  sluice::RunOptions run_opts;
  std::vector<CLI::Option*> execute_opts;  // -e of run and explain: given at all, even as ""
  auto add_common = [&](CLI::App* cmd) {
    cmd->add_option("FILE", run_opts.file, "A script of ';'-separated Flink SQL statements");
    cmd->add_option("-i,--init", run_opts.init_files,
                    "A script run first in the same session, e.g. shared DDL (repeatable, as Flink's SQL client -i)")
        ->allow_extra_args(false);
    execute_opts.push_back(cmd->add_option("-e,--execute", run_opts.sql, "Run this SQL text instead of a file"));
    cmd->add_option("--format", run_opts.format, "How SELECT results print: tableau (default), jsonl or csv")
        ->check(CLI::IsMember({"tableau", "jsonl", "csv"}));
    cmd->add_option("--mode", run_opts.mode,
                    "changelog (every +I/-U/+U/-D change; default) or table (only the final materialized result)")
        ->check(CLI::IsMember({"changelog", "table", "tableau"}));
    cmd->add_option("--set", run_opts.sets, "key=value, as SET 'key' = 'value' (repeatable)")
        ->allow_extra_args(false);
    cmd->add_flag("-v,--verbose", run_opts.verbose, "Also print [INFO] lines for statements without results");
  };
  CLI::App* run = app.add_subcommand("run", "Execute a script (or -e SQL)");
  add_common(run);
  CLI::App* explain = app.add_subcommand("explain", "Run a script's DDL and EXPLAIN its queries and INSERTs");
  add_common(explain);
  CLI::App* reference = app.add_subcommand("reference", "Print every connector, format and option as Markdown");
  sluice::LarkspurOptions larkspur_opts;
  CLI::App* gen_larkspur = sluice::AddGenCommand(&app, &larkspur_opts);

  sluice::IcebergCommandOptions iceberg_opts;
  const sluice::IcebergCommands iceberg_cmds = sluice::AddIcebergCommands(&app, &iceberg_opts);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (version) {
    std::cout << sluice::kVersion << "\n";
    return 0;
  }
  if (gen_larkspur->parsed()) {
    sluice::Status st = sluice::GenerateLarkspur(larkspur_opts, &std::cerr);
    if (!st.ok()) {
      std::cerr << "sluice: error in gen larkspur: " << st.message() << "\n";
      return 1;
    }
    return 0;
  }
  if (iceberg_cmds.compact->parsed() || iceberg_cmds.expire->parsed() || iceberg_cmds.orphans->parsed()) {
    iceberg_opts.action = iceberg_cmds.compact->parsed()  ? "compact"
                          : iceberg_cmds.expire->parsed() ? "expire-snapshots"
                                                          : "remove-orphan-files";
    return sluice::RunIcebergCommand(iceberg_opts, std::cout, std::cerr);
  }
  if (reference->parsed()) {
    sluice::PrintReference();
    return 0;
  }
  if (!run->parsed() && !explain->parsed()) {
    std::cout << app.help();
    return 0;
  }
  bool has_sql = false;
  for (const CLI::Option* o : execute_opts) has_sql |= o->count() > 0;
  if (run_opts.file.empty() == !has_sql) {
    std::cerr << "sluice: error: give either a script FILE or -e 'SQL'\n";
    return 2;
  }
  if (run_opts.mode == "tableau") run_opts.mode = "changelog";
  run_opts.explain_only = explain->parsed();
  // The last resort: an exception that escaped the engine (a job turns std::bad_alloc into an error
  // itself, runtime/memory_budget.h) ends the process with a message and exit code 1, never
  // std::terminate's abort.
  try {
    return sluice::RunScript(run_opts);
  } catch (const std::bad_alloc&) {
    std::cerr << "sluice: error: out of memory (an allocation failed: std::bad_alloc)\n";
  } catch (const std::exception& e) {
    std::cerr << "sluice: error: unexpected failure: " << e.what() << "\n";
  }
  return 1;
}
