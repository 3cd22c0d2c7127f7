#!/usr/bin/env python3
"""Rewrites mentions of moved test and hardware-data paths, from scripts/hw_moves.tsv.

    python3 scripts/apply_hw_moves.py [--check] [ROOT]

ROOT (default: the repository holding this script) is searched for text files (.rs .md .py .sh
.toml .txt .cu .yml, and .ci/run); every mention of an old path (a whole path component: the
old path followed by `/`, or by a character that cannot continue a file name) becomes the new
path. A mention that already is a new path is left alone, so running it twice changes nothing.
Recorded hardware data (tests/hw/h200/, tests/hw/kernels/out/), target/, .git/ and the move list
itself are never touched. --check only lists the files it would change and exits 1 if any.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXTS = ('.rs', '.md', '.py', '.sh', '.toml', '.txt', '.cu', '.yml', '.yaml')
SKIP_DIRS = ('.git', 'target', 'tests/hw/h200', 'tests/hw/kernels/out', 'fuzz/target',
             'fuzz/corpus', 'fuzz/artifacts', 'hw', 'hw-out', '.whl')
SKIP_FILES = ('scripts/hw_moves.tsv', 'scripts/apply_hw_moves.py')
# A character that continues a path component.
CONT = r'A-Za-z0-9_\-'


def load_moves(path):
    moves = []
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        parts = line.split('\t')
        if len(parts) != 2 or not parts[0] or not parts[1]:
            sys.exit(f'{path}:{n}: want "old<TAB>new", got {line!r}')
        moves.append((parts[0], parts[1]))
    return moves


def end_pattern():
    # The path ends here: not followed by a name character, nor by a '.' that starts an
    # extension (".csv"); a '.' ending a sentence is fine.
    return r'(?![%s]|\.[A-Za-z0-9])' % CONT


def compile_moves(moves):
    end = end_pattern()
    news = sorted({n for _, n in moves}, key=len, reverse=True)
    olds = sorted(moves, key=lambda m: len(m[0]), reverse=True)
    alt = '|'.join(re.escape(p) for p in news + [o for o, _ in olds])
    # Leftmost match; at one position the longest candidate (new paths and old paths alike).
    rx = re.compile(r'(?<![%s])(?:%s)%s' % (CONT, alt, end))
    new_set = set(news)
    old_map = dict(moves)
    return rx, new_set, old_map, news, olds


def rewrite(text, compiled):
    rx, new_set, old_map, news, olds = compiled
    end = re.compile(end_pattern())

    def at(pos):
        # The longest new path or old path that starts at pos and ends at a boundary.
        best = None
        for p in news:
            if text.startswith(p, pos) and end.match(text, pos + len(p)):
                best = (p, None)
                break
        for o, n in olds:
            if text.startswith(o, pos) and end.match(text, pos + len(o)):
                if best is None or len(o) > len(best[0]):
                    best = (o, n)
                break
        return best

    pos = 0
    res = []
    while True:
        m = rx.search(text, pos)
        if not m:
            res.append(text[pos:])
            break
        s = m.start()
        hit = at(s)
        res.append(text[pos:s])
        if hit is None:  # cannot happen: the regex matched one of them
            res.append(text[s])
            pos = s + 1
            continue
        path, new = hit
        res.append(path if new is None else new)
        pos = s + len(path)
    return ''.join(res)


def files(root):
    for d, dirs, names in os.walk(root):
        rel = os.path.relpath(d, root).replace(os.sep, '/')
        rel = '' if rel == '.' else rel
        dirs[:] = [x for x in dirs
                   if not any((rel + '/' + x).lstrip('/') == s for s in SKIP_DIRS)]
        for name in names:
            p = (rel + '/' + name).lstrip('/')
            if p in SKIP_FILES:
                continue
            if name.endswith(EXTS) or p == '.ci/run' or p == 'fuzz/run':
                yield p


def main():
    args = [a for a in sys.argv[1:] if a != '--check']
    check = '--check' in sys.argv[1:]
    root = args[0] if args else os.path.dirname(HERE)
    compiled = compile_moves(load_moves(os.path.join(HERE, 'hw_moves.tsv')))
    changed = []
    for p in files(root):
        full = os.path.join(root, p)
        try:
            text = open(full, encoding='utf-8').read()
        except (UnicodeDecodeError, OSError):
            continue
        new = rewrite(text, compiled)
        if new != text:
            changed.append(p)
            if not check:
                with open(full, 'w', encoding='utf-8') as f:
                    f.write(new)
    for p in changed:
        print(p)
    if check and changed:
        print(f'{len(changed)} files mention moved paths (run scripts/apply_hw_moves.py)',
              file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
