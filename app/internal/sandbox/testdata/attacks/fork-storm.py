# A fork storm, capped: starts sleepers (each sleeps as long as argv[1] says,
# with argv[2] in its command line for the test to find it) until the kernel
# refuses one, then says how many it started and waits (argv[3] = "wait")
# to be killed, or exits. Capped at 300 processes so that, where no bound
# stops it, it cannot take the machine: it then says "never refused".
import os
import sys
import time

secs, mark, then = sys.argv[1], sys.argv[2], sys.argv[3]
n = 0
try:
    while n < 300:
        pid = os.fork()
        if pid == 0:
            try:
                os.execv("/bin/sleep", ["sleep", secs, mark])
            finally:
                os._exit(1)
        n += 1
except OSError as e:
    print("refused after %d: errno %d" % (n, e.errno), flush=True)
    if then == "wait":
        time.sleep(float(secs))
    sys.exit(0)
print("never refused: %d started" % n, flush=True)
sys.exit(1)
