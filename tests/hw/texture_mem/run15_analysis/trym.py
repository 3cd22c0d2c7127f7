import load, model, sys
D='../../h200/texture_mem/'
def data(BY, extra=True):
    R=load.load(D+'run13')+(load.load(D+'run13/blind') if extra else [])
    return [L for L in R if L['filt']=='point' and L['bytes']==BY]
def score(R, port, f=None, show=0):
    bad=[]
    for L in R:
        p=model.waves(L,port=port,f=f)
        if p!=L['m']['waves']: bad.append((L['name'],p,L['m']['waves']))
    print(len(bad),'of',len(R),'miss; above',sum(b[1]>b[2] for b in bad),'below',sum(b[1]<b[2] for b in bad))
    for b in bad[:show]: print('  ',b)
    return bad
