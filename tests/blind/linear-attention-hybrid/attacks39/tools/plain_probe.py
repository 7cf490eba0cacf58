import mmap, sys
ms = []
for i in range(int(sys.argv[1])):
    m = mmap.mmap(-1, 2 << 20, flags=mmap.MAP_PRIVATE); m.write(b"\x01" * (2 << 20)); ms.append(m)
print("plain", len(ms))
