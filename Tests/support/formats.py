"""The on-disk formats, written here from FILEFORMAT.md and independent of the Swift code: a test that
reads or writes a store line or a throttle state file does it through these, so a format change is made
in one place (and a test that disagrees with the Swift code shows a real difference).
"""

import ctypes
import os
import re

libcrypt = ctypes.CDLL("libcrypt.so.1", use_errno=True)
libcrypt.crypt_gensalt_rn.argtypes = [
    ctypes.c_char_p,
    ctypes.c_ulong,
    ctypes.c_char_p,
    ctypes.c_int,
    ctypes.c_char_p,
    ctypes.c_int,
]
libcrypt.crypt_gensalt_rn.restype = ctypes.c_char_p
libcrypt.crypt_rn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
libcrypt.crypt_rn.restype = ctypes.c_char_p

# --- the store (FILEFORMAT.md "Store") -----------------------------------------------------------------

# user:uid:hash:setAt, or user:hash:setAt as written before records carried the account's uid.
STORE_LINE = re.compile(
    rb"([^:\x00-\x20\x7f]{1,100}):(?:(?:0|[1-9][0-9]{0,9}):)?(\$y\$[./0-9A-Za-z]+\$[./0-9A-Za-z]+\$[./0-9A-Za-z]+):(0|[1-9][0-9]{0,18})\n"
)


def crypt(phrase, setting):
    """libcrypt's crypt_rn of `phrase` (bytes) with `setting` (a full hash or a salt setting)."""
    data = ctypes.create_string_buffer(1 << 17)  # >= sizeof(struct crypt_data), zeroed
    result = libcrypt.crypt_rn(phrase, setting, data, len(data))
    if not result or result.startswith(b"*"):
        raise OSError(ctypes.get_errno(), "crypt_rn failed")
    return bytes(result)


def yescrypt_hash(secret, cost=1):
    """A yescrypt hash of `secret` (bytes) made by libcrypt."""
    setting = ctypes.create_string_buffer(192)
    if not libcrypt.crypt_gensalt_rn(b"$y$", cost, None, 0, setting, len(setting)):
        raise OSError(ctypes.get_errno(), "crypt_gensalt_rn failed")
    return crypt(secret, setting.value)


def store_line(user, hash_, set_at):
    """One store line (user:hash:setAt, the form without a uid)."""
    return b"%s:%s:%d\n" % (user, hash_, set_at)


def parse_store(data):
    """[(user, hash, set_at)] of a store, or ValueError if any byte is not part of a valid line."""
    records, offset = [], 0
    while offset < len(data):
        match = STORE_LINE.match(data, offset)
        if not match:
            raise ValueError("malformed store at byte %d: %r" % (offset, data[offset : offset + 80]))
        records.append((match.group(1), match.group(2), int(match.group(3))))
        offset = match.end()
    users = [r[0] for r in records]
    if len(users) != len(set(users)):
        raise ValueError("duplicate user")
    return records


# --- throttle state (FILEFORMAT.md "Throttle state") --------------------------------------------------

STATE_RECORD = re.compile(rb"([0-9]{10}) ([0-9]{19})\n")


def state_file(state_dir, user):
    """<state dir>/<lower-case hex of the user name>."""
    return os.path.join(state_dir, user.encode().hex())


def state_record(failures, last_failure):
    """A state record: 10-digit count, space, 19-digit time of the last failure, newline."""
    return b"%010d %019d\n" % (failures, last_failure)


def parse_state(data):
    """(failures, last_failure) of a state file; an empty file is (0, 0); ValueError if torn."""
    if data == b"":
        return (0, 0)
    match = STATE_RECORD.fullmatch(data)
    if not match:
        raise ValueError("torn or malformed state %r" % data)
    return (int(match.group(1)), int(match.group(2)))


def read_state(state_dir, user):
    """The user's state file's bytes, or None when there is none."""
    try:
        with open(state_file(state_dir, user), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def failures(state_dir, user):
    """The user's recorded failure count (0 when there is no state file)."""
    data = read_state(state_dir, user)
    return 0 if data is None else parse_state(data)[0]


def write_state(state_dir, user, failures, last_failure):
    """Writes the user's state file (0600) with one record."""
    fd = os.open(state_file(state_dir, user), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, state_record(failures, last_failure))
    finally:
        os.close(fd)


# --- attempt record (FILEFORMAT.md "Attempt record") ---------------------------------------------------


def attempt_record_file(state_dir, user):
    """<state dir>/<hex of the user name>.attempts, beside the state file."""
    return state_file(state_dir, user) + ".attempts"
