import load, model, pairs, trym
def kernel(R,BY):
    P=pairs.pairdata(R,BY); basis=[]
    def red(v):
        for b in basis: v=min(v,v^b)
        return v
    for nm,q,w,vol in P:
        tags={}
        for t in q: tags.setdefault(model.tag(t),[]).append(t)
        A,B=tags.values()
        if len(A)==1 and len(B)==1 and w==2:
            r=red(pairs.vec(A[0])^pairs.vec(B[0]))
            if r: basis.append(r); basis.sort(reverse=True)
    return basis
def portf(basis):
    def p(t):
        v=pairs.vec(t)
        for b in basis: v=min(v,v^b)
        return v
    return p
if __name__=='__main__':
    for BY in [16,8,4,1]:
        for vol in [True,False]:
            R=[L for L in trym.data(BY) if L['vol']==vol]
            b=kernel(R,BY)
            print(BY,'3d' if vol else '2d',len(R),'kernel',[pairs.VARS[x.bit_length()-1] for x in b])
            trym.score(R,portf(b),show=5)
            trym.score(R,model.port16,show=0)
