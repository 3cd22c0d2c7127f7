import load, model, addr, aspan, sys, pickle, color
BY=int(sys.argv[1]); which=sys.argv[2]; dim=sys.argv[3]; opt=len(sys.argv)>4
R=[L for L in aspan.get(BY,which) if L['vol']==(dim=='3d')]
sols=pickle.load(open(f'asols{BY}.pkl','rb'))
def waves(L,r1,r2):
    def port(t):
        v=aspan.av(L,t); return (bin(v&r1).count('1')&1)|((bin(v&r2).count('1')&1)<<1)
    f=color.optimal if opt else None
    return model.waves(L,port=port,f=f)
res=[]
for r1,r2 in sols:
    bad=0
    for L in R:
        if waves(L,r1,r2)!=L['m']['waves']:
            bad+=1
            if bad>40: break
    res.append((bad,aspan.name(r1),aspan.name(r2)))
res.sort()
print(len(R)); [print(r) for r in res[:8]]
