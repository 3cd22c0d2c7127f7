import load
def tset(t, b, vol):
    xb, y, z = t
    x = (xb // 32) & 1; yy = (y // 4) & 1
    if vol:
        g = z & 1; return ((x ^ g) << 1) | (yy ^ (z & 1))
    if b == 16:
        return (x << 1) | (yy ^ ((xb // 64) & 1))
    g = (y // 8) & 1
    return ((x ^ g) << 1) | yy
def tag(t): return (t[0] // 32, t[1] // 4, t[2])
def port16(t):
    xb, y, z = t
    return ((xb >> 4 ^ xb >> 5 ^ y >> 2) & 1) | (((y >> 1 ^ z) & 1) << 1)
def quads(L):
    q = {}
    for ln, x, y, z in L['lanes']:
        q.setdefault(ln // 4, []).append((x * L['bytes'], y, z))
    return [q[k] for k in sorted(q)]
def conflicts(L):
    tot = 0
    for q in quads(L):
        tags = {}
        for t in q: tags.setdefault(tag(t), tset(t, L['bytes'], L['vol']))
        c = [0]*4
        for s in tags.values(): c[s] += 1
        tot += max(c) - 1
    return tot
def greedy(q, b, vol, port, key=tag):
    W = []
    for t in q:
        k = key(t); s = tset(t, b, vol); p = port(t)
        for w in W:
            if all(e[0] == k or (e[1] != s and e[2] != p) for e in w):
                w.append((k, s, p)); break
        else:
            W.append([(k, s, p)])
    return len(W)
def waves(L, port=port16, key=tag, f=None):
    f = f or greedy
    return sum(f(q, L['bytes'], L['vol'], port, key) for q in quads(L))
