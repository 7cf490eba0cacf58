"""Run argv in a fresh v1 memory+cpuacct cgroup (as the grader does) and print peak bytes and CPU s."""
import os, sys, secrets, subprocess, time
name = "a41-" + secrets.token_hex(3)
mem = f"/sys/fs/cgroup/memory/{name}"; cpu = f"/sys/fs/cgroup/cpuacct/{name}"
os.mkdir(mem); os.mkdir(cpu)
def pre():
    for d in (mem, cpu):
        with open(d + "/cgroup.procs", "w") as f: f.write(str(os.getpid()))
env = dict(os.environ, OMP_NUM_THREADS="1")
t = time.time()
p = subprocess.run(sys.argv[1:], preexec_fn=pre, env=env)
peak = int(open(mem + "/memory.max_usage_in_bytes").read())
kpeak = int(open(mem + "/memory.kmem.max_usage_in_bytes").read())
cs = int(open(cpu + "/cpuacct.usage").read()) / 1e9
print(f"rc={p.returncode} peak={peak/2**20:.1f}MiB kmem_peak={kpeak/2**20:.1f}MiB cpu={cs:.3f}s wall={time.time()-t:.2f}s", file=sys.stderr)
for d in (mem, cpu):
    for _ in range(50):
        try: os.rmdir(d); break
        except OSError: time.sleep(0.05)
