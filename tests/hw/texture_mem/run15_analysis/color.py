import itertools, model
def conflict(a,b,by,vol,port,key=model.tag):
    if key(a)==key(b): return False
    return model.tset(a,by,vol)==model.tset(b,by,vol) or port(a)==port(b)
def optimal(q, by, vol, port, key=model.tag):
    n=len(q)
    C=[[conflict(q[i],q[j],by,vol,port,key) for j in range(n)] for i in range(n)]
    for k in range(1,n+1):
        for col in itertools.product(range(k),repeat=n):
            if all(not C[i][j] or col[i]!=col[j] for i in range(n) for j in range(i+1,n)):
                return k
    return n
