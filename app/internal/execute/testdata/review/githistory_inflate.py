import os, sys, zlib

# Reads git's objects by hand, as an agent could without git: finds the
# object store (through a .git file and a commondir, and the stores its
# alternates name) and prints every zlib stream in every file there,
# loose objects and packs alike. Stores named as arguments are read
# instead.

def stores():
    g = ".git"
    if os.path.isfile(g):
        g = open(g).read().split("gitdir:", 1)[1].strip()
    c = os.path.join(g, "commondir")
    if os.path.exists(c):
        g = os.path.join(g, open(c).read().strip())
    o = os.path.join(g, "objects")
    out = [o]
    a = os.path.join(o, "info", "alternates")
    try:
        out += [l.strip() for l in open(a) if l.strip()]
    except OSError as e:
        print("alternates:", e)
    return out

for o in sys.argv[1:] or stores():
    for d, _, names in os.walk(o):
        for n in names:
            try:
                b = open(os.path.join(d, n), "rb").read()
            except OSError as e:
                print("unreadable:", e)
                continue
            i = 0
            while i < len(b):
                z = zlib.decompressobj()
                try:
                    out = z.decompress(b[i:])
                except zlib.error:
                    i += 1
                    continue
                sys.stdout.write(out.decode("latin1"))
                i = len(b) - len(z.unused_data) if z.eof else len(b)
