# Red team 7: a program that borrows another program's identity.
#
# Run only by TestRedLauncherExecsAnotherProgram, with a temporary gate:
#   python3 red7-launcher-exec.py HELPER GATE_DIR OTHER_PROGRAM
#
# This process (X) starts Airlock's own client (HELPER, which connects only
# when it reads a line on its standard input), keeps the write end of that
# pipe in a forked sibling (Y), and then replaces itself with
# OTHER_PROGRAM. Y waits until X runs OTHER_PROGRAM, then cues the client.
# The gate names a client that runs Airlock's own program by the program
# that started it: it reads X's executable, which is now OTHER_PROGRAM,
# though the request came from this script.
import os
import sys
import time

helper, gate_dir, other = sys.argv[1], sys.argv[2], sys.argv[3]

r, w = os.pipe()
if os.fork() == 0:
    os.dup2(r, 0)
    os.close(r)
    os.close(w)
    env = dict(os.environ, IPC_HELPER_CUE_DIR=gate_dir)
    os.execve(helper, [helper, "-test.run=^TestHelperStatusOnCue$"], env)
os.close(r)

me = os.getpid()
before = os.readlink("/proc/%d/exe" % me)
if os.fork() == 0:
    for _ in range(1000):
        if os.readlink("/proc/%d/exe" % me) != before:
            break
        time.sleep(0.005)
    os.write(w, b"go\n")
    os.close(w)
    os._exit(0)
os.close(w)
os.execv(other, [other, "10"])
