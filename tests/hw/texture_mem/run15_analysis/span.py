import load, model, pairs, sys
D='../../h200/texture_mem/'
BY=int(sys.argv[1]); VOL=sys.argv[2] if len(sys.argv)>2 else 'all'
R=[L for L in load.load(D+'run13')+load.load(D+'run13/blind') if L['filt']=='point' and L['bytes']==BY]
if VOL!='all': R=[L for L in R if L['vol']==(VOL=='3d')]
P=pairs.pairdata(R,BY)
def name(r): return '^'.join(f'{a}{b}' for i,(a,b) in enumerate(pairs.VARS) if r>>i&1)
conf=[];share=[]
for nm,q,w,vol in P:
    tags={}
    for t in q: tags.setdefault(model.tag(t),[]).append(t)
    A,B=tags.values()
    if len(A)==1 and len(B)==1:
        d=pairs.vec(A[0])^pairs.vec(B[0])
        (share if w==1 else conf).append((d,nm))
# gaussian basis
def reduce(basis,v):
    for b in basis:
        v=min(v,v^b)
    return v
basis=[]
for d,nm in conf:
    r=reduce(basis,d)
    if r: basis.append(r); basis.sort(reverse=True)
print('conf',len(conf),'share',len(share),'span dim',len(basis))
print('basis',[name(b) for b in basis])
bad=[(nm,name(d)) for d,nm in share if reduce(basis,d)==0]
print('share in span:',len(bad),bad[:10])
