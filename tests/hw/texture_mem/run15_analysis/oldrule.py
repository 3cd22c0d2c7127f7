import model
def old(L):
    tot=0
    for q in model.quads(L):
        if L['vol']:
            tags={model.tag(t) for t in q}
            odd=sum(1 for t in tags if t[2]%2); tot+=max(odd,len(tags)-odd)
        else:
            tot+=len({(t[0]//32,t[1]//8) for t in q})
    return tot
