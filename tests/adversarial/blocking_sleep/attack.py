# attack: block without using CPU
import time
time.sleep(10**6)
