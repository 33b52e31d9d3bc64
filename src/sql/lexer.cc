// See lexer.h.
#include "sql/lexer.h"

#include "common/utf8.h"

#include <cctype>
#include <set>

namespace sluice::sql {
namespace {

class Lexer {
 public:
  Lexer(std::string_view sql, int line_offset, int column_offset)
      : sql_(sql), line_(1 + line_offset), column_(1 + column_offset) {}

  Result<std::vector<Token>> Run() {
    RETURN_IF_ERROR(CheckUtf8());
    std::vector<Token> out;
    bool in_hint = false;
    size_t hint_offset = 0;
    int hint_line = 0, hint_column = 0;
    while (true) {
      RETURN_IF_ERROR(SkipSpaceAndComments());
      Token t;
      t.offset = pos_;
      t.line = line_;
      t.column = column_;
      if (pos_ >= sql_.size()) {
        if (in_hint) {
          return Status::ParseError("SQL parse failed. Unterminated hint /*+ starting at line " +
                                    std::to_string(hint_line) + ", column " + std::to_string(hint_column));
        }
        (void)hint_offset;
        t.kind = TokenKind::kEof;
        t.end = pos_;
        out.push_back(std::move(t));
        return out;
      }
      char c = sql_[pos_];
      if (c == '/' && Peek(1) == '*' && Peek(2) == '+') {
        if (in_hint) return Error(t, "nested hint /*+");
        Advance(3);
        t.kind = TokenKind::kHintStart;
        t.text = "/*+";
        in_hint = true;
        hint_offset = t.offset;
        hint_line = t.line;
        hint_column = t.column;
      } else if (in_hint && c == '*' && Peek(1) == '/') {
        Advance(2);
        t.kind = TokenKind::kHintEnd;
        t.text = "*/";
        in_hint = false;
      } else if ((c == 'x' || c == 'X') && Peek(1) == '\'') {
        Advance(1);
        RETURN_IF_ERROR(LexQuoted('\'', t, "binary string literal"));
        t.kind = TokenKind::kBinaryString;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
        size_t start = pos_;
        while (pos_ < sql_.size() && (std::isalnum(static_cast<unsigned char>(sql_[pos_])) || sql_[pos_] == '_' ||
                                      sql_[pos_] == '$' || static_cast<unsigned char>(sql_[pos_]) >= 0x80)) {
          Advance(1);
        }
        t.kind = TokenKind::kWord;
        t.text = std::string(sql_.substr(start, pos_ - start));
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && std::isdigit(static_cast<unsigned char>(Peek(1))))) {
        LexNumber(t);
      } else if (c == '\'') {
        RETURN_IF_ERROR(LexQuoted('\'', t, "string literal"));
        t.kind = TokenKind::kString;
      } else if (c == '`') {
        RETURN_IF_ERROR(LexQuoted('`', t, "quoted identifier"));
        t.kind = TokenKind::kQuotedIdentifier;
        if (t.text.empty()) return Error(t, "empty quoted identifier ``");
      } else if (c == '"') {
        return Error(t, "double quotes are not identifier quotes in Flink SQL; use backquotes (`name`) for "
                        "identifiers and single quotes for strings");
      } else {
        static constexpr std::string_view kTwo[] = {"||", "<>", "!=", "<=", ">=", "=>"};
        t.kind = TokenKind::kPunct;
        bool matched = false;
        for (std::string_view two : kTwo) {
          if (sql_.substr(pos_, 2) == two) {
            t.text = std::string(two);
            Advance(2);
            matched = true;
            break;
          }
        }
        if (!matched) {
          static constexpr std::string_view kOne = "()[],;.+-*/%=<>:?{}|";
          if (kOne.find(c) == std::string_view::npos) {
            return Error(t, std::string("unexpected character '") + c + "'");
          }
          t.text = std::string(1, c);
          Advance(1);
        }
      }
      t.end = pos_;
      out.push_back(std::move(t));
    }
  }

 private:
  char Peek(size_t ahead) const { return pos_ + ahead < sql_.size() ? sql_[pos_ + ahead] : '\0'; }

  void Advance(size_t n) {
    for (size_t i = 0; i < n && pos_ < sql_.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(sql_[pos_]);
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else if ((c & 0xC0) != 0x80) {
        // Columns count characters: a UTF-8 continuation byte does not start one.
        ++column_;
      }
      ++pos_;
    }
  }

  // SQL text must be UTF-8 (a script saved as Latin-1 is refused here, before its bytes reach a string
  // literal and the output); the error points at the first bad byte.
  Status CheckUtf8() const {
    const size_t bad = FindInvalidUtf8(sql_);
    if (bad == std::string_view::npos) return Status::OK();
    Lexer at(sql_.substr(0, bad), line_ - 1, column_ - 1);
    at.Advance(bad);
    static constexpr char kHex[] = "0123456789ABCDEF";
    const unsigned char b = static_cast<unsigned char>(sql_[bad]);
    return Status::ParseError("SQL parse failed. Lexical error at line " + std::to_string(at.line_) + ", column " +
                              std::to_string(at.column_) + ": invalid UTF-8 byte 0x" + kHex[b >> 4] + kHex[b & 15] +
                              " (SQL text must be UTF-8)");
  }

  static Status Error(const Token& at, const std::string& what) {
    return Status::ParseError("SQL parse failed. Lexical error at line " + std::to_string(at.line) + ", column " +
                              std::to_string(at.column) + ": " + what);
  }

  Status SkipSpaceAndComments() {
    while (pos_ < sql_.size()) {
      char c = sql_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance(1);
      } else if (c == '-' && Peek(1) == '-') {
        while (pos_ < sql_.size() && sql_[pos_] != '\n') Advance(1);
      } else if (c == '/' && Peek(1) == '*' && Peek(2) != '+') {
        Token at;
        at.line = line_;
        at.column = column_;
        Advance(2);
        while (true) {
          if (pos_ >= sql_.size()) {
            return Status::ParseError("SQL parse failed. Unterminated comment /* starting at line " +
                                      std::to_string(at.line) + ", column " + std::to_string(at.column));
          }
          if (sql_[pos_] == '*' && Peek(1) == '/') {
            Advance(2);
            break;
          }
          Advance(1);
        }
      } else {
        break;
      }
    }
    return Status::OK();
  }

  // Reads a token quoted by `quote`, where a doubled quote stands for one.
  Status LexQuoted(char quote, Token& t, const char* what) {
    int line = line_, column = column_;
    Advance(1);
    std::string text;
    while (true) {
      if (pos_ >= sql_.size()) {
        return Status::ParseError(std::string("SQL parse failed. Unterminated ") + what + " starting at line " +
                                  std::to_string(line) + ", column " + std::to_string(column));
      }
      char c = sql_[pos_];
      if (c == quote) {
        if (Peek(1) == quote) {
          text.push_back(quote);
          Advance(2);
          continue;
        }
        Advance(1);
        break;
      }
      text.push_back(c);
      Advance(1);
    }
    t.text = std::move(text);
    return Status::OK();
  }

  void LexNumber(Token& t) {
    size_t start = pos_;
    bool has_dot = false, has_exp = false;
    while (std::isdigit(static_cast<unsigned char>(Peek(0)))) Advance(1);
    if (Peek(0) == '.' && !(Peek(1) == '.')) {
      has_dot = true;
      Advance(1);
      while (std::isdigit(static_cast<unsigned char>(Peek(0)))) Advance(1);
    }
    if ((Peek(0) == 'e' || Peek(0) == 'E') &&
        (std::isdigit(static_cast<unsigned char>(Peek(1))) ||
         ((Peek(1) == '+' || Peek(1) == '-') && std::isdigit(static_cast<unsigned char>(Peek(2)))))) {
      has_exp = true;
      Advance(2);
      while (std::isdigit(static_cast<unsigned char>(Peek(0)))) Advance(1);
    }
    t.kind = has_exp ? TokenKind::kApprox : has_dot ? TokenKind::kDecimal : TokenKind::kInteger;
    t.text = std::string(sql_.substr(start, pos_ - start));
  }

  std::string_view sql_;
  size_t pos_ = 0;
  int line_;
  int column_;
};

// Words that cannot be an unquoted identifier or alias, because they start or continue a clause.
const std::set<std::string>& ReservedWords() {
  static const std::set<std::string> kWords = {
      "ALL",       "AND",       "ARRAY",     "AS",        "ASC",          "BETWEEN",    "BOTH",
      "BY",        "CASE",      "CAST",      "CROSS",     "CURRENT",      "CURRENT_DATE", "CURRENT_TIME",
      "CURRENT_TIMESTAMP",      "DESC",      "DISTINCT",  "ELSE",         "END",        "ESCAPE",
      "EXCEPT",    "EXISTS",    "FALSE",     "FETCH",     "FILTER",       "FOR",        "FROM",
      "FULL",      "GROUP",     "HAVING",    "IN",        "INNER",        "INTERSECT",  "INTERVAL",
      "INTO",      "IS",        "JOIN",      "LATERAL",   "LEADING",      "LEFT",       "LIKE",
      "LIMIT",     "LOCALTIME", "LOCALTIMESTAMP",         "MATCH_RECOGNIZE", "MINUS", "NATURAL",
      "NOT",       "NULL",      "OFFSET",    "ON",        "OR",           "ORDER",      "OUTER",
      "OVER",      "PARTITION", "RANGE",     "RIGHT",     "ROWS",         "SELECT",     "SIMILAR",
      "TABLE",     "THEN",      "TRAILING",  "TRUE",      "UNION",        "UNKNOWN",    "UNNEST",
      "USING",     "VALUES",    "WHEN",      "WHERE",     "WINDOW",       "WITH",
  };
  return kWords;
}

}  // namespace

bool IsReservedWord(std::string_view word) {
  std::string upper(word);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return ReservedWords().count(upper) != 0;
}

Result<std::vector<Token>> Tokenize(std::string_view sql, int line_offset, int column_offset) {
  return Lexer(sql, line_offset, column_offset).Run();
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEof: return "<EOF>";
    case TokenKind::kString: return "\"'" + token.text + "'\"";
    case TokenKind::kBinaryString: return "\"X'" + token.text + "'\"";
    case TokenKind::kQuotedIdentifier: return "\"`" + token.text + "`\"";
    default: return "\"" + token.text + "\"";
  }
}

}  // namespace sluice::sql
