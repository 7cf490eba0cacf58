# attack: exfiltration channels
import socket as _socket
_reached = []
for _addr in [("1.1.1.1", 53), ("8.8.8.8", 443), ("example.com", 80), ("127.0.0.1", 22), ("127.0.0.1", 8888),
              ("127.0.0.1", 6379), ("169.254.169.254", 80)]:
    try:
        _socket.create_connection(_addr, timeout=1).close()
        _reached.append(_addr)
    except OSError:
        pass
try:
    _s = _socket.socket(_socket.AF_UNIX)
    _s.connect("/var/run/docker.sock")
    _reached.append("docker.sock")
except OSError:
    pass
if _reached:
    def linear_attention_parallel(Q, K, V):
        raise RuntimeError(f"CONNECTED to {_reached}")
