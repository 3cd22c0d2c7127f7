def bh_log2(h):
    t=3*max(h,1)
    for k in range(4,-1,-1):
        if (16<<k)<=t: return k
    return 0
def bd_log2(d):
    t=3*max(d,1)
    for k in range(4,-1,-1):
        if (2<<k)<=t: return k
    return 0
def gob_offset(x,y):
    return ((x&63)>>5)<<8 | ((y&7)>>2)<<7 | ((x&31)>>4)<<6 | (y&3)<<4 | (x&15)
def offset(b, dims3, W,H,D, x,y,z):
    bh,bd=(0,bd_log2(D)) if dims3 else (bh_log2(H),0)
    gobs_x=-(-W*b//64); block_rows=-(-H//(8<<bh))
    block=((z>>bd)*block_rows+(y>>(3+bh)))*gobs_x+(x>>6)
    gy=(y>>3)&((1<<bh)-1); gz=z&((1<<bd)-1)
    return block*(512<<(bh+bd))+((gz<<bh)|gy)*512+gob_offset(x,y)
