package com.github.nexmark.flink.udf;

import org.apache.flink.table.functions.ScalarFunction;

/**
 * Nexmark q14's user-defined function under the class name its DDL names
 * (`CREATE FUNCTION count_char AS 'com.github.nexmark.flink.udf.CountChar'`), so bench/nexmark/q14.sql
 * runs unchanged on Flink: how often a character occurs in a string, as Sluice's built-in COUNT_CHAR
 * (src/function/string_functions.cc) computes it.
 */
public class CountChar extends ScalarFunction {
  public Long eval(String s, String ch) {
    if (s == null || ch == null) return null;
    if (ch.isEmpty()) return 0L;
    long n = 0;
    if (ch.length() == 1) {
      char c = ch.charAt(0);
      for (int i = 0; i < s.length(); i++) if (s.charAt(i) == c) n++;
      return n;
    }
    for (int p = s.indexOf(ch); p >= 0; p = s.indexOf(ch, p + ch.length())) n++;
    return n;
  }
}
