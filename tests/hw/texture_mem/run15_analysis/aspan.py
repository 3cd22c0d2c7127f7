import load, model, addr, sys, itertools
D='../../h200/texture_mem/'
NB=20
BITS=list(range(4,NB))
def A(L,t):
    W,H,Dd=L['dims']; return addr.offset(L['bytes'],L['vol'],W,H,Dd,t[0],t[1],t[2])
def av(L,t): return A(L,t)>>4
def name(r): return '^'.join(f'a{i+4}' for i in range(NB) if r>>i&1)
def get(BY, which):
    R=[]
    if 'a' in which: R+=load.load(D+'run13')+load.load(D+'run13/blind')
    if 'b' in which: R+=load.load(D+'run12','tex12_probe.csv.zst')
    return [L for L in R if L['filt']=='point' and L['bytes']==BY]
def cons(R,BY):
    out=[]
    for L in R:
        qs=model.quads(L)
        if len(qs)!=1: continue
        tags={}
        for t in qs[0]: tags.setdefault(model.tag(t),[]).append(t)
        if len(tags)!=2: continue
        Aa,Bb=tags.values()
        if model.tset(Aa[0],BY,L['vol'])==model.tset(Bb[0],BY,L['vol']): continue
        diffs=[av(L,a)^av(L,b) for a in Aa for b in Bb]
        out.append((diffs,L['m']['waves']==1,L['name']))
    return out
def red(basis,v):
    for b in basis: v=min(v,v^b)
    return v
if __name__=='__main__':
    BY=int(sys.argv[1]); which=sys.argv[3] if len(sys.argv)>3 else 'ab'
    C=cons(get(BY,which),BY)
    basis=[]
    for diffs,share,nm in C:
        if not share and len(diffs)==1:
            r=red(basis,diffs[0])
            if r: basis.append(r); basis.sort(reverse=True)
    print(BY,which,'cons',len(C),'kernel dim',len(basis),[name(b) for b in basis])
    bad=[nm for diffs,share,nm in C if share and len(diffs)==1 and red(basis,diffs[0])==0]
    print(' share in span',len(bad),bad[:8])
