import load, model, addr, aspan, sys, pickle
BY=int(sys.argv[1]); which=sys.argv[2]; NB=int(sys.argv[3])
R=aspan.get(BY,which)
if len(sys.argv)>4: R=[L for L in R if L['vol']==(sys.argv[4]=='3d')]
C=aspan.cons(R,BY)
def par(r,d): return bin(r&d).count('1')&1
sols=[]
rows=range(1,1<<NB)
# prefilter: for conflict constraints (single diff), both rows must have parity 0
confd=[d[0] for d,s,n in C if not s and len(d)==1]
ok=[r for r in rows if all(par(r,d)==0 for d in confd)]
print('rows ok',len(ok))
for i,r1 in enumerate(ok):
    for r2 in ok[i+1:]:
        good=True
        for diffs,share,nm in C:
            s=all(par(r1,d) or par(r2,d) for d in diffs)
            if s!=share: good=False;break
        if good: sols.append((r1,r2))
print(len(sols))
for r1,r2 in sols[:20]: print(aspan.name(r1),'|',aspan.name(r2))
pickle.dump(sols,open(f'asols{BY}.pkl','wb'))
