#!/usr/bin/env python3
"""Re-solve each stored probe's csr overlap and L1 gather rate under the set-associative L1 rule.

A probe solves its overlap (csr's B-in-L2 check) and its sustained gather rate with an L1 hit share
for the B rows (memsim.RowGatherReuse). The stored probe-check.yaml files were solved with the fully
associative rule; this recomputes both from the medians each file's note records (the check's
in-core and L2 times, the gather calls' times, in-core times and bytes), as KernelRateProbe solves
them, under the set-associative rule, and writes a copy of each file with `l1Reuse: setAssociative`:

    python3 scripts/resolve-l1-reuse.py OUT_DIR
    for f in OUT_DIR/*.yaml; do ./sparseprof validate --hw $f; done   # each on its own set

docs/calibration.md ("The L1 is set-associative") has what it gave. It reimplements the two hit
shares in Python; RowGatherReuseTest checks the Java ones against memsim.
"""
import glob
import math
import os
import re
import sys

def pb(mean,k):
    t=math.exp(-mean); s=0
    for j in range(k): s+=t; t*=mean/(j+1)
    return min(1,s)
def h_old(space,foot,sweep,p):
    if foot<=space: return 1.0
    D=space/sweep
    return 0.0 if D<1 else 1-(1-p)**D
def h_new(space,foot,sweep,p,line,sets):
    if foot<=space: return 1.0
    ways=int(space/(sets*line)+1e-9); lps=foot/line/sets; h=0; f=p; u=1-p; d=1
    while f>1e-9 and d<=200000:
        h+=f*pb(lps*(1-u),ways); f*=1-p; u*=1-p; d+=1
    return min(1,h)
def transferSeconds(core, measured, overlap):
    atCore = core*(2-overlap)
    if measured >= atCore: t = measured - core*(1-overlap)
    elif overlap < 1: t = (measured-core)/(1-overlap)
    else: t = 0
    return max(t,1e-15)
def parse_bytes(v):
    m=re.match(r'([0-9.]+)\s*(KiB|MiB|GiB|B)',v); n=float(m.group(1)); u=m.group(2)
    return n*{'B':1,'KiB':1024,'MiB':1024**2,'GiB':1024**3}[u]
def resolve(path, out):
    s=open(path).read()
    caches=re.findall(r'- name: (\w+)\n\s+size: ([0-9.]+\w+)\n\s+ways: (\d+)\n\s+line: (\d+)B', s)
    c={n:(parse_bytes(sz),int(w),int(l)) for n,sz,w,l in caches}
    l1=c.get('L1d') or c.get('L1'); l2=c['L2']
    bits=int(re.search(r'simdWidth: (\d+)bits',s).group(1)); lanes=bits//32
    l2core=float(re.search(r'l2PerCore: ([0-9.]+)GB/s',s).group(1))*1e9
    chk=re.search(r'overlap ([0-9.]+): CSR with B in L2 measured ([0-9.]+) ns per entry, in-core ([0-9.]+) \+ L2 ([0-9.]+) ns',s)
    g=re.search(r'l2Gather: one CSR call of (\d+) random-column entries at 8 vectors, B in L2, took ([0-9.]+) us on 1 thread \(in-core ([0-9.]+) us, ([0-9.]+) MB of B rows from L2\) and ([0-9.]+) us on (\d+) threads',s)
    stretch=1.0
    sc=re.search(r'slowestCore: ([0-9.]+)\n',s)
    if sc and float(sc.group(1))>0: stretch=1/min(1,float(sc.group(1)))
    if not chk or not g: print(path,'no raw data'); return False
    sets=int(l1[0]//(l1[2]*l1[1])); line=l1[2]
    n8=8*lanes
    kL2=max(64,int(l2[0]/4/(n8*4)))
    foot=kL2*n8*4; sweep=32*n8*4; p=32/kL2
    ho=h_old(l1[0],foot,sweep,p); hn=h_new(l1[0],foot,sweep,p,line,sets)
    m,core,z=float(chk.group(2)),float(chk.group(3)),float(chk.group(4))
    z2=z*(1-hn)/(1-ho)
    ov=max(0,min(1,(core+z2-m)/min(core,z2)))
    E,T1,C,M,T2,thr=int(g.group(1)),float(g.group(2))*1e-6,float(g.group(3))*1e-6,float(g.group(4))*1e6,float(g.group(5))*1e-6,int(g.group(6))
    rb=n8*4; k=max(288,int(l2[0]/4/rb)); rows=max(128,min(1024,int(l2[0]/4/rb)))
    mr=E/rows
    go=h_old(l1[0],k*rb,mr*rb,mr/k); gn=h_new(l1[0],k*rb,mr*rb,mr/k,line,sets)
    M2=M*(1-gn)/(1-go)
    r1=min(l2core, M2/transferSeconds(C,T1,ov))
    rall=min(l2core*thr, M2/transferSeconds(C/thr*stretch,T2,ov))
    old=(float(chk.group(1)), float(re.search(r'l2GatherPerCore: ([0-9.]+)GB/s',s).group(1)), float(re.search(r'l2GatherAll: ([0-9.]+)GB/s',s).group(1)))
    s2=re.sub(r'(\n    overlap: )[0-9.]+', r'\g<1>%.6f'%ov, s)
    s2=re.sub(r'(l2GatherPerCore: )[0-9.]+GB/s', r'\g<1>%.4fGB/s'%(r1/1e9), s2)
    s2=re.sub(r'(l2GatherAll: )[0-9.]+GB/s', r'\g<1>%.4fGB/s'%(rall/1e9), s2)
    pre=re.search(r'\npreset: (.*)\n',s2)
    if pre and not pre.group(1).startswith('epyc') and not pre.group(1).startswith('xeon'):
        s2=s2.replace(pre.group(0), '\npreset: %s\n'%os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)),pre.group(1))))
    s2=re.sub(r'(\n    gatherThreads: .*)', r'\1\n    l1Reuse: setAssociative', s2, count=1)
    open(out,'w').write(s2)
    print(f"{path}: check h {ho:.3f}->{hn:.3f}, overlap {old[0]}->{ov:.3f}; gather h {go:.3f}->{gn:.3f}, per core {old[1]:.1f}->{r1/1e9:.1f}, all {old[2]:.1f}->{rall/1e9:.1f}")
    return True
def main():
    if len(sys.argv) != 2:
        sys.exit("usage: resolve-l1-reuse.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validation", "measured")
    root = os.path.normpath(root)
    for f in sorted(glob.glob(root + "/*/probe-check.yaml") + glob.glob(root + "/*/*/probe-check.yaml")):
        name = os.path.relpath(os.path.dirname(f), root).replace("/", "__")
        resolve(f, os.path.join(out, name + ".yaml"))


if __name__ == "__main__":
    main()
