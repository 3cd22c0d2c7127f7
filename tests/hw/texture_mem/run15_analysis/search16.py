import load, model, pairs, sys, itertools
D='../../h200/texture_mem/'
BY=int(sys.argv[1]) if len(sys.argv)>1 else 16
R=[L for L in load.load(D+'run13')+load.load(D+'run13/blind') if L['filt']=='point' and L['bytes']==BY]
VOL=sys.argv[2] if len(sys.argv)>2 else "all"
if VOL!="all": R=[L for L in R if L["vol"]==(VOL=="3d")]
P=pairs.pairdata(R,BY)
# constraints: list of (list of diffs, share)
cons=[]
for name,q,w,vol in P:
    tags={}
    for t in q: tags.setdefault(model.tag(t),[]).append(t)
    A,B=tags.values()
    diffs=[pairs.vec(a)^pairs.vec(b) for a in A for b in B]
    cons.append((diffs, w==1, name))
n=len(pairs.VARS)
def par(r,d): return bin(r&d).count('1')&1
sols=[]
for r1 in range(1,1<<n):
    for r2 in range(r1+1,1<<n):
        ok=True
        for diffs,share,name in cons:
            s=all(par(r1,d) or par(r2,d) for d in diffs)
            if s!=share: ok=False;break
        if ok: sols.append((r1,r2))
print(len(cons),'constraints', len(sols),'solutions')
def name(r): return '^'.join(f'{a}{b}' for i,(a,b) in enumerate(pairs.VARS) if r>>i&1)
for r1,r2 in sols[:40]: print(name(r1),'|',name(r2))
import pickle; pickle.dump(sols,open(f'sols{BY}{VOL}.pkl','wb'))
