package sluice.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a Flink SQL script into statements at ';' outside quotes ('...', `...`, "...") and comments
 * (-- to the end of the line, block comments), as Flink's SQL client does. The ';'s inside
 * `EXECUTE STATEMENT SET BEGIN ... END` (and EXPLAIN's STATEMENT SET) belong to that statement.
 * Statements are returned trimmed, without the ';'; empty ones (and comment-only ones) are dropped.
 */
final class ScriptSplitter {
  private ScriptSplitter() {}

  static List<String> split(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean hasCode = false;
    boolean inBlock = false;
    int n = script.length();
    for (int i = 0; i < n; i++) {
      char c = script.charAt(i);
      char next = i + 1 < n ? script.charAt(i + 1) : '\0';
      if (c == '-' && next == '-') {
        int end = script.indexOf('\n', i);
        if (end < 0) end = n;
        cur.append(script, i, end);
        i = end - 1;
        continue;
      }
      if (c == '/' && next == '*') {
        int end = script.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        cur.append(script, i, end);
        i = end - 1;
        continue;
      }
      if (c == '\'' || c == '`' || c == '"') {
        flushWord(word, words);
        int j = i + 1;
        while (j < n) {
          if (script.charAt(j) == c) {
            if (j + 1 < n && script.charAt(j + 1) == c) {
              j += 2;
              continue;
            }
            break;
          }
          j++;
        }
        int end = Math.min(n, j + 1);
        cur.append(script, i, end);
        hasCode = true;
        i = end - 1;
        continue;
      }
      if (Character.isLetterOrDigit(c) || c == '_') {
        word.append(c);
      } else {
        flushWord(word, words);
      }
      if (!inBlock && isStatementSetBegin(words)) inBlock = true;
      if (c == ';') {
        boolean endsBlock = !words.isEmpty() && words.get(words.size() - 1).equals("END");
        if (!inBlock || endsBlock) {
          if (hasCode) out.add(cur.toString().trim());
          cur.setLength(0);
          words.clear();
          hasCode = false;
          inBlock = false;
          continue;
        }
      }
      if (!Character.isWhitespace(c)) hasCode = true;
      cur.append(c);
    }
    flushWord(word, words);
    if (hasCode && !cur.toString().trim().isEmpty()) out.add(cur.toString().trim());
    return out;
  }

  private static void flushWord(StringBuilder word, List<String> words) {
    if (word.length() > 0) {
      words.add(word.toString().toUpperCase(Locale.ROOT));
      word.setLength(0);
    }
  }

  private static boolean isStatementSetBegin(List<String> words) {
    int k = words.size();
    return k >= 3 && words.get(k - 1).equals("BEGIN") && words.get(k - 2).equals("SET")
        && words.get(k - 3).equals("STATEMENT");
  }
}
