# attack: error messages as a weapon against whoever reads the report
_payload = ("\x1b[2J\x1b]0;pwned\x07\r=HYPERLINK(\"http://evil.example\",\"click\") ![x](http://evil.example/x.png) "
            "<img src=x onerror=alert(1)> \u202egnp.exe \udce9\x00 " * 40000)


class _Loud(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


_n = [0]


def _wrap(t):
    _n[0] += 1
    if _n[0] % 2:
        raise ValueError(_payload)
    raise _Loud()
