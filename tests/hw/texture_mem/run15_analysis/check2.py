import load, model, pairs, pickle, sys, trym, color
BY=int(sys.argv[1]); VOL=sys.argv[2]
R=[L for L in trym.data(BY) if L['vol']==(VOL=='3d')]
sols=pickle.load(open(f'sols{BY}{VOL}.pkl','rb'))
def name(r): return '^'.join(f'{a}{b}' for i,(a,b) in enumerate(pairs.VARS) if r>>i&1)
def mk(r1,r2):
    def port(t):
        v=pairs.vec(t); return (bin(v&r1).count('1')&1)|((bin(v&r2).count('1')&1)<<1)
    return port
res=[]
for r1,r2 in sols:
    p=mk(r1,r2)
    bad=[L['name'] for L in R if model.waves(L,port=p,f=color.optimal)!=L['m']['waves']]
    res.append((len(bad),name(r1),name(r2),bad[:6]))
res.sort()
for r in res[:5]: print(r)
