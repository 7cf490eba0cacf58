# attack: grow until the kernel says no
_hoard = []
while True:
    _hoard.append(bytearray(64 * 1024 * 1024))
