"""The `python3` kernel of the test session (see tests/kernel_forks.py): asks the fork server for a kernel.

Started by whoever starts a kernel (nbval, nbclient, jupyter_client, JupyterLab) with the kernelspec's argv
(`python kernel_launcher.py -f CONNECTION_FILE`). It hands the fork server its stdin/stdout/stderr, arguments, cwd,
environment and sys.path, then stays alive as long as the kernel does, so that it can stand in for it:
- a signal sent to it (interrupt = SIGINT, terminate = SIGTERM) is passed on to the kernel's process group;
- when it is killed (SIGKILL), the kernel's process group is killed too (the server's child sees the socket close);
- it exits when the kernel does.
If the server cannot be reached, or runs another Python, it becomes an ordinary kernel (exec of ipykernel_launcher).
Standard library only: it starts in about 20 ms.
"""

import json
import os
import signal
import socket
import sys

FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2")


def ordinary_kernel():
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *sys.argv[1:]])


def main():
    address = os.environ.get("KIT_TEST_KERNEL_SERVER")
    if not address:
        ordinary_kernel()
    # What `python -m ipykernel_launcher` would have as sys.path: the cwd first, instead of this file's folder.
    path = [os.getcwd(), *sys.path[1:]]
    request = {"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ), "path": path,
               "executable": sys.executable, "prefix": sys.prefix}
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(address)
        socket.send_fds(conn, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
        reply = conn.makefile("rb").readline()
    except OSError:
        reply = b""
    if not reply.startswith(b"started"):
        conn.close()
        ordinary_kernel()

    def forward(signum, frame):
        try:
            conn.sendall(b"%d\n" % signum)
        except OSError:
            pass

    for name in FORWARDED:
        signal.signal(getattr(signal, name), forward)
    while True:  # the kernel holds the other end: it closes when the kernel exits
        try:
            if not conn.recv(4096):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    sys.exit(0)


if __name__ == "__main__":
    main()
