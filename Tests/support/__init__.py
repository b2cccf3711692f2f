"""What the Python suites under Tests/ share, one concept a module (the Makefile puts Tests/ on PYTHONPATH):

- paths: the repository, the built products, and the policy (missing build fails, missing root skips).
- pam: the real libpam driven with ctypes (constants, Conversation, authenticate, in_child).
- formats: the store line and the throttle state file, written from FILEFORMAT.md.
- sandbox: private trees (store, state, pam.d) and the FixtureCase / SandboxCase test bases.
- cli: patternctl as a user runs it, and golden files.
- system: throwaway users, the shared /run/lock flock, the /etc snapshot, pty sessions, captured syslog.
- clients: real sudo, su and login in private mount namespaces (ClientCase).
- helper: the setuid helper at its real path in a private mount namespace.
- fault: strace fault injection and the one-authentication driver (pam_once.c).
- tpm: a software TPM (swtpm).
- kde, qml, pointer_paths: the KDE lock screen at its greeter, QML JavaScript in Qt's engine, seeded pointer paths.
"""
