import load, model, pairs, pickle, sys
D='../../h200/texture_mem/'
BY=int(sys.argv[1])
R=[L for L in load.load(D+'run13')+load.load(D+'run13/blind') if L['filt']=='point' and L['bytes']==BY]
VOL=sys.argv[2] if len(sys.argv)>2 else "all"
if VOL!="all": R=[L for L in R if L["vol"]==(VOL=="3d")]
sols=pickle.load(open(f'sols{BY}{VOL}.pkl','rb'))
def name(r): return '^'.join(f'{a}{b}' for i,(a,b) in enumerate(pairs.VARS) if r>>i&1)
def mk(r1,r2):
    def port(t):
        v=pairs.vec(t); return (bin(v&r1).count('1')&1)|((bin(v&r2).count('1')&1)<<1)
    return port
res=[]
for r1,r2 in sols:
    p=mk(r1,r2)
    bad=[L['name'] for L in R if model.waves(L,port=p)!=L['m']['waves']]
    res.append((len(bad),name(r1),name(r2),bad[:6]))
res.sort()
for r in res[:30]: print(r)
print(len(R))
