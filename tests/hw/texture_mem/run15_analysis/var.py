import sys; sys.path.insert(0,'..'); import predict_run15 as p
import load, model, trym
from collections import Counter
D='../../h200/texture_mem/'
R13=[L for L in trym.data(8)+trym.data(4)+trym.data(1)]
R12=[L for L in load.load(D+'run12','tex12_probe.csv.zst') if L['filt']=='point' and L['bytes']<16]
def mk(two, three):
    def port(x,y,z,b,vol):
        if b==16: return ((x>>4^x>>5^y>>2)&1,y&1,y>>1&1,y>>4&1,z&1,z>>1&1)
        return (two if not vol else three)(x,y,z,b)
    return port
V={
 'N2': mk(lambda x,y,z,b:(x>>4&1,y&1,y>>1&1,y>>2&1), lambda x,y,z,b:(x>>4&1,y&1,y>>1&1,(y>>2&1) if b==8 else 0,z&1)),
 'xy2d': mk(lambda x,y,z,b:((x>>4^y>>2)&1,y&1,y>>1&1), lambda x,y,z,b:(x>>4&1,y&1,y>>1&1,(y>>2&1) if b==8 else 0,z&1)),
}
for n,f in V.items():
    p.port=f
    out=[]
    for nm,R in [('run13',R13),('run12',R12)]:
        c=Counter()
        for L in R:
            k=L['name'].rsplit('_',1)[0] if nm=='run12' else nm
            c[k]+= sum(p.rule_n(q,L['bytes'],L['vol']) for q in model.quads(L))==L['m']['waves']
        out.append(dict(c))
    print(n,out)
