# /dev/log read as it comes into out["log"] (needs `out`): the module's and the helper's lines. Read as it comes: a
# datagram socket's queue is short (net.unix.max_dgram_qlen), and a full one blocks the sender's syslog(3), so a
# log read only at the end would stall the PAM child after a dozen lines. stop_log() ends the reading and takes
# what is still queued.
log = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
log.bind("/dev/log")
os.chmod("/dev/log", 0o666)
log.settimeout(0.2)
logging = True
def read_log():
    while logging:
        try:
            out["log"].append(log.recv(65536).decode("latin-1"))
        except socket.timeout:
            pass
log_reader = threading.Thread(target=read_log)
log_reader.start()
def stop_log():
    global logging
    logging = False
    log_reader.join()
    log.setblocking(False)
    while True:
        try:
            out["log"].append(log.recv(65536).decode("latin-1"))
        except BlockingIOError:
            break
