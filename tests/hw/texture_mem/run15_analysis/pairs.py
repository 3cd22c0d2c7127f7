import load, model, sys
VARS = [('x',4),('x',5),('x',6),('x',7),('y',0),('y',1),('y',2),('y',3),('y',4),('z',0),('z',1)]
def vec(t):
    xb,y,z=t; v=0
    for i,(a,b) in enumerate(VARS):
        val={'x':xb,'y':y,'z':z}[a]
        v|=((val>>b)&1)<<i
    return v
def pairdata(R, bytes_):
    out=[]
    for L in R:
        if L['filt']!='point' or L['bytes']!=bytes_: continue
        qs=model.quads(L)
        if len(qs)!=1: continue
        q=qs[0]
        tags={}
        for t in q: tags.setdefault(model.tag(t), t)
        if len(tags)!=2: continue
        a,b=tags.values()
        # all texels of a block must be considered; use all texels if blocks have several
        if model.tset(a,bytes_,L['vol'])==model.tset(b,bytes_,L['vol']):
            assert L['m']['waves']>=2, L['name']; continue
        out.append((L['name'], [t for t in q], L['m']['waves'], L['vol']))
    return out
