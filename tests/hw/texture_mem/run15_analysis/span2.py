import load, model, pairs, sys
pairs.VARS[:] = [('x',i) for i in range(4,10)]+[('y',i) for i in range(0,8)]+[('z',0),('z',1)]
D='../../h200/texture_mem/'
BY=int(sys.argv[1]); VOL=sys.argv[2]
R=load.load(D+'run13')+load.load(D+'run13/blind')+load.load(D+'run12','tex12_probe.csv.zst')
R=[L for L in R if L['filt']=='point' and L['bytes']==BY and L['vol']==(VOL=='3d')]
if len(sys.argv)>3: R=[L for L in R if sys.argv[3] in L['name']]
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
def reduce(basis,v):
    for b in basis: v=min(v,v^b)
    return v
basis=[]
for d,nm in conf:
    r=reduce(basis,d)
    if r: basis.append(r); basis.sort(reverse=True)
print('conf',len(conf),'share',len(share),'span dim',len(basis))
print('basis',[name(b) for b in basis])
bad=[(nm,name(d)) for d,nm in share if reduce(basis,d)==0]
print('share in span:',len(bad),bad[:10])
