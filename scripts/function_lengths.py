#!/usr/bin/env python3
"""Lists the longest C++ function definitions (house rule: functions under ~100 lines).

A brace-counting scan, no compiler needed: comments, string and character literals and preprocessor
lines are blanked, then every `{...}` opened at namespace or class level whose head has a `(` counts
as a function (lambdas and local classes count toward their enclosing function). Lines are counted
from the start of the signature to the closing brace.

  python3 scripts/function_lengths.py [DIR...]      (default: src; TOP=N lines of output, default 40)
"""
import re, sys, os

def strip(src):
    out = []; i = 0; n = len(src)
    while i < n:
        c = src[i]
        if src.startswith('//', i):
            j = src.find('\n', i); j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif src.startswith('/*', i):
            j = src.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j])); i = j
        elif src.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', src[i:])
            end = src.find(')' + m.group(1) + '"', i)
            j = end + len(m.group(1)) + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j])); i = j
        elif c in '"\'':
            if c == "'" and i > 0 and (src[i-1].isalnum()) and src[i-1] not in 'uUL8':  # digit separator
                out.append(' '); i += 1; continue
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', src[i+1:j]) + c); i = j + 1
        else:
            out.append(c); i += 1
    return ''.join(out)

def scan(path):
    src = strip(open(path, errors='replace').read())
    src = re.sub(r'^[ \t]*#.*$', lambda m: ' ' * len(m.group(0)), src, flags=re.M)
    stack = []  # kinds
    last = 0; res = []
    line = 1
    lines_at = []
    for i, c in enumerate(src):
        if c in '{};':
            if c == '{':
                head = src[last:i]
                kind = 'block'
                if all(k[0] in ('ns', 'class') for k in stack):
                    h = ' '.join(head.split())
                    if re.search(r'\bnamespace\b', h) or re.match(r'extern\s+"', h):
                        kind = 'ns'
                    elif re.search(r'\b(class|struct|union|enum)\b[^(]*$', h.split('(')[0] + ('' if '(' in h else '')) and '(' not in h.split('=')[0][:h.find('(') if '(' in h else len(h)]:
                        kind = 'class'
                    elif '(' in h and not h.rstrip().endswith('='):
                        kind = 'func'
                    stripped = head.lstrip()
                    start_off = last + (len(head) - len(stripped))
                    stack.append((kind, start_off, h))
                else:
                    stack.append(('block', i, ''))
                last = i + 1
            elif c == '}':
                if stack:
                    kind, off, h = stack.pop()
                    if kind == 'func':
                        l0 = src.count('\n', 0, off) + 1
                        l1 = src.count('\n', 0, i) + 1
                        m = re.search(r'([~\w:<>]+(?:operator\s*\S+)?)\s*\(', h)
                        res.append((l1 - l0 + 1, path, l0, m.group(1) if m else h[:60]))
                last = i + 1
            else:
                if all(k[0] in ('ns', 'class') for k in stack):
                    last = i + 1
    return res

allr = []
for root in sys.argv[1:] or ['src']:
    for dp, dn, fn in os.walk(root):
        for f in fn:
            if f.endswith(('.cc', '.h', '.cpp')):
                allr += scan(os.path.join(dp, f))
allr.sort(reverse=True)
for n, p, l, name in allr[:int(os.environ.get('TOP', 40))]:
    print(f'{n:5d} {p}:{l} {name}')
