import load, sys
from collections import Counter
d=sys.argv[1]
R=load.load(d)
pred={l.split()[0]:l.split() for l in open('../../h200/texture_mem/run15/predictions.txt') if not l.startswith('#')}
c=Counter()
other=Counter()
for L in R:
    n=L['name']; p=pred[n]; m=L['m']
    fam=n.split('_')[2] if n.split('_')[1] in ('64','2d') else n.split('_')[1]
    grp=('blind' if fam in ('rn','wn') else fam, L['bytes'])
    c[(grp,'n')]+=1
    c[(grp,'model')]+= int(p[6])==m['waves']
    c[(grp,'N')]+= int(p[7])==m['waves']
    c[(grp,'Nabove')]+= int(p[7])>m['waves']
    for k,i in [('req',1),('sect',2),('tags',4),('conf',5)]:
        other[k]+= int(p[i])!=m[k]
for g in sorted({k[0] for k in c}):
    print(g, 'n',c[(g,'n')],'model ok',c[(g,'model')],'N ok',c[(g,'N')],'N above',c[(g,'Nabove')])
print('other counters differing (model):',dict(other))
