import mmap, sys
n = int(sys.argv[1]); ms = []
for i in range(n):
    try:
        m = mmap.mmap(-1, 2 << 20, flags=mmap.MAP_PRIVATE | 0x40000); m.write(b"\x01" * (2 << 20)); ms.append(m)
    except OSError as e:
        print("fail", i, e); break
print("huge", len(ms))
